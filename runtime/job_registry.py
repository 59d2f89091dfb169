"""The job registry: a directory (setting `dynsql.jobs.dir`, default the project's .dynsql/jobs) with one folder
per INSERT INTO job, shared by the dynsql sessions of the project and by the processes that run its jobs.

    <root>/<job id>/job.json       what the job runs and its state (JobRecord), rewritten atomically; the value
                                   of a setting or option that names a secret masked (runtime/redaction.py)
    <root>/<job id>/secrets.json   the statements and settings as typed, when job.json masks something in them
    <root>/<job id>/stop.json      a request to stop it (STOP JOB), read by the job's process
    <root>/<job id>/output.log     the job process's standard output and errors (the print sink's rows)
    <root>/<job id>/checkpoint/N   Spark's checkpoint of the job's N-th INSERT, kept after the job ends
    <root>/<job id>/run.lock       locked by the job's process while it runs: a second one for the job exits
    <root>/<job id>/resume.lock    locked by a session while it resumes the job: one resume at a time
    <root>/.hosts/<key>/           a job host's folder (job_host.py): a process that runs jobs in one JVM

A job that ended is removed (`expire`, when SHOW JOBS lists the registry) once its record is older than the
setting `jobstore.expiration-time`, Flink's name (seconds).

The root and each job's folder are owner-only (0700), its files 0600. The session that submits a job writes
its record; from then on only the job's process writes it. A job whose record says it runs but whose process
is gone (or, on another host, whose heartbeat stopped) reads as FAILED, with the command that resumes it; one
whose job.json is damaged reads as DAMAGED, naming the file, and STOP JOB finds its process by its command
line. Does not start or run jobs (job_launch.py, job_run.py)."""

import dataclasses
import fcntl
import json
import os
import shutil
import socket
import time
from dataclasses import dataclass, field

from planner.errors import RuntimeFailure, SqlError

from .private_files import open_private, private_folder
from .redaction import redact_conf, redact_statement

RECORD = "job.json"
SECRETS = "secrets.json"     # the statements and settings as typed, when job.json masks a secret in them
STOP_REQUEST = "stop.json"
OUTPUT = "output.log"
CHECKPOINT = "checkpoint"
ACTIVE = ("INITIALIZING", "RUNNING")
ENDED = ("FINISHED", "FAILED", "CANCELED")
DAMAGED = "DAMAGED"          # job.json unreadable or not a record: listed with its path, its process still stoppable
RUN_LOCK = "run.lock"        # held by the job's process while it runs
RESUME_LOCK = "resume.lock"  # held by a session while it resumes the job
HEARTBEAT_SECONDS = 2
HEARTBEAT_TIMEOUT = 60      # a job on another host whose heartbeat is this old has died


@dataclass
class JobRecord:
    id: str
    name: str
    inserts: list                  # the INSERT statements' text (a statement set: several)
    statements: list               # the session's DDL and SET statements before them, in order
    conf: dict                     # the session's -D settings (spark.* and Flink keys)
    master: str = None             # Spark master, or None with `remote`
    remote: str = None             # Spark Connect URL
    cwd: str = ""                  # where the session ran: relative table paths resolve from there
    batch: bool = False
    status: str = "INITIALIZING"
    started: str = ""
    heartbeat: float = 0.0
    pid: int = None
    jvm_pid: int = None            # the job's Spark driver JVM (local): the job runs while either lives
    host: str = ""
    rows: dict = field(default_factory=dict)   # insert index -> {"rows": n, "batch": last counted batch id}
    error: str = None
    restored_from: str = None      # the savepoint (checkpoint folder) the job started from
    resume_command: str = ""
    deploy: str = "process"        # "process" (a detached local process) or "spark-submit"
    checked: bool = False          # its INSERTs were checked against their sinks in the job's process
    job_host: str = None           # the folder of the job host (job_host.py) that runs it; `pid` is the host's

    @property
    def rows_written(self):
        return sum(r.get("rows", 0) for r in self.rows.values())


class JobRegistry:
    def __init__(self, root):
        self.root = os.path.abspath(os.path.expanduser(root))

    # ------------------------------------------------------------------ paths
    def folder(self, job_id):
        return os.path.join(self.root, job_id)

    def checkpoint(self, job_id, index=None):
        base = os.path.join(self.folder(job_id), CHECKPOINT)
        return base if index is None else os.path.join(base, str(index))

    def output(self, job_id):
        return os.path.join(self.folder(job_id), OUTPUT)

    # ------------------------------------------------------------------ records
    def create(self, record):
        try:
            private_folder(self.root)
            os.mkdir(self.folder(record.id), 0o700)
        except OSError as e:
            raise RuntimeFailure("Cannot create the job folder %s: %s" % (self.folder(record.id), e.strerror or e),
                                 hint="'dynsql.jobs.dir' names where jobs are kept")
        secrets = {"statements": list(record.statements), "conf": dict(record.conf)}
        if _redacted(secrets) != secrets:
            self._write_json(os.path.join(self.folder(record.id), SECRETS), secrets)
        self.write(record)
        return record

    def write(self, record):
        """The record as job.json, its secrets masked (`create` keeps their values in the owner-only SECRETS)."""
        data = dataclasses.asdict(record)
        data.update(_redacted({"statements": data["statements"], "conf": data["conf"]}))
        self._write_json(os.path.join(self.folder(record.id), RECORD), data)

    @staticmethod
    def _write_json(path, data):
        """Atomically: a reader sees the old file or the new one, whole, even after a crash mid-write."""
        tmp = "%s.%d.tmp" % (path, os.getpid())
        with open_private(tmp, "w") as f:
            json.dump(data, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    # ------------------------------------------------------------------ one process a job
    def run_lock(self, job_id):
        """The lock a job's process holds while it runs the job (JobLock)."""
        return JobLock(os.path.join(self.folder(job_id), RUN_LOCK))

    def resume_lock(self, job_id):
        """The lock a session holds while it checks that a job is not running and starts it again."""
        return JobLock(os.path.join(self.folder(job_id), RESUME_LOCK))

    def read(self, job_id):
        """The record as written (no liveness check); None when the folder has no record; a DAMAGED record
        (naming the file and what is wrong, with the pid of the job's process if one still runs) when job.json
        cannot be read or is not a job's record."""
        path = os.path.join(self.folder(job_id), RECORD)
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            problem = _record_problem(data)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            problem = "%s" % (e.strerror if isinstance(e, OSError) and e.strerror else e)
        if problem is not None:
            return JobRecord(id=job_id, name="(damaged record)", inserts=[], statements=[], conf={},
                             status=DAMAGED, error="%s is damaged: %s" % (path, problem),
                             pid=job_process(self.folder(job_id)), host=socket.gethostname())
        try:
            with open(os.path.join(self.folder(job_id), SECRETS), encoding="utf-8") as f:
                data.update(json.load(f))       # the statements and settings with their secrets' values
        except (OSError, ValueError):
            pass
        known = {f.name for f in dataclasses.fields(JobRecord)}
        return JobRecord(**{k: v for k, v in data.items() if k in known})

    def get(self, job_id):
        """The record with its effective status: a job whose process died reads as FAILED."""
        record = self.read(job_id) if _plain_name(job_id) else None
        return None if record is None else self._effective(record)

    def require(self, job_id):
        record = self.get(job_id)
        if record is None:
            raise SqlError("Could not find job '%s' in %s: no such job" % (job_id, self.root),
                           hint="SHOW JOBS lists the ids")
        return record

    def all(self):
        """Every job's record, the newest first."""
        try:
            names = os.listdir(self.root)
        except OSError:
            return []
        records = [r for r in (self.get(n) for n in names) if r is not None]
        return sorted(records, key=lambda r: r.started, reverse=True)

    def expire(self, max_age_seconds, now=None):
        """Remove (as DROP JOB does: record, checkpoint, output) every job that ended (FINISHED, FAILED, CANCELED)
        whose record was last written `max_age_seconds` ago or longer, as Flink's job store purges completed jobs
        after `jobstore.expiration-time`. A job a process still holds (running, or being resumed) stays, and so
        does a DAMAGED record (SHOW JOBS names its file). -> the ids removed."""
        now = time.time() if now is None else now
        removed = []
        try:
            names = os.listdir(self.root)
        except OSError:
            return removed
        for job_id in names:
            record = self.get(job_id)
            if record is None or record.status not in ENDED:
                continue
            try:
                age = now - os.stat(os.path.join(self.folder(job_id), RECORD)).st_mtime
            except OSError:
                continue
            if age < max_age_seconds:
                continue
            resume = self.resume_lock(job_id)
            if not resume.take():          # a session is starting it again
                continue
            try:
                if self.run_lock(job_id).held_elsewhere():
                    continue
                shutil.rmtree(self.folder(job_id), ignore_errors=True)
                removed.append(job_id)
            finally:
                resume.release()
        return removed

    def update(self, job_id, **changes):
        """Change fields of the record; a missing or damaged record is left as it is (None)."""
        record = self.read(job_id)
        if record is None or record.status == DAMAGED:
            return None
        for k, v in changes.items():
            setattr(record, k, v)
        self.write(record)
        return record

    def _effective(self, record):
        if record.status == DAMAGED and record.pid is not None:
            record.error += "; the job's process (pid %d) still runs: STOP JOB '%s' stops it" % (record.pid, record.id)
        if record.status not in ACTIVE or record.pid is None:
            return record
        same_host = record.host == socket.gethostname()
        if same_host and record.job_host:
            # a job host runs it: the host lives, and the job has not been picked up yet or its thread holds the
            # job's run lock
            if not (process_alive(record.pid, record.job_host) and (
                    record.status == "INITIALIZING" or self.run_lock(record.id).held_elsewhere())):
                record.status = "FAILED"
                record.error = record.error or "the job host (pid %d) ended without finishing the job%s" % (
                    record.pid, _log_ending(os.path.join(record.job_host, "host.log")))
            return record
        if same_host and not process_alive(record.pid, record.id) and not (
                record.jvm_pid and process_alive(record.jvm_pid)):
            record.status = "FAILED"
            record.error = record.error or "the job's process (pid %d) ended without finishing the job" % record.pid
        elif not same_host and time.time() - record.heartbeat > HEARTBEAT_TIMEOUT:
            record.status = "FAILED"
            record.error = record.error or "no heartbeat from the job's process on %s since %s" % (
                record.host, time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.heartbeat)))
        return record

    # ------------------------------------------------------------------ stop requests
    def request_stop(self, job_id, savepoint):
        path = os.path.join(self.folder(job_id), STOP_REQUEST)
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            json.dump({"savepoint": bool(savepoint), "at": time.time()}, f)
        os.replace(path + ".tmp", path)

    def stop_request(self, job_id):
        """{"savepoint": bool} when a stop was requested, else None."""
        try:
            with open(os.path.join(self.folder(job_id), STOP_REQUEST), encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def clear_stop_request(self, job_id):
        try:
            os.remove(os.path.join(self.folder(job_id), STOP_REQUEST))
        except OSError:
            pass


class JobLock:
    """An exclusive lock on a file of the job's folder (flock: released when its holder's process ends, however
    it ends). `take(wait=False)` -> True when this process now holds it."""

    def __init__(self, path):
        self.path = path
        self.fd = None

    def take(self, wait=False):
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            os.close(fd)
            return False
        self.fd = fd
        return True

    def held_elsewhere(self):
        """True while another process holds the lock."""
        if not self.take():
            return True
        self.release()
        return False

    def release(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self):
        self.take(wait=True)
        return self

    def __exit__(self, *exc):
        self.release()


_FIELD_TYPES = {"id": str, "name": str, "inserts": list, "statements": list, "conf": dict, "master": (str, type(None)),
                "remote": (str, type(None)), "cwd": str, "batch": bool, "status": str, "started": str,
                "heartbeat": (int, float), "pid": (int, type(None)), "jvm_pid": (int, type(None)), "host": str,
                "rows": dict, "error": (str, type(None)), "restored_from": (str, type(None)), "resume_command": str,
                "deploy": str, "job_host": (str, type(None)), "checked": bool}
_REQUIRED = ("id", "name", "inserts", "statements", "conf")


def _record_problem(data):
    """What makes `data` (job.json's JSON) not a job's record, or None."""
    if not isinstance(data, dict):
        return "it holds a JSON %s, not an object" % type(data).__name__
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        return "it lacks %s" % ", ".join(missing)
    for key, kinds in _FIELD_TYPES.items():
        if key in data and not isinstance(data[key], kinds):
            return "its %s is %s" % (key, json.dumps(data[key])[:80])
    if not all(isinstance(t, str) for t in data["inserts"] + data["statements"]):
        return "its statements are not all text"
    return None


def job_process(folder):
    """The pid of a live process whose command line names the job's folder (its `--job-run FOLDER`), or None:
    how STOP JOB finds a job whose record cannot tell."""
    folder = os.path.abspath(folder).encode()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open("/proc/%s/cmdline" % name, "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if folder in args and process_alive(int(name)):
            return int(name)
    return None


def _plain_name(job_id):
    return bool(job_id) and os.sep not in job_id and not job_id.startswith(".")


def process_alive(pid, job_id=None):
    """True while process `pid` runs (a zombie does not); with `job_id`, only when its command line names
    the job (a pid the system reused for another process is not the job)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        if state in ("Z", "X"):
            return False
        if job_id is not None:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                return job_id.encode() in f.read()
        return True
    except (OSError, IndexError):
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _log_ending(path, lines=4):
    """"; its log, <path>, ends: <its last lines>" (why a job host ended), or "" when it has none."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            last = [line.rstrip() for line in f.readlines()[-lines:] if line.strip()]
    except OSError:
        return ""
    return "; its log, %s, ends: %s" % (path, " | ".join(last) if last else "(empty)")


def _redacted(part):
    """{"statements", "conf"} of a record with the values of sensitive keys masked (runtime/redaction.py)."""
    return {"statements": [redact_statement(t) for t in part["statements"]], "conf": redact_conf(part["conf"])}
