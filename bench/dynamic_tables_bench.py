"""Dynamic tables benchmark: rows/s of a continuous COUNT per user over generated clicks
(demo_data/generate.py: 1 M clicks over 10 k users by default), streaming mode, local[2]:

  (a) insert-only input:   SELECT user, COUNT(url) FROM clicks GROUP BY user
                            (Spark's native streaming aggregate, -U/+U derived at the sink)
  (b) updating input:      the same over a deduplicated view (last click per user and url),
                            our keyed processors (transformWithState, RocksDB state)

Prints the figures; asserts nothing. Usage: python bench/dynamic_tables_bench.py [--rows N] [--users N]"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--users", type=int, default=10_000)
    ap.add_argument("--batch", type=int, default=100_000, help="rows per micro-batch")
    args = ap.parse_args()

    out = tempfile.mkdtemp(prefix="dynsql-bench-")
    subprocess.run([sys.executable, os.path.join(ROOT, "demo_data", "generate.py"), "--click-rows", str(args.rows),
                    "--users", str(args.users), "--ticker-rows", "100", "--out", out], check=True,
                   stdout=subprocess.DEVNULL)
    from repl.client import Client
    from runtime.session import SparkRuntime

    rt = SparkRuntime(master="local[2]").start()
    client = Client(spark_runtime=rt)
    t = time.time()
    rt.session()
    print("spark session: %.1f s" % (time.time() - t))
    client.execute("CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, "
                   "WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv', 'scan.rows-per-batch' = '%d')"
                   % (os.path.join(out, "clicks.csv"), args.batch))
    client.execute("CREATE VIEW latest_clicks AS SELECT `user`, url, cTime FROM (SELECT *, ROW_NUMBER() OVER "
                   "(PARTITION BY `user`, url ORDER BY cTime DESC) AS rn FROM clicks) WHERE rn = 1")
    # warm-up: Python workers, the source runner, the state store
    run(client, "SELECT `user`, COUNT(url) AS cnt FROM clicks WHERE `user` = 'user_1' GROUP BY `user`")

    for label, query in (
            ("(a) COUNT per user, insert-only input", "SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`"),
            ("(b) COUNT per user over a deduplicated view",
             "SELECT `user`, COUNT(url) AS cnt FROM latest_clicks GROUP BY `user`")):
        changes, seconds = run(client, query)
        print("%-48s %8d rows in %6.1f s = %8.0f rows/s  (%d changes out)"
              % (label, args.rows, seconds, args.rows / seconds, changes))
    rt.stop()


def run(client, query):
    started = time.time()
    stream = client.execute(query)
    changes = sum(len(b.changes) for b in stream)
    return changes, time.time() - started


if __name__ == "__main__":
    main()
