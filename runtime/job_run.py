"""Running one job in its own process: start a sink write per INSERT (each with its checkpoint folder in the
job's registry folder), then watch them until they end, a stop is requested (STOP JOB, or SIGTERM), or one
fails. Meanwhile the job's record gets a heartbeat and the rows written every couple of seconds; at the end,
its final status: FINISHED (all inputs done, or stopped with a savepoint, as Flink's stop-with-savepoint),
CANCELED (stopped), FAILED (with the error). The checkpoints stay, so the job can resume.

Does not plan: the caller hands it the INSERT plans it re-planned from the job's statements."""

import json
import os
import shutil
import signal
import socket
import tempfile
import threading
import time

from planner.errors import DynsqlError

from .job_registry import HEARTBEAT_SECONDS
from .session import is_connect
from .sinks import check_insert, sink_columns, start_sink
from .tables import HIDDEN_SCHEMA, sources_kept_in


def run_job(engine, registry, job_id, plans, stop_signal=None, output=None):
    """Run the job's INSERTs until they end. -> the final status. `stop_signal`: an Event that stops the job
    (a job host's, at its SIGTERM), else SIGTERM of this process does; `output`: where a print sink writes
    (else this process's standard output)."""
    if stop_signal is None:
        stop_signal = threading.Event()
        _on_sigterm(stop_signal)
    # a stop requested while this process started is kept: the first look at the requests honours it
    record = registry.update(job_id, status="INITIALIZING", pid=os.getpid(), host=socket.gethostname(),
                             heartbeat=time.time(), error=None, checked=False)
    writes = []
    try:
        if len(plans) > 1:
            _prime_filesystem_source(engine.spark)
        results = []
        for index, plan in enumerate(plans):      # checked against its sinks first, as a session checks them
            check_insert(plan)
            with sources_kept_in(registry.checkpoint(job_id, index)):
                results.append(engine.result_frame(plan.query, plan.batch))
            sink_columns(plan, results[-1].columns)
        registry.update(job_id, checked=True)
        for index, (plan, result) in enumerate(zip(plans, results)):
            checkpoint = registry.checkpoint(job_id, index)
            counted = record.rows.get(str(index), {})
            writes.append(start_sink(engine.spark, plan, result, checkpoint,
                                     prefix="%s-%d" % (job_id, index), rows=counted.get("rows", 0),
                                     last_batch=counted.get("batch", -1), output=output))
        registry.update(job_id, status="RUNNING", heartbeat=time.time(), jvm_pid=_jvm_pid(engine.spark))
        status, error = _watch(registry, job_id, writes, stop_signal)
    except DynsqlError as e:
        status, error = "FAILED", e.render()
    except Exception as e:   # anything else Spark raised
        from .errors import from_spark
        status, error = "FAILED", from_spark(e).render()
    for w in writes:
        if not w.finished:
            w.stop()
    registry.update(job_id, status=status, error=error, heartbeat=time.time(), rows=_rows(writes, record))
    registry.clear_stop_request(job_id)
    return status


def _watch(registry, job_id, writes, stop_signal):
    """-> (final status, error text or None)."""
    beat = time.time()
    while True:
        for w in writes:
            w.poll()
        failed = [w for w in writes if w.error is not None]
        if failed:
            error = failed[0].error
            return "FAILED", error.render() if isinstance(error, DynsqlError) else str(error)
        if all(w.finished for w in writes):
            return "FINISHED", None
        request = registry.stop_request(job_id)
        if request is not None or stop_signal.is_set():
            for w in writes:
                w.stop()
            for w in writes:
                _wait_finished(w)
            return ("FINISHED" if request and request.get("savepoint") else "CANCELED"), None
        if time.time() - beat >= HEARTBEAT_SECONDS:
            registry.update(job_id, heartbeat=time.time(), rows=_rows(writes, None))
            beat = time.time()
        stop_signal.wait(STOP_CHECK_SECONDS)


STOP_CHECK_SECONDS = 0.2     # how soon a STOP JOB is seen


def _wait_finished(write, timeout=60):
    deadline = time.time() + timeout
    while not write.finished and time.time() < deadline:
        write.poll()
        time.sleep(0.2)


def _rows(writes, record):
    rows = dict(record.rows) if record is not None else {}
    for index, w in enumerate(writes):
        rows[str(index)] = {"rows": w.rows_written, "batch": w.last_batch}
    return rows


def _jvm_pid(spark):
    """The pid of this process's Spark JVM (None under Spark Connect)."""
    try:
        return int(spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid())
    except Exception:
        return None


def _on_sigterm(event):
    """SIGTERM (kill <pid>) stops the job as STOP JOB does."""
    try:
        signal.signal(signal.SIGTERM, lambda signum, frame: event.set())
    except ValueError:     # not the main thread (a test running a job in-process)
        pass


def _prime_filesystem_source(spark):
    """Spark's Python runner adds its worker settings to a Python data source's function, which every read of
    that source shares, the first time one of its tasks runs in a JVM; with local executors, a query whose task
    Spark serializes at that moment gets a torn copy of them (java.io.OptionalDataException). A job's INSERTs
    start together in a fresh JVM: one task of the filesystem source (reading an empty file) runs first."""
    from pyspark.sql import types as st
    if is_connect(spark) or not spark.sparkContext.master.startswith("local"):
        return
    folder = tempfile.mkdtemp(prefix="dynsql-prime-")
    try:
        path = os.path.join(folder, "empty.csv")
        open(path, "w").close()
        spec = {"path": path, "format": "csv", "columns": [("k", "STRING")], "partitions": [],
                "options": {"connector": "filesystem", "path": path, "format": "csv"}}
        schema = st.StructType([st.StructField("k", st.StringType())] + HIDDEN_SCHEMA)
        spark.read.format("dynsql_filesystem").schema(schema).option("spec", json.dumps(spec)).load().count()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
