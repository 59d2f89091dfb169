"""The five performance workloads of ../shared/perf (workloads.sql over gen_data.py's files), run unchanged
through the client API on one warm session (local[2]), each result drained to its end as a user's query
is; prints rows/s per workload. With FLINK_PY set (a Python with apache-flink 2.3), runs flink_perf.py on the
same files in the same sitting and prints the ratio dynsql / Flink.

    python bench/workloads_bench.py [--rows N] [--parts P] [--data DIR] [--shell-warm-up] [--micro-batches]
                                    [--set KEY=VALUE ...] [WORKLOAD ...]

The session is warmed as flink_perf.py warms Flink's JVM: one trivial query first. With --shell-warm-up it is
first warmed as the interactive shell warms its session (runtime/warm_up.py's queries, run to their end).
Each workload's line says how it ran: `one pass` (runtime/one_pass.py), `micro-batches`, or `batch`;
--micro-batches turns the one pass off (`dynsql.one-pass.max-input-size` = 0).
The inputs are generated once into DIR (default demo_data/generated/perf, git-ignored). Asserts nothing."""

import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PERF = os.path.join(os.path.dirname(ROOT), "shared", "perf")
sys.path.insert(0, ROOT)


def workloads(data):
    """(DDL statements text, [(name, mode, query)]) from workloads.sql, as flink_perf.py reads it."""
    with open(os.path.join(PERF, "workloads.sql"), encoding="utf-8") as f:
        text = f.read().replace("${DATA}", data)
    head, *parts = re.split(r"^-- workload: ", text, flags=re.M)
    out = []
    for part in parts:
        first, query = part.split("\n", 1)
        name, mode = re.match(r"(\w+) \((\w+)\)", first).groups()
        out.append((name, mode, query.strip().rstrip(";")))
    return head, out


def ensure_data(data, rows, parts=0):
    """gen_data.py's files in `data` (`parts` > 0: three tables each a directory of that many files)."""
    marker = os.path.join(data, ".rows")
    shape = str(rows) + (" in %d parts" % parts if parts else "")
    if os.path.exists(marker) and open(marker).read().strip() == shape:
        return
    if os.path.exists(data):
        import shutil
        shutil.rmtree(data)    # a directory of parts replaces a file and the other way round
    os.makedirs(data, exist_ok=True)
    subprocess.run([sys.executable, os.path.join(PERF, "gen_data.py"), data, "--rows", str(rows)]
                   + (["--parts", str(parts)] if parts else []), check=True)
    with open(marker, "w") as f:
        f.write(shape)


def drain(client, query):
    from runtime.results import ChangeStream
    started = time.time()
    result = client.execute(query)
    changes = sum(len(b.changes) for b in result) if isinstance(result, ChangeStream) else len(result.rows)
    return time.time() - started, changes


def flink_figures(data, names):
    """{workload: rows/s} from flink_perf.py run with $FLINK_PY, or {} without it."""
    py = os.environ.get("FLINK_PY")
    if not py:
        return {}
    out = subprocess.run([py, os.path.join(PERF, "flink_perf.py"), data] + names, capture_output=True, text=True)
    figures = {}
    for line in out.stdout.splitlines():
        m = re.match(r"(\w+)\s+([\d.]+) s\s+([\d.]+) rows/s", line.strip())
        if m:
            figures[m.group(1)] = float(m.group(3))
    if not figures:
        print("flink_perf.py printed no figures:\n" + out.stdout + out.stderr[-2000:], file=sys.stderr)
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--parts", type=int, default=0,
                    help="each 1 M-row table a directory of this many files (gen_data.py --parts)")
    ap.add_argument("--data", default=os.path.join(ROOT, "demo_data", "generated", "perf"))
    ap.add_argument("--shell-warm-up", action="store_true",
                    help="warm the session as the interactive shell does before the workloads")
    ap.add_argument("--micro-batches", action="store_true",
                    help="streaming workloads on micro-batches, never in one pass")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a session setting for the workloads (e.g. dynsql.window-aggregate.per-micro-batch=false)")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    ensure_data(args.data, args.rows, args.parts)
    head, loads = workloads(args.data)
    loads = [w for w in loads if not args.names or w[0] in args.names]
    from repl.client import Client
    from runtime.session import SparkRuntime
    rt = SparkRuntime(master="local[2]", warm_up=args.shell_warm_up).start()
    client = Client(spark_runtime=rt)
    if args.micro_batches:
        client.settings.set("dynsql.one-pass.max-input-size", "0")
    for pair in args.set:
        key, _, value = pair.partition("=")
        client.settings.set(key.strip(), value.strip())
    t = time.time()
    rt.session()
    print("spark session: %.1f s" % (time.time() - t), flush=True)
    if args.shell_warm_up:
        from runtime.warm_up import wait_for_warm_up
        t = time.time()
        wait_for_warm_up()
        print("the shell's warm-up: %.1f s more" % (time.time() - t), flush=True)
    for stmt in client.split(head):
        client.execute(stmt)
    # warm: Python workers, sources; on micro-batches, as before the one pass existed
    one_pass = client.settings.get("dynsql.one-pass.max-input-size")
    client.settings.set("dynsql.one-pass.max-input-size", "0")
    drain(client, "SELECT symbol FROM Ticker WHERE price < 0")
    client.settings.set("dynsql.one-pass.max-input-size", one_pass)
    ours = {}
    for name, mode, query in loads:
        client.settings.set("execution.runtime-mode", mode)
        how = "batch" if mode == "batch" else \
            "one pass" if "one pass" in client.execute("EXPLAIN " + query).text else "micro-batches"
        seconds, changes = drain(client, query)
        ours[name] = args.rows / seconds
        print("%-14s %6.1f s %9.0f rows/s  (%d changes out; %s)" % (name, seconds, ours[name], changes, how),
              flush=True)
    rt.stop()
    flink = flink_figures(args.data, [n for n, _, _ in loads])
    if flink:
        print("\n%-14s %14s %14s %7s" % ("workload", "dynsql rows/s", "Flink rows/s", "ratio"))
        for name, _, _ in loads:
            f = flink.get(name)
            print("%-14s %14.0f %14s %7s" % (name, ours[name], "%.0f" % f if f else "-",
                                             "%.2f" % (ours[name] / f) if f else "-"))
    print("load average: %.2f" % os.getloadavg()[0])


if __name__ == "__main__":
    main()
