"""Nexmark q0-q22 (as the benchmark publishes them) through dynsql's client: events a second per query.

  .venv/bin/python bench/nexmark_bench.py                              100,000 events, every query, the connector
  .venv/bin/python bench/nexmark_bench.py --events 1000000 --queries 0,1,2,7 --source files
  FLINK_PY=/work/flink-venv/bin/python .venv/bin/python bench/nexmark_bench.py --queries 0,1   ... and on Flink

--source connector: Nexmark's ddl_gen.sql over the `nexmark` connector (the events are generated in Spark's
                    tasks, as Nexmark's source generates them in Flink's), with its three views;
--source files:     the flat tables over csv files that demo_data/nexmark.py writes first (not timed).
A query's time runs from submitting it to the end of its result (bounded input); its figure is the number of
input events divided by that time. A query dynsql cannot run prints its error. With FLINK_PY set, the same
queries run on Flink (streaming, parallelism 1) over the same events from the generated json file (nested)
or csv files (flat), through this file run by that interpreter, and the ratio is printed. q10 writes its
output into a temporary folder; q14 needs Nexmark's UDF and is left out. Not part of `make test`."""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "nexmark"))

import nexmark_sql  # noqa: E402

BASE_TIME = "2024-06-14 23:59:10"


def params(args):
    return {"events": args.events, "rate": args.rate, "base_time": BASE_TIME, "seed": 0}


def dynsql_times(args, numbers, data_dir):
    from repl.client import Client
    from runtime.results import ChangeStream
    from runtime.session import SparkRuntime
    runtime = SparkRuntime(master=args.master).start()
    runtime.session()
    out = {}
    try:
        for n in numbers:
            client = Client(spark_runtime=runtime)
            tables = (nexmark_sql.connector_tables(params(args)) if args.source == "connector"
                      else nexmark_sql.flat_tables(data_dir))
            sink = tempfile.mkdtemp(prefix="nexmark-bench-q%d-" % n)
            try:
                for text in tables:
                    client.execute(client.split(text)[0])
                setup, last = nexmark_sql.query_statements(n, data_dir, output=sink)
                for text in setup:
                    client.execute(client.split(text)[0])
                started = time.time()
                result = client.execute(client.split(last)[0])
                changes = 0
                if isinstance(result, ChangeStream):
                    for batch in result:
                        changes += len(batch.changes)
                else:
                    client.engine.jobs.wait_all()
                    failed = [j for j in client.engine.jobs.jobs.values() if j.status != "FINISHED"]
                    if failed:
                        raise RuntimeError("the INSERT job ended %s: %s" % (failed[0].status, failed[0].error))
                out[n] = {"seconds": time.time() - started, "changes": changes}
            except Exception as e:   # the query's verdict: print it, go on
                out[n] = {"error": " ".join(str(e).split())[:160]}
            finally:
                client.engine.jobs.stop_all()
                shutil.rmtree(sink, ignore_errors=True)
    finally:
        runtime.stop()
    return out


def flink_times(layout, numbers, data_dir):
    """Run by FLINK_PY (pyflink's interpreter): each query on Flink, timed the same way."""
    from pyflink.table import EnvironmentSettings, TableEnvironment
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    env.get_config().set("parallelism.default", "1")
    env.get_config().set("table.local-time-zone", "UTC")
    for s in nexmark_sql.table_statements(layout, data_dir):
        env.execute_sql(s)
    out = {}
    for n in numbers:
        sink = tempfile.mkdtemp(prefix="nexmark-bench-q%d-" % n)
        try:
            setup, last = nexmark_sql.query_statements(n, data_dir, output=sink)
            for s in setup:
                env.execute_sql(s)
            started = time.time()
            result = env.execute_sql(last)
            changes = 0
            if n in nexmark_sql.INSERT_QUERIES:
                result.wait()
            else:
                with result.collect() as rows:
                    for _ in rows:
                        changes += 1
            out[n] = {"seconds": time.time() - started, "changes": changes}
        except Exception as e:
            out[n] = {"error": " ".join(str(e).split())[:160]}
        finally:
            shutil.rmtree(sink, ignore_errors=True)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--events", type=int, default=100000)
    p.add_argument("--rate", type=int, default=10000, help="first-event.rate: events a second of event time")
    p.add_argument("--queries", default=",".join(str(n) for n in nexmark_sql.QUERY_NUMBERS if n != 14))
    p.add_argument("--source", choices=("connector", "files"), default="connector")
    p.add_argument("--master", default="local[2]")
    p.add_argument("--flink-worker", nargs=2, metavar=("LAYOUT", "DATA_DIR"), help=argparse.SUPPRESS)
    args = p.parse_args()
    numbers = [int(x) for x in args.queries.split(",")]
    if args.flink_worker:
        print(json.dumps(flink_times(args.flink_worker[0], numbers, args.flink_worker[1])))
        return
    data_dir = tempfile.mkdtemp(prefix="nexmark-bench-")
    try:
        flink_py = os.environ.get("FLINK_PY")
        if args.source == "files" or flink_py:
            started = time.time()
            nexmark_sql.write_input(params(args), data_dir)
            print("generated %d events in %.1f s" % (args.events, time.time() - started), flush=True)
        ours = dynsql_times(args, numbers, data_dir)
        theirs = {}
        if flink_py:
            layout = "nested" if args.source == "connector" else "flat"
            done = subprocess.run([flink_py, os.path.abspath(__file__), "--queries", args.queries,
                                   "--flink-worker", layout, data_dir], capture_output=True, text=True)
            lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
            theirs = {int(k): v for k, v in json.loads(lines[-1]).items()} if lines else {}
            if not lines:
                print("Flink did not run: %s" % done.stderr.strip()[-300:])
        print("%-4s %12s %10s %8s  %s" % ("q", "events/s", "seconds", "changes", "Flink events/s (ratio)" if flink_py else ""))
        for n in numbers:
            r = ours[n]
            flink = theirs.get(n, {})
            other = ""
            if "seconds" in flink:
                rate = args.events / flink["seconds"]
                other = "%.0f (%s)" % (rate, "%.2f" % ((args.events / r["seconds"]) / rate) if "seconds" in r else "-")
            elif "error" in flink:
                other = "Flink: " + flink["error"][:60]
            if "error" in r:
                print("q%-3d %12s %10s %8s  %s  error: %s" % (n, "-", "-", "-", other, r["error"]))
            else:
                print("q%-3d %12.0f %10.1f %8d  %s" % (n, args.events / r["seconds"], r["seconds"], r["changes"], other),
                      flush=True)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
