"""INSERT INTO from `dynsql -f`, as Flink's SQL client does it: the script submits a job and goes on (the
job outlives the dynsql process); with SET 'table.dml-sync' = 'true' an INSERT waits for its job, so that a
later query of the same script reads what it wrote. A file the job's source took and read to its end, written
to afterwards, is named in SHOW JOBS (input notes), as the shell names it under a query's result: what was
written to it later is never read."""

import json
import time

import pytest

from test_cli import dynsql

pytestmark = pytest.mark.own_job_registry      # its dynsql process lists the jobs of the registry


@pytest.mark.slow       # 14-24 s on CI: `make test-slow` (CI's time)
def test_a_script_submits_jobs_that_outlive_it_and_waits_with_dml_sync(client, tmp_path):
    jobs_dir = client.settings.jobs_dir
    watched = tmp_path / "in"
    watched.mkdir()
    (watched / "a.csv").write_text("1,one\n2,two\n")
    (tmp_path / "b.csv").write_text("3,three\n4,four\n5,five\n")
    script = tmp_path / "jobs.sql"
    script.write_text("""
CREATE TABLE live (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%(watched)s', 'format' = 'csv',
  'source.monitor-interval' = '1 s');
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
    stopped = False
    try:
        assert live[2] in ("INITIALIZING", "RUNNING"), live
        assert jobs["insert-into_default_catalog.default_database.copy_fixed"][2:4] == ("FINISHED", 2)
        (watched / "c.csv").write_text("6,six\n")

        def written():
            out1 = tmp_path / "out1"
            return sorted(line for f in (out1.iterdir() if out1.is_dir() else []) if not f.name.startswith(".")
                          for line in f.read_text().splitlines())
        deadline = time.time() + 180
        while time.time() < deadline and "6,SIX" not in written():
            time.sleep(0.5)
        assert written() == ["1,ONE", "2,TWO", "6,SIX"], "c.csv's row not in the sink after 180 s"
        # a.csv's rows are in the sink: the job has read it to its end, and a line appended to it now is never read;
        # the job's source notes the file (at its next listing), and SHOW JOBS names it with its size then and now
        with open(watched / "a.csv", "a") as f:
            f.write("99,late\n")

        def notes():
            shown = client.execute("SHOW JOBS")
            at = [c.name for c in shown.columns].index("input notes")
            return {r[0]: r[at] for r in shown.rows}[live[0]]
        deadline = time.time() + 60
        while time.time() < deadline and notes() is None:
            time.sleep(0.5)
        assert notes() == ("Input: %s changed after it was taken (12 bytes then, 20 bytes now): what was written to "
                           "it after that may be missing or cut; write files elsewhere and move them into the "
                           "directory" % (watched / "a.csv")), "no input note 60 s after a.csv changed"
        assert client.execute("STOP JOB '%s'" % live[0]).text == "[INFO] The specified job is stopped."
        stopped = True
        assert written() == ["1,ONE", "2,TWO", "6,SIX"]
    finally:
        if not stopped:          # a failed check leaves no job running
            client.execute("STOP JOB '%s'" % live[0])
