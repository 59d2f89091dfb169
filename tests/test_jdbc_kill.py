"""Exactly once into PostgreSQL: an upsert job (GROUP BY into a jdbc table, its input paced) killed with kill -9
three times and resumed (the first kill in its first micro-batch, before anything was committed, its offset
file torn as such a kill can leave it), then its server stopped while it still has rows to write: the job
fails, SHOW JOBS gives a clear error naming the table and no password, and resumed once the server is back it
leaves the table equal to the exact counts and sums of the input. bench/jdbc_kill.py is the same harness with
300 k rows and 10 kills."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import jdbc_kill  # noqa: E402
from postgres_server import PASSWORD  # noqa: E402

pytestmark = pytest.mark.fault_injection     # `make test-faults`


def test_kill_9_and_a_stopped_server_lose_and_duplicate_nothing(tmp_path, postgres):
    log = []
    figures = jdbc_kill.run(rows=20000, keys=500, kills=3, seed=3, rows_per_batch=1000, folder=str(tmp_path),
                            server=postgres, server_stop=True, log=log.append, max_delay=2.0, pace=1000)
    assert figures["exact"] and figures["kills"] == 3, (figures, log)
    first = figures["first batch kill"]
    assert first == {"torn": True, "committed before the kill": False}, (first, log)
    stop = figures["server stop"]
    assert stop["status"] == "FAILED" and 0 < stop["committed"] < 20000, (stop, log)
    assert "Table 'dst' (jdbc, jdbc:postgresql://127.0.0.1:%d/postgres): " % postgres.port in stop["error"], stop
    assert "PostgreSQL" in stop["error"] and "while writing it" in stop["error"], stop
    assert PASSWORD not in str(stop) and "--resume-job" in stop["resume with"], stop
    # the job's record, output and checkpoint hold no password (only the owner-only secrets.json, which the job's
    # process replays its statements from)
    for folder, _, names in os.walk(tmp_path / "jobs"):
        for name in names:
            if name != "secrets.json":
                with open(os.path.join(folder, name), "rb") as f:
                    assert PASSWORD.encode() not in f.read(), os.path.join(folder, name)
