"""The job registry when its files are damaged or two processes want the same job: a damaged job.json is listed
(DAMAGED, naming the file) without hiding the other jobs, STOP JOB still finds its process, and a job never runs
in two processes at once."""

import json
import os
import subprocess
import sys
import time

import pytest

from planner.errors import SqlError
from runtime.job_registry import DAMAGED, JobRecord, JobRegistry

pytestmark = pytest.mark.own_job_registry      # it lists the registry's jobs and writes its own records

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _record(job_id, status="CANCELED", **more):
    return JobRecord(id=job_id, name="insert-into_" + job_id, inserts=["INSERT INTO t SELECT 1"],
                     statements=["CREATE TABLE t (a INT) WITH ('connector' = 'blackhole')"], conf={},
                     status=status, started="2026-11-28 06:00:0%d" % len(job_id), **more)


@pytest.fixture
def jobs(client):
    """The session's jobs, in a registry of the test's own (conftest.py)."""
    return client.engine.jobs


@pytest.mark.parametrize("content,why", [
    ("{\"id\": \"bad\", \"name\": ", "Expecting value"),                      # cut mid-write
    ("[1, 2]", "a JSON list, not an object"),
    ("{\"id\": \"bad\", \"name\": \"x\"}", "it lacks inserts, statements, conf"),
    ("{\"id\": \"bad\", \"name\": \"x\", \"inserts\": 5, \"statements\": [], \"conf\": {}}", "its inserts is 5"),
])
def test_a_damaged_record_is_listed_and_hides_no_other_job(jobs, content, why):
    registry = jobs.registry
    registry.create(_record("good"))
    registry.create(_record("bad"))
    with open(os.path.join(registry.folder("bad"), "job.json"), "w") as f:
        f.write(content)
    rows = {row[0]: row for row in jobs.show().rows}
    assert rows["good"][2] == "CANCELED"
    assert rows["bad"][2] == DAMAGED
    assert os.path.join(registry.folder("bad"), "job.json") in rows["bad"][7] and why in rows["bad"][7]
    with pytest.raises(SqlError, match="no process of it runs"):
        jobs.stop("bad")
    with pytest.raises(SqlError, match="cannot resume: .*job.json is damaged"):
        jobs.resume("bad")


def test_stop_job_finds_the_process_of_a_job_whose_record_is_damaged(jobs):
    """The job's process (here one whose command line names the job's folder, as `dynsql --job-run FOLDER`'s
    does, and that ends on SIGTERM as a job does) is found and stopped although job.json cannot say its pid."""
    registry = jobs.registry
    registry.create(_record("lost", status="RUNNING"))
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", registry.folder("lost")])
    try:
        registry.update("lost", pid=process.pid)
        with open(os.path.join(registry.folder("lost"), "job.json"), "w") as f:
            f.write("{\"id\": \"lost\"")
        record = registry.get("lost")
        assert record.status == DAMAGED and record.pid == process.pid
        assert "still runs: STOP JOB 'lost' stops it" in record.error
        started = time.time()
        result = jobs.stop("lost", timeout=5)
        assert "stopped" in result.text and process.wait(timeout=30) is not None
        assert time.time() - started < 60
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_job_is_not_run_by_two_processes(jobs, tmp_path, monkeypatch):
    """While a process holds the job's run lock, a second `dynsql --job-run` of it exits at once without touching
    the record, and a resume is refused (after waiting a while for a process that is closing)."""
    import runtime.jobs
    monkeypatch.setattr(runtime.jobs, "EXIT_WAIT_SECONDS", 2)
    registry = jobs.registry
    registry.create(_record("busy", status="FAILED"))
    before = open(os.path.join(registry.folder("busy"), "job.json")).read()
    lock = registry.run_lock("busy")
    assert lock.take()
    try:
        second = subprocess.run([sys.executable, "-m", "repl.cli", "--job-run", registry.folder("busy")], cwd=ROOT,
                                env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True, timeout=120)
        assert second.returncode == 2
        assert "already running in another process" in second.stderr
        assert open(os.path.join(registry.folder("busy"), "job.json")).read() == before
        with pytest.raises(SqlError, match="still running in another process"):
            jobs.resume("busy")
    finally:
        lock.release()
    assert not registry.run_lock("busy").held_elsewhere()


def test_a_record_is_replaced_whole(tmp_path):
    """job.json is written to a temporary file, flushed to disk and renamed over the old one."""
    registry = JobRegistry(str(tmp_path / "jobs"))
    registry.create(_record("j"))
    for n in range(20):
        registry.update("j", rows={"0": {"rows": n, "batch": n}})
        with open(os.path.join(registry.folder("j"), "job.json")) as f:
            assert json.load(f)["rows"]["0"]["rows"] == n
    assert sorted(os.listdir(registry.folder("j"))) == ["job.json"]
