"""Windowing table functions (TUMBLE, HOP, CUMULATE, SESSION) beyond the conformance cases: named
arguments and offsets, late rows decided per row whatever the micro-batches, batch mode, window Top-N
straight over the windows, inner and full window joins, processing-time windows, and the errors Flink gives."""

import datetime as dt

import pytest

from planner.errors import DynsqlError

EVENTS = """\
user1,2024-01-01 10:00:01,3
user2,2024-01-01 10:00:02,5
user1,2024-01-01 10:00:03,1
user3,2024-01-01 10:00:06,7
user1,2024-01-01 10:00:07,2
user2,2024-01-01 10:00:02,100
user2,2024-01-01 10:00:12,6
"""
# the 6th row (10:00:02) arrives when the watermark is 10:00:06: its 5-second window has fired


@pytest.fixture
def events(client, tmp_path):
    def create(rows_per_batch=None):
        path = tmp_path / "events.csv"
        path.write_text(EVENTS)
        extra = ", 'scan.rows-per-batch' = '%d'" % rows_per_batch if rows_per_batch else ""
        client.execute("DROP TABLE IF EXISTS events")
        client.execute("CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, "
                       "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', "
                       "'path' = '%s', 'format' = 'csv'%s)" % (path, extra))
    create()
    yield create
    client.execute("RESET 'execution.runtime-mode'")


def text(v):
    return v.strftime("%H:%M:%S") if isinstance(v, dt.datetime) else v


def changes(client, sql):
    """The query's changes, times as HH:MM:SS, in a fixed order (see `ordered`)."""
    result = client.execute(sql)
    if hasattr(result, "rows"):     # batch mode: a table
        return ordered(("+I", tuple(text(v) for v in row)) for row in result.rows)
    return ordered((op, tuple(text(v) for v in row)) for batch in result for op, row in batch.changes)


def ordered(items):
    return sorted(items, key=repr)


def test_tumbling_counts_per_window_drop_the_late_row(client, events):
    assert changes(client, """
        SELECT window_start, window_end, COUNT(*) AS cnt, SUM(amount) AS total
        FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))
        GROUP BY window_start, window_end""") == ordered([
        ("+I", ("10:00:00", "10:00:05", 3, 9)),
        ("+I", ("10:00:05", "10:00:10", 2, 9)),
        ("+I", ("10:00:10", "10:00:15", 1, 6))])


def test_a_filter_does_not_hold_back_the_last_window(client, events):
    # the end of the input must reach the watermark even though the filter reads no time column
    expected = ordered([("+I", ("10:00:00", 2)), ("+I", ("10:00:05", 2)), ("+I", ("10:00:10", 1))])
    assert changes(client, """
        SELECT window_start, COUNT(*) AS cnt
        FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))
        WHERE amount > 1 GROUP BY window_start, window_end""") == expected
    assert changes(client, """
        SELECT TUMBLE_START(ts, INTERVAL '5' SECOND) AS ws, COUNT(*) AS cnt
        FROM events WHERE amount > 1 GROUP BY TUMBLE(ts, INTERVAL '5' SECOND)""") == expected


def test_lateness_is_decided_per_row_whatever_the_micro_batches(client, events):
    query = """SELECT `user`, window_start, COUNT(*) AS cnt
               FROM TABLE(TUMBLE(DATA => TABLE events, TIMECOL => DESCRIPTOR(ts), SIZE => INTERVAL '5' SECOND))
               GROUP BY `user`, window_start, window_end"""
    whole = changes(client, query)
    events(rows_per_batch=1)
    assert changes(client, query) == whole
    assert ("+I", ("user2", "10:00:00", 1)) in whole          # without the late 100


def test_batch_mode_has_no_late_rows(client, events):
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    assert changes(client, """
        SELECT window_start, COUNT(*) AS cnt, MAX(amount) AS biggest
        FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))
        GROUP BY window_start, window_end""") == ordered([
        ("+I", ("10:00:00", 4, 100)), ("+I", ("10:00:05", 2, 7)), ("+I", ("10:00:10", 1, 6))])


def test_cumulating_windows_with_an_offset(client, events):
    # windows start at :02 (offset 2 s), grow by 2 s up to 6 s: [02,04) [02,06) [02,08), [08,10) ...;
    # the late 10:00:02 row misses [02,04) and [02,06), which had fired, not [02,08)
    assert changes(client, """
        SELECT window_start, window_end, COUNT(*) AS cnt
        FROM TABLE(CUMULATE(TABLE events, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND,
                            INTERVAL '2' SECOND))
        GROUP BY window_start, window_end""") == ordered([
        ("+I", ("09:59:56", "10:00:02", 1)),
        ("+I", ("10:00:02", "10:00:04", 2)), ("+I", ("10:00:02", "10:00:06", 2)),
        ("+I", ("10:00:02", "10:00:08", 5)),     # the late row is still in time for this one
        ("+I", ("10:00:08", "10:00:14", 1))])


def test_hopping_windows_assign_each_row_to_every_window_it_is_in(client, events):
    rows = changes(client, """
        SELECT `user`, amount, window_start, window_end, window_time
        FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
        WHERE amount >= 7""")
    # no window aggregate: nothing is late, the 10:00:02 row is there too
    assert rows == [("+I", ("user2", 100, "09:59:55", "10:00:05", "10:00:04")),
                    ("+I", ("user2", 100, "10:00:00", "10:00:10", "10:00:09")),
                    ("+I", ("user3", 7, "10:00:00", "10:00:10", "10:00:09")),
                    ("+I", ("user3", 7, "10:00:05", "10:00:15", "10:00:14"))]


def test_a_late_row_misses_only_the_windows_that_had_fired(client, events):
    # HOP 10 s every 5 s: the late 10:00:02 row (watermark 10:00:06) misses [09:59:55, 10:00:05), not [10:00:00, 10:00:10)
    expected = ordered([("+I", ("09:59:55", 3, 9)), ("+I", ("10:00:00", 6, 118)), ("+I", ("10:00:05", 3, 15)),
                        ("+I", ("10:00:10", 1, 6))])
    assert changes(client, """
        SELECT window_start, COUNT(*) AS cnt, SUM(amount) AS total
        FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
        GROUP BY window_start, window_end""") == expected
    assert changes(client, """
        SELECT HOP_START(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND) AS ws, COUNT(*) AS cnt, SUM(amount) AS total
        FROM events GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND)""") == expected


def test_window_top_n_straight_over_the_windows(client, events):
    assert changes(client, """
        SELECT `user`, amount, window_start, rn FROM (
          SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC) AS rn
          FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND)))
        WHERE rn <= 1""") == ordered([
        ("+I", ("user2", 5, "10:00:00", 1)),       # 100 came late: not in its window
        ("+I", ("user2", 6, "10:00:10", 1)),
        ("+I", ("user3", 7, "10:00:05", 1))])


def test_session_windows_per_key(client, events):
    assert changes(client, """
        SELECT `user`, window_start, window_end, COUNT(*) AS cnt
        FROM TABLE(SESSION(TABLE events PARTITION BY `user`, DESCRIPTOR(ts), INTERVAL '3' SECOND))
        GROUP BY `user`, window_start, window_end""") == ordered([
        ("+I", ("user1", "10:00:01", "10:00:06", 2)),
        ("+I", ("user1", "10:00:07", "10:00:10", 1)),
        ("+I", ("user2", "10:00:02", "10:00:05", 1)),       # without the late row
        ("+I", ("user2", "10:00:12", "10:00:15", 1)),
        ("+I", ("user3", "10:00:06", "10:00:09", 1))])


def test_inner_and_full_window_joins(client, events, tmp_path):
    path = tmp_path / "payments.csv"
    path.write_text("user1,2024-01-01 10:00:04,P1\nuser3,2024-01-01 10:00:11,P2\n")
    client.execute("CREATE TABLE payments (payer STRING, pts TIMESTAMP(3), `ref` STRING, "
                   "WATERMARK FOR pts AS pts) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'csv')" % path)
    try:
        template = """
            SELECT L.`user`, L.amount, R.`ref`, COALESCE(L.window_start, R.window_start) AS ws
            FROM (SELECT * FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))) L
            %s JOIN (SELECT * FROM TABLE(TUMBLE(TABLE payments, DESCRIPTOR(pts), INTERVAL '5' SECOND))) R
            ON L.`user` = R.payer AND L.window_start = R.window_start AND L.window_end = R.window_end"""
        assert changes(client, template % "") == ordered([
            ("+I", ("user1", 1, "P1", "10:00:00")), ("+I", ("user1", 3, "P1", "10:00:00"))])
        assert changes(client, template % "FULL") == ordered([
            ("+I", (None, None, "P2", "10:00:10")),
            ("+I", ("user1", 1, "P1", "10:00:00")), ("+I", ("user1", 2, None, "10:00:05")),
            ("+I", ("user1", 3, "P1", "10:00:00")), ("+I", ("user2", 5, None, "10:00:00")),
            ("+I", ("user2", 6, None, "10:00:10")), ("+I", ("user3", 7, None, "10:00:05"))])
        # as Flink plans them: without both bounds equated, or over different windows, a regular join
        for other in (template.replace("AND L.window_end = R.window_end", "") % "",
                      template.replace("TABLE payments, DESCRIPTOR(pts), INTERVAL '5'",
                                       "TABLE payments, DESCRIPTOR(pts), INTERVAL '10'") % ""):
            plan = client.execute("EXPLAIN CHANGELOG_MODE " + other).text
            assert "Join(joinType=[InnerJoin]" in plan and "WindowJoin" not in plan
    finally:
        client.execute("DROP TABLE payments")


def test_a_view_that_projects_and_filters_a_table(client, events):
    client.execute("CREATE VIEW big AS SELECT `user` AS who, ts AS t, amount * 2 AS doubled "
                   "FROM events WHERE amount > 1")
    try:
        assert changes(client, """
            SELECT window_start, who, SUM(doubled) AS s
            FROM TABLE(TUMBLE(TABLE big, DESCRIPTOR(t), INTERVAL '5' SECOND))
            GROUP BY window_start, window_end, who""") == ordered([
            ("+I", ("10:00:00", "user1", 6)), ("+I", ("10:00:00", "user2", 10)),
            ("+I", ("10:00:05", "user1", 4)), ("+I", ("10:00:05", "user3", 14)),
            ("+I", ("10:00:10", "user2", 12))])
        client.execute("CREATE VIEW per_user AS SELECT `user`, MAX(ts) AS t FROM events GROUP BY `user`")
        with pytest.raises(DynsqlError, match="requires the timecol is a time attribute type, but is TIMESTAMP"):
            client.execute("SELECT * FROM TABLE(TUMBLE(TABLE per_user, DESCRIPTOR(t), INTERVAL '5' SECOND))")
    finally:
        client.execute("DROP VIEW IF EXISTS big")
        client.execute("DROP VIEW IF EXISTS per_user")


def test_explain_shows_the_window_function(client, events):
    text = client.execute("EXPLAIN SELECT window_start, COUNT(*) FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), "
                          "INTERVAL '5' SECOND, INTERVAL '10' SECOND)) GROUP BY window_start, window_end").text
    assert "WindowAggregate(window=[HOP(time_col=[ts], size=[10 s], slide=[5 s])], select=[COUNT(*) AS EXPR$1, " \
           "start('w$) AS window_start, end('w$) AS window_end])" in text
    text = client.execute("EXPLAIN CHANGELOG_MODE SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY "
                          "window_start, window_end ORDER BY amount DESC) AS rn FROM TABLE(TUMBLE(TABLE events, "
                          "DESCRIPTOR(ts), INTERVAL '5' SECOND))) WHERE rn <= 2").text
    assert "WindowRank(window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 s])], " \
           "rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=2], partitionBy=[], orderBy=[amount DESC]" in text
    assert "WindowTableFunction(window=[TUMBLE(time_col=[ts], size=[5 s])], changelogMode=[I])" in text


@pytest.mark.parametrize("sql, message", [
    ("SELECT * FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(amount), INTERVAL '5' SECOND))",
     r"requires the timecol to be TIMESTAMP or TIMESTAMP_LTZ, but is INTEGER"),
    ("SELECT * FROM TABLE(TUMBLE((SELECT e.ts FROM events e JOIN events f ON e.`user` = f.`user`), "
     "DESCRIPTOR(ts), INTERVAL '5' SECOND))", "requires the timecol is a time attribute type, but is TIMESTAMP"),
    ("SELECT * FROM (SELECT *, RANK() OVER (PARTITION BY window_start, window_end ORDER BY amount) AS r "
     "FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))) WHERE r <= 2",
     r"RANK\(\) function is not supported on Window TopN currently"),
    ("SELECT * FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts)))", "TUMBLE needs the SIZE argument"),
    ("SELECT * FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), 5))", "must be an INTERVAL literal"),
    ("SELECT * FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), SPAN => INTERVAL '5' SECOND))",
     "HOP has no parameter SPAN"),
    ("SELECT * FROM TABLE(TUMBLE(TABLE events PARTITION BY `user`, DESCRIPTOR(ts), INTERVAL '5' SECOND))",
     "PARTITION BY is only allowed in the SESSION window function"),
    ("SELECT COUNT(*) FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '3' SECOND, INTERVAL '10' SECOND)) "
     "GROUP BY window_start, window_end", "size must be an integral multiple of slide"),
    ("SELECT * FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '0' SECOND))", "must be positive"),
])
def test_errors_name_what_is_wrong_and_where(client, events, sql, message):
    with pytest.raises(DynsqlError, match=message) as error:
        client.execute(sql)
    assert error.value.line == 1 and error.value.column is not None


def test_processing_time_windows_run(client, tmp_path):
    # Nexmark q12's shape: a view adds PROCTIME(), a TUMBLE over it. Which window a row falls in depends on when
    # it is read: the input is paced (4 rows a second over ~3 s) and 1-second windows must close while it runs;
    # each emitted window is one second long, aligned, and no row is counted twice.
    path = tmp_path / "bids.csv"
    path.write_text("".join("b%d,%d\n" % (i, i) for i in range(12)))
    client.execute("CREATE TABLE bids (id STRING, price INT) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'csv', 'replay.rows-per-second' = '4')" % path)
    client.execute("CREATE VIEW B AS SELECT *, PROCTIME() AS p_time FROM bids")
    try:
        plan = client.execute("EXPLAIN CHANGELOG_MODE SELECT window_start, window_end, COUNT(*) AS cnt FROM "
                              "TABLE(TUMBLE(TABLE B, DESCRIPTOR(p_time), INTERVAL '1' SECOND)) "
                              "GROUP BY window_start, window_end").text
        assert "WindowAggregate(window=[TUMBLE(time_col=[p_time], size=[1 s])]" in plan
        result = client.execute("SELECT window_start, window_end, COUNT(*) AS cnt, SUM(price) AS total FROM "
                                "TABLE(TUMBLE(TABLE B, DESCRIPTOR(p_time), INTERVAL '1' SECOND)) "
                                "GROUP BY window_start, window_end")
        rows = [(op, row) for batch in result for op, row in batch.changes]
        assert rows, "no processing-time window closed while the input was read"
        assert all(op == "+I" for op, _ in rows)
        starts = [row[0] for _, row in rows]
        assert len(set(starts)) == len(starts)
        for _, (start, end, cnt, total) in rows:
            assert end - start == dt.timedelta(seconds=1) and start.microsecond == 0 and 1 <= cnt <= 12
        assert sum(r[2] for _, r in rows) <= 12
    finally:
        client.execute("DROP VIEW B")
        client.execute("DROP TABLE bids")
