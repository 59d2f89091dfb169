"""The session's warm-up (runtime/warm_up.py): a query of its own through dynsql's filesystem source, a keyed
aggregate and the foreachBatch hand-off, run to its end; a user's query stops it and it does not start again."""

import pytest

from runtime import warm_up


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(warm_up, "_running", {"query": None, "stopped": False})


def test_the_warm_up_runs_its_query_to_the_end(spark, fresh):
    assert warm_up.warm_up(spark) == warm_up.ROWS


def test_a_user_query_stops_the_warm_up_for_good(spark, fresh, client, tmp_path):
    (tmp_path / "t.csv").write_text("1\n2\n")
    client.execute("CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')"
                   % (tmp_path / "t.csv"))
    assert [c for b in client.execute("SELECT a FROM t") for c in b.changes] == [("+I", (1,)), ("+I", (2,))]
    assert warm_up.warm_up(spark) is None
