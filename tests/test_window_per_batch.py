"""A window aggregate a streaming SELECT shows runs per micro-batch (runtime/operators/window_per_batch.py):
Spark's batch aggregate over the windows the watermark closed, the open windows' pairs carried. Its rows are
Spark's streaming window aggregate's (dynsql.window-aggregate.per-micro-batch = false) on inputs read in many
micro-batches, with windows open across them, late rows, HOP and CUMULATE windows and a filter above."""

import datetime as dt
import random

import pytest

START = dt.datetime(2024, 1, 1, 10, 0, 0)


def _events(n=300, seed=7):
    """Rows mostly in time order, some out of order (late for their windows or not), 4 users."""
    rnd = random.Random(seed)
    lines, t = [], 0
    for i in range(n):
        t += rnd.randint(0, 2500)
        ts = t - (rnd.randint(0, 9000) if rnd.random() < 0.15 else 0)
        when = START + dt.timedelta(milliseconds=max(ts, 0))
        lines.append("u%d,%s,%d" % (rnd.randint(1, 4), when.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3], rnd.randint(1, 9)))
    return "\n".join(lines) + "\n"


QUERIES = [
    """SELECT window_start, window_end, `user`, COUNT(*) AS cnt, SUM(amount) AS total, MAX(ts) AS last_ts
       FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND))
       GROUP BY window_start, window_end, `user`""",
    """SELECT window_start, window_end, COUNT(DISTINCT `user`) AS users, AVG(amount) AS mean
       FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '15' SECOND))
       GROUP BY window_start, window_end""",
    """SELECT window_end, `user`, SUM(amount) AS total
       FROM TABLE(CUMULATE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '1' MINUTE))
       WHERE amount > 2
       GROUP BY window_start, window_end, `user` HAVING SUM(amount) > 5""",
]


def insert_only_rows(client, sql):
    """The rows of `sql`, each +I (asserted), sorted."""
    result = client.execute(sql)
    out = [(op, tuple(row)) for batch in result for op, row in batch.changes]
    assert all(op == "+I" for op, _ in out)
    return sorted(out, key=repr)


@pytest.mark.slow       # 13 s a query here: `make test-slow` (make test within 25 min on a slow CI machine)
@pytest.mark.parametrize("query", QUERIES)
def test_per_micro_batch_gives_the_streaming_aggregates_rows(client, tmp_path, query):
    path = tmp_path / "events.csv"
    path.write_text(_events(120))
    client.execute("CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, "
                   "WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv', 'scan.rows-per-batch' = '40')" % path)
    client.execute("SET 'dynsql.one-pass.enabled' = 'false'")     # micro-batches on every forced path too
    explained = client.execute("EXPLAIN " + query).text
    assert "WindowAggregate: Spark's aggregate per micro-batch, open windows carried" in explained
    ours = insert_only_rows(client, query)
    client.execute("SET 'dynsql.window-aggregate.per-micro-batch' = 'false'")
    assert "WindowAggregate: Spark's window aggregate" in client.execute("EXPLAIN " + query).text
    assert ours == insert_only_rows(client, query) and len(ours) > 10


def test_not_under_an_insert_or_another_operator(client, tmp_path):
    """Only a SELECT's result with projections above: an INSERT INTO job keeps Spark's checkpointed state."""
    path = tmp_path / "events.csv"
    path.write_text(_events(20))
    client.execute("CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, "
                   "WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv')" % path)
    client.execute("CREATE TABLE out_t (n BIGINT) WITH ('connector' = 'blackhole')")
    inner = ("SELECT window_start, window_end, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), "
             "INTERVAL '10' SECOND)) GROUP BY window_start, window_end")
    assert "per micro-batch" not in client.execute("EXPLAIN INSERT INTO out_t SELECT n FROM (%s)" % inner).text
    assert "per micro-batch" not in client.execute("EXPLAIN SELECT n, COUNT(*) FROM (%s) GROUP BY n" % inner).text
