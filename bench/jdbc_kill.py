"""Exactly once into PostgreSQL under kill -9 and a server stopped mid-job: an INSERT INTO a jdbc upsert sink
(`SELECT k, COUNT(*), SUM(v) ... GROUP BY k`: each micro-batch updates keys written before) over a csv file read
in micro-batches; the job's process killed (SIGKILL) at random moments and resumed each time with the command
SHOW JOBS gives (`dynsql --resume-job <id>`); optionally the server stopped at once mid-job (the job fails with
a clear error) and started again before the resume. At the end the table must equal an uninterrupted run's
(the exact counts and sums of the input).

    .venv/bin/python bench/jdbc_kill.py [--rows 300000] [--keys 10000] [--kills 10] [--server-stop]

Needs `make postgres`; starts a throwaway server (tests/postgres_server.py) and stops it. Exit 0 when the
table is exact. tests/test_jdbc_kill.py runs it with fewer rows and kills."""

import argparse
import os
import random
import sys
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


def run(rows, keys, kills, seed, rows_per_batch, folder, server, server_stop=False, log=print, max_delay=5.0):
    from exactly_once_kill import _wait_running, kill_and_resume, resume_job, wait_finished
    from postgres_server import PASSWORD, USER
    from repl.client import Client
    from runtime.job_registry import JobRegistry
    rng = random.Random(seed)
    write_input(os.path.join(folder, "src.csv"), rows, keys)
    server.psql("DROP TABLE IF EXISTS dst; CREATE TABLE dst (k INT PRIMARY KEY, n BIGINT, total BIGINT)")
    jobs_dir = os.path.join(folder, "jobs")
    client = Client(master="local[2]", conf={"dynsql.jobs.dir": jobs_dir})
    try:
        client.execute("CREATE TABLE src (k INT, v BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', "
                       "'format' = 'csv', 'scan.rows-per-batch' = '%d')" % (os.path.join(folder, "src.csv"),
                                                                           rows_per_batch))
        client.execute("CREATE TABLE dst (k INT, n BIGINT, total BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ("
                       "'connector' = 'jdbc', 'url' = '%s', 'table-name' = 'dst', 'username' = '%s', "
                       "'password' = '%s', 'sink.max-retries' = '0')" % (server.url, USER, PASSWORD))
        message = client.execute("INSERT INTO dst SELECT k, COUNT(*), SUM(v) FROM src GROUP BY k").text
    finally:
        client.close()
    job_id = message.split("Job ID:")[1].strip()
    registry = JobRegistry(jobs_dir)
    stopped_error = None
    # every other kill comes once a micro-batch committed since the start, the others at any moment (the first
    # one maybe in the job's first micro-batch)
    done = kill_and_resume(registry, job_id, jobs_dir, folder, kills, rng, max_delay,
                           lambda: len(table_rows(server)), "keys in the table",
                           lambda i: _wait_committed(server, registry, job_id) if i % 2 else None, log)
    if server_stop:
        record = _wait_running(registry, job_id)
        if record.status == "RUNNING":
            server.halt()
            deadline = time.time() + 600
            while registry.get(job_id).status == "RUNNING" and time.time() < deadline:
                time.sleep(0.5)
            record = registry.get(job_id)
            stopped_error = record.error
            log("server stopped: the job is %s: %s" % (record.status, record.error))
            server.restart()
            if record.status == "FAILED":
                resume_job(jobs_dir, job_id, folder)
    wait_finished(registry, job_id)
    want, got = expected_rows(rows, keys), table_rows(server)
    return {"kills": len(done), "keys expected": len(want), "keys found": len(got),
            "rows differing": len(set(want) ^ set(got)), "exact": want == got, "server stop error": stopped_error}


def _wait_committed(server, registry, job_id, timeout=600):
    deadline = time.time() + timeout
    while time.time() < deadline and registry.get(job_id).status == "RUNNING":
        try:
            if server.psql("SELECT COUNT(*) FROM dynsql_sink_batches")[0][0] != "0":
                return
        except RuntimeError:      # the sink has not made its tables yet
            pass
        time.sleep(0.3)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=300000)
    p.add_argument("--keys", type=int, default=10000)
    p.add_argument("--kills", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rows-per-batch", type=int, default=20000)
    p.add_argument("--server-stop", action="store_true")
    a = p.parse_args()
    from postgres_server import PostgresServer
    server = PostgresServer().start()
    try:
        with tempfile.TemporaryDirectory(prefix="dynsql-jdbc-kill-") as folder:
            figures = run(a.rows, a.keys, a.kills, a.seed, a.rows_per_batch, folder, server, a.server_stop)
    finally:
        server.stop()
    for k, v in figures.items():
        print("%-18s %s" % (k, v))
    return 0 if figures["exact"] else 1


if __name__ == "__main__":
    sys.exit(main())
