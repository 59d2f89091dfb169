"""The batch fold of STDDEV_POP / STDDEV_SAMP / VAR_POP / VAR_SAMP (runtime/operators/moments_in_order.py), without
Spark: Arrow batches sorted by key in, one row per group out, each group's (n, mean, m2) carried from batch to
batch, never its values. The values are Flink 2.3's (tests/sql/spread_aggregates_distinct.sqltest recorded them):
the same doubles as the row-by-row operator gives."""

import pyarrow as pa

from planner.expr.types import parse_type
from runtime.operators.moments_in_order import WelfordFold

NAMES = ["k", "__mk0", "vs", "sp"]


def fold(batches):
    """(key, VAR_SAMP, STDDEV_POP of DOUBLE values) a group, from batches of (k, its text, value, value)."""
    double = parse_type("DOUBLE")
    f = WelfordFold(NAMES, 1, ["VAR_SAMP", "STDDEV_POP"], [double] * 2, [pa.float64()] * 2)
    batches = list(f(iter(batches)))
    if not batches:
        return []
    out = pa.Table.from_batches(batches)
    return list(zip(*[out.column(n).to_pylist() for n in ("k", "vs", "sp")]))


def batch(keys, values):
    return pa.RecordBatch.from_arrays([pa.array(keys, pa.float64()),
                                       pa.array([None if k is None else repr(k) for k in keys], pa.string()),
                                       pa.array(values, pa.float64()), pa.array(values, pa.float64())],
                                      names=["k", "__mk0", "v0", "v1"])


def test_a_group_spanning_batches_folds_in_arrival_order_to_flinks_values():
    # Flink's VAR_SAMP / STDDEV_POP of 100000000.1, .2, .35 in that order (Spark's variance differs in the last digits)
    rows = fold([batch([None, 1.0], [5.0, 100000000.1]), batch([1.0], [None]),
                 batch([1.0, 1.0], [100000000.2, 100000000.35])])
    assert rows == [(None, None, 0.0), (1.0, 0.01583333181838198, 0.10274022846766492)]


def test_nan_is_one_group_and_negative_zero_one_apart_from_zero():
    nan = float("nan")
    rows = fold([batch([-0.0, -0.0, 0.0], [1.0, 3.0, 2.0]), batch([nan], [4.0]), batch([nan], [6.0])])
    assert [(repr(k), vs) for k, vs, _ in rows] == [("-0.0", 2.0), ("0.0", None), ("nan", 2.0)]


def test_no_rows_no_groups():
    assert fold([]) == []


def test_no_group_aggregate_of_the_variance_family_collects_a_groups_values(client, tmp_path):
    """Spark's plan of a group aggregate (and of a window aggregate in batch mode) holds no collect_list, in either
    mode: the values are never gathered in one array, nor in the state of a streaming key (translated only, no job)."""
    (tmp_path / "t.csv").write_text("a,2024-01-01 10:00:01,1.5\na,2024-01-01 10:00:02,2.5\nb,2024-01-01 10:00:03,4\n")
    client.execute("CREATE TABLE t (k STRING, ts TIMESTAMP(3), x DOUBLE, WATERMARK FOR ts AS ts) WITH ("
                   "'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % (tmp_path / "t.csv"))
    window = ("SELECT k, window_start, STDDEV_SAMP(x) FROM TABLE(%s(TABLE t, DESCRIPTOR(ts), INTERVAL '10' SECOND%s)) "
              "GROUP BY k, window_start, window_end")
    queries = {"streaming": ["SELECT k, COUNT(*), STDDEV_POP(x), VAR_SAMP(x) FROM t GROUP BY k",
                             # a window aggregate as a job runs it (a SELECT's runs per micro-batch, carrying pairs)
                             "SET 'dynsql.window-aggregate.per-micro-batch' = 'false'",
                             window % ("TUMBLE", ""), window % ("HOP", ", INTERVAL '20' SECOND")],
               "batch": ["SELECT k, COUNT(*), STDDEV_POP(x), VAR_SAMP(x) FROM t GROUP BY k",
                         "SELECT VAR_POP(x) FROM t",
                         window % ("TUMBLE", "")]}
    for mode, statements in queries.items():
        client.execute("SET 'execution.runtime-mode' = '%s'" % mode)
        for sql in statements:
            if sql.startswith("SET"):
                client.execute(sql)
                continue
            frame = client.engine.result_frame(client.plan(sql).query, mode == "batch")
            assert "collect_list" not in frame.df._jdf.queryExecution().analyzed().toString(), (mode, sql)
