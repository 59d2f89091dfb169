"""How long an INSERT INTO job takes to start: from the moment `dynsql -f` prints the job's id to the moment the
job's record says RUNNING (or already FINISHED), for a first job (nothing running yet) and for a second one
right after it; and the wall time of a whole `dynsql -f` script that runs a 2-row INSERT INTO with
`table.dml-sync` on (the figure issue 28 started from: 65 s).

    python bench/job_start_bench.py [--runs 2]

Uses a registry of its own in a temporary folder; stops its jobs (and so their job host) at the end."""

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


def run(folder, jobs_dir, name, sync):
    """-> (seconds from the job's id printed to RUNNING or FINISHED, the script's wall time)."""
    path = os.path.join(folder, name + ".sql")
    with open(path, "w") as f:
        f.write(script(folder, name, sync))
    started = time.perf_counter()
    process = subprocess.Popen(COMMAND + ["-D", "dynsql.jobs.dir=" + jobs_dir, "-f", path], cwd=folder,
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
            running = time.perf_counter() - submitted
            if status == "FAILED":
                print("the job failed: see %s" % os.path.dirname(record_path))
        else:
            time.sleep(0.05)
    rest = process.stdout.read()
    process.wait()
    return running, time.perf_counter() - started, job_id, rest


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        jobs_dir = os.path.join(folder, "jobs")
        for n in range(args.runs):
            to_running, wall, job_id, _ = run(folder, jobs_dir, "j%d" % n, sync=False)
            print("job %d: INSERT INTO -> RUNNING %.1f s (script %.1f s)" % (n + 1, to_running or -1, wall))
        to_running, wall, job_id, rest = run(folder, jobs_dir, "sync", sync=True)
        print("2-row INSERT INTO with table.dml-sync through dynsql -f: %.1f s end to end (-> RUNNING %.1f s)"
              % (wall, to_running or -1))
        subprocess.run(COMMAND + ["-D", "dynsql.jobs.dir=" + jobs_dir, "--stop-all-jobs"], cwd=folder,
                       capture_output=True) if "--stop-all-jobs" in _help() else None
        print("load average: %.2f" % os.getloadavg()[0])


def _help():
    return subprocess.run(COMMAND + ["--help"], capture_output=True, text=True).stdout


if __name__ == "__main__":
    main()
