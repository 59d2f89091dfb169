"""`make cluster-test`: dynsql on a Spark standalone cluster and through Spark Connect, run as a user would.

1. A virtualenv outside the checkout with pyspark, pandas, pyarrow, protobuf (pyspark's transformWithState
   needs it) and pyspark's connect extra (a Connect server's foreachBatch worker needs it), but not dynsql (default /tmp/dynsql-worker-venv, made once; DYNSQL_WORKER_VENV to choose).
2. A standalone master on 127.0.0.1 and a worker, both from that virtualenv's pyspark; the worker in a mount
   namespace where the checkout is hidden under a tmpfs (`unshare -m`, needs root): its executors see the
   tables' paths (../shared/conformance) but no file of dynsql.
3. Every conformance case through `dynsql --master spark://127.0.0.1:<port> -D spark.pyspark.python=<venv>`
   (../shared/conformance/run.py), a batch query over a 20 MB csv file (read in pieces, one a core), and an
   INSERT INTO job on the cluster (table.dml-sync) read back.
4. A Spark Connect server (sbin/start-connect-server.sh --wait from the same virtualenv, local[2], its Python
   workers the virtualenv's, PostgreSQL's JDBC driver jar on its classpath, the checkout hidden from it too), a
   set of cases through `dynsql --remote`, an INSERT INTO job through it, and the jdbc connector through it
   (jdbc_check.py: a scan, upsert sinks and a lookup join against a throwaway PostgreSQL; on the cluster too).
5. Stops what it started, by pid. Prints the counts and the machine's load; exit 0 when nothing failed.

    .venv/bin/python tests/cluster/cluster_run.py [--glob 'dt_*'] [--skip-cluster] [--skip-connect] [--jdbc-only]

`--jdbc-only` (`make connect-jdbc`: with --skip-cluster): the jdbc check alone, on the cluster and through the
Connect server (no conformance case, file-pieces or job check). Where the checkout has no
.venv/bin/dynsql, dynsql runs as `<this Python> -m repl.cli` (PYTHONPATH must reach the checkout)."""

import argparse
import fnmatch
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(1, ROOT)
sys.path.insert(1, os.path.join(ROOT, "tests"))      # the tests' helper modules (job_hosts)
from job_hosts import stop_job_hosts  # noqa: E402

DYNSQL = os.path.join(ROOT, ".venv", "bin", "dynsql")
DYNSQL_COMMAND = [DYNSQL] if os.path.exists(DYNSQL) else [sys.executable, "-m", "repl.cli"]
CONFORMANCE = os.path.join(os.path.dirname(ROOT), "shared", "conformance")
WORKER_VENV = os.environ.get("DYNSQL_WORKER_VENV", "/tmp/dynsql-worker-venv")
WORKER_PYTHON = os.path.join(WORKER_VENV, "bin", "python")
# pyspark with its connect extra (grpcio, grpcio-status, googleapis-common-protos, zstandard): a Connect server
# runs a streaming foreachBatch (the filesystem sink's) in a Python process that is a Connect client of it
WORKER_PACKAGES = ("pyspark", "pandas", "pyarrow", "protobuf", "grpcio", "grpcio-status", "googleapis-common-protos",
                   "zstandard")
CONNECT_CASES = ("bas_*", "dt_*", "misc_value_types", "mr_price_drop", "mr_within_interval", "mr_err_alternation",
                 "tj_event_time_left", "vt_versioned_view_changelog", "win_tumble_tvf", "win_topn",
                 "win_session_tvf", "win_legacy_hop")


def log(*args):
    print("[cluster-test]", *args, flush=True)


class Processes:
    """The processes this run started (each the leader of a process group of its own), stopped by pid."""

    def __init__(self):
        self.started = []

    def start(self, name, command, log_path, env=None):
        out = open(log_path, "ab")
        p = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True, env=env)
        self.started.append((name, p))
        log("started %s (pid %d), log %s" % (name, p.pid, log_path))
        return p

    def stop_all(self):
        for name, p in reversed(self.started):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)    # the group this run started with the process
                except ProcessLookupError:
                    pass
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait(10)
            log("stopped %s (pid %d)" % (name, p.pid))


def ensure_worker_venv():
    from importlib.metadata import version
    if not os.path.exists(WORKER_PYTHON):
        log("making", WORKER_VENV)
        subprocess.run(["python3", "-m", "venv", WORKER_VENV], check=True)
    pins = ["%s==%s" % (p, version(p)) for p in WORKER_PACKAGES]
    have = subprocess.run([WORKER_PYTHON, "-m", "pip", "freeze"], capture_output=True, text=True).stdout.split()
    missing = [p for p in pins if p.lower() not in {h.lower() for h in have}]
    if missing:
        log("installing into", WORKER_VENV, " ".join(missing))
        subprocess.run([WORKER_PYTHON, "-m", "pip", "install", "-q"] + missing, check=True)
    return WORKER_PYTHON


def hidden_command(command):
    """`command` in a mount namespace of its own where the checkout is an empty tmpfs."""
    inner = "mount -t tmpfs -o size=1m tmpfs %s && exec %s" % (_quote(ROOT), " ".join(_quote(c) for c in command))
    return ["unshare", "-m", "sh", "-c", inner]


def _quote(s):
    import shlex
    return shlex.quote(s)


def check_hidden():
    """The worker's view: the checkout is empty and its Python cannot import dynsql."""
    probe = hidden_command(["sh", "-c", "ls -A %s | wc -l; %s -c 'import runtime' 2>&1 | tail -1"
                            % (_quote(ROOT), _quote(WORKER_PYTHON))])
    out = subprocess.run(probe, capture_output=True, text=True).stdout.split("\n")
    hidden = out[0].strip() == "0" and "No module named 'runtime'" in out[1]
    log("checkout hidden from the worker: %s (%s)" % ("yes" if hidden else "NO", " | ".join(out[:2])))
    return hidden


def free_port(preferred):
    with socket.socket() as s:
        if s.connect_ex(("127.0.0.1", preferred)) != 0:
            return preferred
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, timeout=300):
    deadline = time.time() + timeout
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(1)
    return False


def spark_home(python):
    out = subprocess.run([python, "-c", "import os, pyspark; print(os.path.dirname(pyspark.__file__))"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def alive_workers(ui_port):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/json/" % ui_port, timeout=5) as r:
            return json.load(r).get("aliveworkers", 0)
    except OSError:
        return 0


def conformance(dynsql_command, cases_dir, glob="*", timeout=900):
    """run.py over the cases -> (passed, failed)."""
    command = [sys.executable, os.path.join(CONFORMANCE, "run.py"), "--cases", cases_dir, "--glob", glob,
               "--timeout", str(timeout), "--dynsql", dynsql_command]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    last = ""
    for line in proc.stdout:
        print("    " + line.rstrip(), flush=True)
        last = line.strip() or last
    proc.wait()
    words = last.replace(",", "").split()    # conformance: P passed, F failed
    return (int(words[1]), int(words[3])) if len(words) >= 5 and words[0] == "conformance:" else (0, -1)


def subset(names, folder):
    """A cases folder with links to the cases matching `names` (patterns)."""
    cases = os.path.join(CONFORMANCE, "cases")
    for case in sorted(os.listdir(cases)):
        if any(fnmatch.fnmatch(case, n) for n in names):
            os.symlink(os.path.join(cases, case), os.path.join(folder, case))
    return folder


def run_script(dynsql_args, folder, name, sql):
    """`sql` written to `folder`/`name` and run by `dynsql -f` in `folder` -> (the process, its rows as JSON lines
    give them)."""
    script = os.path.join(folder, name)
    with open(script, "w") as f:
        f.write(sql)
    proc = subprocess.run(DYNSQL_COMMAND + dynsql_args + ["--output", "jsonl", "-f", script], capture_output=True,
                          text=True, cwd=folder, timeout=1800)
    return proc, [json.loads(line)["row"] for line in proc.stdout.splitlines() if line.startswith("{")]


def job_check(dynsql_args, folder, label):
    """An INSERT INTO job (dml-sync) from a csv into a json table, read back in batch mode: the job runs where
    the session's queries run (a driver of its own on the cluster; a client of the Connect server)."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "in.csv"), "w") as f:
        f.write("".join("%d,w%d\n" % (i, i) for i in range(100)))
    proc, rows = run_script(dynsql_args + ["-D", "dynsql.jobs.dir=%s/jobs" % folder], folder, "job.sql", """
CREATE TABLE src (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%(d)s/in.csv', 'format' = 'csv');
CREATE TABLE dst (n BIGINT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%(d)s/out', 'format' = 'json');
SET 'table.dml-sync' = 'true';
INSERT INTO dst SELECT n * 2, UPPER(word) FROM src WHERE n %% 3 = 0;
SET 'execution.runtime-mode' = 'batch';
SELECT COUNT(*) AS c, SUM(n) AS s FROM dst;
""" % {"d": folder})
    expected = [[34, sum(2 * i for i in range(100) if i % 3 == 0)]]
    ok = proc.returncode == 0 and rows == expected
    log("%s: INSERT INTO job %s (rows %s, expected %s)%s" % (label, "ok" if ok else "FAILED", rows, expected,
                                                            "" if ok else ": " + proc.stderr[-800:]))
    return ok


def pieces_check(dynsql_args, folder, label, rows=1800000):
    """A batch query over a csv file of about 20 MB: the session's two cores read it in two pieces
    (runtime/connectors/splits.py batch_splits), on executors that cannot see the checkout."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "big.csv"), "w") as f:
        f.write("".join("%d,w%d\n" % (i, i % 1000) for i in range(rows)))
    proc, got = run_script(dynsql_args, folder, "pieces.sql", """
CREATE TABLE big (n BIGINT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%s/big.csv', 'format' = 'csv');
SET 'execution.runtime-mode' = 'batch';
SELECT COUNT(*) AS c, SUM(n) AS s, COUNT(DISTINCT word) AS w FROM big;
""" % folder)
    expected = [[rows, rows * (rows - 1) // 2, 1000]]
    ok = proc.returncode == 0 and got == expected
    log("%s: a %d MB file read in pieces %s (rows %s, expected %s)%s" % (
        label, os.path.getsize(os.path.join(folder, "big.csv")) >> 20, "ok" if ok else "FAILED", got, expected,
        "" if ok else ": " + proc.stderr[-800:]))
    return ok


def java_math_check(dynsql_args, folder, label):
    """java.lang.Math's values in MATCH_RECOGNIZE's DEFINE and MEASURES, evaluated in the executors' Python
    workers by a JVM running dynsql-java-math.jar (runtime/java_math.py), which a worker that cannot see the
    checkout takes from the session's files. Rows: Flink 2.3's (tests/sql/math_functions_java_outer_joins.sqltest);
    EXP(10.64) and POWER(0.71, 1.7) are Math's, not Python's (..55, ..912)."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "h.csv"), "w") as f:
        f.write("1,10.64,41772.771218515496,2024-01-01 10:00:00\n2,0.17,-0.769551078621726,2024-01-01 10:00:01\n"
                "3,0.71,0.5586492149739913,2024-01-01 10:00:02\n4,0,-1,2024-01-01 10:00:03\n")
    proc, rows = run_script(dynsql_args, folder, "java_math.sql", """
CREATE TABLE h (id INT, x DOUBLE, v DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '%s/h.csv', 'format' = 'csv');
SELECT id, ex, pw FROM h MATCH_RECOGNIZE (ORDER BY ts
  MEASURES A.id AS id, EXP(A.x) AS ex, POWER(A.x, 1.7) AS pw
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (A)
  DEFINE A AS EXP(A.x) = A.v OR LOG10(A.x) = A.v OR POWER(A.x, 1.7) = A.v OR A.x = 0) MR;
""" % folder)
    expected = [[1, 41772.771218515496, 55.69301987498649], [2, 1.1853048513203654, 0.049177128508381726],
                [3, 2.0339912586467506, 0.5586492149739913], [4, 1.0, 0.0]]
    ok = proc.returncode == 0 and sorted(rows) == expected
    log("%s: java.lang.Math in MATCH_RECOGNIZE %s (rows %s)%s" % (label, "ok" if ok else "FAILED", rows,
                                                                 "" if ok else ": " + proc.stderr[-800:]))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--glob", default="*", help="the cluster's conformance cases (default: all)")
    ap.add_argument("--skip-cluster", action="store_true")
    ap.add_argument("--skip-connect", action="store_true")
    ap.add_argument("--jdbc-only", action="store_true", help="the jdbc check alone (on the cluster, through Connect)")
    args = ap.parse_args()
    if os.geteuid() != 0:
        log("needs root (unshare -m and a tmpfs mount hide the checkout from the worker)")
        return 2
    python = ensure_worker_venv()
    home = spark_home(python)
    work = tempfile.mkdtemp(prefix="dynsql-cluster-")
    processes = Processes()
    figures = {}
    started = time.time()
    try:
        figures["checkout hidden"] = check_hidden()
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SPARK_HOME", "PYSPARK_PYTHON")}
        env.update(SPARK_HOME=home, SPARK_LOG_DIR=work, SPARK_PID_DIR=work, SPARK_WORKER_DIR=os.path.join(work, "w"),
                   PYSPARK_PYTHON=python, SPARK_NO_DAEMONIZE="1")
        dynsql = " ".join(_quote(c) for c in DYNSQL_COMMAND)
        from jdbc_check import jdbc_check
        if not args.skip_cluster:
            port, ui = free_port(7077), free_port(18080)
            master = "spark://127.0.0.1:%d" % port
            processes.start("master", [os.path.join(home, "bin", "spark-class"), "org.apache.spark.deploy.master.Master",
                                       "--host", "127.0.0.1", "--port", str(port), "--webui-port", str(ui)],
                            os.path.join(work, "master.log"), env)
            wait_port(port)
            processes.start("worker (checkout hidden)", hidden_command(
                [os.path.join(home, "bin", "spark-class"), "org.apache.spark.deploy.worker.Worker", "--host",
                 "127.0.0.1", "--cores", "2", "--memory", "3g", "--webui-port", str(free_port(18081)), master]),
                os.path.join(work, "worker.log"), env)
            deadline = time.time() + 300
            while alive_workers(ui) < 1 and time.time() < deadline:
                time.sleep(2)
            log("master %s: %d worker(s) alive" % (master, alive_workers(ui)))
            command = "%s --master %s -D spark.pyspark.python=%s" % (dynsql, master, python)
            # the session and its job are two applications: each takes one of the worker's two cores (by
            # default an application takes all, and the job would wait for the session that waits for it)
            on_cluster = ["--master", master, "-D", "spark.pyspark.python=%s" % python, "-D", "spark.cores.max=1"]
            if not args.jdbc_only:
                figures["cluster conformance"] = conformance(command, os.path.join(CONFORMANCE, "cases"), args.glob)
                figures["cluster file pieces"] = pieces_check(
                    ["--master", master, "-D", "spark.pyspark.python=%s" % python], os.path.join(work, "pieces"),
                    "cluster")
                figures["cluster java math"] = java_math_check(
                    ["--master", master, "-D", "spark.pyspark.python=%s" % python], os.path.join(work, "java-math"),
                    "cluster")
                figures["cluster job"] = job_check(on_cluster, os.path.join(work, "job-cluster"), "cluster")
                stop_job_hosts(os.path.join(work, "job-cluster", "jobs"))
            figures["cluster jdbc"] = jdbc_check(DYNSQL_COMMAND, on_cluster, os.path.join(work, "jdbc-cluster"),
                                                 "cluster", log)
            stop_job_hosts(os.path.join(work, "jdbc-cluster", "jobs"))
        if not args.skip_connect:
            port = free_port(15002)
            from runtime.connectors.jdbc_driver import driver_jars
            jars = ",".join(driver_jars())      # PostgreSQL's driver for Spark's JDBC reader and writer
            # the server's Python processes import the virtualenv's pyspark (bytecode cached) rather than Spark's
            # zip, as dynsql's own sessions' do (runtime/worker_startup): a streaming query's Python source runner
            # must connect back within Spark's fixed 10 s, which a busy machine missed
            startup = os.path.join(work, "worker_startup")
            shutil.copytree(os.path.join(ROOT, "runtime", "worker_startup"), startup)
            connect_env = dict(env, PYTHONPATH=startup)
            processes.start("Spark Connect server (checkout hidden)", hidden_command(
                [os.path.join(home, "sbin", "start-connect-server.sh"), "--wait", "--master", "local[2]"]
                + (["--jars", jars] if jars else []) + [
                 "--conf", "spark.connect.grpc.binding.port=%d" % port,
                 "--conf", "spark.connect.grpc.binding.address=127.0.0.1", "--conf", "spark.ui.enabled=false",
                 "--conf", "spark.driver.extraJavaOptions=-Xss16m -Duser.timezone=UTC",
                 "--conf", "spark.sql.session.timeZone=UTC"]), os.path.join(work, "connect.log"), connect_env)
            if not wait_port(port, 600):
                raise RuntimeError("the Spark Connect server did not start: see %s" % os.path.join(work, "connect.log"))
            remote = "sc://127.0.0.1:%d" % port
            if not args.jdbc_only:
                cases = subset(CONNECT_CASES, tempfile.mkdtemp(prefix="cases-", dir=work))
                figures["connect conformance"] = conformance("%s --remote %s" % (dynsql, remote), cases)
                figures["connect job"] = job_check(["--remote", remote], os.path.join(work, "job-connect"),
                                                   "connect")
            figures["connect jdbc"] = jdbc_check(DYNSQL_COMMAND, ["--remote", remote],
                                                 os.path.join(work, "jdbc-connect"), "connect", log)
    finally:
        processes.stop_all()
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    log("took %.0f s; load: %s" % (time.time() - started, load))
    bad = 0
    for name, value in figures.items():
        if isinstance(value, tuple):
            log("%-22s %d passed, %d failed" % (name, value[0], value[1]))
            bad += value[1] != 0
        else:
            log("%-22s %s" % (name, "ok" if value else "FAILED"))
            bad += not value
    if bad:
        log("kept %s (the servers' logs) for a look at what failed" % work)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
