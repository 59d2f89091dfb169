"""INSERT INTO as background jobs (filesystem, print and blackhole sinks; SHOW JOBS; STOP JOB), a
directory watched for new files ('source.monitor-interval'), and the parquet format."""

import os
import time

import pytest

from planner.errors import DynsqlError
from runtime.results import ChangeStream

CLICKS = "Mary,2024-01-01 12:00:00,./home\nBob,2024-01-01 12:00:00,./cart\nMary,2024-01-01 12:00:05,./prod?id=1\n"


def clicks(client, path, extra=""):
    client.execute("CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING) WITH ("
                   "'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv'%s)" % (path, extra))


def test_insert_into_a_filesystem_sink_writes_the_rows(client, tmp_path):
    (tmp_path / "clicks.csv").write_text(CLICKS)
    clicks(client, tmp_path / "clicks.csv")
    out = tmp_path / "out"
    client.execute("CREATE TABLE visits (`user` STRING, url STRING) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv')" % out)
    message = client.execute("INSERT INTO visits SELECT `user`, url FROM clicks WHERE `user` = 'Mary'")
    assert "Job ID:" in message.text
    client.engine.jobs.wait_all(timeout=120)
    lines = sorted(line for f in os.listdir(out) for line in (out / f).read_text().splitlines())
    assert lines == ["Mary,./home", "Mary,./prod?id=1"]
    # the sink's rows read back through the same connector
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    assert sorted(client.execute("SELECT * FROM visits").rows) == [("Mary", "./home"), ("Mary", "./prod?id=1")]


def test_print_sink_prints_flink_rows(client, tmp_path, capfd):
    (tmp_path / "clicks.csv").write_text(CLICKS)
    clicks(client, tmp_path / "clicks.csv")
    client.execute("CREATE TABLE out (`user` STRING, n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'p')")
    client.execute("INSERT INTO out SELECT `user`, CAST(1 AS BIGINT) FROM clicks")
    client.engine.jobs.wait_all(timeout=120)
    printed = sorted(line for line in capfd.readouterr().out.splitlines() if line.startswith("p> "))
    assert printed == ["p> +I[Bob, 1]", "p> +I[Mary, 1]", "p> +I[Mary, 1]"]


def test_show_jobs_and_stop_job(client, tmp_path):
    rows = "".join("u%d,2024-01-01 12:00:%02d,./x\n" % (i, i % 60) for i in range(200))
    (tmp_path / "clicks.csv").write_text(rows)
    clicks(client, tmp_path / "clicks.csv", ", 'replay.rows-per-second' = '2'")
    client.execute("CREATE TABLE sink (`user` STRING) WITH ('connector' = 'blackhole')")
    client.execute("INSERT INTO sink SELECT `user` FROM clicks")
    jobs = client.execute("SHOW JOBS").rows
    assert len(jobs) == 1 and jobs[0][2] == "RUNNING" and jobs[0][1].endswith(".sink")
    client.execute("STOP JOB '%s'" % jobs[0][0])
    assert client.execute("SHOW JOBS").rows[0][2] == "CANCELED"
    with pytest.raises(DynsqlError, match="no such job"):
        client.execute("STOP JOB 'nope'")


def test_a_watched_directory_streams_new_files(client, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.csv").write_text("Mary,2024-01-01 12:00:00,./home\n")
    clicks(client, folder, ", 'source.monitor-interval' = '1 s'")
    stream = client.execute("SELECT `user`, url FROM clicks")
    assert isinstance(stream, ChangeStream)
    seen = []

    def wait_for(n):
        deadline = time.time() + 120
        while len(seen) < n and time.time() < deadline and not stream.finished:
            batch = stream.poll(0.5)
            if batch is not None:
                seen.extend(batch.changes)
    try:
        wait_for(1)
        (folder / "b.csv").write_text("Bob,2024-01-01 12:01:00,./cart\n")
        wait_for(2)
    finally:
        stream.stop()
    assert seen == [("+I", ("Mary", "./home")), ("+I", ("Bob", "./cart"))]


def test_parquet_files(client, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.table({"user": ["Mary", "Bob"], "n": pa.array([3, 5], pa.int64())}), tmp_path / "p.parquet")
    client.execute("CREATE TABLE t (`user` STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'parquet')" % (tmp_path / "p.parquet"))
    rows = [c for b in client.execute("SELECT `user`, n * 2 AS m FROM t") for c in b.changes]
    assert sorted(rows) == [("+I", ("Bob", 10)), ("+I", ("Mary", 6))]
