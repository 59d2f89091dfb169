"""CREATE TABLE parsing: columns, computed columns, WATERMARK, PRIMARY KEY, options, and errors with
line and column."""

import pytest

from planner.ddl import interval_ms, parse_create_table, watermark_delay_ms
from planner.errors import SqlError
from planner.planner import Planner

TICKER = """CREATE TABLE IF NOT EXISTS Ticker (
  symbol  STRING,
  rowtime TIMESTAMP(3),
  price   BIGINT NOT NULL COMMENT 'in cents',
  tags    ARRAY<MAP<STRING, ROW<a INT, b DECIMAL(10, 2)>>>,
  cost    AS price * 2,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND,
  PRIMARY KEY (symbol, rowtime) NOT ENFORCED
) COMMENT 'stock prices' WITH (
  'connector' = 'filesystem',
  'path' = '/tmp/t.csv',
  'format' = 'csv'
)"""


def test_create_table_parts():
    table, if_not_exists = parse_create_table(TICKER)
    assert if_not_exists
    assert table.name == "Ticker"
    assert [(c.name, c.type) for c in table.columns] == [
        ("symbol", "STRING NOT NULL"), ("rowtime", "TIMESTAMP(3) NOT NULL"), ("price", "BIGINT NOT NULL"),
        ("tags", "ARRAY<MAP<STRING, ROW<`a` INT, `b` DECIMAL(10, 2)>>>"), ("cost", "BIGINT")]
    assert table.columns[2].comment == "in cents"
    assert table.columns[4].computed == "price * 2"
    assert table.watermark.column == "rowtime"
    assert table.watermark.delay_ms == 1000
    assert table.primary_key == ["symbol", "rowtime"]
    assert table.comment == "stock prices"
    assert table.options == {"connector": "filesystem", "path": "/tmp/t.csv", "format": "csv"}


def test_proctime_and_metadata_columns():
    table, _ = parse_create_table(
        "CREATE TABLE t (a INT, pt AS PROCTIME(), ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL) "
        "WITH ('connector' = 'datagen')")
    pt, ts = table.columns[1], table.columns[2]
    assert pt.is_proctime and pt.type == "TIMESTAMP_LTZ(3) NOT NULL"
    assert ts.metadata == "timestamp" and not ts.is_physical


@pytest.mark.parametrize("expr,ms", [
    ("ts", 0), ("ts - INTERVAL '5' SECOND", 5000), ("ts - INTERVAL '1' MINUTE", 60000),
    ("ts - INTERVAL '0.5' SECOND", 500), ("ts - INTERVAL '1:30' HOUR TO MINUTE", 5400000),
    ("ts - INTERVAL '2' HOUR", 7200000), ("ts + INTERVAL '1' SECOND", None)])
def test_watermark_delays(expr, ms):
    assert watermark_delay_ms("ts", expr) == ms


def test_interval_unit_error():
    import sqlglot
    with pytest.raises(SqlError, match="interval unit"):
        interval_ms(sqlglot.parse_one("INTERVAL '1' MONTH"))
    assert interval_ms(sqlglot.parse_one("INTERVAL '1' WEEK")) == 7 * 86400000     # Flink has WEEK


@pytest.mark.parametrize("sql,fragment,line,column", [
    ("CREATE TABLE t (\n  a INT,\n  b INTEGR\n) WITH ('connector' = 'datagen')", "Unknown type 'INTEGR'", 3, 5),
    ("CREATE TABLE t (a INT, a STRING) WITH ('connector' = 'datagen')", "Duplicate column 'a'", 1, 24),
    ("CREATE TABLE t (a INT PRIMARY KEY) WITH ('connector' = 'datagen')", "NOT ENFORCED", 1, 31),
    ("CREATE TABLE t (a INT) WITH ('connector' = 'datagen' 'x' = 'y')", "Expected ',' or ')'", 1, 54),
    ("CREATE TABLE t (a INT) WITH ('connector' = 'datagen', 'connector' = 'x')", "given twice", 1, 55),
    ("CREATE TABLE t (a DECIMAL(0, 0)) WITH ('connector' = 'datagen')", "Decimal precision must be between 1 and 38",
     1, 19),
    ("CREATE TABLE t (a INT,\n  WATERMARK FOR b AS b) WITH ('connector' = 'datagen')", "'b'", None, None),
    ("CREATE TABLE t (a INT, WATERMARK FOR a AS a) WITH ('connector' = 'datagen')", "TIMESTAMP", None, None),
    ("CREATE TABLE t (a INT, PRIMARY KEY (z) NOT ENFORCED) WITH ('connector' = 'datagen')", "'z'", None, None),
    ("CREATE TABLE t (a INT, c AS ) WITH ('connector' = 'datagen')", "needs an expression", 1, 24),
    ("CREATE TABLE t (a INT WITH ('connector' = 'datagen')", "", None, None),
    ("CREATE TABLE t AS SELECT 1", "Expected a CREATE TABLE with its columns, not ... AS", 1, 1),
])
def test_ddl_errors_name_the_problem_and_where(sql, fragment, line, column):
    with pytest.raises(SqlError) as info:
        parse_create_table(sql)
    e = info.value
    assert fragment in e.message
    if line is not None:
        assert (e.line, e.column) == (line, column), e.render()


def test_error_position_is_relative_to_the_script():
    """A statement starting at line 3, column 5 of a script reports positions in the script."""
    p = Planner()
    stmt = p.split("SET 'a.b' = 'c';\n\n    CREATE TABLE t (a INTEGR) WITH ('connector' = 'datagen');")[1]
    with pytest.raises(SqlError) as info:
        p.plan(stmt)
    assert (info.value.line, info.value.column) == (3, 23)
    assert "line 3, column 23" in info.value.render()


@pytest.mark.parametrize("options,fragment", [
    ("'connector' = 'kafka'", "Unsupported connector 'kafka'"),
    ("'connector' = 'filesystem', 'path' = '/x'", "'format'"),
    ("'connector' = 'filesystem', 'path' = '/x', 'format' = 'avro'", "Unsupported format 'avro'"),
    ("'connector' = 'filesystem', 'path' = '/x', 'format' = 'csv', 'bogus' = '1'", "Unsupported options:\n\nbogus\n"),
    ("'connector' = 'filesystem', 'path' = '/x', 'format' = 'csv', 'replay.rows-per-second' = '0'",
     "positive"),
    ("'connector' = 'datagen', 'fields.zz.kind' = 'random'", "names no column"),
    ("'connector' = 'datagen', 'fields.a.kind' = 'walk'", "'random' or 'sequence'"),
    ("'connector' = 'datagen', 'number-of-rows' = '-1'", "'number-of-rows' must be a whole number of rows (0 or more)"),
    ("'connector' = 'datagen', 'number-of-rows' = '1.5'", "whole number of rows (0 or more), not '1.5'"),
    ("'path' = '/x'", "no 'connector'"),
])
def test_connector_options_are_checked(options, fragment):
    with pytest.raises(SqlError) as info:
        Planner().plan("CREATE TABLE t (a INT) WITH (%s)" % options)
    assert fragment in info.value.message


def test_create_drop_and_if_exists():
    p = Planner()
    ddl = "CREATE TABLE t (a INT) WITH ('connector' = 'datagen')"
    p.plan(ddl)
    with pytest.raises(SqlError, match="already exists"):
        p.plan(ddl)
    p.plan(ddl.replace("TABLE t", "TABLE IF NOT EXISTS t"))
    p.plan("CREATE VIEW v AS SELECT a FROM t")
    p.plan("DROP VIEW v")
    p.plan("DROP TABLE t")
    p.plan("DROP TABLE IF EXISTS t")
    with pytest.raises(SqlError, match="t"):
        p.plan("DROP TABLE t")


def test_watermark_on_a_computed_rowtime():
    table, _ = parse_create_table(
        "CREATE TABLE t (ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) "
        "WITH ('connector' = 'datagen')")
    assert table.watermark.column == "ts" and table.watermark.delay_ms == 5000
