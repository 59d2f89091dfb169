"""A job host killed under its job (kill -9): the job reads FAILED, and its error says the host ended and where
its log is, with the log's last lines (what the host last did), so that nobody has to guess why."""

import os
import signal
import time

import pytest

pytestmark = [pytest.mark.fault_injection, pytest.mark.own_job_registry]     # `make test-faults`


def test_a_job_whose_host_was_killed_fails_naming_the_hosts_log(client, tmp_path):
    watched = tmp_path / "in"
    watched.mkdir()
    (watched / "a.csv").write_text("1,one\n")
    client.execute("CREATE TABLE live (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'csv', 'source.monitor-interval' = '1 s')" % watched)
    client.execute("CREATE TABLE copy (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'csv')" % (tmp_path / "out"))
    message = client.execute("INSERT INTO copy SELECT n, word FROM live")
    job_id = message.text.split("Job ID:")[1].strip()
    jobs = client.engine.jobs
    deadline = time.time() + 300
    while jobs.registry.get(job_id).status != "RUNNING" and time.time() < deadline:
        time.sleep(0.5)
    record = jobs.registry.get(job_id)
    assert record.status == "RUNNING", record.error
    os.kill(record.pid, signal.SIGKILL)
    record = jobs.wait(job_id, timeout=60)
    log = os.path.join(record.job_host, "host.log")
    assert record.status == "FAILED"
    assert record.error.startswith("the job host (pid %d) ended without finishing the job; its log, %s, ends: "
                                   % (record.pid, log)), record.error
    assert "[INFO] job host %d for " % record.pid in open(log).read()
    [row] = [r for r in client.execute("SHOW JOBS").rows if r[0] == job_id]
    assert row[2] == "FAILED"
