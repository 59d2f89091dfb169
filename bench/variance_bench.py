"""STDDEV_POP / VAR_SAMP benchmark: seconds of a group aggregate of the variance family whose rows are nearly all
in one group, local[2], one SparkSession, the rows in a CSV file (k STRING, x DOUBLE; --rows, default 1 M):

  batch mode:      SELECT k, STDDEV_POP(x), VAR_SAMP(x) FROM v GROUP BY k            (the sorted fold alone)
                   SELECT k, STDDEV_POP(x), VAR_SAMP(x), COUNT(*) FROM v GROUP BY k  (joined to Spark's COUNT)
  streaming mode:  the first, on micro-batches (--stream-rows, default 100 k): dynsql's keyed aggregate

Memory is what changed (runtime/operators/moments_in_order.py): each group keeps (n, mean, m2), where the values
were collected into one array a group (batch) or into a key's state for ever (streaming). The figures here are the
price in time; each query's rows are checked against the row-by-row operator's fold of the file's values in file
order (Flink's values). Prints the figures with `uptime`.
Usage: python bench/variance_bench.py [--rows N] [--stream-rows N] [--runs N]"""

import argparse
import os
import random
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from udf_bench import _uptime  # noqa: E402  (bench/udf_bench.py, beside this script)

QUERIES = ("SELECT k, STDDEV_POP(x), VAR_SAMP(x) FROM v GROUP BY k",
           "SELECT k, STDDEV_POP(x), VAR_SAMP(x), COUNT(*) FROM v GROUP BY k")


def write_rows(path, n):
    """n rows, 9 in 10 in group 'a', values near 1e8 (where the summation order shows in the last digits)."""
    rng = random.Random(7)
    rows = [("a" if i % 10 else rng.choice("bc"), 1e8 + rng.random()) for i in range(n)]
    with open(path, "w") as f:
        f.writelines("%s,%r\n" % r for r in rows)
    return rows


def expected(rows):
    """{k: (STDDEV_POP, VAR_SAMP)} by the row-by-row operator's accumulators, the rows in file order."""
    from planner.expr.types import parse_type
    from runtime.operators.accumulators import Accumulator
    calls = [Accumulator("STDDEV_POP", "x"), Accumulator("VAR_SAMP", "x")]
    for a in calls:
        a.result_type = parse_type("DOUBLE")
    states = {}
    for k, x in rows:
        for a, s in zip(calls, states.setdefault(k, [a.empty() for a in calls])):
            a.add(s, {"x": x}, 1)
    return {k: tuple(a.result(s) for a, s in zip(calls, st)) for k, st in states.items()}


def final_rows(result):
    if hasattr(result, "rows"):
        return {r[0]: tuple(r[1:3]) for r in result.rows}
    final = {}
    for batch in result:
        for op, row in batch.changes:
            if op in ("+I", "+U"):
                final[row[0]] = tuple(row[1:3])
    return final


def run(client, sql, want):
    start = time.time()
    got = final_rows(client.execute(sql))
    seconds = time.time() - start
    if got != want:
        raise SystemExit("%s: %s, not the row-by-row fold's %s" % (sql, got, want))
    return seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--stream-rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    from repl.client import Client
    folder = tempfile.mkdtemp(prefix="variance-bench-")
    client = Client(master="local[2]", conf={"dynsql.one-pass.enabled": "false"})
    try:
        print(_uptime())
        for mode, n in (("batch", args.rows), ("streaming", args.stream_rows)):
            path = os.path.join(folder, "%s.csv" % mode)
            want = expected(write_rows(path, n))
            client.execute("SET 'execution.runtime-mode' = '%s'" % mode)
            client.execute("CREATE TABLE v_%s (k STRING, x DOUBLE) WITH ('connector' = 'filesystem', 'path' = '%s', "
                           "'format' = 'csv', 'scan.rows-per-batch' = '20000')" % (mode, path))
            for sql in QUERIES if mode == "batch" else QUERIES[:1]:
                sql = sql.replace("FROM v ", "FROM v_%s " % mode)
                runs = [run(client, sql, want) for _ in range(args.runs if mode == "batch" else 1)]
                print("%-9s %8d rows  %6.1f s  %s" % (mode, n, min(runs), sql))
        print(_uptime())
    finally:
        client.close()


if __name__ == "__main__":
    main()
