"""INSERT INTO jobs in a job host (runtime/job_host.py), through the `dynsql` command: the scripts of a project
hand their jobs to one long-lived process whose JVM runs them all; a script of DDL and INSERTs starts no JVM of
its own (the host checks its INSERTs and a bad one fails the script with Flink's message, leaving no job); the
registry is the project's .dynsql/jobs; STOP JOB returns at once; DROP JOB removes a job that no longer runs, and
SHOW JOBS removes those that ended longer ago than `jobstore.expiration-time`.
A paced source resumed from its checkpoint goes on at its pace at once."""

import json
import os
import time

import pytest
from test_cli import dynsql

from runtime.job_registry import JobRegistry


@pytest.mark.slow       # 27 s here: `make test-slow` (make test within 25 min on a slow CI machine)
def test_scripts_share_a_job_host_and_a_bad_insert_leaves_no_job(tmp_path):
    watched = tmp_path / "in"
    watched.mkdir()
    (watched / "a.csv").write_text("1,one\n")
    (tmp_path / "b.csv").write_text("3,three\n4,four\n")
    ddl = """
CREATE TABLE live (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%(watched)s', 'format' = 'csv',
  'source.monitor-interval' = '1 s');
CREATE TABLE fixed (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = 'b.csv', 'format' = 'csv');
CREATE TABLE copy_live (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = 'out1', 'format' = 'csv');
CREATE TABLE copy_fixed (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = 'out2', 'format' = 'csv');
CREATE TABLE wrong (n INT, word INT) WITH ('connector' = 'filesystem', 'path' = 'out3', 'format' = 'csv');
""" % {"watched": watched}
    (tmp_path / "live.sql").write_text(ddl + "INSERT INTO copy_live SELECT n, UPPER(word) FROM live;\n")
    (tmp_path / "fixed.sql").write_text(ddl + "SET 'table.dml-sync' = 'true';\n"
                                        "INSERT INTO copy_fixed SELECT n, word FROM fixed;\n")
    (tmp_path / "wrong.sql").write_text(ddl + "INSERT INTO wrong SELECT n, word FROM fixed;\n")

    first = dynsql("-f", "live.sql", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    registry = JobRegistry(str(tmp_path / ".dynsql" / "jobs"))     # the project's registry: the working folder's
    [live] = registry.all()
    assert live.status in ("INITIALIZING", "RUNNING") and live.job_host and live.checked

    started = time.time()
    second = dynsql("-f", "fixed.sql", cwd=tmp_path)
    took = time.time() - started
    assert second.returncode == 0, second.stderr
    assert "Complete execution of the SQL update statement" in second.stdout + second.stderr
    fixed = [r for r in registry.all() if r.id != live.id][0]
    assert fixed.status == "FINISHED" and fixed.rows_written == 2, fixed
    # the same host process (and so the same JVM) ran both
    assert (fixed.pid, fixed.job_host) == (registry.get(live.id).pid, live.job_host)
    assert sorted(line for f in (tmp_path / "out2").iterdir() if not f.name.startswith(".")
                  for line in f.read_text().splitlines()) == ["3,three", "4,four"]
    print("a 2-row INSERT INTO with table.dml-sync, its job host up: %.1f s (load %.1f)" % (took, os.getloadavg()[0]))

    wrong = dynsql("-f", "wrong.sql", cwd=tmp_path)
    assert wrong.returncode == 1
    assert "Column types of query result and sink for 'default_catalog.default_database.wrong' do not match" \
        in wrong.stderr and "Traceback" not in wrong.stderr
    assert len(registry.all()) == 2          # the refused INSERT left no job behind

    refused = dynsql("-e", "DROP JOB '%s';" % live.id, cwd=tmp_path)
    assert refused.returncode == 1 and "Could not drop job %s: it is still running" % live.id in refused.stderr
    # jobs that ended expire from the registry when it is listed, after jobstore.expiration-time (Flink's key)
    kept = dynsql("-D", "jobstore.expiration-time=3600", "-e", "SHOW JOBS;", cwd=tmp_path)
    assert kept.returncode == 0 and live.id in kept.stdout and fixed.id in kept.stdout, kept.stdout + kept.stderr
    expired = dynsql("-D", "jobstore.expiration-time=0", "-e", "SHOW JOBS;", cwd=tmp_path)
    assert expired.returncode == 0 and fixed.id not in expired.stdout, expired.stdout + expired.stderr
    assert live.id in expired.stdout                                        # the running one stays
    assert not os.path.exists(registry.folder(fixed.id)) and os.path.exists(registry.folder(live.id))
    bad = dynsql("-D", "jobstore.expiration-time=1 h", "-e", "SHOW JOBS;", cwd=tmp_path)
    assert bad.returncode == 2 and \
        "Could not parse value '1 h' for key 'jobstore.expiration-time': a whole number of seconds" in bad.stderr

    started = time.time()
    stopped = dynsql("--output", "jsonl", "-e", "STOP JOB '%s'; DROP JOB '%s'; SHOW JOBS;" % (live.id, live.id),
                     cwd=tmp_path)
    assert stopped.returncode == 0, stopped.stderr
    assert "The specified job is stopped" in stopped.stdout + stopped.stderr
    assert (stopped.stdout + stopped.stderr).count("The specified job is dropped") == 1
    assert registry.all() == [] and not os.path.exists(registry.folder(live.id))
    print("STOP JOB + DROP JOB + SHOW JOBS through dynsql -e: %.1f s" % (time.time() - started))


def test_a_resumed_paced_source_goes_on_at_its_pace_at_once():
    """A datagen table paced at 10 rows/s whose checkpoint says 500 rows were read: the next micro-batch may read
    on at once (before, the reader first waited 50 s for its clock to pass the rows already read)."""
    from runtime.connectors.datagen import DatagenSpec, DatagenStreamReader
    spec = DatagenSpec(json.dumps({"columns": [["n", "INT"]], "options": {"rows-per-second": "10"}}))
    reader = DatagenStreamReader(spec)
    first = reader.latestOffset({"row": 500, "done": False})
    assert first["row"] == 501
    time.sleep(0.25)
    assert 503 <= reader.latestOffset({"row": 501, "done": False})["row"] <= 520
