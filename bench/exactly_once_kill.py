"""Exactly once under kill -9: an INSERT INTO a csv filesystem table over a 1 M-row csv file, the job's
process killed (SIGKILL) at random moments while it writes, resumed each time with the command SHOW JOBS
gives (`dynsql --resume-job <id>`); at the end the sink's rows are compared with what one clean run writes.

    .venv/bin/python bench/exactly_once_kill.py [--rows 1000000] [--kills 20] [--seed 1]

Prints each kill (when, rows written so far) and the figures: rows expected / found / lost / duplicated /
unexpected. Exit 0 when none is lost, duplicated or unexpected. `make exactly-once` runs it;
tests/test_exactly_once.py runs the same harness with fewer rows and kills."""

import argparse
import collections
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
DYNSQL = [sys.executable, "-m", "repl.cli"]


def write_input(path, rows):
    """id, name, amount, ts: row i is fully determined by i."""
    with open(path, "w") as f:
        for i in range(rows):
            f.write("%d,n%d,%d.%02d,2024-01-01 %02d:%02d:%02d\n" % (i, i % 997, i % 1000, i % 100, i // 3600 % 24,
                                                                     i // 60 % 60, i % 60))


def expected_lines(rows):
    """The lines one clean run writes: ids not ending in 3, amount doubled (Flink's decimal text)."""
    from decimal import Decimal
    from runtime.sinks.flink_text import decimal_text
    out = []
    for i in range(rows):
        if i % 10 == 3:
            continue
        amount = Decimal("%d.%02d" % (i % 1000, i % 100)) * 2
        out.append("%d,n%d,%s" % (i, i % 997, decimal_text(amount)))
    return out


def statements(folder, rows_per_batch):
    return [
        "CREATE TABLE src (id BIGINT, name STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3)) WITH ("
        "'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'scan.rows-per-batch' = '%d')"
        % (os.path.join(folder, "src.csv"), rows_per_batch),
        "CREATE TABLE dst (id BIGINT, name STRING, amount DECIMAL(11, 2)) WITH ("
        "'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % os.path.join(folder, "out"),
        "INSERT INTO dst SELECT id, name, amount * 2 FROM src WHERE id % 10 <> 3",
    ]


def sink_lines(folder):
    out_dir = os.path.join(folder, "out")
    lines = []
    for name in sorted(os.listdir(out_dir)):
        if not name.startswith((".", "_")):
            with open(os.path.join(out_dir, name), encoding="utf-8") as f:
                lines.extend(f.read().splitlines())
    return lines


def compare(expected, found):
    want, got = collections.Counter(expected), collections.Counter(found)
    return {"expected": len(expected), "found": len(found),
            "lost": sum((want - got).values()),
            "duplicated": sum(n - 1 for line, n in got.items() if line in want and n > 1),
            "unexpected": sum(n for line, n in got.items() if line not in want)}


def children(pid):
    """Pids of the processes whose parent is `pid` (the job's Spark JVM)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return out


def wait_gone(pids, timeout=60):
    from runtime.job_registry import process_alive
    deadline = time.time() + timeout
    while any(process_alive(p) for p in pids) and time.time() < deadline:
        time.sleep(0.2)


def run(rows, kills, seed, rows_per_batch, folder, log=print, max_delay=6.0):
    """Submit the job, kill it `kills` times at random moments while it runs, resume it each time, wait for
    the end. -> (figures, kill log)."""
    from repl.client import Client
    from runtime.job_registry import JobRegistry
    rng = random.Random(seed)
    write_input(os.path.join(folder, "src.csv"), rows)
    jobs_dir = os.path.join(folder, "jobs")
    client = Client(master="local[2]", conf={"dynsql.jobs.dir": jobs_dir})
    try:
        for text in statements(folder, rows_per_batch)[:-1]:
            client.execute(text)
        message = client.execute(statements(folder, rows_per_batch)[-1]).text
    finally:
        client.close()
    job_id = message.split("Job ID:")[1].strip()
    registry = JobRegistry(jobs_dir)

    def written():
        return len(sink_lines(folder)) if os.path.isdir(os.path.join(folder, "out")) else 0
    # every other kill once a micro-batch committed since the start: mid-stream
    done = kill_and_resume(registry, job_id, jobs_dir, folder, kills, rng, max_delay, written,
                           "rows in the sink's files",
                           lambda i: _wait_new_files(folder, registry, job_id) if i % 2 else None, log)
    record = wait_finished(registry, job_id)
    figures = compare(expected_lines(rows), sink_lines(folder))
    figures["kills"] = len(done)
    figures["rows written (job's count)"] = record.rows_written
    hidden = [n for n in os.listdir(os.path.join(folder, "out")) if n.startswith(".") and not n.endswith(".crc")]
    figures["hidden files left"] = len(hidden)
    return figures


def resume_job(jobs_dir, job_id, folder, timeout=300):
    """`dynsql --resume-job <id>`, as SHOW JOBS gives it."""
    r = subprocess.run(DYNSQL + ["-D", "dynsql.jobs.dir=" + jobs_dir, "--resume-job", job_id], capture_output=True,
                       text=True, cwd=folder, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError("resume failed: %s" % r.stderr)


def kill_and_resume(registry, job_id, jobs_dir, folder, kills, rng, max_delay, written, what, before_kill, log):
    """Kill the job's process (and its JVM) with SIGKILL `kills` times, each at a random moment up to
    `max_delay` s after `before_kill(i)` returned, resuming it each time -> [(time, written()) of each kill]."""
    done = []
    while len(done) < kills:
        record = _wait_running(registry, job_id)
        if record.status != "RUNNING":
            log("the job ended (%s) before kill %d" % (record.status, len(done) + 1))
            break
        before_kill(len(done))
        time.sleep(rng.uniform(0.0, max_delay))
        record = registry.get(job_id)
        if record.status != "RUNNING":
            log("the job ended (%s) before kill %d" % (record.status, len(done) + 1))
            break
        jvm = children(record.pid)
        os.kill(record.pid, signal.SIGKILL)
        wait_gone([record.pid] + jvm)
        done.append((time.time(), written()))
        log("kill %2d: pid %d, %d %s" % (len(done), record.pid, done[-1][1], what))
        resume_job(jobs_dir, job_id, folder)
    return done


def wait_finished(registry, job_id, timeout=1800):
    """The job's record once it FINISHED (else a RuntimeError with its status and error)."""
    record = registry.get(job_id)
    deadline = time.time() + timeout
    while record.status in ("INITIALIZING", "RUNNING") and time.time() < deadline:
        time.sleep(1)
        record = registry.get(job_id)
    if record.status != "FINISHED":
        raise RuntimeError("the job ended %s: %s" % (record.status, record.error))
    return record


def _files(folder):
    out_dir = os.path.join(folder, "out")
    return set(n for n in os.listdir(out_dir) if not n.startswith(".")) if os.path.isdir(out_dir) else set()


def _wait_new_files(folder, registry, job_id, timeout=300):
    before = _files(folder)
    deadline = time.time() + timeout
    while _files(folder) <= before and time.time() < deadline:
        if registry.get(job_id).status != "RUNNING":
            return
        time.sleep(0.1)


def _wait_running(registry, job_id, timeout=600):
    deadline = time.time() + timeout
    record = registry.get(job_id)
    while record.status == "INITIALIZING" and time.time() < deadline:
        time.sleep(0.3)
        record = registry.get(job_id)
    return record


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1000000)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rows-per-batch", type=int, default=10000)
    args = ap.parse_args()
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="dynsql-exactly-once-") as folder:
        figures = run(args.rows, args.kills, args.seed, args.rows_per_batch, folder)
    print("load (uptime): %s" % subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print("took %.0f s" % (time.time() - started))
    for k, v in figures.items():
        print("%-28s %s" % (k, v))
    bad = figures["lost"] or figures["duplicated"] or figures["unexpected"]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
