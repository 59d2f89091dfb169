"""Legacy group windows with Flink's emit options: 'table.exec.emit.allow-lateness' keeps a fired window
open for late rows, each of which updates its result (-U/+U); rows later than that are dropped."""

import datetime as dt

from test_changelog_property import materialize

CLICKS = """\
Mary,2024-01-01 12:00:00,./home
Bob,2024-01-01 12:00:00,./cart
Mary,2024-01-01 12:55:00,./home
Bob,2024-01-01 13:01:00,./prod
Mary,2024-01-01 12:30:00,./late
Liz,2024-01-01 14:30:00,./x
Bob,2024-01-01 12:10:00,./too-late
"""
# the 12:00 window fires at Bob's 13:01 row; Mary's 12:30 row is late but within the hour of lateness;
# Liz's 14:30 row moves the watermark past 14:00 (12:00 window + 1 h): Bob's 12:10 row is too late

QUERY = """SELECT `user`, TUMBLE_START(cTime, INTERVAL '1' HOUR) AS startT, COUNT(url) AS cnt
           FROM clicks GROUP BY `user`, TUMBLE(cTime, INTERVAL '1' HOUR)"""


def run(client, tmp_path, lateness):
    path = tmp_path / "clicks.csv"
    path.write_text(CLICKS)
    client.execute("DROP TABLE IF EXISTS clicks")
    client.execute("CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, "
                   "WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv', 'scan.rows-per-batch' = '1')" % path)
    client.execute("SET 'table.exec.emit.allow-lateness' = '%s'" % lateness)
    try:
        batches = list(client.execute(QUERY))
    finally:
        client.execute("RESET 'table.exec.emit.allow-lateness'")
        client.execute("DROP TABLE clicks")
    return batches, [(op, row) for batch in batches for op, row in batch.changes]


def hour(h):
    return dt.datetime(2024, 1, 1, h)


def test_a_late_row_within_the_allowed_lateness_updates_its_window(client, tmp_path):
    batches, changes = run(client, tmp_path, "1 h")
    assert materialize(batches) == {
        ("Mary", hour(12), 3): 1, ("Bob", hour(12), 1): 1, ("Bob", hour(13), 1): 1, ("Liz", hour(14), 1): 1}
    # the late row came after Mary's window had a result: it was updated, not inserted again
    assert ("+U", ("Mary", hour(12), 3)) in changes


def test_without_lateness_late_rows_are_dropped_and_the_result_is_insert_only(client, tmp_path):
    _, changes = run(client, tmp_path, "0 ms")
    assert sorted(changes) == sorted([
        ("+I", ("Mary", hour(12), 2)), ("+I", ("Bob", hour(12), 1)), ("+I", ("Bob", hour(13), 1)),
        ("+I", ("Liz", hour(14), 1))])


def test_the_emit_options_are_checked(client):
    import pytest
    from planner.errors import ConfigError
    with pytest.raises(ConfigError, match="Invalid duration"):
        client.execute("SET 'table.exec.emit.allow-lateness' = 'an hour'")
