"""INSERT INTO as detached jobs (filesystem and print sinks, a statement set, SHOW JOBS, STOP JOB WITH
SAVEPOINT, a restore from it, table.dml-sync), Flink's refusals, a directory watched for new files
('source.monitor-interval'), and the parquet format."""

import os
import time

import pytest

from planner.errors import DynsqlError
from runtime.results import ChangeStream

pytestmark = pytest.mark.own_job_registry      # SHOW JOBS lists exactly the jobs of the test

CLICKS = "Mary,2024-01-01 12:00:00,./home\nBob,2024-01-01 12:00:00,./cart\nMary,2024-01-01 12:00:05,./prod?id=1\n"


def clicks(client, path, extra=""):
    client.execute("CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING) WITH ("
                   "'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv'%s)" % (path, extra))


def job_id_of(message):
    assert "Job ID:" in message.text, message.text
    return message.text.split("Job ID:")[1].strip()


def test_a_statement_set_writes_a_filesystem_and_a_print_sink_as_one_job(client, tmp_path):
    """One job (a process of its own) for two INSERTs: Flink's csv lines in the table's folder, Flink's
    print lines in the job's output; the folder reads back through the same connector."""
    (tmp_path / "clicks.csv").write_text(CLICKS)
    clicks(client, tmp_path / "clicks.csv")
    out = tmp_path / "out"
    client.execute("CREATE TABLE visits (`user` STRING, url STRING, t TIMESTAMP(3)) WITH ('connector' = "
                   "'filesystem', 'path' = '%s', 'format' = 'csv')" % out)
    client.execute("CREATE TABLE shown (`user` STRING, n BIGINT) WITH ('connector' = 'print', "
                   "'print-identifier' = 'p')")
    message = client.execute("""EXECUTE STATEMENT SET BEGIN
        INSERT INTO visits SELECT `user`, url, cTime FROM clicks WHERE `user` = 'Mary';
        INSERT INTO shown SELECT `user`, CAST(1 AS BIGINT) FROM clicks;
    END""")
    job_id = job_id_of(message)
    output = message.text.split("print sink's rows go to ")[1].split()[0]
    record = client.engine.jobs.wait(job_id, timeout=600)
    assert record.status == "FINISHED", record.error
    assert record.rows_written == 5
    lines = sorted(line for f in os.listdir(out) if not f.startswith(".") for line in (out / f).read_text().splitlines())
    assert lines == ['Mary,./home,"2024-01-01 12:00:00"', 'Mary,./prod?id=1,"2024-01-01 12:00:05"']
    printed = sorted(line for line in open(output).read().splitlines() if line.startswith("p> "))
    assert printed == ["p> +I[Bob, 1]", "p> +I[Mary, 1]", "p> +I[Mary, 1]"]
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    assert sorted(client.execute("SELECT `user`, url FROM visits").rows) == [("Mary", "./home"), ("Mary", "./prod?id=1")]
    rows = client.execute("SHOW JOBS").rows
    assert [(r[0], r[2], r[3]) for r in rows] == [(job_id, "FINISHED", 5)]


def test_a_filesystem_sink_refuses_an_updating_query_and_columns_that_do_not_fit(client, tmp_path):
    (tmp_path / "clicks.csv").write_text(CLICKS)
    clicks(client, tmp_path / "clicks.csv")
    client.execute("CREATE TABLE counts (`user` STRING, n BIGINT) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv')" % (tmp_path / "counts"))
    with pytest.raises(DynsqlError, match="doesn't support consuming update changes"):
        client.execute("INSERT INTO counts SELECT `user`, COUNT(*) FROM clicks GROUP BY `user`")
    with pytest.raises(DynsqlError, match=r"(?s)Incompatible types for sink column 'n' at position 1.*"
                                          r"Sink schema:  \[user: STRING, n: BIGINT\]"):
        client.execute("INSERT INTO counts SELECT `user`, url FROM clicks")
    with pytest.raises(DynsqlError, match="Different number of columns"):
        client.execute("INSERT INTO counts SELECT `user` FROM clicks")
    assert client.execute("SHOW JOBS").rows == []


def test_show_jobs_stop_job_with_savepoint_and_restore(client, tmp_path):
    """A job reading a watched folder runs until stopped: SHOW JOBS lists it, STOP JOB ... WITH SAVEPOINT stops
    it and says where its checkpoint is; after a new file came, an INSERT with SET 'execution.savepoint.path'
    continues from there: every row is in the sink once."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.csv").write_text("".join("a%d,2024-01-01 12:00:%02d,./x\n" % (i, i) for i in range(10)))
    clicks(client, folder, ", 'source.monitor-interval' = '1 s'")
    out = tmp_path / "users"
    client.execute("CREATE TABLE users (`user` STRING) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'json')" % out)
    job_id = job_id_of(client.execute("INSERT INTO users SELECT `user` FROM clicks"))
    wait_for_rows(out, 10)
    [job] = show_jobs_when(client, lambda rows: rows[0][3] == 10)   # the job's count comes with its heartbeat
    assert job[:4] == (job_id, "insert-into_default_catalog.default_database.users", "RUNNING", 10)
    stopped = client.execute("STOP JOB '%s' WITH SAVEPOINT" % job_id)
    [(savepoint,)] = stopped.rows
    assert savepoint == job[5] and os.path.isdir(os.path.join(savepoint, "0", "commits"))
    assert client.execute("SHOW JOBS").rows[0][2] == "FINISHED"
    with pytest.raises(DynsqlError, match="no such job"):
        client.execute("STOP JOB 'nope'")
    (folder / "b.csv").write_text("".join("b%d,2024-01-01 12:01:%02d,./y\n" % (i, i) for i in range(5)))
    client.execute("SET 'execution.savepoint.path' = '%s'" % savepoint)
    restored = job_id_of(client.execute("INSERT INTO users SELECT `user` FROM clicks"))
    wait_for_rows(out, 15)
    assert client.execute("STOP JOB '%s'" % restored).text == "[INFO] The specified job is stopped."
    jobs = {r[0]: r for r in client.execute("SHOW JOBS").rows}
    assert jobs[restored][2:4] == ("CANCELED", 5) and jobs[restored][6].endswith("--resume-job " + restored)
    assert sorted(r["user"] for r in read_json_lines(out)) == sorted(["a%d" % i for i in range(10)] +
                                                                   ["b%d" % i for i in range(5)])


def show_jobs_when(client, condition, timeout=60):
    deadline = time.time() + timeout
    rows = client.execute("SHOW JOBS").rows
    while not condition(rows) and time.time() < deadline:
        time.sleep(0.5)
        rows = client.execute("SHOW JOBS").rows
    return rows


def wait_for_rows(folder, n, timeout=600):
    deadline = time.time() + timeout
    while time.time() < deadline and not (folder.is_dir() and len(read_json_lines(folder)) >= n):
        time.sleep(0.5)


def read_json_lines(folder):
    import json
    return [json.loads(line) for f in sorted(os.listdir(folder)) if not f.startswith(".")
            for line in (folder / f).read_text().splitlines()]


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
        deadline = time.time() + 30       # Spark's progress report of a micro-batch comes after its rows
        while stream.stats.input_rows < 2 and time.time() < deadline:
            stream.poll(0.2)
    finally:
        stream.stop()
    assert seen == [("+I", ("Mary", "./home")), ("+I", ("Bob", "./cart"))]
    assert stream.stats.input_rows == 2 and stream.stats.last_batch_seconds > 0   # for the status line


def test_a_file_changed_after_it_was_taken_is_named(client, tmp_path):
    """A file written to while the source reads it (placed in the folder before it was whole) is named on the
    status line and under the result: what came after may be missing or cut."""
    from repl.render import parse_error_note
    folder = tmp_path / "in"
    folder.mkdir()
    taken = folder / "a.csv"
    taken.write_text("".join("u%d,2024-01-01 12:00:0%d,./x\n" % (i, i) for i in range(4)))
    os.utime(taken, (time.time() - 60, time.time() - 60))
    clicks(client, folder, ", 'source.monitor-interval' = '1 s', 'scan.rows-per-batch' = '1'")
    stream = client.execute("SELECT `user` FROM clicks")
    try:
        assert stream.poll(60) is not None
        with open(taken, "a") as f:
            f.write("late,2024-01-01 12:00:09,./y\n")
        deadline = time.time() + 60
        while not stream.stats.changed_files and time.time() < deadline and not stream.finished:
            stream.poll(0.5)
    finally:
        stream.stop()
    [note] = stream.stats.changed_files
    assert note == {"path": str(taken), "taken": "108 bytes", "now": "137 bytes"}
    assert parse_error_note(stream.stats).startswith(
        "Input: %s changed after it was taken (108 bytes then, 137 bytes now): what was written" % taken)


def test_parquet_files(client, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.table({"user": ["Mary", "Bob"], "n": pa.array([3, 5], pa.int64())}), tmp_path / "p.parquet")
    client.execute("CREATE TABLE t (`user` STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'parquet')" % (tmp_path / "p.parquet"))
    rows = [c for b in client.execute("SELECT `user`, n * 2 AS m FROM t") for c in b.changes]
    assert sorted(rows) == [("+I", ("Bob", 10)), ("+I", ("Mary", 6))]
