"""The filesystem source's driver memory and speed, through the shell's client on dynsql's own session.

1. A watched directory ('source.monitor-interval') receives FILES files of ROWS rows, one after the other
   (each written under a hidden name and renamed in place), while a query that keeps no row runs over it.
2. A bounded file of BIG rows is read by the same query (Trigger.availableNow).
Prints, over time, the RSS of the Python driver (this process), of the JVM, of the source's planning
process (the Python worker where Spark plans the micro-batches) and of the other Python workers
(the executors', and Spark's planning daemons); then
each one's growth over the watched run (from the end of the second file on) and the peak of the bounded
run, and rows/s. Figures only: nothing here passes or fails.

  .venv/bin/python bench/source_memory_bench.py [--files 20] [--rows 200000] [--big 10000000]
                                                [--skip-watched] [--skip-big] [--data DIR] [--minutes M]
`make soak` runs the watched directory for an hour (--minutes 60): its driver RSS from minute 10 on should
stay flat.
Run against another checkout (e.g. the code before a change) with PYTHONPATH=/that/checkout."""

import argparse
import datetime as dt
import os
import shutil
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)   # a PYTHONPATH checkout, when given, comes first

MB = 1 << 20
QUERY = "SELECT `user`, url FROM {t} WHERE url = './nowhere'"
DDL = ("CREATE TABLE {t} (`user` STRING, cTime TIMESTAMP(3), url STRING, "
       "WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) "
       "WITH ('connector' = 'filesystem', 'path' = '{path}', 'format' = 'csv'{extra})")


def write_clicks(path, rows, first=0):
    """`rows` click rows (10,000 users, a second apart, some out of order), written under a hidden name and
    renamed into place, so that a watching reader never sees half a file."""
    base = dt.datetime(2024, 1, 1)
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path))
    with open(tmp, "w") as f:
        chunk = []
        for i in range(first, first + rows):
            t = base + dt.timedelta(seconds=i - (i % 7 == 3) * 5)
            chunk.append("u%d,%s,./page/%d\n" % (i % 10000, t.strftime("%Y-%m-%d %H:%M:%S"), i % 97))
            if len(chunk) == 100000:
                f.write("".join(chunk))
                chunk = []
        f.write("".join(chunk))
    os.rename(tmp, path)


# ------------------------------------------------------------------------------------------ memory
def rss_mb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def _children(pid):
    out = []
    try:
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                out += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return out


def _cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def processes():
    """{'python driver': [pid], 'jvm': [...], 'source planner': [...], 'python workers': [...]}: the python
    workers are the executors' (pyspark.daemon and its forks) and Spark's planning daemons."""
    me = os.getpid()
    groups = {"python driver": [me], "jvm": [], "source planner": [], "python workers": []}
    todo = _children(me)
    while todo:
        pid = todo.pop()
        cmd = _cmdline(pid)
        if "java" in cmd.split(" ")[0]:
            groups["jvm"].append(pid)
        elif "python_streaming_source_runner" in cmd:     # where Spark plans a streaming source's batches
            groups["source planner"].append(pid)
        elif "python" in cmd:
            groups["python workers"].append(pid)
        todo += _children(pid)
    return groups


def sample():
    return {name: sum(rss_mb(p) for p in pids) for name, pids in processes().items()}


class Sampler(threading.Thread):
    """RSS of every group every `interval` seconds (twice a second by default), with the rows read so far."""

    def __init__(self, rows_read, interval=0.5):
        super().__init__(daemon=True)
        self.rows_read = rows_read
        self.interval = interval
        self.samples = []          # (seconds, rows, {group: MB})
        self.stopped = threading.Event()
        self.started = time.time()

    def run(self):
        while not self.stopped.is_set():
            self.samples.append((time.time() - self.started, self.rows_read(), sample()))
            self.stopped.wait(self.interval)


GROUPS = ("python driver", "jvm", "source planner", "python workers")


def show(label, s):
    print("%-28s " % label + "  ".join("%s %7.0f MB" % (g, s[g]) for g in GROUPS), flush=True)


# ------------------------------------------------------------------------------------------ runs
class InputRows:
    """Rows the running query has read, from its progress reports."""

    def __init__(self, spark):
        self.spark = spark
        self.queries = {}          # kept after they stop: their last progress counts too
        self.by_batch = {}

    def __call__(self):
        for q in self.spark.streams.active:
            self.queries.setdefault(q.id, q)
        for q in self.queries.values():
            for p in q.recentProgress:
                self.by_batch[(q.id, p["batchId"])] = p["numInputRows"]
        return sum(self.by_batch.values())


def watched(client, spark, data, files, rows, minutes=None):
    """`files` files of `rows` rows, one after the other; with `minutes`, as many as that many minutes take (a
    soak: the driver's RSS each minute, and its growth from minute 10 to the end)."""
    folder = os.path.join(data, "watched")
    os.makedirs(folder)
    client.execute(DDL.format(t="watched", path=folder, extra=", 'source.monitor-interval' = '1 s'"))
    stream = client.execute(QUERY.format(t="watched"))
    read = InputRows(spark)
    # a soak samples every 5 s: twice a second, the list of samples alone grew this process by ~3 MB an hour,
    # counted in the driver's RSS it measures
    sampler = Sampler(read, interval=0.5 if minutes is None else 5.0)
    sampler.start()
    print("\n== watched directory: %s files of %d rows" % (
        files if minutes is None else "%d minutes of" % minutes, rows), flush=True)
    after_file, per_minute = [], []
    t0 = time.time()
    try:
        for n in range(files if minutes is None else 10 ** 9):
            if minutes is not None:
                while len(per_minute) < int((time.time() - t0) / 60):
                    per_minute.append(sample())
                    show("minute %3d, %9d rows read" % (len(per_minute), read()), per_minute[-1])
                if time.time() - t0 >= minutes * 60:
                    break
            write_clicks(os.path.join(folder, "part-%03d.csv" % n), rows, n * rows)
            deadline = time.time() + 600
            while read() < (n + 1) * rows and time.time() < deadline:
                if stream.finished:
                    raise RuntimeError("the query ended: %s" % stream.error)
                time.sleep(0.2)
            s = sample()
            after_file.append(s)
            show("file %2d, %9d rows read" % (n + 1, read()), s)
    finally:
        elapsed = time.time() - t0
        stream.stop()
        sampler.stopped.set()
    print("rows/s over the run (files written meanwhile): %.0f" % (read() / elapsed))
    if len(per_minute) > 10:
        drv = ("python driver", "jvm")
        b, e = sum(per_minute[9][g] for g in drv), sum(per_minute[-1][g] for g in drv)
        print("driver RSS (python + jvm), minute 10 -> minute %d: %.0f MB -> %.0f MB (%+.1f %%); %d files, %d rows"
              % (len(per_minute), b, e, 100.0 * (e - b) / b, len(after_file), read()))
    if len(after_file) > 2:
        base = after_file[1]
        print("growth from the end of file 2 to the end (peak over the run, all samples after file 2):")
        later = [s for _, r, s in sampler.samples if r >= 2 * rows]
        for g in GROUPS:
            last, peak = after_file[-1][g], max(s[g] for s in later) if later else 0
            if g == "jvm" and later:
                when = max((x for x in sampler.samples if x[1] >= 2 * rows), key=lambda x: x[2]["jvm"])
                print("  (the JVM's peak came at %.1f s, %d rows read)" % (when[0], when[1]))
            print("  %-17s %7.0f MB -> %7.0f MB (%+.1f %%), peak %7.0f MB (%+.1f %%)" % (
                g, base[g], last, 100.0 * (last - base[g]) / base[g] if base[g] else 0,
                peak, 100.0 * (peak - base[g]) / base[g] if base[g] else 0))
        drv = ("python driver", "jvm")
        for first in (2, 5):
            if len(after_file) > first:
                b, e = sum(after_file[first - 1][g] for g in drv), sum(after_file[-1][g] for g in drv)
                print("  driver (python + jvm), end of file %d -> end: %7.0f MB -> %7.0f MB (%+.1f %%)"
                      % (first, b, e, 100.0 * (e - b) / b))


def bounded(client, spark, data, rows):
    path = os.path.join(data, "big.csv")
    print("\n== bounded file of %d rows" % rows, flush=True)
    t = time.time()
    write_clicks(path, rows)
    print("written in %.0f s (%.0f MB)" % (time.time() - t, os.path.getsize(path) / MB), flush=True)
    client.execute(DDL.format(t="big", path=path, extra=""))
    read = InputRows(spark)
    sampler = Sampler(read)
    sampler.start()
    t0 = time.time()
    stream = client.execute(QUERY.format(t="big"))
    last_shown = 0
    for _ in stream:
        pass
    while not stream.finished:
        time.sleep(0.2)
    elapsed = time.time() - t0
    sampler.stopped.set()
    sampler.join()
    for seconds, r, s in sampler.samples:
        if seconds - last_shown >= 10:
            show("%5.0f s, %9d rows read" % (seconds, r), s)
            last_shown = seconds
    peak = {g: max(s[g] for _, _, s in sampler.samples) for g in GROUPS}
    show("peak", peak)
    when = max(sampler.samples, key=lambda x: x[2]["jvm"])
    print("the JVM's peak came at %.1f s, %d rows read" % (when[0], when[1]))
    print("peak driver (python + jvm): %.0f MB; with the source planner: %.0f MB" % (
        max(s["python driver"] + s["jvm"] for _, _, s in sampler.samples),
        max(s["python driver"] + s["jvm"] + s["source planner"] for _, _, s in sampler.samples)))
    print("%d rows in %.1f s: %.0f rows/s" % (read(), elapsed, read() / elapsed))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--minutes", type=int, help="a soak: write files into the watched directory for this long")
    ap.add_argument("--rows", type=int, default=200000)
    ap.add_argument("--big", type=int, default=10000000)
    ap.add_argument("--skip-watched", action="store_true")
    ap.add_argument("--skip-big", action="store_true")
    ap.add_argument("--data", help="folder for the generated files (default: a temporary one, removed after)")
    args = ap.parse_args(argv)
    from repl.client import Client
    data = args.data or tempfile.mkdtemp(prefix="dynsql-source-bench-")
    os.makedirs(data, exist_ok=True)
    client = Client()
    try:
        spark = client.engine.spark
        print("machine load: %s" % open("/proc/loadavg").read().strip())
        show("started", sample())
        if not args.skip_watched:
            watched(client, spark, data, args.files, args.rows, args.minutes)
        if not args.skip_big:
            bounded(client, spark, data, args.big)
        print("machine load: %s" % open("/proc/loadavg").read().strip())
    finally:
        client.close()
        if not args.data:
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
