"""Exactly once into PostgreSQL: an upsert job (GROUP BY into a jdbc table) killed with kill -9 twice and
resumed, then its server stopped mid-job (the job fails with a clear error naming the table, no password) and
resumed once the server is back: the table equals the exact counts and sums of the input. bench/jdbc_kill.py is
the same harness with 300 k rows and 10 kills."""

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
    figures = jdbc_kill.run(rows=20000, keys=500, kills=2, seed=3, rows_per_batch=2000, folder=str(tmp_path),
                            server=postgres, server_stop=True, log=log.append, max_delay=3.0)
    assert figures["exact"] and figures["kills"] == 2, (figures, log)
    error = figures["server stop error"]
    if error is not None:     # the job was still running when the server stopped
        assert "Table 'dst'" in error and PASSWORD not in error, error
