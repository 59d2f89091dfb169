"""Stopping the job hosts of a registry (runtime/job_host.py): the cluster check's, whose hosts would keep the
cluster's cores, and the test run's, whose host waits for the next test's job."""

import os
import signal
import time


def stop_job_hosts(jobs_dir, timeout=60):
    """Stop the job hosts of the registry `jobs_dir` (SIGTERM, as their idle timeout would later), waiting up to
    `timeout` s for each to exit (then SIGKILL). On a cluster a host keeps its application's cores while it
    lives, and the next check's applications would wait for cores that never come (a 2-core worker: the next
    script's session and its own job host)."""
    from runtime.job_host import host_pid
    hosts = os.path.join(jobs_dir, ".hosts")
    live = {}
    for key in os.listdir(hosts) if os.path.isdir(hosts) else ():
        pid = host_pid(os.path.join(hosts, key))
        if pid is not None:
            live[pid] = os.path.join(hosts, key)
            os.kill(pid, signal.SIGTERM)
    deadline = time.time() + timeout
    for pid, folder in live.items():
        while time.time() < deadline and host_pid(folder) == pid:
            time.sleep(0.5)
        if host_pid(folder) == pid:
            os.kill(pid, signal.SIGKILL)
