"""Faults a job meets, each answered in words and then resumed exactly once: the exactly-once harness's job (an
INSERT INTO a csv filesystem table over a csv file, bench/exactly_once_kill.py) through the `dynsql` CLI, with

  full disk       the sink's folder on a small tmpfs (root: mount): the job fails; SHOW JOBS must say
                  "No space left on device"; the tmpfs grown, the job resumed, the rows must be exactly once
  python worker   the job's Spark Python workers killed (SIGKILL) mid-run: the job fails or Spark retries;
                  SHOW JOBS must not show Spark's wrapper text; resumed, exactly once
  checkpoint      the job killed, the newest offset log file of its checkpoint cut in half, resumed: it must
                  fail naming that file (as Flink refuses a damaged checkpoint), or finish exactly once

    .venv/bin/python bench/fault_runs.py [--rows 300000]      (`make faults`)

Prints each run's error text as SHOW JOBS gives it and the rows expected / found / lost / duplicated; exits 1
when a run loses or duplicates a row or shows Spark's wrapper text."""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from exactly_once_kill import (DYNSQL, children, compare, expected_lines, sink_lines, statements,  # noqa: E402
                               wait_gone, write_input)

SPARK_WORDS = ("Python Proxy", "(no cause message)", "Task failed while writing rows", "STREAM_FAILED",
               "Traceback", "SQLSTATE", "UnknownException", "java.")


def submit(folder, rows_per_batch):
    script = os.path.join(folder, "job.sql")
    with open(script, "w") as f:
        f.write(";\n".join(statements(folder, rows_per_batch)) + ";\n")
    out = subprocess.run(DYNSQL + ["-D", "dynsql.jobs.dir=" + os.path.join(folder, "jobs"), "-f", script],
                         capture_output=True, text=True, cwd=folder, timeout=600)
    if out.returncode != 0 or "Job ID:" not in out.stdout + out.stderr:
        raise RuntimeError("the job did not start: %s" % (out.stdout + out.stderr))
    return (out.stdout + out.stderr).split("Job ID:")[1].split()[0].strip()


def registry(folder):
    from runtime.job_registry import JobRegistry
    return JobRegistry(os.path.join(folder, "jobs"))


def wait_status(folder, job_id, wanted, timeout=900):
    deadline = time.time() + timeout
    record = registry(folder).get(job_id)
    while record.status not in wanted and time.time() < deadline:
        time.sleep(0.5)
        record = registry(folder).get(job_id)
    return record


def resume(folder, job_id):
    out = subprocess.run(DYNSQL + ["-D", "dynsql.jobs.dir=" + os.path.join(folder, "jobs"), "--resume-job", job_id],
                         capture_output=True, text=True, cwd=folder, timeout=300)
    if out.returncode != 0:
        raise RuntimeError("resume failed: %s" % out.stderr)


def finish_and_count(folder, job_id, rows):
    record = wait_status(folder, job_id, ("FINISHED", "FAILED", "CANCELED"), timeout=1800)
    figures = compare(expected_lines(rows), sink_lines(folder))
    figures["status"] = record.status
    return figures, record


def full_disk(folder, rows):
    out = os.path.join(folder, "out")
    os.makedirs(out)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", out], check=True)
    try:
        job_id = submit(folder, rows // 10)
        record = wait_status(folder, job_id, ("FAILED", "FINISHED"))
        error = record.error or ""
        subprocess.run(["mount", "-o", "remount,size=512m", out], check=True)
        resume(folder, job_id)
        figures, _ = finish_and_count(folder, job_id, rows)
        figures["said"] = "No space left on device" in error
        return error, figures
    finally:
        subprocess.run(["umount", "-l", out])


def python_worker(folder, rows):
    job_id = submit(folder, rows // 20)
    record = wait_status(folder, job_id, ("RUNNING",))
    time.sleep(3)
    record = registry(folder).get(job_id)
    killed = 0
    for jvm in children(record.pid):
        for worker in children(jvm):
            try:
                os.kill(worker, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
    record = wait_status(folder, job_id, ("FAILED", "FINISHED"))
    error = record.error or ""
    if record.status == "FAILED":
        resume(folder, job_id)
    figures, _ = finish_and_count(folder, job_id, rows)
    figures["workers killed"] = killed
    return error, figures


def checkpoint(folder, rows):
    job_id = submit(folder, rows // 20)
    reg = registry(folder)
    record = wait_status(folder, job_id, ("RUNNING",))
    offsets = os.path.join(reg.checkpoint(job_id, 0), "offsets")
    deadline = time.time() + 300
    while time.time() < deadline and len(_offset_files(offsets)) < 3:
        time.sleep(0.2)
    record = reg.get(job_id)
    jvm = children(record.pid)
    os.kill(record.pid, signal.SIGKILL)
    wait_gone([record.pid] + jvm)
    newest = max(_offset_files(offsets), key=int)
    path = os.path.join(offsets, newest)
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:len(data) // 2])
    resume(folder, job_id)
    figures, record = finish_and_count(folder, job_id, rows)
    error = record.error or ""
    figures["named the file"] = path in error or "offsets" in error if record.status == "FAILED" else None
    return error, figures


def _offset_files(offsets):
    return [n for n in os.listdir(offsets) if n.isdigit()] if os.path.isdir(offsets) else []


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=300000)
    args = ap.parse_args()
    print("machine load: %s" % open("/proc/loadavg").read().strip(), flush=True)
    bad = 0
    runs = [("python worker", python_worker), ("checkpoint", checkpoint)]
    if os.getuid() == 0:
        runs.insert(0, ("full disk", full_disk))
    else:
        print("full disk: skipped (mounting a tmpfs needs root)")
    for name, run in runs:
        folder = tempfile.mkdtemp(prefix="dynsql-fault-")
        try:
            write_input(os.path.join(folder, "src.csv"), args.rows)
            started = time.time()
            error, figures = run(folder, args.rows)
            spark_words = [w for w in SPARK_WORDS if w in error]
            print("\n== %s (%.0f s)\nSHOW JOBS said: %s\n%s" % (name, time.time() - started, error or "(nothing)",
                                                               figures), flush=True)
            refused = name == "checkpoint" and figures["status"] == "FAILED" and figures.get("named the file")
            if refused:         # a damaged checkpoint is not resumed from (as Flink's): it must be named
                print("   the job refused the damaged checkpoint, naming its file")
            elif figures["lost"] or figures["duplicated"] or figures["unexpected"] or spark_words:
                print("   FAILED: %s" % ("Spark's words %s" % spark_words if spark_words else "rows not exactly once"))
                bad += 1
        except Exception as e:
            print("\n== %s: the run itself failed: %s" % (name, e), flush=True)
            bad += 1
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    print("machine load: %s" % open("/proc/loadavg").read().strip())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
