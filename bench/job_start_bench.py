"""How long an INSERT INTO job takes to start: from the moment `dynsql -f` prints the job's id to the moment the
job's record says RUNNING (or already FINISHED), for a first job (nothing running yet) and for a second one
right after it (its job host already up); and the wall time of a whole `dynsql -f` script that runs a 2-row
INSERT INTO with `table.dml-sync` on (the figure issue 28 started from: 65 s).

    python bench/job_start_bench.py [--runs 2] [--master spark://host:7077 -D spark.cores.max=1]

(on a standalone cluster whose worker has two cores, give each application one: the script's session and the
job host are two applications, and by default the first takes every core)

Uses a registry of its own in a temporary folder; its jobs end by themselves, their host 20 s later."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DYNSQL = Path(sys.executable).with_name("dynsql")
COMMAND = [str(DYNSQL)] if DYNSQL.exists() else [sys.executable, "-m", "repl.cli"]


def script(folder, name, sync):
    source = os.path.join(folder, "in.csv")
    with open(source, "w") as f:
        f.write("1,one\n2,two\n")
    return """
CREATE TABLE src (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');
CREATE TABLE out_%s (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');
%s
INSERT INTO out_%s SELECT n, word FROM src;
""" % (source, name, os.path.join(folder, "out-" + name), "SET 'table.dml-sync' = 'true';" if sync else "",
       name)


def run(folder, jobs_dir, name, sync, master=None, defines=()):
    """-> (seconds from the script's launch to its job's record saying RUNNING or FINISHED, from the job's id
    printed to then, the script's wall time)."""
    path = os.path.join(folder, name + ".sql")
    with open(path, "w") as f:
        f.write(script(folder, name, sync))
    started = time.perf_counter()
    process = subprocess.Popen(COMMAND + (["--master", master] if master else [])
                               + [a for d in defines for a in ("-D", d)]
                               + ["-D", "dynsql.jobs.dir=" + jobs_dir, "-f", path], cwd=folder,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               stdin=subprocess.DEVNULL)
    job_id = submitted = None
    for line in process.stdout:
        if "Job ID:" in line:
            job_id, submitted = line.split("Job ID:")[1].strip(), time.perf_counter()
            break
    running = None
    record_path = os.path.join(jobs_dir, job_id or "none", "job.json")
    while job_id and running is None and time.perf_counter() - submitted < 600:
        try:
            with open(record_path) as f:
                status = json.load(f)["status"]
        except (OSError, ValueError):
            status = None
        if status in ("RUNNING", "FINISHED", "FAILED", "CANCELED"):
            running = time.perf_counter()
            if status == "FAILED":
                print("the job failed: see %s" % os.path.dirname(record_path))
        else:
            time.sleep(0.05)
    process.stdout.read()
    process.wait()
    if running is None:
        return None, None, time.perf_counter() - started
    return running - started, running - submitted, time.perf_counter() - started


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("-D", dest="defines", action="append", default=[], metavar="KEY=VALUE",
                    help="a setting for the scripts (dynsql -D)")
    ap.add_argument("--master", help="a Spark master for the scripts and their jobs (default: dynsql's local one)")
    args = ap.parse_args()
    os.environ.setdefault("DYNSQL_JOB_HOST_IDLE_TIMEOUT", "20 s")    # the host exits soon after the bench
    with tempfile.TemporaryDirectory() as folder:
        jobs_dir = os.path.join(folder, "jobs")
        for n in range(args.runs):
            launch, after_id, wall = run(folder, jobs_dir, "j%d" % n, sync=False, master=args.master, defines=args.defines)
            print("job %d (%s host): script launch -> RUNNING %.1f s (after its id was printed %.1f s); script %.1f s"
                  % (n + 1, "its" if n == 0 else "a running", launch or -1, after_id or -1, wall))
        launch, after_id, wall = run(folder, jobs_dir, "sync", sync=True, master=args.master, defines=args.defines)
        print("2-row INSERT INTO with table.dml-sync through dynsql -f (a running host): %.1f s end to end" % wall)
        print("master: %s; load average: %.2f" % (args.master or "local", os.getloadavg()[0]))


if __name__ == "__main__":
    main()
