"""The session's warm-up (runtime/warm_up.py): four queries of its own through dynsql's filesystem source and
the foreachBatch hand-off (a keyed count, a window count, a keyed event-time processor), one batch job (the
one pass) and a TUMBLE query planned as a user's is, each run to its end;
a user's query stops it, waits until it has stopped, and no warm-up query starts again."""

import threading
import time

import pytest

from runtime import warm_up


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(warm_up, "_running", {"query": None, "stopped": False, "thread": None, "spark": None})


def test_the_warm_up_runs_its_queries_to_the_end(spark, fresh):
    # its rows are one a second from 00:00:00 (the last at 00:16:39); a 1-minute window is emitted once the
    # watermark (the last time - 1 s = 00:16:38) passes its end: the first 16 minutes' rows. The TUMBLE count
    # over the larger file: a day's minutes (its times wrap after a day: the later rows are late), 10 keys each
    assert warm_up.warm_up(spark) == {"keyed count": warm_up.ROWS, "window count": 16 * 60,
                                      "event-time counts": warm_up.ROWS, "one pass": 3 * warm_up.ONE_PASS_ROWS,
                                      "TUMBLE count": 24 * 60 * 10}


def test_a_user_query_stops_the_warm_up_for_good(spark, fresh, client, tmp_path):
    (tmp_path / "t.csv").write_text("1\n2\n")
    client.execute("CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')"
                   % (tmp_path / "t.csv"))
    assert [c for b in client.execute("SELECT a FROM t") for c in b.changes] == [("+I", (1,)), ("+I", (2,))]
    assert warm_up.warm_up(spark) is None


def test_stopping_returns_once_the_warm_up_query_has_stopped(spark, fresh):
    warm_up.start_warm_up(spark)
    deadline = time.time() + 60
    while warm_up._running["query"] is None and time.time() < deadline:   # its query has started
        time.sleep(0.05)
    assert warm_up._running["query"] is not None
    warm_up.stop_warm_up()
    assert not warm_up._running["thread"].is_alive()
    assert not [q for q in spark.streams.active if q.name == "dynsql_warm_up"]


@pytest.mark.slow       # 11 s here: `make test-slow` (make test within 25 min on a slow CI machine)
def test_waiting_for_the_warm_up_returns_once_its_queries_have_run(spark, fresh):
    warm_up.start_warm_up(spark)
    warm_up.wait_for_warm_up(120)
    assert not warm_up._running["thread"].is_alive()
    assert not warm_up._running["stopped"]          # it ran to its end: no user query stopped it
    assert not [q for q in spark.streams.active if q.name == "dynsql_warm_up"]


def test_stopping_cancels_the_one_pass_batch_job(spark, fresh, tmp_path):
    """The one pass reads a larger file (ONE_PASS_ROWS): a user's query does not wait for its job to end."""
    path = warm_up._write_rows(str(tmp_path), "rows.csv", 300000)
    warm_up._running["spark"] = spark
    result = []
    thread = threading.Thread(target=lambda: result.append(warm_up._one_pass(spark, path, str(tmp_path / "one"))))
    thread.start()
    tracker = spark.sparkContext.statusTracker()
    deadline = time.time() + 60
    while not tracker.getActiveJobsIds() and thread.is_alive() and time.time() < deadline:
        time.sleep(0.01)
    jobs = tracker.getActiveJobsIds()
    warm_up.stop_warm_up()
    thread.join(60)
    assert jobs and result == [None]
    assert [tracker.getJobInfo(j).status for j in jobs] == ["FAILED"] * len(jobs)    # cancelled, not finished
