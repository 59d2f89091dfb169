"""A streaming query over one small bounded file, read in one pass (runtime/one_pass.py): the same rows as on
micro-batches, late rows dropped as streaming drops them; what stays on micro-batches; EXPLAIN saying which;
the setting; a stopped query; an error inside the batch job."""

import contextlib
import datetime as dt
import os
import random
import time

import pytest

from planner.errors import DynsqlError
from test_window_tvfs import EVENTS as window_tvf_events
from test_window_tvfs import text

# arrival order; watermark = max(ts) - 1 s: test_window_tvfs's events and one more late row
EVENTS = window_tvf_events + "user1,2024-01-01 10:00:05,4\n"
# the 6th row (10:00:02) arrives at watermark 10:00:06: its 5-second window has fired, and for
# MATCH_RECOGNIZE it is late (rowtime <= watermark); the 8th (10:00:05) arrives at 10:00:11: late too

TICKS = """\
ACME,2024-01-01 10:00:01,12
ACME,2024-01-01 10:00:02,11
ACME,2024-01-01 10:00:03,10
ACME,2024-01-01 10:00:04,13
BETA,2024-01-01 10:00:05,20
ACME,2024-01-01 10:00:02,1
BETA,2024-01-01 10:00:06,19
BETA,2024-01-01 10:00:07,25
ACME,2024-01-01 10:00:08,9
ACME,2024-01-01 10:00:09,14
"""
# the 6th row (ACME 10:00:02, price 1) is late: with it, ACME would match 11 -> 1 -> 10 differently

TUMBLE = """
    SELECT window_start, window_end, `user`, COUNT(*) AS cnt, SUM(amount) AS total
    FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))
    GROUP BY window_start, window_end, `user`"""

V_SHAPE = """
    SELECT * FROM ticks MATCH_RECOGNIZE (
      PARTITION BY symbol ORDER BY ts
      MEASURES FIRST(DOWN.ts) AS first_down, LAST(UP.ts) AS up_ts, LAST(DOWN.price) AS bottom
      ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
      PATTERN (START_ROW DOWN+ UP)
      DEFINE DOWN AS (LAST(DOWN.price, 1) IS NULL AND DOWN.price < START_ROW.price)
                  OR DOWN.price < LAST(DOWN.price, 1),
             UP AS UP.price > LAST(DOWN.price)) MR"""


ORDERS = """\
o1,EUR,10,2024-01-01 09:59:59
o2,EUR,10,2024-01-01 10:00:04
o3,EUR,10,2024-01-01 10:00:05
o4,USD,10,2024-01-01 10:00:09
o5,USD,10,2024-01-01 10:00:10
o6,null,10,2024-01-01 10:00:06
o7,EUR,10,null
o8,USD,10,2024-01-01 10:00:02
"""
RATES = """\
EUR,1.10,2024-01-01 10:00:00
USD,1.00,2024-01-01 10:00:00
EUR,1.20,2024-01-01 10:00:05
EUR,9.99,2024-01-01 10:00:03
EUR,1.30,2024-01-01 10:00:05
null,5.00,2024-01-01 10:00:00
USD,2.00,null
USD,1.50,2024-01-01 10:00:10
"""
# EUR 9.99 is older than EUR's newest rate when it arrives: no version; EUR 1.30 replaces 1.20 (same time); the
# NULL currency's rate is o6's (Flink 2.3 keys a NULL as a value: checked on Flink without the rows of no time); USD 2.00 has no time, nor has o7 (dropped); o8 arrives behind the
# watermark: both files are read whole by the first micro-batch, so it meets every version there too

AS_OF = """
    SELECT o.id, r.rate, r.ts FROM orders AS o
    %s JOIN rates_now FOR SYSTEM_TIME AS OF o.ts AS r ON o.currency = r.currency%s"""


def create_csv_tables(client, folder, tables, watermark, options=""):
    """CREATE TABLE name (columns, WATERMARK FOR ts AS `watermark`) over a CSV file of `body`, for each
    (name, body, columns) of `tables`."""
    for name, body, cols in tables:
        path = folder / (name + ".csv")
        path.write_text(body)
        client.execute("CREATE TABLE %s (%s, WATERMARK FOR ts AS %s) WITH ('connector' = 'filesystem', "
                       "'path' = '%s', 'format' = 'csv'%s)" % (name, cols, watermark, path, options))
    return client


@pytest.fixture
def orders_and_rates(tmp_path):
    def create(client):
        create_csv_tables(client, tmp_path, (
            ("orders", ORDERS, "id STRING, currency STRING, amount INT, ts TIMESTAMP(3)"),
            ("rates", RATES, "currency STRING, rate DOUBLE, ts TIMESTAMP(3)")), "ts", ", 'csv.null-literal' = 'null'")
        client.execute("CREATE VIEW rates_now AS SELECT currency, rate, ts FROM (SELECT *, ROW_NUMBER() OVER ("
                       "PARTITION BY currency ORDER BY ts DESC) AS rn FROM rates) WHERE rn = 1")
        return client
    return create


@pytest.fixture
def tables(tmp_path):
    return lambda client: create_csv_tables(client, tmp_path, (
        ("events", EVENTS, "`user` STRING, ts TIMESTAMP(3), amount INT"),
        ("ticks", TICKS, "symbol STRING, ts TIMESTAMP(3), price INT")), "ts - INTERVAL '1' SECOND")


def changes(client, sql):
    """The query's changes in arrival order, times as HH:MM:SS."""
    return [(op, tuple(text(v) for v in row)) for batch in client.execute(sql) for op, row in batch.changes]


def explained(client, sql):
    return client.execute("EXPLAIN " + sql).text


def test_tumble_in_one_pass_drops_the_late_rows_as_micro_batches_do(one_pass_client, client, tables):
    expected = sorted([
        ("+I", ("10:00:00", "10:00:05", "user1", 2, 4)),
        ("+I", ("10:00:00", "10:00:05", "user2", 1, 5)),
        ("+I", ("10:00:05", "10:00:10", "user3", 1, 7)),
        ("+I", ("10:00:05", "10:00:10", "user1", 1, 2)),      # not the late 10:00:05 row
        ("+I", ("10:00:10", "10:00:15", "user2", 1, 6)),
    ])
    assert "one pass" in explained(tables(one_pass_client), TUMBLE)
    assert sorted(changes(one_pass_client, TUMBLE)) == expected
    stream = one_pass_client.execute(TUMBLE)
    assert sum(len(b.changes) for b in stream) == 5
    assert (stream.stats.rows, stream.stats.per_op) == (5, {"+I": 5, "-U": 0, "+U": 0, "-D": 0})   # the status line
    assert "one pass" not in explained(tables(client), TUMBLE)
    assert sorted(changes(client, TUMBLE)) == expected


# two files, each read against its own running maximum (the first micro-batch reads both whole, in parallel):
# a.csv's 10:00:02 arrives at watermark 10:00:08 (late); b.csv's 10:00:03 arrives at watermark NULL (on time,
# though a.csv's maximum alone would make it late), its 10:00:04 at 10:00:11 (late)
PART_A = "user1,2024-01-01 10:00:01,1\nuser1,2024-01-01 10:00:09,2\nuser1,2024-01-01 10:00:02,4\n"
PART_B = "user2,2024-01-01 10:00:03,8\nuser2,2024-01-01 10:00:12,16\nuser2,2024-01-01 10:00:04,32\n"


def test_tumble_over_a_directory_in_one_pass_reads_each_file_against_its_own_maximum(one_pass_client, client,
                                                                                      tmp_path):
    folder = tmp_path / "parts"
    folder.mkdir()
    (folder / "a.csv").write_text(PART_A)
    (folder / "b.csv").write_text(PART_B)
    expected = sorted([
        ("+I", ("10:00:00", "10:00:05", "user1", 1, 1)),
        ("+I", ("10:00:00", "10:00:05", "user2", 1, 8)),
        ("+I", ("10:00:05", "10:00:10", "user1", 1, 2)),
        ("+I", ("10:00:10", "10:00:15", "user2", 1, 16)),
    ])
    for c in (one_pass_client, client):
        c.execute("CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - "
                  "INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % folder)
    plan = explained(one_pass_client, TUMBLE)
    assert "one pass (170 B in 2 files" in plan and "read top to bottom (filesystem: 2 files" in plan
    assert "each file aggregated with Arrow in a task, the files' groups merged in the driver" in plan
    assert sorted(changes(one_pass_client, TUMBLE)) == expected
    assert "one pass" not in explained(client, TUMBLE)
    assert sorted(changes(client, TUMBLE)) == expected
    # a third file, on time against its own maximum, adds to user1's window of a.csv: the driver merges the two
    # files' groups of that window (a.csv and c.csv fall to the same task, each still its own piece)
    (folder / "c.csv").write_text("user1,2024-01-01 10:00:06,100\nuser1,2024-01-01 10:00:20,1\n"
                                  "user1,2024-01-01 10:00:07,5\n")
    expected = sorted([e for e in expected if e[1][:3] != ("10:00:05", "10:00:10", "user1")] + [
        ("+I", ("10:00:05", "10:00:10", "user1", 2, 102)),      # not c.csv's late 10:00:07
        ("+I", ("10:00:20", "10:00:25", "user1", 1, 1))])
    assert sorted(changes(one_pass_client, TUMBLE)) == expected
    assert sorted(changes(client, TUMBLE)) == expected
    # Spark's window aggregate (a FILTER, which Arrow does not compute in the tasks): the same rows
    filtered = TUMBLE.replace("COUNT(*) AS cnt", "COUNT(*) FILTER (WHERE amount > 0) AS cnt")
    assert "WindowAggregate: Spark's window aggregate" in explained(one_pass_client, filtered)
    assert sorted(changes(one_pass_client, filtered)) == expected


def test_match_recognize_in_one_pass_drops_the_late_rows_as_micro_batches_do(one_pass_client, client, tables):
    expected = sorted([
        ("+I", ("ACME", "10:00:02", "10:00:04", 10)),
        ("+I", ("BETA", "10:00:06", "10:00:07", 19)),
    ])
    assert "one pass" in explained(tables(one_pass_client), V_SHAPE)
    assert sorted(changes(one_pass_client, V_SHAPE)) == expected
    assert sorted(changes(tables(client), V_SHAPE)) == expected


def test_match_recognize_over_a_directory_in_one_pass_reads_each_file_against_its_own_maximum(
        one_pass_client, client, tmp_path):
    folder = tmp_path / "ticks"
    folder.mkdir()
    (folder / "a.csv").write_text(TICKS.split("BETA")[0])       # ACME 12, 11, 10, 13 up to 10:00:04
    # BETA's rows are on time by b.csv's own maximum (a.csv's would make the first two late); ACME 10:00:01 is
    # late in b.csv (watermark 10:00:02) and would match otherwise
    (folder / "b.csv").write_text("BETA,2024-01-01 10:00:01,20\nBETA,2024-01-01 10:00:02,19\n"
                                  "BETA,2024-01-01 10:00:03,25\nACME,2024-01-01 10:00:01,1\n")
    expected = sorted([("+I", ("ACME", "10:00:02", "10:00:04", 10)), ("+I", ("BETA", "10:00:02", "10:00:03", 19))])
    for c in (one_pass_client, client):
        c.execute("CREATE TABLE ticks (symbol STRING, ts TIMESTAMP(3), price INT, WATERMARK FOR ts AS ts - INTERVAL "
                  "'1' SECOND) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % folder)
    assert "read top to bottom (filesystem: 2 files" in explained(one_pass_client, V_SHAPE)
    assert sorted(changes(one_pass_client, V_SHAPE)) == expected
    assert "one pass" not in explained(client, V_SHAPE)
    assert sorted(changes(client, V_SHAPE)) == expected


def test_match_recognize_over_a_file_read_in_pieces_drops_the_rows_late_by_the_earlier_pieces(one_pass_client,
                                                                                                 tables):
    c = tables(one_pass_client)
    c.execute("SET 'dynsql.one-pass.max-input-size' = '100 b'")
    c.execute("SET 'dynsql.one-pass.piece-size' = '20 b'")     # a row a piece: the late row's piece has no other
    plan = explained(c, V_SHAPE)
    assert "one pass (278 B in 1 file > dynsql.one-pass.max-input-size 100 B: 14 pieces" in plan
    assert "dynsql's batch matcher, each row's lateness by the earlier pieces too" in plan
    assert sorted(changes(c, V_SHAPE)) == sorted([
        ("+I", ("ACME", "10:00:02", "10:00:04", 10)),
        ("+I", ("BETA", "10:00:06", "10:00:07", 19)),
    ])


def test_a_window_over_matches_composes_in_one_pass(one_pass_client, tables):
    c = tables(one_pass_client)
    c.execute("CREATE VIEW shapes AS " + V_SHAPE.replace("LAST(DOWN.price) AS bottom", "MATCH_ROWTIME() AS mt"))
    sql = """
        SELECT window_start, COUNT(*) AS shapes
        FROM TABLE(TUMBLE(TABLE shapes, DESCRIPTOR(mt), INTERVAL '5' SECOND))
        GROUP BY window_start, window_end"""
    assert "one pass" in explained(c, sql)
    assert sorted(changes(c, sql)) == [("+I", ("10:00:00", 1)), ("+I", ("10:00:05", 1))]


@pytest.mark.slow       # the heaviest of this file (10-15 s each on CI): `make test-slow`
def test_a_temporal_join_in_one_pass_joins_as_of_each_row_as_micro_batches_do(one_pass_client, client,
                                                                             orders_and_rates):
    inner = [("o2", 1.10, "10:00:00"), ("o3", 1.30, "10:00:05"), ("o4", 1.00, "10:00:00"),
             ("o5", 1.50, "10:00:10"), ("o6", 5.00, "10:00:00"), ("o8", 1.00, "10:00:00")]
    left_over_1_05 = [("o1", None, None), ("o2", 1.10, "10:00:00"), ("o3", 1.30, "10:00:05"), ("o4", None, None),
                      ("o5", 1.50, "10:00:10"), ("o6", 5.00, "10:00:00"), ("o8", None, None)]
    inner_sql, left_sql = AS_OF % ("", ""), AS_OF % ("LEFT", " AND r.rate > 1.05")
    sc = one_pass_client.engine.spark.sparkContext
    sc.setJobGroup("dynsql-explain-probe", "EXPLAIN runs no Spark job")
    try:            # the lookup's versions are collected when the query runs, not while it is planned
        shown = explained(orders_and_rates(one_pass_client), inner_sql)
    finally:
        sc.setLocalProperty("spark.jobGroup.id", None)
    assert "one pass" in shown and "TemporalJoin: in-memory as-of lookup" in shown
    assert list(sc.statusTracker().getJobIdsForGroup("dynsql-explain-probe")) == []
    for c, plan in ((one_pass_client, "lookup"), (one_pass_client, "window"), (orders_and_rates(client), None)):
        with as_of_plan(c, plan):
            assert sorted(changes(c, inner_sql)) == [("+I", row) for row in inner]
            assert sorted(changes(c, left_sql)) == [("+I", row) for row in left_over_1_05]


def test_a_temporal_join_over_a_directory_of_orders_looks_up_each_file_in_the_tasks(one_pass_client, client,
                                                                                   orders_and_rates, tmp_path):
    """The orders in three files: the lookup's tasks share the files out (each file whole, by its place in the
    directory, as every task counts them alike), and the rows are those of micro-batches."""
    folder = tmp_path / "orders"
    folder.mkdir()
    lines = ORDERS.splitlines(keepends=True)
    for i in range(3):
        (folder / ("part-%d.csv" % i)).write_text("".join(lines[i::3]))
    inner_sql, left_sql = AS_OF % ("", ""), AS_OF % ("LEFT", " AND r.rate > 1.05")
    for c in (one_pass_client, client):
        orders_and_rates(c)
        c.execute("DROP TABLE orders")
        c.execute("CREATE TABLE orders (id STRING, currency STRING, amount INT, ts TIMESTAMP(3), WATERMARK FOR ts "
                  "AS ts) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', "
                  "'csv.null-literal' = 'null')" % folder)
    shown = explained(one_pass_client, inner_sql)
    assert "one pass" in shown and "probe rows: 3 files, " in shown and "FileProbeLookup" in shown
    client.execute("SET 'dynsql.one-pass.enabled' = 'false'")
    for sql in (inner_sql, left_sql):
        expected = sorted(changes(client, sql))
        assert expected and sorted(changes(one_pass_client, sql)) == expected


@contextlib.contextmanager
def as_of_plan(client, plan, sql=AS_OF % ("", "")):
    """One pass joins as of each row by a lookup of versions that fit under Spark's broadcast limit, else by a
    window over both sides (runtime/operators/as_of_lookup.py, as_of_join.py): `plan` says which (None: as is),
    and EXPLAIN shows it. The lookup reads the probe rows of one small file in its own tasks; "scan lookup":
    from Spark's scan (`dynsql.whole-file.max-size` = 0)."""
    if plan == "window":
        client.execute("SET 'spark.sql.autoBroadcastJoinThreshold' = '-1'")
    if plan == "scan lookup":
        client.execute("SET 'dynsql.whole-file.max-size' = '0'")
    try:
        if plan is not None:
            shown = explained(client, sql)
            assert ("MapInArrow" in shown) == ("lookup" in plan) and ("Window" in shown) == (plan == "window")
            assert ("FileProbeLookup" in shown) == (plan == "lookup") == \
                ("probe rows: file" in shown)
        yield
    finally:
        client.execute("RESET 'spark.sql.autoBroadcastJoinThreshold'")
        client.execute("RESET 'dynsql.whole-file.max-size'")


@pytest.mark.slow       # 21 s here: `make test-slow` (make test within 25 min on a slow CI machine)
def test_a_temporal_join_on_two_key_columns_finds_the_same_versions_by_lookup_and_by_window(
        one_pass_client, client, tmp_path, monkeypatch):
    """Random orders and rates on a (currency, region) key, with NULL keys and times, versions arriving late and
    two of one time: the lookup (its tasks reading the orders file in two pieces, or Spark's scan), the window plan
    and micro-batches give the same rows."""
    from runtime.connectors import splits
    monkeypatch.setattr(splits, "PIECE_BYTES", 2000)
    rng = random.Random(7)
    base = dt.datetime(2024, 1, 1, 10)

    def line(*values):
        when = "null" if rng.random() < 0.05 else (base + dt.timedelta(seconds=rng.randint(0, 60))).isoformat(" ")
        return ",".join([str(v) for v in values] + [when]) + "\n"
    currencies = ["EUR", "USD", "GBP", "null"]
    rates = "".join(line(rng.choice(currencies), rng.choice([1, 2, "null"]), i) for i in range(120))
    orders = "".join(line("o%d" % i, rng.choice(currencies), rng.choice([1, 2, 3, "null"])) for i in range(300))
    sql = """SELECT o.id, r.rate, r.ts FROM orders AS o
             %s JOIN rates_now FOR SYSTEM_TIME AS OF o.ts AS r ON o.currency = r.currency AND o.region = r.region"""
    for c in (one_pass_client, client):
        create_csv_tables(c, tmp_path, (
            ("orders", orders, "id STRING, currency STRING, region INT, ts TIMESTAMP(3)"),
            ("rates", rates, "currency STRING, region INT, rate INT, ts TIMESTAMP(3)")), "ts",
            ", 'csv.null-literal' = 'null'")
        c.execute("CREATE VIEW rates_now AS SELECT currency, region, rate, ts FROM (SELECT *, ROW_NUMBER() OVER ("
                  "PARTITION BY currency, region ORDER BY ts DESC) AS rn FROM rates) WHERE rn = 1")
    got = {}
    assert os.path.getsize(tmp_path / "orders.csv") > 2 * 2000
    for c, plan in ((one_pass_client, "lookup"), (one_pass_client, "scan lookup"), (one_pass_client, "window"),
                    (client, None)):
        with as_of_plan(c, plan, sql % ""):
            got[plan] = [sorted(changes(c, sql % kind)) for kind in ("", "LEFT")]
    inner, left = got["lookup"]
    assert len(inner) > 50 and len(left) > len(inner)
    assert got["window"] == got[None] == got["lookup"] == got["scan lookup"]


@pytest.mark.slow       # the heaviest of this file (10-15 s each on CI): `make test-slow`
def test_a_temporal_join_on_decimal_and_date_keys_and_over_no_versions(one_pass_client, client, tmp_path):
    orders = "o1,1.50,2024-01-01,2024-01-01 10:00:05\no2,2.50,2024-01-02,2024-01-01 10:00:06\n" \
             "o3,1.50,2024-01-01,2024-01-01 09:00:00\n"
    rates = "1.50,2024-01-01,7,2024-01-01 10:00:00\n2.50,2024-01-02,8,2024-01-01 10:00:06\n"
    sql = "SELECT o.id, r.v FROM orders AS o %s JOIN %s FOR SYSTEM_TIME AS OF o.ts AS r ON o.k = r.k AND o.dt = r.dt"
    for c in (one_pass_client, client):
        create_csv_tables(c, tmp_path, (("orders", orders, "id STRING, k DECIMAL(5, 2), dt DATE, ts TIMESTAMP(3)"),
                                        ("rates", rates, "k DECIMAL(5, 2), dt DATE, v INT, ts TIMESTAMP(3)"),
                                        ("no_rates", "", "k DECIMAL(5, 2), dt DATE, v INT, ts TIMESTAMP(3)")), "ts")
        for name in ("rates", "no_rates"):
            c.execute("CREATE VIEW %s_now AS SELECT k, dt, v, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY "
                      "k, dt ORDER BY ts DESC) AS rn FROM %s) WHERE rn = 1" % (name, name))
    for c, plan in ((one_pass_client, "lookup"), (one_pass_client, "window"), (client, None)):
        with as_of_plan(c, plan, sql % ("", "rates_now")):
            assert sorted(changes(c, sql % ("", "rates_now"))) == [("+I", ("o1", 7)), ("+I", ("o2", 8))]
            assert sorted(changes(c, sql % ("LEFT", "rates_now"))) == [("+I", ("o1", 7)), ("+I", ("o2", 8)),
                                                                       ("+I", ("o3", None))]
            assert changes(c, sql % ("", "no_rates_now")) == []
            assert sorted(changes(c, sql % ("LEFT", "no_rates_now"))) == [("+I", (o, None)) for o in ("o1", "o2", "o3")]


def test_a_temporal_join_stays_on_micro_batches_where_they_would_split_its_input(one_pass_client,
                                                                               orders_and_rates, tmp_path):
    c = orders_and_rates(one_pass_client)
    c.execute("CREATE TABLE orders_in_parts (id STRING, currency STRING, amount INT, ts TIMESTAMP(3), WATERMARK "
              "FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', "
              "'csv.null-literal' = 'null', 'scan.rows-per-batch' = '3')" % (tmp_path / "orders.csv"))
    assert "one pass" not in explained(c, (AS_OF % ("", "")).replace("orders AS o", "orders_in_parts AS o"))
    c.execute("CREATE VIEW converted AS " + (AS_OF % ("", "")).replace("o.id,", "o.id, o.ts AS ots,"))
    assert "one pass" in explained(c, "SELECT id FROM converted WHERE rate > 1")
    assert "one pass" not in explained(c, """
        SELECT window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE converted, DESCRIPTOR(ots), INTERVAL '5' SECOND))
        GROUP BY window_start, window_end""")


@pytest.mark.slow       # 12 s here: `make test-slow` (make test within 25 min on a slow CI machine)
def test_a_temporal_join_over_a_probe_file_read_in_pieces_gives_the_rows_of_micro_batches(
        one_pass_client, client, tmp_path):
    """A probe file past the one pass's limit is cut in pieces read in parallel, the versions read whole: every
    version arrives before the watermark moves, as on micro-batches that read the file whole in their first one,
    so each probe row meets the version valid at its time among all the versions, whichever piece it is in (the
    earlier pieces' watermark plays no part: no probe row is late). Orders out of order, several currencies, NULL
    keys and times, versions of one time and late versions: the lookup (its tasks reading a piece each), the window
    plan over Spark's scan of the pieces, and micro-batches give the same rows."""
    rng = random.Random(11)
    base = dt.datetime(2024, 1, 1, 10)

    def when():
        return "null" if rng.random() < 0.05 else (base + dt.timedelta(seconds=rng.randint(0, 90))).isoformat(" ")
    currencies = ["EUR", "USD", "GBP", "JPY", "null"]
    rates = "".join("%s,%s,%s\n" % (rng.choice(currencies), rng.choice(["1.5", "2.0", "0.5"]), when())
                    for _ in range(40))
    orders = "".join("o%d,%s,%d,%s\n" % (i, rng.choice(currencies), rng.randint(1, 9), when()) for i in range(200))
    sql = """SELECT o.id, o.amount * r.rate AS converted FROM orders AS o
             %s JOIN rates_now FOR SYSTEM_TIME AS OF o.ts AS r ON o.currency = r.currency%s"""
    left_sql = (sql % ("LEFT", " AND r.rate > 1")).replace("o.amount * r.rate AS converted", "r.rate, r.ts")
    for c in (one_pass_client, client):
        create_csv_tables(c, tmp_path, (("orders", orders, "id STRING, currency STRING, amount INT, ts TIMESTAMP(3)"),
                                        ("rates", rates, "currency STRING, rate DOUBLE, ts TIMESTAMP(3)")),
                          "ts", ", 'csv.null-literal' = 'null'")
        c.execute("CREATE VIEW rates_now AS SELECT currency, rate, ts FROM (SELECT *, ROW_NUMBER() OVER ("
                  "PARTITION BY currency ORDER BY ts DESC) AS rn FROM rates) WHERE rn = 1")
    c = one_pass_client
    # (the LEFT JOIN's rows on micro-batches are those of the one pass over the whole file: the tests above)
    assert "probe rows: file" in explained(c, left_sql)
    expected = [sorted(changes(client, sql % ("", ""))), sorted(changes(c, left_sql))]
    assert len(expected[0]) > 50 and any(row[1][1] is None for row in expected[1])
    c.execute("SET 'dynsql.one-pass.max-input-size' = '1 kb'")
    c.execute("SET 'dynsql.one-pass.piece-size' = '1 kb'")
    plan = explained(c, sql % ("", ""))
    assert "one pass (probe rows of orders: 5.9 KB in 1 file, 7.0 KB in all > dynsql.one-pass.max-input-size " \
           "1.0 KB: 6 pieces of 1008 B read in parallel" in plan
    assert "TemporalJoin: in-memory as-of lookup" in plan and "probe rows: 6 pieces of the file" in plan
    # only the fields read above the join cross from the lookup into the JVM
    assert "FileProbeLookup(id#" in plan and "[id#" in plan.split("FileProbeLookup")[1].split("__op")[0]
    assert "currency" not in plan.split("MapInArrow")[1].split("__op")[0]
    assert [sorted(changes(c, sql % ("", ""))), sorted(changes(c, left_sql))] == expected
    c.execute("SET 'spark.sql.autoBroadcastJoinThreshold' = '-1'")
    try:
        assert "TemporalJoin: as-of join on Spark's window functions" in explained(c, sql % ("", ""))
        assert sorted(changes(c, sql % ("", ""))) == expected[0]
    finally:
        c.execute("RESET 'spark.sql.autoBroadcastJoinThreshold'")


def test_a_grouped_aggregate_in_one_pass_shows_each_group_once_as_micro_batches_do(one_pass_client, tables):
    """And says that it shows final rows only (the result's status line, EXPLAIN), where Flink's client shows the
    -U/+U as rows flow; `dynsql.one-pass.enabled` = false runs it on micro-batches."""
    sql = """SELECT `user`, COUNT(*) AS n, SUM(amount) AS total, MAX(ts) AS last_ts FROM events GROUP BY `user`
             HAVING COUNT(*) > 1"""
    c = tables(one_pass_client)
    said = "one pass: final rows only, no -U/+U (SET 'dynsql.one-pass.enabled' = 'false' to see them)"
    assert said in explained(c, sql)
    expected = [("+I", ("user1", 4, 10, "10:00:07")), ("+I", ("user2", 3, 111, "10:00:12"))]
    stream = c.execute(sql)
    assert stream.note == said
    assert sorted((op, tuple(text(v) for v in row)) for batch in stream for op, row in batch.changes) == expected
    from repl.toolbar import stream_counters
    assert said in stream_counters(stream)          # the result view's status line
    c.execute("SET 'dynsql.one-pass.enabled' = 'false'")
    assert "one pass" not in explained(c, sql) and "micro-batches (dynsql.one-pass.enabled = false)" in \
        explained(c, sql)
    stream = c.execute(sql)
    assert stream.note is None
    assert sorted((op, tuple(text(v) for v in row)) for batch in stream for op, row in batch.changes) == expected


def test_updating_results_and_processing_time_stay_on_micro_batches(one_pass_client, tables, tmp_path):
    c = tables(one_pass_client)
    assert "one pass" not in explained(c, "SELECT COUNT(*) FROM events")      # a global aggregate
    assert "one pass" not in explained(c, "SELECT `user`, LISTAGG(CAST(amount AS STRING)) FROM events GROUP BY `user`")
    assert "one pass" not in explained(c, "SELECT n, COUNT(*) FROM (SELECT `user`, COUNT(*) AS n FROM events "
                                          "GROUP BY `user`) GROUP BY n")
    c.execute("CREATE TABLE events_in_parts (`user` STRING, ts TIMESTAMP(3), amount INT) WITH ('connector' = "
              "'filesystem', 'path' = '%s', 'format' = 'csv', 'scan.rows-per-batch' = '3')" % (tmp_path / "events.csv"))
    assert "one pass" not in explained(c, "SELECT `user`, COUNT(*) FROM events_in_parts GROUP BY `user`")
    assert "one pass" in explained(c, "SELECT `user`, amount * 2 AS twice FROM events WHERE amount > 2")
    c.execute("CREATE TABLE clicked (`user` STRING, ts TIMESTAMP(3), amount INT, pt AS PROCTIME()) WITH ("
              "'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % (tmp_path / "events.csv"))
    assert "one pass" not in explained(c, "SELECT `user` FROM clicked")
    c.execute("CREATE TABLE paced (`user` STRING, ts TIMESTAMP(3), amount INT) WITH ('connector' = 'filesystem', "
              "'path' = '%s', 'format' = 'csv', 'replay.rows-per-second' = '100')" % (tmp_path / "events.csv"))
    assert "one pass" not in explained(c, "SELECT `user` FROM paced")
    # a directory whose files micro-batches read in runs (a directory they take whole in one: one pass)
    c.execute("CREATE TABLE folder (`user` STRING, ts TIMESTAMP(3), amount INT) WITH ('connector' = 'filesystem', "
              "'path' = '%s', 'format' = 'csv', 'scan.rows-per-batch' = '3')" % tmp_path)
    assert "one pass" not in explained(c, "SELECT `user` FROM folder")
    c.execute("CREATE TABLE whole_folder (`user` STRING, ts TIMESTAMP(3), amount INT) WITH ('connector' = "
              "'filesystem', 'path' = '%s', 'format' = 'csv')" % tmp_path)
    assert "one pass" in explained(c, "SELECT `user` FROM whole_folder")


def test_a_result_brings_its_fields_to_the_driver_under_repeated_names_too(one_pass_client, tables):
    """The driver gets only a result's fields (the hidden __seq and __wm stay in Spark), by name; a name the
    result repeats brings every column."""
    c = tables(one_pass_client)
    sql = "SELECT `user`, amount, `user` FROM events WHERE amount > 5"
    expected = [("user3", 7, "user3"), ("user2", 100, "user2"), ("user2", 6, "user2")]
    assert "one pass" in explained(c, sql)
    assert sorted(changes(c, sql)) == sorted(("+I", row) for row in expected)
    c.execute("SET 'execution.runtime-mode' = 'batch'")
    assert sorted(c.execute(sql).rows) == sorted(expected)
    assert sorted(c.execute("SELECT amount, `user` FROM events WHERE amount > 5").rows) == \
        sorted((a, u) for u, a, _ in expected)


def test_the_size_limit_decides(one_pass_client, tables):
    c = tables(one_pass_client)
    c.execute("SET 'dynsql.one-pass.max-input-size' = '100 bytes'")    # events.csv is 226 bytes
    assert "one pass (226 B in 1 file > dynsql.one-pass.max-input-size 100 B: 2 pieces" in explained(c, TUMBLE)
    c.execute("SET 'dynsql.one-pass.piece-size' = '0'")
    assert "one pass" not in explained(c, TUMBLE)
    c.execute("SET 'dynsql.one-pass.max-input-size' = '1kb'")
    assert "one pass" in explained(c, TUMBLE)
    with pytest.raises(DynsqlError, match="Invalid size unit 'parsecs' in '3 parsecs' for "
                                          "'dynsql.one-pass.max-input-size'"):
        c.execute("SET 'dynsql.one-pass.max-input-size' = '3 parsecs'")
    with pytest.raises(DynsqlError, match="Invalid size '-1' for 'dynsql.one-pass.max-input-size'"):
        c.execute("SET 'dynsql.one-pass.max-input-size' = '-1'")


def test_a_runtime_error_ends_the_stream_with_dynsql_words(one_pass_client, client, tables):
    sql = """
        SELECT * FROM ticks MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY ts MEASURES A.price AS p
          ONE ROW PER MATCH AFTER MATCH SKIP TO FIRST A PATTERN (A B) DEFINE B AS B.price < A.price) MR"""
    assert "one pass" in explained(tables(one_pass_client), sql)
    for c in (one_pass_client, tables(client)):
        result = c.execute(sql)
        with pytest.raises(DynsqlError) as e:
            list(result)
        assert str(e.value) == ("Could not skip to first element of a match. (AFTER MATCH SKIP TO FIRST A would "
                                "resume matching at the first row of the match, an endless loop)")


def test_stopping_a_one_pass_query_cancels_its_spark_job(one_pass_client, tmp_path, spark):
    path = tmp_path / "many.csv"
    start = dt.datetime(2024, 1, 1)
    with open(path, "w") as f:
        for i in range(300_000):
            f.write("s%d,%s,%d\n" % (i % 3, (start + dt.timedelta(seconds=i)).strftime("%Y-%m-%d %H:%M:%S"), i % 97))
    c = one_pass_client
    c.execute("CREATE TABLE many (symbol STRING, ts TIMESTAMP(3), price INT, WATERMARK FOR ts AS ts) WITH ("
              "'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % path)
    sql = V_SHAPE.replace("ticks", "many")
    assert "one pass" in explained(c, sql)
    tracker = spark.sparkContext.statusTracker()
    result = c.execute(sql)
    deadline = time.time() + 30
    while not tracker.getActiveJobsIds() and time.time() < deadline:
        time.sleep(0.02)
    running = tracker.getActiveJobsIds()
    assert running and not result.finished
    result.stop()
    assert list(result) == [] and result.error is None
    while tracker.getActiveJobsIds() and time.time() < deadline:
        time.sleep(0.1)
    assert tracker.getActiveJobsIds() == []
    assert [tracker.getJobInfo(j).status for j in running] == ["FAILED"] * len(running)    # cancelled


# ------------------------------------------------------------------ one large file read in pieces
ROW_BYTES = 26      # 'u1,2024-01-01 10:00:05,17\n': rows of one width, so pieces of 3 rows are 78 bytes


def shuffled_clicks(count=60, seed=7):
    """(user, seconds after 10:00:00, amount) in arrival order: mostly rising, with rows from a few seconds back."""
    rnd = random.Random(seed)
    rows, t = [], 0
    for _ in range(count):
        t += rnd.choice((0, 1, 1, 2))
        back = rnd.choice((0, 0, 0, 2, 4, 7))
        rows.append(("u%d" % rnd.randint(1, 3), max(0, t - back), rnd.randint(10, 99)))
    return rows


def reference_windows(rows, size_s, slide_s, delay_s, piece_rows=None):
    """Each (window_start, window_end, user): (COUNT(*), SUM, MIN, MAX) of the rows on time when read top to bottom
    (Flink with parallelism 1: a pair is late when end - 1 ms <= max(earlier rowtimes) - delay); with `piece_rows`,
    each run of that many rows read apart, its running maximum its own (what ignoring the earlier pieces gives)."""
    out, top = {}, None
    for i, (user, t, amount) in enumerate(rows):
        if piece_rows and i % piece_rows == 0:
            top = None
        wm = None if top is None else top - delay_s * 1000
        last = t - t % slide_s
        for start in range(last, last - size_s, -slide_s):
            if start > t - size_s and not (wm is not None and (start + size_s) * 1000 - 1 <= wm):
                n, s, lo, hi = out.get((start, start + size_s, user), (0, 0, 999, 0))
                out[(start, start + size_s, user)] = (n + 1, s + amount, min(lo, amount), max(hi, amount))
        top = t * 1000 if top is None else max(top, t * 1000)
    ten = dt.datetime(2024, 1, 1, 10)
    return sorted(("+I", (text(ten + dt.timedelta(seconds=a)), text(ten + dt.timedelta(seconds=b)), u) + v)
                  for (a, b, u), v in out.items())


PIECES_TUMBLE = """
    SELECT window_start, window_end, `user`, COUNT(*) AS cnt, SUM(amount) AS total, MIN(amount) AS lo,
           MAX(amount) AS hi
    FROM TABLE(%s(TABLE clicks, DESCRIPTOR(ts), %s))
    GROUP BY window_start, window_end, `user`"""


@pytest.mark.parametrize("window, size, slide", [("TUMBLE", 5, 5), ("HOP", 6, 3)])
@pytest.mark.slow       # the heaviest of this file (10-15 s each on CI): `make test-slow`
def test_a_window_aggregate_over_a_file_read_in_pieces_drops_the_rows_late_by_the_earlier_pieces(
        one_pass_client, client, tmp_path, window, size, slide):
    rows = shuffled_clicks()
    path = tmp_path / "clicks.csv"
    path.write_text("".join("%s,2024-01-01 10:%02d:%02d,%d\n" % (u, t // 60, t % 60, a) for u, t, a in rows))
    assert path.stat().st_size == ROW_BYTES * len(rows)
    expected = reference_windows(rows, size, slide, 1)
    # the data has rows late only by an earlier piece's rows: ignoring them would give other rows
    assert reference_windows(rows, size, slide, 1, piece_rows=3) != expected
    sql = PIECES_TUMBLE % (window, "INTERVAL '%d' SECOND" % size if window == "TUMBLE" else
                           "INTERVAL '%d' SECOND, INTERVAL '%d' SECOND" % (slide, size))
    for c in (one_pass_client, client):
        c.execute("CREATE TABLE clicks (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - "
                  "INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % path)
    one_pass_client.execute("SET 'dynsql.one-pass.max-input-size' = '1 kb'")
    one_pass_client.execute("SET 'dynsql.one-pass.piece-size' = '%d b'" % (3 * ROW_BYTES))
    plan = explained(one_pass_client, sql)
    assert "one pass (1.5 KB in 1 file > dynsql.one-pass.max-input-size 1.0 KB: 20 pieces of 78 B" in plan
    assert "read in pieces, each piece's maximum rowtime reported" in plan
    assert "each piece aggregated with Arrow in its task, the pieces' groups merged in the driver" in plan
    assert sorted(changes(one_pass_client, sql)) == expected
    # Spark's aggregate of the pieces (a FILTER clause, which Arrow does not compute in the tasks): the same rows
    filtered = sql.replace("COUNT(*) AS cnt", "COUNT(*) FILTER (WHERE amount > 0) AS cnt")
    assert "Spark's aggregate of the pieces" in explained(one_pass_client, filtered)
    assert sorted(changes(one_pass_client, filtered)) == expected
    if window == "TUMBLE":      # fields renamed and left out above the aggregate merged in the driver
        renamed = "SELECT `user` AS u, window_end AS we, cnt FROM (%s)" % sql
        assert sorted(changes(one_pass_client, renamed)) == sorted(("+I", (r[2], r[1], r[3])) for _, r in expected)
    # micro-batches of 7 rows read the file top to bottom: the same rows
    client.execute("DROP TABLE clicks")
    client.execute("CREATE TABLE clicks (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - "
                   "INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', "
                   "'scan.rows-per-batch' = '7')" % path)
    assert sorted(changes(client, sql)) == expected
