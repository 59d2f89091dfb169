"""Exactly once into PostgreSQL under kill -9 and a server stopped mid-job: an INSERT INTO a jdbc upsert sink
(`SELECT k, COUNT(*), SUM(v) ... GROUP BY k`: each micro-batch updates keys written before) over a csv file read
in micro-batches (paced with --pace: `replay.rows-per-second`); the job's process killed (SIGKILL) and resumed
each time with the command SHOW JOBS gives (`dynsql --resume-job <id>`):
  - the first kill in the job's first micro-batch, before anything is committed: as soon as Spark logs the
    batch's offsets; the offset file is then left as a kill between Spark's write and rename of it leaves it
    (a hidden temporary file, no `offsets/0`: Spark refuses to start on it unless dynsql clears it,
    runtime/sinks/unlogged_start.py), a moment too short to hit by chance;
  - every other kill once a micro-batch committed since the start, the rest at any moment;
then optionally (--server-stop) the server stopped at once while the job still has input to write (the
committed rows fewer than the input's): the job fails with a clear error, shown by SHOW JOBS; the server is
started again and the job resumed. At the end the table must equal an uninterrupted run's (the exact counts
and sums of the input).

    .venv/bin/python bench/jdbc_kill.py [--rows 300000] [--keys 10000] [--kills 10] [--server-stop] [--pace N]

Needs `make postgres`; starts a throwaway server (tests/postgres_server.py) and stops it. Exit 0 when the
table is exact. tests/test_jdbc_kill.py runs it with fewer rows and kills."""

import argparse
import glob
import os
import random
import signal
import subprocess
import sys
import uuid
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(1, os.path.join(ROOT, "bench"))
sys.path.append(os.path.join(ROOT, "tests"))


def write_input(path, rows, keys):
    with open(path, "w") as f:
        for i in range(rows):
            f.write("%d,%d\n" % (i % keys, i))


def expected_rows(rows, keys):
    counts, sums = [0] * keys, [0] * keys
    for i in range(rows):
        counts[i % keys] += 1
        sums[i % keys] += i
    return sorted((k, counts[k], sums[k]) for k in range(min(rows, keys)))


def table_rows(server):
    return sorted(tuple(int(v) for v in r) for r in server.psql("SELECT k, n, total FROM dst"))


def committed_rows(server):
    """The input rows the table reflects (the sum of its counts)."""
    return int(server.psql("SELECT COALESCE(SUM(n), 0) FROM dst")[0][0])


def run(rows, keys, kills, seed, rows_per_batch, folder, server, server_stop=False, log=print, max_delay=5.0,
        pace=None):
    from exactly_once_kill import _wait_running, kill_and_resume, resume_job, wait_finished
    from postgres_server import PASSWORD, USER
    from repl.client import Client
    from runtime.job_registry import JobRegistry
    rng = random.Random(seed)
    write_input(os.path.join(folder, "src.csv"), rows, keys)
    server.psql("DROP TABLE IF EXISTS dst, dynsql_sink_batches; "
                "CREATE TABLE dst (k INT PRIMARY KEY, n BIGINT, total BIGINT)")
    jobs_dir = os.path.join(folder, "jobs")
    client = Client(master="local[2]", conf={"dynsql.jobs.dir": jobs_dir})
    try:
        client.execute("CREATE TABLE src (k INT, v BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', "
                       "'format' = 'csv', 'scan.rows-per-batch' = '%d'%s)"
                       % (os.path.join(folder, "src.csv"), rows_per_batch,
                          ", 'replay.rows-per-second' = '%d'" % pace if pace else ""))
        client.execute("CREATE TABLE dst (k INT, n BIGINT, total BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ("
                       "'connector' = 'jdbc', 'url' = '%s', 'table-name' = 'dst', 'username' = '%s', "
                       "'password' = '%s', 'sink.max-retries' = '0')" % (server.url, USER, PASSWORD))
        message = client.execute("INSERT INTO dst SELECT k, COUNT(*), SUM(v) FROM src GROUP BY k").text
    finally:
        client.close()
    job_id = message.split("Job ID:")[1].strip()
    registry = JobRegistry(jobs_dir)
    figures = {"first batch kill": None, "server stop": None}
    done = []
    if kills:
        figures["first batch kill"] = _kill_in_first_batch(server, registry, job_id, jobs_dir, folder, log)
        done.append(figures["first batch kill"])
    # every other kill comes once a micro-batch committed since the start, the others at any moment
    done += kill_and_resume(registry, job_id, jobs_dir, folder, kills - len(done), rng, max_delay,
                            lambda: len(table_rows(server)), "keys in the table",
                            lambda i: _wait_committed(server, registry, job_id) if i % 2 == 0 else None, log)
    if server_stop:
        figures["server stop"] = _stop_server_mid_job(server, registry, job_id, jobs_dir, folder, rows, log)
    wait_finished(registry, job_id)
    want, got = expected_rows(rows, keys), table_rows(server)
    figures.update({"kills": len(done), "keys expected": len(want), "keys found": len(got),
                    "rows differing": len(set(want) ^ set(got)), "exact": want == got})
    return figures


def _checkpoint_offsets(registry, job_id):
    """The job's offset log folder (its one INSERT's checkpoint), or None before Spark made it."""
    base = registry.checkpoint(job_id)
    found = glob.glob(os.path.join(base, "offsets")) + glob.glob(os.path.join(base, "*", "offsets"))
    return found[0] if found else None


def _kill_in_first_batch(server, registry, job_id, jobs_dir, folder, log, timeout=600):
    """Kill the job as soon as Spark logged its first micro-batch's offsets (nothing committed yet); leave the
    offset file as a kill between its write and its rename leaves it; resume. -> what the kill met."""
    from exactly_once_kill import _wait_running, children, resume_job, wait_gone
    record = _wait_running(registry, job_id)
    deadline = time.time() + timeout
    offsets = None
    while time.time() < deadline and registry.get(job_id).status == "RUNNING":
        offsets = _checkpoint_offsets(registry, job_id)
        if offsets and os.listdir(offsets):
            break
        time.sleep(0.05)
    record = registry.get(job_id)
    if record.status != "RUNNING":
        raise RuntimeError("the job ended (%s) before its first micro-batch was logged" % record.status)
    jvm = children(record.pid)
    os.kill(record.pid, signal.SIGKILL)
    wait_gone([record.pid] + jvm)
    commits = os.path.join(os.path.dirname(offsets), "commits")
    committed = (os.path.isdir(commits) and bool(os.listdir(commits))) or _marker(server) is not None
    torn = False
    first = os.path.join(offsets, "0")
    if not committed and os.path.exists(first):
        os.replace(first, os.path.join(offsets, ".0.%s.tmp" % uuid.uuid4()))
        torn = True
    met = "offsets logged: %s, torn as a kill in its write leaves it: %s, committed: %s" % (
        sorted(os.listdir(offsets)), torn, committed)
    log("kill  0: pid %d in the first micro-batch (%s)" % (record.pid, met))
    resume_job(jobs_dir, job_id, folder)
    return {"torn": torn, "committed before the kill": committed}


def _marker(server):
    try:
        rows = server.psql("SELECT batch FROM dynsql_sink_batches")
    except RuntimeError:      # the sink has not made its tables yet
        return None
    return int(rows[0][0]) if rows else None


def _stop_server_mid_job(server, registry, job_id, jobs_dir, folder, rows, log):
    """Stop the server at once once the job committed a micro-batch but not its whole input (so that it has
    rows to write and must fail), wait for it to fail, read its row of SHOW JOBS (dynsql -e), start the
    server again and resume. -> {status, error, resume command, rows committed at the stop}."""
    from exactly_once_kill import _wait_running, resume_job
    record = _wait_running(registry, job_id)
    if record.status != "RUNNING":
        raise RuntimeError("the job ended (%s) before the server stop" % record.status)
    before = _marker(server)
    deadline = time.time() + 600
    while _marker(server) == before and registry.get(job_id).status == "RUNNING" and time.time() < deadline:
        time.sleep(0.2)
    committed = committed_rows(server)
    if committed >= rows:
        raise RuntimeError("the job wrote its whole input before the server stop: pace it slower (--pace)")
    server.halt()
    deadline = time.time() + 600
    while registry.get(job_id).status == "RUNNING" and time.time() < deadline:
        time.sleep(0.5)
    shown = show_job(jobs_dir, folder, job_id)
    log("server stopped after %d of %d rows: SHOW JOBS says %s" % (committed, rows, shown))
    server.restart()
    if shown.get("status") == "FAILED":
        resume_job(jobs_dir, job_id, folder)
    return dict(shown, committed=committed)


def show_job(jobs_dir, folder, job_id):
    """The job's row of `dynsql -e 'SHOW JOBS;'` (as csv), by column name."""
    import csv
    from exactly_once_kill import DYNSQL
    r = subprocess.run(DYNSQL + ["-D", "dynsql.jobs.dir=" + jobs_dir, "--output", "csv", "-e", "SHOW JOBS;"],
                       capture_output=True, text=True, cwd=folder, timeout=300)
    for row in csv.DictReader(r.stdout.splitlines()):
        if row.get("job id") == job_id:
            return row
    raise RuntimeError("SHOW JOBS has no job %s: %s" % (job_id, r.stdout + r.stderr))


def _wait_committed(server, registry, job_id, timeout=600):
    deadline = time.time() + timeout
    while time.time() < deadline and registry.get(job_id).status == "RUNNING":
        if _marker(server) is not None:
            return
        time.sleep(0.3)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=300000)
    p.add_argument("--keys", type=int, default=10000)
    p.add_argument("--kills", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rows-per-batch", type=int, default=20000)
    p.add_argument("--server-stop", action="store_true")
    p.add_argument("--pace", type=int, default=None, help="input rows a second (replay.rows-per-second)")
    a = p.parse_args()
    from postgres_server import PostgresServer
    server = PostgresServer().start()
    try:
        with tempfile.TemporaryDirectory(prefix="dynsql-jdbc-kill-") as folder:
            figures = run(a.rows, a.keys, a.kills, a.seed, a.rows_per_batch, folder, server, a.server_stop,
                          pace=a.pace)
    finally:
        server.stop()
    for k, v in figures.items():
        print("%-18s %s" % (k, v))
    return 0 if figures["exact"] else 1


if __name__ == "__main__":
    sys.exit(main())
