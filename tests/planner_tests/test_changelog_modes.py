"""EXPLAIN CHANGELOG_MODE: every node's changelog mode as Flink 2.3 infers it for the dt_* / vt_* queries
(a SELECT's result goes to the SQL client's collect sink, which takes retractions, so updating nodes show
UB). No Spark needed: the planner alone infers modes."""

import re

import pytest

from planner.planner import Planner

CLICKS = ("CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, "
          "WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) "
          "WITH ('connector' = 'filesystem', 'path' = '/tmp/clicks.csv', 'format' = 'csv')")
USERS = "CREATE TABLE users (name STRING, country STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/u.csv', 'format' = 'csv')"
SALES = ("CREATE TABLE sales (category STRING, product STRING, ts TIMESTAMP(3), amount INT) "
         "WITH ('connector' = 'filesystem', 'path' = '/tmp/s.csv', 'format' = 'csv')")
PRODUCTS = ("CREATE TABLE products (product_id STRING, price DECIMAL(32, 2), update_time TIMESTAMP(3), "
            "PRIMARY KEY (product_id) NOT ENFORCED, WATERMARK FOR update_time AS update_time) "
            "WITH ('connector' = 'filesystem', 'path' = '/tmp/p.json', 'format' = 'debezium-json')")


@pytest.fixture
def planner():
    p = Planner()
    for ddl in (CLICKS, USERS, SALES, PRODUCTS):
        p.plan(ddl)
    return p


def modes(planner, query):
    """{operator name: [modes in plan order]} of EXPLAIN CHANGELOG_MODE <query>."""
    plan = planner.plan("EXPLAIN CHANGELOG_MODE " + query)
    assert plan.changelog_mode
    out = []
    for line in plan.query.explain():
        name = re.sub(r"^[\s:+|-]*", "", line).split("(")[0]
        mode = line[line.rindex("changelogMode=[") + len("changelogMode=["):line.rindex("]")]
        out.append((name, mode))
    return out


def by_name(pairs, name):
    return [m for n, m in pairs if n == name]


def test_group_aggregate_over_insert_only_input_updates(planner):
    m = modes(planner, "SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`")
    assert by_name(m, "TableSourceScan") == ["I"]
    assert by_name(m, "GroupAggregate") == ["I,UB,UA"]
    assert m[0] == ("Sink", "I,UB,UA")


def test_aggregate_over_an_aggregate_deletes(planner):
    m = modes(planner, "SELECT cnt, COUNT(*) AS users FROM "
                       "(SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`) GROUP BY cnt")
    assert by_name(m, "GroupAggregate") == ["I,UB,UA,D", "I,UB,UA"]


def test_distinct_is_an_aggregate_without_calls(planner):
    m = modes(planner, "SELECT DISTINCT `user`, url FROM clicks")
    assert by_name(m, "GroupAggregate") == ["I,UB,UA"]


def test_having_keeps_the_aggregate_mode(planner):
    m = modes(planner, "SELECT `user`, COUNT(*) AS cnt FROM clicks GROUP BY `user` HAVING COUNT(*) >= 2")
    assert m[0] == ("Sink", "I,UB,UA")


def test_projection_and_filter_are_insert_only(planner):
    m = modes(planner, "SELECT `user`, url FROM clicks WHERE url LIKE './p%'")
    assert m[0][1] == "I"


def test_inner_join_of_append_only_tables_is_insert_only(planner):
    m = modes(planner, "SELECT c.`user`, u.country FROM clicks AS c JOIN users AS u ON c.`user` = u.name")
    assert m[0][1] == "I"


def test_left_join_over_an_updating_aggregate_retracts(planner):
    m = modes(planner, "SELECT c.`user`, c.cnt, u.country FROM "
                       "(SELECT `user`, COUNT(*) AS cnt FROM clicks GROUP BY `user`) AS c "
                       "LEFT JOIN users AS u ON c.`user` = u.name")
    assert by_name(m, "Join") == ["I,UB,UA,D"]
    assert by_name(m, "GroupAggregate") == ["I,UB,UA"]


def test_top_n_updates_and_deletes(planner):
    m = modes(planner, "SELECT category, product, amount, rn FROM (SELECT *, ROW_NUMBER() OVER "
                       "(PARTITION BY category ORDER BY amount DESC) AS rn FROM sales) WHERE rn <= 2")
    assert by_name(m, "Rank") == ["I,UB,UA,D"]


def test_deduplication_on_rowtime_keeps_last_row_with_updates(planner):
    # Flink 2.3 plans it as a Rank (rankEnd=1, ROWTIME DESC) providing all changes: [I,UB,UA,D] to a sink
    # that takes retractions
    m = modes(planner, "SELECT `user`, cTime, url FROM (SELECT *, ROW_NUMBER() OVER "
                       "(PARTITION BY `user` ORDER BY cTime DESC) AS rn FROM clicks) WHERE rn = 1")
    assert by_name(m, "Deduplicate") == ["I,UB,UA,D"]


def test_rank_over_an_updating_aggregate(planner):
    m = modes(planner, "SELECT `user`, RANK() OVER (ORDER BY lastAction) FROM "
                       "(SELECT `user`, MAX(cTime) AS lastAction FROM clicks GROUP BY `user`)")
    assert by_name(m, "Rank") == ["I,UB,UA,D"]


def test_changelog_source_is_a_retract_stream(planner):
    m = modes(planner, "SELECT * FROM products")
    assert by_name(m, "TableSourceScan") == ["I,UB,UA,D"]
    assert m[0] == ("Sink", "I,UB,UA,D")


def test_group_window_is_insert_only(planner):
    m = modes(planner, "SELECT `user`, TUMBLE_END(cTime, INTERVAL '1' HOUR) AS endT, COUNT(url) AS cnt "
                       "FROM clicks GROUP BY `user`, TUMBLE(cTime, INTERVAL '1' HOUR)")
    assert m[0][1] == "I"
