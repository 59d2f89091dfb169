"""Running a streaming query into a `ChangeStream`: Spark Structured Streaming with a `foreachBatch`
sink in the driver that turns each micro-batch into labelled changes. Under Spark Connect a foreachBatch
function runs on the server, so there the query writes into Spark's `memory` sink, whose new rows the client
polls.

Sinks by changelog: `append` (every row is +I), `changelog` (rows carry `__op`), and `upsert`
(a native update-mode aggregate: the sink keeps each key's last row and emits -U/+U or +I, and -D
when a row leaves a HAVING filter). A bounded input ends the query by itself (`availableNow`), or, for
paced and watched sources, when every source reports it is done."""

import atexit
import json
import os
import shutil
import tempfile
import threading
import time
import uuid

from .operators.keyed_state import freeze
from .result_columns import collect_columns
from .results import OP_NAMES
from .results import ChangeBatch
from .state_backend import PROVIDER_KEY

_CHECKPOINTS = None
_START_LOCK = threading.Lock()
EXCLUDED_RULES = "spark.sql.optimizer.excludedRules"
# Spark pushes a filter that does not read the event-time column below the watermark node: it would drop the
# end-of-input sentinel row (nulls but its rowtime) before the watermark sees it, and the last windows would
# never fire. Queries that end with the sentinel run without predicate pushdown.
PUSH_DOWN_PREDICATES = "org.apache.spark.sql.catalyst.optimizer.PushDownPredicates"


def checkpoint_root():
    """The folder of this process's query checkpoints (each query removes its own when it ends); the
    folder itself is removed when the process exits, and, when it was killed, by the next dynsql process that
    makes its own (the folder's name holds its process id: `dynsql-checkpoints-<pid>-...`)."""
    global _CHECKPOINTS
    if _CHECKPOINTS is None:
        remove_orphan_checkpoints()
        _CHECKPOINTS = tempfile.mkdtemp(prefix="dynsql-checkpoints-%d-" % os.getpid())
        atexit.register(shutil.rmtree, _CHECKPOINTS, ignore_errors=True)
    return _CHECKPOINTS


def batch_watermark_ms(checkpoint, batch_id):
    """Spark's watermark for micro-batch `batch_id` (epoch ms, the smallest of its sources' watermarks after the
    micro-batches before it; a source at its end-of-input sentinel has passed every time), as the query's offset
    log holds it before the micro-batch runs; None when it cannot be read (a checkpoint not on the driver's
    file system)."""
    try:
        with open(os.path.join(checkpoint, "offsets", str(batch_id)), encoding="utf-8") as f:
            f.readline()
            return json.loads(f.readline()).get("batchWatermarkMs")
    except (OSError, ValueError):
        return None


def remove_orphan_checkpoints(folder=None):
    """Remove this user's `dynsql-checkpoints-<pid>-*` folders whose process no longer runs (a killed shell or
    job's: a clean exit removes its own)."""
    folder = folder or tempfile.gettempdir()
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        parts = name.split("-")
        if not (name.startswith("dynsql-checkpoints-") and len(parts) >= 4 and parts[2].isdigit()):
            continue
        path = os.path.join(folder, name)
        try:
            st = os.lstat(path)
            os.kill(int(parts[2]), 0)       # raises when no such process runs
            continue
        except ProcessLookupError:
            if st.st_uid == os.getuid() and os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue


class AppendSink:
    def __init__(self, names):
        self.names = names

    def changes(self, block):
        return [("+I", row) for row in block.tuples(self.names)]


class ChangelogSink:
    """Rows with an `__op` column (a changelog source passed through projections and filters), in `__seq` order."""

    def __init__(self, names):
        self.names = names

    def changes(self, block):
        rows, ops = block.tuples(self.names), block["__op"]
        order = range(len(block))
        if "__seq" in block:
            seqs = block["__seq"]
            order = sorted(order, key=lambda i: seqs[i] if seqs[i] is not None else 0)
        return [(OP_NAMES[ops[i]], rows[i]) for i in order]


class UpsertSink:
    """Update-mode rows of a keyed result (Spark's native aggregate) -> a retract changelog: the sink holds
    each key's last row and emits +I, or -U/+U when it changes. A row whose `__visible` is false (HAVING)
    is not in the result: a key that stops being visible is retracted with -U, as Flink does."""

    def __init__(self, names, key):
        self.names = names
        self.key = key
        self.last = {}

    def changes(self, block):
        out = []
        for row, k, visible in zip(block.tuples(self.names), block.tuples(self.key), block["__visible"]):
            k = freeze(k)                   # an ARRAY, MAP or ROW key as a dict can hold it
            old = self.last.get(k)
            if not visible:
                if old is not None:
                    out.append(("-U", old))
                    del self.last[k]
                continue
            if old is None:
                out.append(("+I", row))
            elif old != row:
                out.extend([("-U", old), ("+U", row)])
            else:
                continue
            self.last[k] = row
        return out


class StreamingRun:
    """One running streaming query feeding a ChangeStream."""

    def __init__(self, spark, frame, sink, stream, bounded, paced, name="dynsql", output_mode="append",
                 end_of_input=False, parse_errors=None, checkpoint=None, state_store=None, per_batch=None):
        self.spark = spark
        self.frame = frame
        self.sink = sink
        self.stream = stream
        self.bounded = bounded
        self.paced = paced
        self.name = name
        self.output_mode = output_mode
        self.end_of_input = end_of_input   # the sources end with the sentinel row: keep filters above watermarks
        self.parse_errors = parse_errors   # the sources' ignore-parse-errors counters, copied to the stream's stats
        self.state_store = state_store     # the state store provider class (state_backend.py), None: the session's
        self.per_batch = per_batch         # what runs on each micro-batch's rows (micro_batch_stage.py), or None
        self.query = None
        # a job's checkpoint (given) is kept when the query ends, so that the job can resume from it
        self.keep_checkpoint = checkpoint is not None
        self.checkpoint = checkpoint or os.path.join(checkpoint_root(), "%s-%d" % (name, int(time.time() * 1000)))
        self._stopping = False
        self.memory_table = None      # Spark Connect: the memory sink's table, and how many of its rows were read
        self._read = 0
        self._progress = ProgressReader()

    def _on_batch(self, batch_df, batch_id):
        if self._stopping:
            return
        if self.per_batch is None:
            changes = self.sink.changes(collect_columns(batch_df))
        else:
            try:
                watermark_ms = batch_watermark_ms(self.checkpoint, batch_id)
                changes = self.sink.changes(collect_columns(self.per_batch.batch(batch_df, watermark_ms)))
            finally:
                self.per_batch.release()
        self._count_parse_errors()
        self.stream.publish(ChangeBatch(changes, batch_id))

    def _flush(self):
        """The input ended: what the per-micro-batch stage still holds (its open windows) as a last batch."""
        if self.per_batch is None or self._stopping:
            return
        df = self.per_batch.flush()
        if df is not None:
            self.stream.publish(ChangeBatch(self.sink.changes(collect_columns(df)), None))

    def _count_parse_errors(self):
        count_parse_errors(self.parse_errors, self.stream)

    def start(self):
        from .session import is_connect
        writer = self.frame.writeStream.outputMode(self.output_mode).option("checkpointLocation", self.checkpoint)
        if is_connect(self.spark):
            self.memory_table = "dynsql_result_" + uuid.uuid4().hex
            writer = writer.format("memory").queryName(self.memory_table)
        else:
            writer = writer.foreachBatch(self._on_batch)
        writer = writer.trigger(**trigger_for(self.bounded, self.paced))
        self.query = start_query(self.spark, writer, self.end_of_input, self.state_store)
        self.stream.set_stopper(self.stop)
        threading.Thread(target=self._watch, name="dynsql-watch", daemon=True).start()
        return self

    def _watch(self):
        from .errors import from_spark
        q = self.query
        end = EndOfInputWatch(self.bounded and self.paced)
        try:
            while q.isActive:
                self._poll_memory()
                self._progress.read(q, self.stream.stats)
                if end.reached(q):
                    q.stop()
                    break
                if q.awaitTermination(0.2):     # returns as soon as the query ends (bounded input: at once)
                    break
            q.awaitTermination()
            self._poll_memory()
            self._progress.read(q, self.stream.stats, at_once=True)
            exc = q.exception()
            if exc is not None and not self._stopping:
                self.stream.fail(from_spark(exc))
                return
            self._flush()
        except Exception as e:  # a failure while stopping
            if not self._stopping:
                self.stream.fail(from_spark(e))
                return
        finally:
            if not self.keep_checkpoint:
                shutil.rmtree(self.checkpoint, ignore_errors=True)
            if self.memory_table is not None:
                try:
                    self.spark.catalog.dropTempView(self.memory_table)
                except Exception:
                    pass
        self._count_parse_errors()
        self.stream.finish()

    def _poll_memory(self):
        """Spark Connect: hand the memory sink's rows that came since the last poll to the ChangeStream."""
        if self.memory_table is None or self._stopping:
            return
        table = self.spark.table("`%s`" % self.memory_table)
        total = table.count()
        if total > self._read:
            new_rows = table.offset(self._read).limit(total - self._read)
            self._read = total
            self._on_batch(new_rows, None)

    def stop(self):
        self._stopping = True
        if self.query is not None:
            try:
                self.query.stop()
            except Exception:
                pass


class ProgressReader:
    """Spark's progress reports of a streaming query into the stream's stats (at most once a second): the rows
    its sources read, the last micro-batch's duration and its rows per second of that duration."""

    def __init__(self, every=1.0):
        self.every = every
        self.last_read = 0.0
        self.last_batch = -1   # the highest batch id counted (Spark numbers a query's micro-batches upward)

    def read(self, query, stats, at_once=False):
        now = time.time()
        if not at_once and now - self.last_read < self.every:
            return
        self.last_read = now
        try:
            reports = query.recentProgress
        except Exception:      # the query is going away: its progress no longer matters
            return
        for report in reports:
            batch = report.get("batchId")
            if batch is None or batch <= self.last_batch:
                continue
            self.last_batch = batch
            rows = report.get("numInputRows") or 0
            seconds = (report.get("durationMs") or {}).get("triggerExecution", 0) / 1000.0
            stats.input_rows += rows
            if rows:
                stats.last_batch_seconds = seconds
                stats.input_rows_per_second = rows / seconds if seconds > 0 else None


def count_parse_errors(parse_errors, stream):
    """The sources' ignore-parse-errors counters and changed files (connectors.parse_errors.QueryParseErrors)
    into the stream's stats."""
    if parse_errors is None:
        return
    if parse_errors.sources:
        stream.stats.skipped_rows = parse_errors.skipped_rows
        stream.stats.nulled_rows = parse_errors.nulled_rows
    if parse_errors.state_dirs:
        stream.stats.changed_files = parse_errors.changed_files


def trigger_for(bounded, paced):
    """The trigger of a streaming query: a bounded, unpaced input ends by itself (`availableNow`)."""
    if bounded and not paced:
        return {"availableNow": True}
    return {"processingTime": "200 milliseconds"}


def start_query(spark, writer, end_of_input, state_store=None):
    """`writer.start()` with the query's own settings: its state store provider (`state_store`, a class name;
    None: the session's), and no predicate pushdown when the sources end with the end-of-input sentinel."""
    own = {}
    with _START_LOCK:      # the streaming query takes a copy of the session's settings when it starts
        if end_of_input:
            rules = [r for r in (spark.conf.get(EXCLUDED_RULES, None) or "").split(",") if r.strip()]
            own[EXCLUDED_RULES] = ",".join(rules + [PUSH_DOWN_PREDICATES])
        if state_store:
            own[PROVIDER_KEY] = state_store
        previous = {k: spark.conf.get(k, None) for k in own}
        for k, v in own.items():
            spark.conf.set(k, v)
        try:
            return writer.start()
        finally:
            for k, v in previous.items():
                if v:
                    spark.conf.set(k, v)
                else:
                    spark.conf.unset(k)


class EndOfInputWatch:
    """Tells when a query over bounded but paced (or watched) sources has seen all its input: every source
    reports it is done and the query idled, or one more batch ran after that (the watermark's flush)."""

    def __init__(self, active):
        self.active = active
        self.idle_polls = 0
        self.done_batch = None

    def reached(self, query):
        if not self.active:
            return False
        progress = query.lastProgress
        if not progress or not _sources_done(progress):
            return False
        if self.done_batch is None:
            self.done_batch = progress["batchId"]
        status = query.status
        idle = not status.get("isDataAvailable") and not status.get("isTriggerActive")
        self.idle_polls = self.idle_polls + 1 if idle else 0
        return self.idle_polls >= 3 or progress["batchId"] >= self.done_batch + 2


def _sources_done(progress):
    for src in progress.get("sources", []):
        end = src.get("endOffset")
        try:
            end = json.loads(end) if isinstance(end, str) else end
        except ValueError:
            return False
        if not isinstance(end, dict) or not end.get("done"):
            return False
    return True
