"""A directory of many one-row files (default 10,000): how long dynsql takes to read it, in streaming mode (a
bounded directory read in micro-batches, and watched for new files) and in batch mode, next to Spark's own csv
source on the same folder (batch, and a streaming read with Trigger.availableNow). Small files are packed into
tasks as Spark packs them (runtime/connectors/splits.py, `packed`): the figures should be alike.

    .venv/bin/python bench/small_files_bench.py [--files 10000] [--data DIR]

Prints seconds per read and rows read; asserts nothing."""

import argparse
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

DDL = ("CREATE TABLE {t} (`user` STRING, cTime TIMESTAMP(3), url STRING) "
       "WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'csv')")


def write_files(folder, files):
    os.makedirs(folder)
    for i in range(files):
        with open(os.path.join(folder, "part-%05d.csv" % i), "w") as f:
            f.write("u%d,2024-01-01 00:%02d:%02d,./page/%d\n" % (i % 100, i // 60 % 60, i % 60, i))


def timed(label, run):
    started = time.time()
    rows = run()
    seconds = time.time() - started
    print("%-48s %7.1f s  %7d rows  (load %s)" % (label, seconds, rows, " ".join(
        "%.1f" % x for x in os.getloadavg())), flush=True)
    return seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=10000)
    ap.add_argument("--data", help="where to write the files (default: a temporary folder)")
    args = ap.parse_args()
    data = args.data or tempfile.mkdtemp(prefix="dynsql-small-files-")
    folder = os.path.join(data, "clicks")
    try:
        t = time.time()
        write_files(folder, args.files)
        print("%d one-row files written in %.1f s" % (args.files, time.time() - t), flush=True)
        from repl.client import Client
        from runtime.results import ChangeStream
        # micro-batches, not the one pass: what a directory too large for one pass takes
        client = Client(master="local[2]", conf={"dynsql.one-pass.max-input-size": "0"}).start()
        client.execute(DDL.format(t="clicks", path=folder))
        spark = client.engine.spark

        def drain(query):
            result = client.execute(query)
            if isinstance(result, ChangeStream):
                return sum(len(b.changes) for b in result)
            return len(result.rows)

        timed("warm-up (one trivial query)", lambda: drain("SELECT 1"))
        timed("dynsql streaming (micro-batches)", lambda: drain("SELECT `user`, url FROM clicks"))
        client.execute("SET 'execution.runtime-mode' = 'batch'")
        timed("dynsql batch", lambda: drain("SELECT `user`, url FROM clicks"))
        schema = "user STRING, cTime TIMESTAMP, url STRING"
        timed("Spark's csv source, batch", lambda: spark.read.schema(schema).csv(folder).count())

        def spark_streaming():
            out = []
            q = (spark.readStream.schema(schema).csv(folder).writeStream
                 .foreachBatch(lambda df, _: out.append(df.count())).trigger(availableNow=True)
                 .option("checkpointLocation", os.path.join(data, "spark-checkpoint")).start())
            q.awaitTermination()
            return sum(out)
        timed("Spark's csv source, streaming (availableNow)", spark_streaming)
        client.close()
    finally:
        if not args.data:
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
