"""The jdbc sink's throughput: 1 M upserts over 10 k keys (`INSERT INTO dst SELECT k, v FROM src`, dst keyed by k:
each key written 100 times) through dynsql's sink (an INSERT INTO job, streaming micro-batches, each staged by the
executors and applied in one transaction), next to Spark's plain JDBC writer (`df.write.jdbc`, appends only:
Spark has no upsert) writing the same rows into a table without a key. Rows/s of each, on a throwaway
PostgreSQL (tests/postgres_server.py), each with PostgreSQL's driver sending a JDBC batch as one multi-row
INSERT (`reWriteBatchedInserts=true`, the sink's default) and as single-row INSERTs (`=false` in the url, the
driver's default), at the same load.

    .venv/bin/python bench/jdbc_sink_bench.py [--rows 1000000] [--keys 10000]

The sink's time is the INSERT's wall time with `table.dml-sync`, the job's process start included (a first job
of 10 rows runs before, to warm the machine's caches; its time is shown too). README (jdbc) has the figures."""

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.append(os.path.join(ROOT, "tests"))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=1000000)
    p.add_argument("--keys", type=int, default=10000)
    a = p.parse_args()
    from postgres_server import PASSWORD, USER, PostgresServer
    from repl.client import Client
    server = PostgresServer().start()
    try:
        with tempfile.TemporaryDirectory(prefix="dynsql-jdbc-bench-") as folder:
            src = os.path.join(folder, "src.csv")
            with open(src, "w") as f:
                f.write("".join("%d,%d\n" % (i % a.keys, i) for i in range(a.rows)))
            with open(os.path.join(folder, "small.csv"), "w") as f:
                f.write("".join("%d,%d\n" % (i, i) for i in range(10)))
            server.psql("CREATE TABLE dst (k INT PRIMARY KEY, v BIGINT); CREATE TABLE plain (k INT, v BIGINT)")
            client = Client(master="local[2]", conf={"dynsql.jobs.dir": os.path.join(folder, "jobs")})
            try:
                for name, path in (("src", src), ("small", os.path.join(folder, "small.csv"))):
                    client.execute("CREATE TABLE %s (k INT, v BIGINT) WITH ('connector' = 'filesystem', "
                                   "'path' = '%s', 'format' = 'csv')" % (name, path))
                for rewrite in ("true", "false"):
                    client.execute("CREATE TABLE dst_%s (k INT, v BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ("
                                   "'connector' = 'jdbc', 'url' = '%s?reWriteBatchedInserts=%s', 'table-name' = "
                                   "'dst', 'username' = '%s', 'password' = '%s', 'sink.buffer-flush.max-rows' = "
                                   "'5000')" % (rewrite, server.url, rewrite, USER, PASSWORD))
                client.execute("SET 'table.dml-sync' = 'true'")
                t0 = time.time()
                client.execute("INSERT INTO dst_true SELECT k, v FROM small")
                start = time.time() - t0
                spark = client.engine.spark
                df = spark.read.csv(src, schema="k INT, v BIGINT")
                for rewrite in ("false", "true"):
                    server.psql("TRUNCATE dst, plain")
                    t0 = time.time()
                    client.execute("INSERT INTO dst_%s SELECT k, v FROM src" % rewrite)
                    sink = time.time() - t0
                    n = int(server.psql("SELECT COUNT(*) FROM dst")[0][0])
                    t0 = time.time()
                    df.write.jdbc(server.url, "plain", mode="append", properties={
                        "user": USER, "password": PASSWORD, "driver": "org.postgresql.Driver", "batchsize": "5000",
                        "reWriteBatchedInserts": rewrite})
                    plain = time.time() - t0
                    m = int(server.psql("SELECT COUNT(*) FROM plain")[0][0])
                    load = os.getloadavg()[0]
                    print("reWriteBatchedInserts=%s (load %.1f):" % (rewrite, load))
                    print("  dynsql jdbc sink: %d upserts over %d keys in %.1f s: %.0f rows/s, the job's process "
                          "start included (%d rows in the table; the first job, 10 rows, took %.1f s)"
                          % (a.rows, a.keys, sink, a.rows / sink, n, start))
                    print("  Spark's JDBC writer: %d appends in %.1f s: %.0f rows/s (%d rows in the table)"
                          % (a.rows, plain, a.rows / plain, m), flush=True)
            finally:
                client.close()
    finally:
        server.stop()
    print("load (uptime): %s" % subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
