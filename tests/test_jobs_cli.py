"""INSERT INTO from `dynsql -f`, as Flink's SQL client does it: the script submits a job and goes on (the
job outlives the dynsql process); with SET 'table.dml-sync' = 'true' an INSERT waits for its job, so that a
later query of the same script reads what it wrote. A file the job's source finds changed after it took it is
named in SHOW JOBS, as the shell names it under a query's result."""

import json
import os
import time

from test_cli import dynsql


def test_a_script_submits_jobs_that_outlive_it_and_waits_with_dml_sync(client, tmp_path):
    jobs_dir = client.settings.jobs_dir
    watched = tmp_path / "in"
    watched.mkdir()
    (watched / "a.csv").write_text("1,one\n2,two\n")
    (tmp_path / "b.csv").write_text("3,three\n4,four\n5,five\n")
    script = tmp_path / "jobs.sql"
    script.write_text("""
CREATE TABLE live (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%(watched)s', 'format' = 'csv',
  'source.monitor-interval' = '1 s', 'scan.rows-per-batch' = '1');
CREATE TABLE fixed (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%(b)s', 'format' = 'csv');
CREATE TABLE copy_live (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%(out1)s', 'format' = 'csv');
CREATE TABLE copy_fixed (n BIGINT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%(out2)s',
  'format' = 'json');
INSERT INTO copy_live SELECT n, UPPER(word) FROM live;
SET 'table.dml-sync' = 'true';
INSERT INTO copy_fixed SELECT n * 10, word FROM fixed WHERE n > 3;
SET 'execution.runtime-mode' = 'batch';
SELECT n, word FROM copy_fixed;
""" % {"watched": watched, "b": tmp_path / "b.csv", "out1": tmp_path / "out1", "out2": tmp_path / "out2"})
    out = dynsql("-D", "dynsql.jobs.dir=%s" % jobs_dir, "--output", "jsonl", "-f", str(script), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert sorted(json.loads(line)["row"] for line in out.stdout.splitlines()) == [[40, "four"], [50, "five"]]
    assert out.stderr.count("Job ID:") == 2 and "Complete execution of the SQL update statement" in out.stderr
    # the first job runs on after the script ended: a file added now reaches its sink
    jobs = {r[1]: r for r in client.execute("SHOW JOBS").rows}
    live = jobs["insert-into_default_catalog.default_database.copy_live"]
    assert live[2] in ("INITIALIZING", "RUNNING"), live
    assert jobs["insert-into_default_catalog.default_database.copy_fixed"][2:4] == ("FINISHED", 2)
    # the first job runs on after the script ended: a file added now reaches its sink, a row a micro-batch;
    # written to while it is read, it is named in SHOW JOBS (dynsql -e), its rows as they were when it was taken
    later = watched / "c.csv"
    later.write_text("".join("%d,w%d\n" % (n, n) for n in range(6, 18)))
    os.utime(later, (time.time() - 60, time.time() - 60))       # whole: taken at the next listing
    deadline = time.time() + 600
    lines = []

    def written():
        out1 = tmp_path / "out1"
        return [line for f in (out1.iterdir() if out1.is_dir() else []) if not f.name.startswith(".")
                for line in f.read_text().splitlines()]
    while time.time() < deadline and not any(line.startswith("6,") for line in lines):
        time.sleep(0.1)
        lines = written()
    with open(later, "a") as f:
        f.write("99,late\n")
    expected = ["1,ONE", "2,TWO"] + ["%d,W%d" % (n, n) for n in range(6, 18)]
    while time.time() < deadline and sorted(lines) != sorted(expected):
        time.sleep(1)
        lines = written()
    assert sorted(lines) == sorted(expected)
    shown = dynsql("-D", "dynsql.jobs.dir=%s" % jobs_dir, "-e", "SHOW JOBS;", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    [row] = [line for line in shown.stdout.splitlines() if live[0] in line]
    assert "| Input: %s changed after it was taken (76 bytes then, 84 bytes now): what was written to it after " \
           "that may be missing or cut; write files elsewhere and move them into the directory |" % later in row
    assert client.execute("STOP JOB '%s'" % live[0]).text == "[INFO] The specified job is stopped."
