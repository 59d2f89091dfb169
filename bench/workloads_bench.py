"""The five performance workloads of ../shared/perf (workloads.sql over gen_data.py's files), run unchanged
through the client API on one warm session (local[2]), each result drained to its end as a user's query
is; prints rows/s per workload. With FLINK_PY set (a Python with apache-flink 2.3), runs flink_perf.py on the
same files in the same sitting and prints the ratio dynsql / Flink.

    python bench/workloads_bench.py [--rows N] [--parts P] [--data DIR] [--shell-warm-up] [--micro-batches]
                                    [--set KEY=VALUE ...] [WORKLOAD ...]
    python bench/workloads_bench.py --all-shapes [--data ROOT] [...] [WORKLOAD ...]

--all-shapes runs the workloads on the three shapes of ../shared/perf/README.md, one after the other on one
session: 1 M rows in one file (ROOT/d1), 4 M rows in one file (ROOT/d4m), 1 M rows in 10 files (ROOT/d10),
each folder reused when its `.rows` marker says it holds that shape, generated otherwise; with FLINK_PY set
it ends with one table of every (shape, workload): dynsql rows/s, Flink rows/s, the ratio, issue 26's aim and
whether the ratio meets it.

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
DEFAULT_DATA = os.path.join(ROOT, "demo_data", "generated", "perf")
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


# the three shapes (folder under --data with --all-shapes, rows, part files) and issue 26's aims (dynsql / Flink)
SHAPES = [("1 M rows, one file", "d1", 1_000_000, 0), ("4 M rows, one file", "d4m", 4_000_000, 0),
          ("1 M rows in 10 files", "d10", 1_000_000, 10)]
AIMS = {"mr_stream": 2.0, "mr_batch": 5.0, "group": 1.5, "tumble": 1.5, "temporal_join": 1.5}


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
    ap.add_argument("--data", default=DEFAULT_DATA,
                    help="the inputs' folder (with --all-shapes: the folder of d1, d4m and d10; default %s-shapes)"
                         % DEFAULT_DATA)
    ap.add_argument("--shell-warm-up", action="store_true",
                    help="warm the session as the interactive shell does before the workloads")
    ap.add_argument("--micro-batches", action="store_true",
                    help="streaming workloads on micro-batches, never in one pass")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a session setting for the workloads (e.g. dynsql.window-aggregate.per-micro-batch=false)")
    ap.add_argument("--all-shapes", action="store_true",
                    help="the three shapes (1 M rows in a file, 4 M rows in a file, 1 M rows in 10 files) in "
                         "folders d1, d4m, d10 under --data, and one table of all ratios")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    if args.all_shapes:
        root = args.data if args.data != DEFAULT_DATA else DEFAULT_DATA + "-shapes"
        shapes = [(title, os.path.join(root, folder), rows, parts) for title, folder, rows, parts in SHAPES]
    else:
        shapes = [(None, args.data, args.rows, args.parts)]
    for _, data, rows, parts in shapes:
        ensure_data(data, rows, parts)
    from repl.client import Client
    from runtime.session import SparkRuntime
    rt = SparkRuntime(master="local[2]", warm_up=args.shell_warm_up).start()

    def new_client():
        """A client on the session (one a shape: each creates the tables over its folder)."""
        client = Client(spark_runtime=rt)
        if args.micro_batches:
            client.settings.set("dynsql.one-pass.max-input-size", "0")
        for pair in args.set:
            key, _, value = pair.partition("=")
            client.settings.set(key.strip(), value.strip())
        return client
    t = time.time()
    rt.session()
    print("spark session: %.1f s" % (time.time() - t), flush=True)
    if args.shell_warm_up:
        from runtime.warm_up import wait_for_warm_up
        t = time.time()
        wait_for_warm_up()
        print("the shell's warm-up: %.1f s more" % (time.time() - t), flush=True)
    ours = []
    for title, data, rows, _ in shapes:
        if title:
            print("\n%s (%s)" % (title, data), flush=True)
        ours.append(run_shape(new_client(), data, rows, args.names))
    rt.stop()
    figures = []
    for (title, data, _, _), mine in zip(shapes, ours):
        flink = flink_figures(data, list(mine))
        if not flink:
            continue
        if title is None:
            print("\n%-14s %14s %14s %7s" % ("workload", "dynsql rows/s", "Flink rows/s", "ratio"))
            for name, rate in mine.items():
                f = flink.get(name)
                print("%-14s %14.0f %14s %7s" % (name, rate, "%.0f" % f if f else "-",
                                                 "%.2f" % (rate / f) if f else "-"))
        figures += [(title, name, rate, flink.get(name)) for name, rate in mine.items()]
    if args.all_shapes and figures:
        print(shapes_table(figures))
    print("load average: %.2f" % os.getloadavg()[0])


def run_shape(client, data, rows, names):
    """{workload: dynsql rows/s} of the workloads (all, or `names`) over the files in `data` (`rows` each)."""
    head, loads = workloads(data)
    loads = [w for w in loads if not names or w[0] in names]
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
        ours[name] = rows / seconds
        print("%-14s %6.1f s %9.0f rows/s  (%d changes out; %s)" % (name, seconds, ours[name], changes, how),
              flush=True)
    return ours


def shapes_table(figures):
    """The table of (shape, workload, dynsql rows/s, Flink rows/s or None): ratio, aim, met?"""
    lines = ["", "%-22s %-14s %14s %14s %7s %6s %5s" % ("shape", "workload", "dynsql rows/s", "Flink rows/s",
                                                       "ratio", "aim", "met?")]
    met = 0
    for title, name, ours, flink in figures:
        ratio = ours / flink if flink else None
        aim = AIMS.get(name)
        ok = ratio is not None and aim is not None and ratio >= aim
        met += ok
        lines.append("%-22s %-14s %14.0f %14s %7s %6s %5s" % (
            title, name, ours, "%.0f" % flink if flink else "-", "%.2f" % ratio if ratio is not None else "-",
            "%.1f" % aim if aim else "-", "yes" if ok else "no"))
    lines.append("%d of %d ratios at their aim" % (met, len(figures)))
    return "\n".join(lines)

if __name__ == "__main__":
    main()
