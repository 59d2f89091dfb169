"""INSERT INTO jobs, as a session sees them: submit one (checked against its sink on the session's Spark,
then started detached, job_launch.py), list every session's jobs (SHOW JOBS), stop one (STOP JOB [WITH
SAVEPOINT]), wait for one (`table.dml-sync`), resume one from its checkpoint, run one (in its own process).

A job is a folder of the registry (job_registry.py, setting `dynsql.jobs.dir`, by default the project's
.dynsql/jobs); DROP JOB removes one that no longer runs; quitting the session leaves
its jobs running. `SET 'execution.savepoint.path' = '<checkpoint>'` before an INSERT starts the new job from
a copy of that checkpoint, as Flink restores a savepoint."""

import datetime as dt
import os
import shutil
import signal
import socket
import time
import uuid

from planner.errors import RuntimeFailure, SqlError
from planner.settings import project_jobs_dir

from .connectors.parse_errors import changed_files_note, changed_files_under
from .job_host import withdraw
from .job_launch import launch, resume_command
from .job_registry import ACTIVE, DAMAGED, JobRecord, JobRegistry, process_alive
from .results import Column, MessageResult, TableResult
from .sinks import check_insert, sink_columns
from .sinks.filesystem import ROWS

SHOW_JOBS_COLUMNS = [Column("job id", "STRING"), Column("job name", "STRING"), Column("status", "STRING"),
                     Column("rows written", "BIGINT"), Column("start time", "STRING"), Column("checkpoint", "STRING"),
                     Column("resume with", "STRING"), Column("error", "STRING"), Column("input notes", "STRING")]


class SessionJobs:
    def __init__(self, engine, entry=None, conf=None):
        self.engine = engine
        self.entry = entry              # the command that runs a job given its folder (the repl's)
        self.conf = dict(conf or {})    # the session's -D settings, which a job's process starts with
        self.started = []               # ids of the jobs this session submitted
        self._cache = (0.0, {})

    # ------------------------------------------------------------------ the registry
    @property
    def registry(self):
        settings = self.engine.settings
        return JobRegistry(settings.jobs_dir if settings is not None else project_jobs_dir())

    @property
    def jobs(self):
        """{id: record} of the jobs this session submitted, read at most once a second (the toolbar's)."""
        at, cached = self._cache
        if time.time() - at > 1.0:
            registry = self.registry
            cached = {i: r for i, r in ((i, registry.get(i)) for i in self.started) if r is not None}
            self._cache = (time.time(), cached)
        return cached

    # ------------------------------------------------------------------ submit
    def submit(self, plans, text, session_statements):
        """Check every INSERT of a job against its sink, then start the job. -> its id, a note or None."""
        if self.entry is None:
            raise RuntimeFailure("This session cannot start jobs (no job command)")
        runtime = self.engine.spark_runtime
        # a job host checks the INSERTs against their sinks itself when this session's Spark is not up yet (a
        # script of DDL and INSERTs then needs no JVM of its own): the INSERT waits for that verdict
        checked_here = runtime.is_ready or not _hosted(runtime)
        for plan in plans:
            check_insert(plan)
            if checked_here:
                result = self.engine.result_frame(plan.query, plan.batch)
                sink_columns(plan, result.columns)
        registry = self.registry
        names = ",".join(p.target_path or "default_catalog.default_database.%s" % p.target.name for p in plans)
        name = (self.engine.settings.get("pipeline.name") if self.engine.settings is not None else None) \
            or "insert-into_" + names
        record = JobRecord(id=uuid.uuid4().hex, name=name, inserts=[p.text for p in plans],
                           statements=list(session_statements), conf=self.conf, master=runtime.master,
                           remote=runtime.remote, cwd=os.getcwd(), batch=any(p.batch for p in plans),
                           started=now_text(), host=socket.gethostname(), heartbeat=time.time())
        record.resume_command = resume_command(registry.root, record.id, project_jobs_dir())
        savepoint = self.engine.settings.savepoint_path if self.engine.settings is not None else None
        source = _savepoint_folder(savepoint) if savepoint else None
        registry.create(record)
        if source:
            record.restored_from = _restore(source, registry.checkpoint(record.id))
            registry.update(record.id, restored_from=record.restored_from)
        record.pid, note = launch(registry, record, self.entry)
        if not checked_here:
            self._wait_checked(registry, record.id)
        self.started.append(record.id)
        self._cache = (0.0, {})
        return record.id, note

    def _wait_checked(self, registry, job_id):
        """Wait until the job host has checked the job's INSERTs; when they fail their check, the job never ran:
        its folder is removed and the INSERT fails with the check's error."""
        while True:
            record = registry.get(job_id)
            if record is None or record.checked or record.status not in ("INITIALIZING", "FAILED"):
                return
            if record.status == "FAILED":
                shutil.rmtree(registry.folder(job_id), ignore_errors=True)
                raise CheckFailed(record.error or "the job could not start")
            time.sleep(0.05)

    def resume(self, job_id):
        """Start a job that is not running again, from its checkpoint. -> (record, note)."""
        registry = self.registry
        record = registry.require(job_id)
        # one resume at a time (a second waits here, then finds the job INITIALIZING), and never beside a process
        # that still runs the job (it holds the run lock until it ends)
        with registry.resume_lock(job_id):
            record = registry.require(job_id)
            if record.status == DAMAGED:
                raise SqlError("Job '%s' cannot resume: %s" % (job_id, record.error))
            if record.status in ACTIVE or not _released(registry.run_lock(job_id), EXIT_WAIT_SECONDS):
                raise SqlError("Job '%s' is %s: only a job that stopped or failed can resume" % (
                    job_id, record.status if record.status in ACTIVE else "still running in another process"),
                               hint="STOP JOB '%s' stops it" % job_id)
            registry.clear_stop_request(job_id)     # an old request must not stop the resumed job
            record = registry.update(job_id, status="INITIALIZING", error=None, pid=None, started=now_text(),
                                     host=socket.gethostname(), heartbeat=time.time())
            pid, note = launch(registry, record, self.entry)
        self.started.append(job_id)
        return registry.get(job_id), note

    # ------------------------------------------------------------------ SHOW JOBS / STOP JOB / wait
    def show(self):
        """SHOW JOBS: every job of the registry, once the jobs that ended longer ago than `jobstore.expiration-time`
        are removed."""
        rows = []
        settings = self.engine.settings
        if settings is not None:
            self.registry.expire(settings.job_expiration_seconds)
        for r in self.registry.all():
            resume = r.resume_command if r.status in ("FAILED", "CANCELED") else None
            checkpoint = self.registry.checkpoint(r.id)
            # a file its sources found changed after they took it, as the shell says it under a query's result
            notes = changed_files_note(changed_files_under(checkpoint)) or None
            rows.append((r.id, r.name, r.status, r.rows_written, r.started, checkpoint, resume, r.error, notes))
        return TableResult(SHOW_JOBS_COLUMNS, rows, uncut=True)

    def stop(self, job_id, savepoint=False, timeout=300):
        """STOP JOB: ask the job's process to stop, wait until it has. -> the result to show."""
        registry = self.registry
        record = registry.get(job_id)
        if record is None:
            raise SqlError("Could not stop job %s: no such job" % job_id, hint="SHOW JOBS lists the ids")
        if record.status == DAMAGED:
            return self._stop_damaged(record, savepoint, timeout)
        if record.status not in ACTIVE:
            raise SqlError("Could not stop job %s: it is %s, not running" % (job_id, record.status),
                           hint=("resume it with: %s" % record.resume_command) if record.status == "FAILED" else None)
        if record.job_host and record.status == "INITIALIZING" and withdraw(record.job_host, job_id):
            # its host had not picked it up: it never ran
            registry.update(job_id, status="CANCELED", heartbeat=time.time())
        registry.request_stop(job_id, savepoint)
        record = self.wait(job_id, timeout)
        if record.status in ACTIVE:
            raise RuntimeFailure("Job %s did not stop within %d s" % (job_id, timeout),
                                 hint="SHOW JOBS shows when it has; its output is in %s" % registry.output(job_id))
        self._cache = (0.0, {})
        if savepoint:
            return TableResult([Column("savepoint path", "STRING")], [(registry.checkpoint(job_id),)], uncut=True)
        return MessageResult("[INFO] The specified job is stopped.")

    def drop(self, job_id):
        """DROP JOB: remove a job that no longer runs from the registry, with its checkpoint and output."""
        registry = self.registry
        record = registry.get(job_id)
        if record is None:
            raise SqlError("Could not drop job %s: no such job" % job_id, hint="SHOW JOBS lists the ids")
        if record.status in ACTIVE or (record.status == DAMAGED and record.pid is not None) or \
                registry.run_lock(job_id).held_elsewhere():
            raise SqlError("Could not drop job %s: it is still running" % job_id,
                           hint="STOP JOB '%s' stops it first" % job_id)
        shutil.rmtree(registry.folder(job_id))
        self._cache = (0.0, {})
        return MessageResult("[INFO] The specified job is dropped.")

    def _stop_damaged(self, record, savepoint, timeout):
        """STOP JOB of a job whose record is damaged: its process, found by its command line, is asked to stop
        as any job is (stop.json), then sent SIGTERM (which a job's process takes as STOP JOB) if it goes on."""
        registry = self.registry
        if record.pid is None:
            raise SqlError("Could not stop job %s: no process of it runs (%s)" % (record.id, record.error))
        registry.request_stop(record.id, savepoint)
        if not _ended(record.pid, min(timeout, 60)):
            try:
                os.kill(record.pid, signal.SIGTERM)
            except OSError:
                pass
            if not _ended(record.pid, timeout):
                raise RuntimeFailure("Job %s (pid %d) did not stop within %d s" % (record.id, record.pid, timeout),
                                     hint="its output is in %s" % registry.output(record.id))
        self._cache = (0.0, {})
        if savepoint:
            return TableResult([Column("savepoint path", "STRING")], [(registry.checkpoint(record.id),)], uncut=True)
        return MessageResult("[INFO] The specified job is stopped. Its record stays damaged: %s" % record.error)

    def wait(self, job_id, timeout=None):
        """Wait until the job is no longer INITIALIZING or RUNNING. -> its record."""
        registry = self.registry
        deadline = None if timeout is None else time.time() + timeout
        while True:
            record = registry.get(job_id)
            if record is None or record.status not in ACTIVE:
                return record
            if deadline is not None and time.time() > deadline:
                return record
            time.sleep(0.3)

    def run(self, job_folder, plans, stop_signal=None, output=None):
        """Run the job of `job_folder` here (the job's own process or its job host calls this). -> its final
        status (job_run.run_job)."""
        from .job_run import run_job
        folder = os.path.abspath(job_folder)
        return run_job(self.engine, JobRegistry(os.path.dirname(folder)), os.path.basename(folder), plans,
                       stop_signal, output)


class CheckFailed(SqlError):
    """An INSERT's check, as the job host ran it: its text is rendered already (position and hint)."""

    def render(self):
        return self.message


def _hosted(runtime):
    from .job_host import hosted
    return hosted(JobRecord(id="", name="", inserts=[], statements=[], conf={}, master=runtime.master,
                            remote=runtime.remote))


EXIT_WAIT_SECONDS = 60     # a job that has just failed or stopped: its process may still be closing its session


def _released(lock, timeout):
    """Wait up to `timeout` s until no other process holds `lock`. -> True when none does."""
    deadline = time.time() + timeout
    while lock.held_elsewhere():
        if time.time() > deadline:
            return False
        time.sleep(0.3)
    return True


def _ended(pid, timeout):
    """Wait up to `timeout` s for process `pid` to end. -> True when it has."""
    deadline = time.time() + timeout
    while process_alive(pid):
        if time.time() > deadline:
            return False
        time.sleep(0.2)
    return True


def run_lock(job_folder):
    """The lock the process running the job of `job_folder` holds (JobRegistry.run_lock)."""
    folder = os.path.abspath(job_folder)
    return JobRegistry(os.path.dirname(folder)).run_lock(os.path.basename(folder))


def read_job(job_folder):
    """The record of the job in `job_folder` (what its process runs), or None."""
    folder = os.path.abspath(job_folder)
    return JobRegistry(os.path.dirname(folder)).read(os.path.basename(folder))


def mark_failed(job_folder, error):
    """A job's process could not run it (its statements no longer plan, Spark did not start)."""
    folder = os.path.abspath(job_folder)
    JobRegistry(os.path.dirname(folder)).update(os.path.basename(folder), status="FAILED", error=error,
                                                heartbeat=time.time())


def _savepoint_folder(savepoint):
    source = os.path.abspath(os.path.expanduser(savepoint))
    if not os.path.isdir(source):
        raise SqlError("Cannot restore from savepoint '%s': no such folder" % savepoint,
                       hint="a job's checkpoint, as SHOW JOBS or STOP JOB ... WITH SAVEPOINT shows it; "
                            "RESET 'execution.savepoint.path' starts afresh")
    return source


def _restore(source, checkpoint):
    """Start a job from a savepoint: a copy of a job's checkpoint folder (its per-INSERT folders)."""
    if os.path.isdir(os.path.join(source, "offsets")):   # one INSERT's checkpoint
        shutil.copytree(source, os.path.join(checkpoint, "0"))
    else:
        shutil.copytree(source, checkpoint, dirs_exist_ok=True)
    # the rows the old job wrote are its own: the new job counts from zero
    for name in os.listdir(checkpoint):
        shutil.rmtree(os.path.join(checkpoint, name, ROWS), ignore_errors=True)
    return source


def now_text():
    return dt.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
