"""Python aggregate function benchmark: rows/s of a udaf next to the same built-in aggregate, local[2], one
SparkSession, the rows in a CSV file (n BIGINT, k STRING: --keys groups):

  batch mode (--rows, default 1 M):
    (a) SQL:               SELECT k, AVG(n) FROM numbers GROUP BY k
    (b) pandas udaf:       SELECT k, mean_of(n) ...        (Spark collects each group's rows, one Arrow UDF a batch)
  streaming mode (--stream-rows, default 100 k, micro-batches of 20 k rows):
    (c) SQL:               SELECT k, SUM(n) FROM numbers GROUP BY k      (Spark's native update-mode aggregate)
    (d) general udaf:      SELECT k, total(n) ...          (dynsql's keyed processor, the accumulator in RocksDB)

Each batch query runs --runs times (best reported; the first also pays Python worker start-up); the streaming ones
once each. Prints the figures with `uptime` and checks each udaf's rows against its SQL twin.
Usage: python bench/udaf_bench.py [--rows N] [--stream-rows N] [--keys N] [--runs N]"""

import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from udf_bench import _uptime  # noqa: E402  (bench/udf_bench.py, beside this script)

UDAF_MODULE = '''
from dynsql.udf import AggregateFunction, udaf


class Total(AggregateFunction):
    def create_accumulator(self):
        return [0]

    def accumulate(self, acc, n):
        acc[0] += n

    def retract(self, acc, n):
        acc[0] -= n

    def get_value(self, acc):
        return acc[0]


total = udaf(Total(), result_type="BIGINT", accumulator_type="ARRAY<BIGINT>")


@udaf(result_type="DOUBLE", func_type="pandas")
def mean_of(n):
    return n.mean()
'''


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--stream-rows", type=int, default=100_000)
    ap.add_argument("--keys", type=int, default=1_000)
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()

    out = tempfile.mkdtemp(prefix="dynsql-udaf-bench-")
    for name, rows in (("batch.csv", args.rows), ("stream.csv", args.stream_rows)):
        with open(os.path.join(out, name), "w") as f:
            f.writelines("%d,k%d\n" % (i, i % args.keys) for i in range(rows))
    with open(os.path.join(out, "bench_udafs.py"), "w") as f:
        f.write(UDAF_MODULE)
    from repl.client import Client
    from runtime.session import SparkRuntime

    rt = SparkRuntime(master="local[2]").start()
    client = Client(spark_runtime=rt)
    for statement in (
            "SET 'python.files' = '%s'" % os.path.join(out, "bench_udafs.py"),
            "CREATE TABLE numbers (n BIGINT, k STRING) WITH ('connector' = 'filesystem', 'path' = '%s', "
            "'format' = 'csv')" % os.path.join(out, "batch.csv"),
            "CREATE TABLE stream_numbers (n BIGINT, k STRING) WITH ('connector' = 'filesystem', 'path' = '%s', "
            "'format' = 'csv', 'scan.rows-per-batch' = '20000')" % os.path.join(out, "stream.csv"),
            "CREATE FUNCTION total AS 'bench_udafs.total' LANGUAGE PYTHON",
            "CREATE FUNCTION mean_of AS 'bench_udafs.mean_of' LANGUAGE PYTHON"):
        client.execute(statement)
    print("batch rows: %d, streaming rows: %d, keys: %d; %s" % (args.rows, args.stream_rows, args.keys, _uptime()))
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    results = {}
    for label, sql in (("(a) batch SQL AVG(n)", "SELECT k, AVG(CAST(n AS DOUBLE)) FROM numbers GROUP BY k"),
                       ("(b) batch pandas udaf mean_of(n)", "SELECT k, mean_of(n) FROM numbers GROUP BY k")):
        best = None
        for _ in range(args.runs):
            t = time.time()
            rows = client.execute(sql).rows
            best = time.time() - t if best is None else min(best, time.time() - t)
        results[label] = sorted((k, round(v, 6)) for k, v in rows)
        print("%-40s %7.2f s  %10.0f rows/s" % (label, best, args.rows / best))
    assert results["(a) batch SQL AVG(n)"] == results["(b) batch pandas udaf mean_of(n)"]
    client.execute("SET 'execution.runtime-mode' = 'streaming'")
    finals = []
    for label, sql in (("(c) streaming SQL SUM(n)", "SELECT k, SUM(n) FROM stream_numbers GROUP BY k"),
                       ("(d) streaming general udaf total(n)", "SELECT k, total(n) FROM stream_numbers GROUP BY k")):
        t = time.time()
        final = {}
        for batch in client.execute(sql):
            for op, row in batch.changes:
                if op in ("+I", "+U"):
                    final[row[0]] = row[1]
        seconds = time.time() - t
        finals.append(final)
        print("%-40s %7.2f s  %10.0f rows/s" % (label, seconds, args.stream_rows / seconds))
    assert finals[0] == finals[1], "the udaf's rows differ from SUM's"
    print("after: %s" % _uptime())
    rt.stop()


if __name__ == "__main__":
    main()
