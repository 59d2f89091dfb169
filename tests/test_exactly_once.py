"""Exactly once under kill -9, through the public entry points: a job submitted by `Client.execute`, its
process killed twice at random moments while it writes, resumed each time with `dynsql --resume-job`
(the command SHOW JOBS gives for a failed job); the sink then holds the rows of one clean run, each once.
bench/exactly_once_kill.py is the same harness with 1 M rows and 20 kills (`make exactly-once`)."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import exactly_once_kill  # noqa: E402

pytestmark = pytest.mark.fault_injection     # `make test-faults`


def test_kill_9_twice_and_resume_loses_and_duplicates_nothing(tmp_path):
    kills = []
    figures = exactly_once_kill.run(rows=30000, kills=2, seed=7, rows_per_batch=2000, folder=str(tmp_path),
                                    log=kills.append, max_delay=3.0)
    assert figures["kills"] == 2, kills
    assert (figures["expected"], figures["found"], figures["lost"], figures["duplicated"], figures["unexpected"]) \
        == (27000, 27000, 0, 0, 0), (figures, kills)
    assert figures["hidden files left"] == 0
