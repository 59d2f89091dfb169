"""An event-time temporal join over a versioned view that a streaming SELECT shows runs per micro-batch
(runtime/operators/temporal_join_per_batch.py): Spark's as-of join over the probe rows the watermark passed, the
others and the versions carried. Its rows are dynsql's temporal join operator's
(dynsql.temporal-join.per-micro-batch = false) on inputs read in many micro-batches, with versions that change
across them, rates older than their key's newest (no version), two rates of a key at one time, probe rows out
of order, before any version and of a key without versions, INNER and LEFT joins, a condition on the version
and projections and a filter above."""

import datetime as dt
import random

import pytest

from conformance_inprocess import case_names, run_case
from test_window_per_batch import insert_only_rows

START = dt.datetime(2024, 1, 1, 10, 0, 0)


def _text(ms):
    return (START + dt.timedelta(milliseconds=ms)).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def _rates(n=60, seed=5):
    """Rates of C0..C2 in time order, 6 s apart on average; some a second time at the same instant (the later
    is the version) and some older than their key's newest (none)."""
    rnd = random.Random(seed)
    lines, t, newest = [], 3000, {}
    for _ in range(n):
        t += rnd.randint(1000, 11000)
        cur = "C%d" % rnd.randint(0, 2)
        at = t
        if rnd.random() < 0.1 and cur in newest:
            at = newest[cur] - rnd.randint(0, 5000)        # older than the key's newest: no version
        newest[cur] = max(newest.get(cur, at), at)
        lines.append("%s,%d.%02d,%s" % (cur, rnd.randint(1, 9), rnd.randint(0, 99), _text(at)))
        if rnd.random() < 0.1:
            lines.append("%s,%d.5,%s" % (cur, rnd.randint(1, 9), _text(at)))     # same key, same time
    return "\n".join(lines) + "\n"


def _orders(n=120, seed=9):
    """Orders of C0..C3 (C3 has no rate) 3 s apart on average, some out of order by up to 8 s."""
    rnd = random.Random(seed)
    lines, t = [], 0
    for i in range(n):
        t += rnd.randint(0, 6000)
        at = max(t - (rnd.randint(0, 8000) if rnd.random() < 0.15 else 0), 0)
        lines.append("o%03d,%d,C%d,%s" % (i, rnd.randint(1, 50), rnd.randint(0, 3), _text(at)))
    return "\n".join(lines) + "\n"


QUERIES = [
    """SELECT o.id, o.amount, r.rate, r.update_time FROM orders AS o
       JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency""",
    """SELECT o.id, o.order_time, r.currency, r.rate FROM orders AS o
       LEFT JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r
       ON o.currency = r.currency AND r.rate > 3""",
    """SELECT id, amount * rate AS converted FROM (SELECT o.id, o.amount, r.rate FROM orders AS o
       LEFT JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency)
       WHERE amount > 10""",
]

PER_BATCH = "TemporalJoin: Spark's as-of join per micro-batch, held probe rows carried"


def _tables(client, tmp_path, rows_per_batch):
    (tmp_path / "rates.csv").write_text(_rates())
    (tmp_path / "orders.csv").write_text(_orders())
    options = "'format' = 'csv', 'scan.rows-per-batch' = '%d'" % rows_per_batch
    client.execute("CREATE TABLE rates (currency STRING, rate DECIMAL(10, 2), update_time TIMESTAMP(3), "
                   "WATERMARK FOR update_time AS update_time - INTERVAL '2' SECOND) WITH ('connector' = "
                   "'filesystem', 'path' = '%s', %s)" % (tmp_path / "rates.csv", options))
    client.execute("CREATE TABLE orders (id STRING, amount INT, currency STRING, order_time TIMESTAMP(3), "
                   "WATERMARK FOR order_time AS order_time - INTERVAL '1' SECOND) WITH ('connector' = "
                   "'filesystem', 'path' = '%s', %s)" % (tmp_path / "orders.csv", options))
    client.execute("CREATE VIEW versioned_rates AS SELECT currency, rate, update_time FROM (SELECT *, ROW_NUMBER() "
                   "OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum FROM rates) WHERE rownum = 1")


@pytest.mark.slow       # 22-27 s a query here: `make test-slow` (make test within 25 min on a slow CI machine)
@pytest.mark.parametrize("query", QUERIES)
def test_per_micro_batch_gives_the_temporal_join_operators_rows(client, tmp_path, query):
    client.settings.set("dynsql.one-pass.enabled", "false")
    _tables(client, tmp_path, 40)
    assert PER_BATCH in client.execute("EXPLAIN " + query).text
    ours = insert_only_rows(client, query)
    client.execute("SET 'dynsql.temporal-join.per-micro-batch' = 'false'")
    assert "TemporalJoin: dynsql's temporal join" in client.execute("EXPLAIN " + query).text
    assert ours == insert_only_rows(client, query) and len(ours) > 40


def test_not_under_an_insert_or_another_operator(client, tmp_path):
    """Only a SELECT's result with projections above: an INSERT INTO job keeps the operator's checkpointed
    state, and so does a join that feeds an aggregate."""
    _tables(client, tmp_path, 40)
    client.execute("CREATE TABLE out_t (id STRING, rate DECIMAL(10, 2)) WITH ('connector' = 'blackhole')")
    join = ("SELECT o.id, r.rate FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r "
            "ON o.currency = r.currency")
    assert "per micro-batch" not in client.execute("EXPLAIN INSERT INTO out_t " + join).text
    assert "per micro-batch" not in client.execute("EXPLAIN SELECT rate, COUNT(*) FROM (%s) GROUP BY rate"
                                                   % join).text


TEMPORAL_JOIN_CASES = case_names("tj_*")


@pytest.mark.parametrize("name", TEMPORAL_JOIN_CASES)
def test_conformance_case_on_the_temporal_join_operator(client, name):
    """Flink 2.3's temporal join cases on dynsql's temporal join operator too (test_conformance_cases.py runs
    them as chosen: per micro-batch where it applies)."""
    client.settings.set("dynsql.temporal-join.per-micro-batch", "false")
    ok, detail = run_case(client, name)
    assert ok, detail


def test_the_temporal_join_cases_are_there():
    assert len(TEMPORAL_JOIN_CASES) >= 3
