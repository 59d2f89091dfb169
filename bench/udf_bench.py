"""Python UDF benchmark: rows/s of a scalar Python function over 1 M rows next to the same expression in SQL,
batch mode, local[2], one SparkSession, the rows in a parquet file (dynsql's, as the shell starts it):

  (a) source only:        SELECT COUNT(*), SUM(n) FROM numbers          (what every query below also pays)
  (b) SQL expression:     SELECT COUNT(*), SUM(n * 2 + 1) FROM numbers
  (c) general Python UDF: SUM(twice_plus_one(n)), a Python call a row (rows reach it in Arrow batches)
  (d) pandas Python UDF:  SUM(twice_plus_one_pandas(n)), a call a batch of pandas.Series
  (e) strings, SQL:       SUM(CHAR_LENGTH(UPPER(word) || '!'))  and  (f) the same as a general Python UDF

Each query runs --runs times; the best time is reported (the first run also pays Python worker start-up).
Prints the figures (and `uptime`) and checks that each UDF gives the rows of its SQL twin.
Usage: python bench/udf_bench.py [--rows N] [--runs N]"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

UDF_MODULE = '''
from dynsql.udf import udf


@udf(result_type="BIGINT", input_types=["BIGINT"])
def twice_plus_one(n):
    return n * 2 + 1


@udf(result_type="BIGINT", input_types=["BIGINT"], func_type="pandas")
def twice_plus_one_pandas(n):
    return n * 2 + 1


@udf(result_type="STRING", input_types=["STRING"])
def shout(s):
    return s.upper() + "!"
'''

QUERIES = [
    ("source only", "SELECT COUNT(*), SUM(n) FROM numbers"),
    ("SQL n * 2 + 1", "SELECT COUNT(*), SUM(n * 2 + 1) FROM numbers"),
    ("general UDF twice_plus_one(n)", "SELECT COUNT(*), SUM(twice_plus_one(n)) FROM numbers"),
    ("pandas UDF twice_plus_one_pandas(n)", "SELECT COUNT(*), SUM(twice_plus_one_pandas(n)) FROM numbers"),
    ("SQL UPPER(word) || '!'", "SELECT COUNT(*), SUM(CHAR_LENGTH(UPPER(word) || '!')) FROM numbers"),
    ("general UDF shout(word)", "SELECT COUNT(*), SUM(CHAR_LENGTH(shout(word))) FROM numbers"),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    out = tempfile.mkdtemp(prefix="dynsql-udf-bench-")
    words = ["alpha", "beta", "gamma", "delta", "epsilon"]
    import pyarrow as pa
    import pyarrow.parquet as pq
    os.makedirs(os.path.join(out, "numbers"))
    pq.write_table(pa.table({"n": pa.array(range(args.rows), pa.int64()),
                             "word": pa.array([words[i % 5] for i in range(args.rows)])}),
                   os.path.join(out, "numbers", "part-0.parquet"))
    with open(os.path.join(out, "bench_udfs.py"), "w") as f:
        f.write(UDF_MODULE)
    from repl.client import Client
    from runtime.session import SparkRuntime

    rt = SparkRuntime(master="local[2]").start()
    client = Client(spark_runtime=rt)
    for statement in (
            "SET 'execution.runtime-mode' = 'batch'",
            "SET 'python.files' = '%s'" % os.path.join(out, "bench_udfs.py"),
            "CREATE TABLE numbers (n BIGINT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%s', "
            "'format' = 'parquet')" % os.path.join(out, "numbers"),
            "CREATE FUNCTION twice_plus_one AS 'bench_udfs.twice_plus_one' LANGUAGE PYTHON",
            "CREATE FUNCTION twice_plus_one_pandas AS 'bench_udfs.twice_plus_one_pandas' LANGUAGE PYTHON",
            "CREATE FUNCTION shout AS 'bench_udfs.shout' LANGUAGE PYTHON"):
        client.execute(statement)
    print("rows: %d, runs: %d, best of them; %s" % (args.rows, args.runs, _uptime()))
    results = {}
    for label, sql in QUERIES:
        best, rows = None, None
        for _ in range(args.runs):
            t = time.time()
            rows = client.execute(sql).rows
            elapsed = time.time() - t
            best = elapsed if best is None else min(best, elapsed)
        results[label] = rows
        print("%-38s %7.2f s  %10.0f rows/s   %s" % (label, best, args.rows / best, rows[0]))
    assert results["SQL n * 2 + 1"] == results["general UDF twice_plus_one(n)"] == \
        results["pandas UDF twice_plus_one_pandas(n)"], results
    assert results["SQL UPPER(word) || '!'"] == results["general UDF shout(word)"], results
    print("after: %s" % _uptime())
    client.close()


def _uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


if __name__ == "__main__":
    main()
