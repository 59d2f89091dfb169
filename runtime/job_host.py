"""A job host: one long-lived, detached process (one JVM, one SparkContext) that runs several INSERT INTO jobs,
each on a SparkSession of its own (`newSession()`: its own SQL settings, views and data sources), so that a job
starts in seconds rather than after a fresh JVM and SparkSession (40 to 90 s on a loaded machine).

Why a host rather than spark-submit in cluster deploy mode: Spark standalone runs Python drivers in client
mode only, and a local master has no cluster at all; a host serves both, and a job still outlives the shell
that submitted it. One host per job registry and per runtime (master, spark.* settings, working folder, the
Python that runs it): a job that needs another JVM gets another host. It exits once it has run no job for
`dynsql.job-host.idle-timeout` (default 10 min; $DYNSQL_JOB_HOST_IDLE_TIMEOUT), or on SIGTERM, which stops
its jobs as STOP JOB does; kill -9 ends its jobs as it ends a job process (each resumes from its checkpoint).

    <registry>/.hosts/<key>/host.json   the runtime it runs jobs on (master, settings, folder), owner-only
    <registry>/.hosts/<key>/host.lock   held by the host while it lives
    <registry>/.hosts/<key>/start.lock  held by a session while it hands a job over (and starts the host if
                                        none lives), and by the host while it decides to exit: no job is lost
    <registry>/.hosts/<key>/inbox/<id>  a job handed over and not yet picked up (STOP JOB removes it)
    <registry>/.hosts/<key>/host.log    the host's output (each job's print sink writes to its output.log)

Does not plan: `run_one(job_folder, spark_runtime, stop_signal, output)` (the repl's) re-plans and runs a job."""

import hashlib
import json
import os
import signal
import subprocess
import threading
import time

from .job_registry import JobLock, process_alive
from .private_files import open_private, private_folder

HOSTS = ".hosts"
IDLE_KEY = "dynsql.job-host.idle-timeout"
DEFAULT_IDLE_SECONDS = 600
PICK_UP_SECONDS = 0.2


def hosted(record):
    """True when the job runs in a job host (a local or standalone master); Spark Connect and YARN/Kubernetes
    jobs get a process of their own."""
    master = record.master or ""
    return not record.remote and not master.startswith(("yarn", "k8s://"))


def host_key(record, python):
    spark = {k: v for k, v in record.conf.items() if k.startswith("spark.")}
    text = json.dumps([record.master, sorted(spark.items()), record.cwd, python])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def host_folder(registry, record, python):
    return os.path.join(registry.root, HOSTS, host_key(record, python))


# ---------------------------------------------------------------------- the session's side
def hand_over(registry, record, entry):
    """Give the job of `record` to its host, starting the host when none lives; the record says which (its pid
    and job_host) before the host can pick the job up. -> the host's pid. `entry`: the command that runs a host
    given its folder (the repl's `dynsql --job-host`)."""
    folder = host_folder(registry, record, entry[0])
    private_folder(os.path.join(folder, "inbox"))
    with JobLock(os.path.join(folder, "start.lock")):    # the host takes jobs from the inbox under this lock
        pid = host_pid(folder)
        if pid is None:
            pid = _start_host(folder, record, entry)
        registry.update(record.id, pid=pid, job_host=folder)
        record.pid, record.job_host = pid, folder
        with open_private(os.path.join(folder, "inbox", record.id), "w") as f:
            f.write(record.id)
    return pid


def withdraw(folder, job_id):
    """Take a job back from its host's inbox before the host picked it up. -> True when it was still there."""
    with JobLock(os.path.join(folder, "start.lock")):
        try:
            os.remove(os.path.join(folder, "inbox", job_id))
            return True
        except OSError:
            return False


def host_alive(folder):
    return host_pid(folder) is not None


def host_pid(folder):
    """The pid of the live host of `folder`, or None."""
    if not JobLock(os.path.join(folder, "host.lock")).held_elsewhere():
        return None
    try:
        with open(os.path.join(folder, "host.pid")) as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def _start_host(folder, record, entry, timeout=30):
    spark = {k: v for k, v in record.conf.items() if k.startswith("spark.")}
    settings = {"master": record.master, "conf": spark, "cwd": record.cwd, "idle": _idle_seconds(record.conf)}
    with open_private(os.path.join(folder, "host.json"), "w") as f:
        json.dump(settings, f)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    with open_private(os.path.join(folder, "host.log")) as out:
        process = subprocess.Popen(list(entry) + [folder], cwd=record.cwd or None, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    threading.Thread(target=process.wait, name="dynsql-host-reaper", daemon=True).start()
    deadline = time.time() + timeout     # the host holds its lock within a moment of starting (no JVM yet)
    while time.time() < deadline and process.poll() is None:
        if host_pid(folder) == process.pid:
            break
        time.sleep(0.02)
    return process.pid


def _idle_seconds(conf):
    from planner.settings import parse_duration_ms
    text = conf.get(IDLE_KEY) or os.environ.get("DYNSQL_JOB_HOST_IDLE_TIMEOUT")
    return DEFAULT_IDLE_SECONDS if not text else parse_duration_ms(text, IDLE_KEY) / 1000.0


# ---------------------------------------------------------------------- the host's side
def serve(folder, run_one, make_runtime):
    """The host's process: take the host lock, start Spark, run every job handed over until idle. -> exit code.
    `make_runtime(master, conf)` -> the host's SparkRuntime; `run_one(job_folder, spark_runtime, stop_signal,
    output)` runs one job to its end."""
    lock = JobLock(os.path.join(folder, "host.lock"))
    if not _take(lock, 2.0):
        print("[INFO] another job host serves %s" % folder, flush=True)
        return 0
    with open_private(os.path.join(folder, "host.pid"), "w") as f:
        f.write(str(os.getpid()))
    with open(os.path.join(folder, "host.json"), encoding="utf-8") as f:
        settings = json.load(f)
    if settings.get("cwd") and os.path.isdir(settings["cwd"]):
        os.chdir(settings["cwd"])
    registry_root = os.path.dirname(os.path.dirname(os.path.abspath(folder)))
    runtime = make_runtime(settings.get("master"), settings.get("conf") or {}).start()
    stopping = threading.Event()
    try:
        signal.signal(signal.SIGTERM, lambda signum, frame: stopping.set())
    except ValueError:
        pass
    jobs = {}      # job id -> (thread, its stop signal)
    idle_since = time.time()
    from .session import spark_log_path
    print("[INFO] job host %d for %s; its Spark log: %s" % (os.getpid(), registry_root, spark_log_path()), flush=True)
    while True:
        if stopping.is_set():
            for _, stop in jobs.values():
                stop.set()
            for thread, _ in jobs.values():
                thread.join(120)
            return 0
        failed = runtime.status().startswith("failed")     # each job handed over fails, naming why; then it exits
        if runtime.is_ready or failed:
            for job_id in _inbox(folder):
                stop = threading.Event()
                thread = threading.Thread(target=_run_hosted, name="dynsql-job-" + job_id,
                                          args=(registry_root, job_id, runtime, stop, run_one), daemon=True)
                jobs[job_id] = (thread, stop)
                thread.start()
        for job_id in [j for j, (t, _) in jobs.items() if not t.is_alive()]:
            del jobs[job_id]
            idle_since = time.time()
        if jobs or _inbox_waiting(folder):
            idle_since = time.time()
        elif failed or time.time() - idle_since > settings.get("idle", DEFAULT_IDLE_SECONDS):
            with JobLock(os.path.join(folder, "start.lock")):
                if not _inbox_waiting(folder):
                    lock.release()      # from now on a session hands its job to a new host
                    print("[INFO] job host %d: %s, exits" % (os.getpid(), runtime.status() if failed else "idle"),
                          flush=True)
                    runtime.stop()
                    return 0
        stopping.wait(PICK_UP_SECONDS)


def _take(lock, seconds):
    """The lock, trying for `seconds` (a session's liveness check holds it for a moment)."""
    deadline = time.time() + seconds
    while not lock.take():
        if time.time() > deadline:
            return False
        time.sleep(0.01)
    return True


def _inbox_waiting(folder):
    try:
        return bool(os.listdir(os.path.join(folder, "inbox")))
    except OSError:
        return False


def _inbox(folder):
    """The ids of the jobs handed over, oldest first, each taken out of the inbox."""
    inbox = os.path.join(folder, "inbox")
    with JobLock(os.path.join(folder, "start.lock")):
        try:
            names = sorted(os.listdir(inbox), key=lambda n: os.stat(os.path.join(inbox, n)).st_mtime)
        except OSError:
            return []
        for name in names:
            os.remove(os.path.join(inbox, name))
    return names


def _run_hosted(registry_root, job_id, runtime, stop, run_one):
    from .job_registry import JobRegistry
    registry = JobRegistry(registry_root)
    lock = registry.run_lock(job_id)
    if not _take(lock, 2.0):
        print("[ERROR] Job %s is already running in another process: it is not started twice" % job_id, flush=True)
        return
    try:
        with open_private(registry.output(job_id), "a") as output:
            output.write("\n--- job host %d\n" % os.getpid())
            output.flush()
            status = run_one(registry.folder(job_id), runtime, stop, output)
        print("[INFO] Job %s: %s" % (job_id, status), flush=True)
    finally:
        lock.release()


def host_process_alive(pid, folder):
    """True while the host `pid` (whose command line names its folder) runs."""
    return process_alive(pid, folder)
