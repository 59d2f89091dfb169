"""Background jobs: `INSERT INTO sink SELECT ...` runs on its own (a streaming query with its own
checkpoint directory, or a batch job in a thread); SHOW JOBS lists them, STOP JOB ends one.

Sinks: 'print' (Flink's `+I[a, b]` lines on standard output, after 'print-identifier> ' when set),
'blackhole' (discards), 'filesystem' (csv or json part files in the table's path; insert-only)."""

import csv
import datetime as dt
import io
import json
import os
import sys
import threading
import time
import uuid

from planner.errors import SqlError, UnsupportedError

from .results import ChangeStream, MessageResult


class Job:
    def __init__(self, job_id, name, stream):
        self.id = job_id
        self.name = name
        self.stream = stream
        self.status = "RUNNING"
        self.started = dt.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
        self.error = None
        self.rows_written = 0


class JobRegistry:
    def __init__(self):
        self.jobs = {}
        self._lock = threading.Lock()

    def submit(self, engine, plan):
        target = plan.target
        conn = target.options.get("connector")
        if conn not in ("print", "blackhole", "filesystem"):
            raise UnsupportedError("Table '%s' (connector '%s') cannot be written to" % (target.name, conn),
                                   hint="sinks: print, blackhole, filesystem")
        q = plan.query
        if conn == "filesystem" and not q.mode.insert_only:
            raise SqlError("Table sink 'default_catalog.default_database.%s' doesn't support consuming update "
                           "changes which is produced by node %s" % (target.name, _updating_node(q)),
                           q.line, q.column, hint="a filesystem sink takes insert-only queries")
        result = engine.run_query(q, plan.batch)
        writer = _writer(target)
        physical = [c for c in target.columns if c.is_physical]
        if len(result.columns) != len(physical):
            if isinstance(result, ChangeStream):
                result.stop()
            raise SqlError("Column types of query result and sink for '%s' do not match: the query gives %d "
                           "columns, the sink has %d" % (target.name, len(result.columns), len(physical)),
                           q.line, q.column)
        job = Job(uuid.uuid4().hex, "insert-into_default_catalog.default_database.%s" % target.name,
                  result if isinstance(result, ChangeStream) else None)
        with self._lock:
            self.jobs[job.id] = job
        threading.Thread(target=self._drain, args=(job, result, writer), daemon=True).start()
        return MessageResult("[INFO] Submitting SQL update statement to the cluster...\n"
                             "[INFO] SQL update statement has been successfully submitted to the cluster:\n"
                             "Job ID: %s\n" % job.id)

    def _drain(self, job, result, writer):
        try:
            if isinstance(result, ChangeStream):
                for batch in result:
                    writer.write(batch.changes)
                    job.rows_written += len(batch.changes)
            else:
                changes = [("+I", r) for r in result.rows]
                writer.write(changes)
                job.rows_written += len(changes)
            writer.close()
            if job.status == "RUNNING":
                job.status = "FINISHED"
        except Exception as e:
            job.status = "FAILED"
            job.error = e
            print("[ERROR] Job %s failed: %s" % (job.id, e), file=sys.stderr)

    def rows(self):
        return [(j.id, j.name, j.status, j.started) for j in self.jobs.values()]

    def stop(self, job_id):
        job = self.jobs.get(job_id)
        if job is None:
            raise SqlError("Could not stop job %s: no such job" % job_id, hint="SHOW JOBS lists the ids")
        if job.status == "RUNNING" and job.stream is not None:
            job.status = "CANCELED"
            job.stream.stop()

    def wait_all(self, timeout=None):
        deadline = None if timeout is None else time.time() + timeout
        for job in list(self.jobs.values()):
            while job.status == "RUNNING" and (deadline is None or time.time() < deadline):
                time.sleep(0.1)

    def stop_all(self):
        for job in list(self.jobs.values()):
            if job.status == "RUNNING" and job.stream is not None:
                job.stream.stop()


def _updating_node(query):
    """The first operator (from the sources up) that produces updates, as Flink names it in its error."""
    from planner.operators import walk
    if query.operators is None:
        return "the query"
    producers = [n for n in walk(query.operators)
                 if not n.mode.insert_only and all(i.mode.insert_only for i in n.inputs)]
    node = producers[-1] if producers else query.operators
    name, detail = node.describe()
    return "%s(%s)" % (name, detail)


def _writer(table):
    conn = table.options["connector"]
    if conn == "print":
        return PrintWriter(table.options.get("print-identifier"),
                           table.options.get("standard-error", "false").lower() == "true")
    if conn == "blackhole":
        return BlackholeWriter()
    return FileWriter(table)


class BlackholeWriter:
    def write(self, changes):
        pass

    def close(self):
        pass


class PrintWriter:
    def __init__(self, identifier, to_stderr):
        self.prefix = (identifier + "> ") if identifier else ""
        self.out = sys.stderr if to_stderr else sys.stdout

    def write(self, changes):
        from .values_text import value_text
        for op, row in changes:
            self.out.write("%s%s[%s]\n" % (self.prefix, op, ", ".join(value_text(v) for v in row)))
        self.out.flush()

    def close(self):
        pass


class FileWriter:
    """One part file per batch in the sink's directory, in the table's format (csv or json)."""

    def __init__(self, table):
        self.path = table.options["path"]
        self.format = table.options.get("format", "csv")
        if self.format not in ("csv", "json"):
            raise UnsupportedError("The filesystem sink writes csv or json, not '%s'" % self.format)
        self.names = [c.name for c in table.columns if c.is_physical]
        os.makedirs(self.path, exist_ok=True)
        self.n = 0
        self.prefix = "part-%s" % uuid.uuid4().hex[:8]

    def write(self, changes):
        if not changes:
            return
        from .values_text import value_text
        name = os.path.join(self.path, "%s-%d.%s" % (self.prefix, self.n, self.format))
        self.n += 1
        tmp = os.path.join(self.path, ".%s-%d.inprogress" % (self.prefix, self.n))
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            if self.format == "csv":
                w = csv.writer(f, lineterminator="\n")
                for _, row in changes:
                    w.writerow(["" if v is None else value_text(v) for v in row])
            else:
                for _, row in changes:
                    f.write(json.dumps({n: _json_value(v) for n, v in zip(self.names, row)}) + "\n")
        os.replace(tmp, name)

    def close(self):
        pass


def _json_value(v):
    from .values_text import value_text
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return value_text(v)
