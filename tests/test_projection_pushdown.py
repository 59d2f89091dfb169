"""Projection push-down into the filesystem scan (runtime/operators/scan.py): the source hands Spark only the
columns the query reads (the Calc over the scan's fields, the rowtime, what a computed column read reads); the
rows are the same as with every column read."""

from test_one_pass import changes, explained

EVENTS = """\
user1,2024-01-01 10:00:01,1,a note
user2,2024-01-01 10:00:02,5,another
user1,2024-01-01 10:00:03,3,x
user3,2024-01-01 10:00:06,7,y
user1,2024-01-01 10:00:07,2,z
user2,2024-01-01 10:00:11,6,last
"""

TUMBLE = """
    SELECT window_start, `user`, SUM(doubled) AS total
    FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))
    WHERE `user` <> 'user3'
    GROUP BY window_start, window_end, `user`"""


def test_the_scan_reads_only_the_columns_the_query_reads(client, tmp_path):
    path = tmp_path / "events.csv"
    path.write_text(EVENTS)
    client.execute("CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, unread_note STRING, "
                   "doubled AS amount * 2, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ("
                   "'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % path)
    assert "the scan of events hands Spark user, ts, amount, doubled of its columns" in explained(client, TUMBLE)
    assert sorted(changes(client, TUMBLE)) == [       # streaming, on micro-batches: the windows fire at the end
        ("+I", ("10:00:00", "user1", 8)),
        ("+I", ("10:00:00", "user2", 10)),
        ("+I", ("10:00:05", "user1", 4)),
        ("+I", ("10:00:10", "user2", 12)),
    ]
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    scan = [ln for ln in explained(client, "SELECT amount FROM events WHERE `user` = 'user1'").split("\n")
            if "dynsql_filesystem" in ln.lower() or "PythonScan" in ln or "BatchScan" in ln]
    assert scan and all("unread_note" not in ln and "amount" in ln for ln in scan), scan
    assert sorted(client.execute("SELECT unread_note FROM events WHERE amount > 5").rows) == [("last",), ("y",)]
