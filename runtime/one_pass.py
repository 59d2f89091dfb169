"""A streaming query over bounded files, read in one pass: one Spark batch job instead of micro-batches.

A streaming SELECT whose every table is one bounded, unpaced file (so that Spark would read it with the
`availableNow` trigger, a micro-batch after another until its end) and whose result is insert-only gives the
same rows when the whole input is read at once, provided each operator decides lateness as streaming does: per
row, by the watermark in effect just before the row arrived (`__wm`, which the source computes the same way
in a batch read of one file, top to bottom), and fires at the end of the input everything the final
watermark fires. The window aggregates and MATCH_RECOGNIZE do so on batch frames when the translate context
says `late_rows` (runtime/operators/window.py, match.py); the other operators allowed here (scans,
projections and filters, window table functions, the Expand of GROUPING SETS) keep no state. The changelog is then the result's rows as
+I, in one batch, with no state store, no checkpoint, and no extra micro-batch for the watermark to fire the
last windows and matches: the largest micro-batch a bounded input can have.

Two operators run so over files that a streaming read takes whole in its first micro-batch (at most 1 MB, or
about 1.1 M records), where micro-batches give them every row before the watermark moves and show their results
once: an event-time temporal join of a versioned view (each probe row meets the version valid at its time among
all the versions, which runtime/operators/as_of_join.py computes at once: a numpy lookup of the versions when
they fit under Spark's broadcast limit, else Spark's window functions), and a
grouped aggregate of order-independent functions (each group's final row as +I, as Spark's update-mode aggregate
emits it from one micro-batch; Spark's batch aggregate computes it).

Kept on micro-batches: other updating results (their changelog is what the user wants to see), an aggregate
or temporal join over a file that micro-batches would split (they show updates between micro-batches; what a
temporal join has seen of each input depends on the split), anything stateful after them, anything reading
processing time, a directory, paced or watched tables, INSERT INTO jobs (they keep checkpoints), and inputs larger than
`dynsql.one-pass.max-input-size` (the result is collected at once, where micro-batches bound it)."""

import os
import threading
import time
import uuid

from planner.plan.aggregate import GroupAggregate
from planner.plan.calc import Calc
from planner.plan.expand import Expand
from planner.plan.fields import PROCTIME
from planner.plan.match import Match
from planner.plan.scan import TableScan
from planner.plan.sink import CollectSink
from planner.plan.temporal_join import TemporalJoin, versioned_view
from planner.plan.window import GroupWindowAggregate, WindowAggregate, WindowTableFunction

from .connectors.splits import first_micro_batch_reads_whole
from .results import ChangeBatch
from .streaming import count_parse_errors
from .tables import one_unpaced_file


def reads_in_one_pass(query, settings):
    """Whether the streaming SELECT `query` (a planner QueryPlan) runs as one batch job (see the module)."""
    limit = settings.one_pass_max_bytes if settings is not None else 0
    if limit <= 0:
        return False
    scans = []
    if not _in_one_pass(query.root, scans, False):
        return False
    return sum(os.path.getsize(s.table.options["path"]) for s in scans) <= limit


def drops_late_rows(query):
    """Whether a one-pass query has operators that drop late rows by `__wm` (window aggregates,
    MATCH_RECOGNIZE): their translate context says `late_rows`, and their scans keep one split a file (the
    per-row watermark is computed top to bottom)."""
    return any(isinstance(n, (WindowAggregate, GroupWindowAggregate, Match)) for n in query.root.walk())


def _in_one_pass(node, scans, stateful_above):
    """Whether `node` and the nodes below it keep their streaming results in one pass; collects the scans.
    `stateful_above`: a node other than a projection, filter or the sink is above `node`."""
    if isinstance(node, TemporalJoin):
        return not stateful_above and node.insert_only and _temporal_join_in_one_pass(node, scans)
    if isinstance(node, GroupAggregate):
        return not stateful_above and _group_aggregate_in_one_pass(node, scans)
    if not (node.insert_only or isinstance(node, (Calc, CollectSink))) or not _keeps_streaming_semantics(node):
        return False       # (projections and the sink update only where a node below them does)
    if isinstance(node, TableScan):
        scans.append(node)
    above = stateful_above or not isinstance(node, (Calc, CollectSink))
    return all(_in_one_pass(c, scans, above) for c in node.inputs)


def _keeps_streaming_semantics(node):
    if isinstance(node, (CollectSink, Calc, Expand)):
        return True
    if isinstance(node, TableScan):
        return _one_bounded_file(node)
    if isinstance(node, (WindowTableFunction, WindowAggregate)):
        return node.spec.kind != "SESSION" and node.time_kind != PROCTIME
    if isinstance(node, GroupWindowAggregate):
        return node.spec.kind != "SESSION" and node.time_kind != PROCTIME and not node.updating
    if isinstance(node, Match):
        return node.event_time
    return False


def _temporal_join_in_one_pass(join, scans):
    """An event-time temporal join of a versioned view (a keep-last-row deduplication on a rowtime) over
    projections and filters of files that a streaming read takes whole in its first micro-batch: micro-batches
    then hand the join every row before the watermark moves, and it joins each probe row with the version valid
    at its time among all the versions, as runtime/operators/as_of_join.py does at once. Only projections,
    filters and the sink may follow it (its rows carry no per-row watermark)."""
    deduplication, _ = versioned_view(join.right)
    return deduplication is not None and _first_micro_batch_reads_all((join.left, deduplication.input), scans)


def _group_aggregate_in_one_pass(aggregate, scans):
    """A grouped aggregate of functions whose results do not depend on the rows' order (COUNT, SUM, AVG, MIN,
    MAX, the deviations and variances; no DISTINCT) over projections and filters of a file that a streaming read
    takes whole in its first micro-batch: micro-batches then emit each group once, as +I with its final values
    (Spark's update-mode aggregate over one micro-batch), which Spark's batch aggregate gives at once. Only
    projections, filters and the sink may follow it; an Expand may be under it. A global aggregate keeps micro-batches: over no rows a
    batch aggregate gives a row, a streaming one none."""
    from .operators.group_aggregate import NATIVE_STREAMING_FUNCTIONS
    if not aggregate.keys or any(c.function not in NATIVE_STREAMING_FUNCTIONS or c.distinct for c in aggregate.calls):
        return False
    return _first_micro_batch_reads_all((aggregate.input,), scans)


def _first_micro_batch_reads_all(inputs, scans):
    """Whether each of `inputs` is projections and filters of one bounded file that a streaming read takes whole
    in its first micro-batch; collects their scans."""
    mine = []
    for node in inputs:
        while isinstance(node, (Calc, Expand)) and node.insert_only:     # (an Expand: GROUPING SETS)
            node = node.input
        if not (isinstance(node, TableScan) and node.insert_only and _one_bounded_file(node)):
            return False
        mine.append(node)
    scans.extend(mine)
    return all(first_micro_batch_reads_whole(s.table.options["path"], s.table.options.get("format"),
                                             s.table.options.get("scan.rows-per-batch")) for s in mine)


def _one_bounded_file(scan):
    """A filesystem table read from one file, unpaced and unwatched, insert-only, whose rowtime (if any) is a
    physical column (a computed rowtime has no per-row `__wm`: streaming leaves its lateness to Spark's
    micro-batch watermark)."""
    table = scan.table
    if not one_unpaced_file(scan):
        return False
    if any(c.is_proctime for c in table.columns):
        return False
    wm = table.watermark
    if wm is not None and any(c.name == wm.column and c.computed is not None for c in table.columns):
        return False
    return True


class OnePassRun:
    """Runs a one-pass query's batch frame in a thread of its own and hands its rows to the ChangeStream as
    one batch of +I; `stop` (the shell's Ctrl-C or Q) cancels its Spark jobs by their tag."""

    def __init__(self, spark, frame, names, stream, parse_errors=None):
        from .session import is_connect
        self.spark = spark
        self.connect = is_connect(spark)
        self.frame = frame
        self.names = names
        self.stream = stream
        self.parse_errors = parse_errors
        self.tag = "dynsql-one-pass-" + uuid.uuid4().hex
        self._stopping = False
        self._thread = None

    def start(self):
        self.stream.set_stopper(self.stop)
        self._thread = threading.Thread(target=self._run, name="dynsql-one-pass", daemon=True)
        self._thread.start()
        return self

    def _run(self):
        from .errors import from_spark
        from .result_columns import collect_columns
        try:
            self._tag(True)
            try:
                rows = collect_columns(self.frame, self.names).tuples(self.names)
            finally:
                self._tag(False)
        except Exception as e:        # a DynsqlError passes through from_spark as it is
            if not self._stopping:
                self.stream.fail(from_spark(e))
            return
        if self._stopping:
            return
        count_parse_errors(self.parse_errors, self.stream)
        self.stream.publish(ChangeBatch([("+I", r) for r in rows], 0))
        self.stream.finish()

    def _tag(self, on):
        """Tag the jobs this thread starts (Spark Connect: the session's operations from this thread)."""
        if self.connect:
            (self.spark.addTag if on else self.spark.removeTag)(self.tag)
        else:
            sc = self.spark.sparkContext
            (sc.addJobTag if on else sc.removeJobTag)(self.tag)

    def _cancel(self):
        if self.connect:
            self.spark.interruptTag(self.tag)
        else:
            self.spark.sparkContext.cancelJobsWithTag(self.tag)

    def stop(self):
        """Cancel the running job; a job the query submits right after that is cancelled in turn (for 5 s at
        most: the thread then ends of itself, its rows dropped)."""
        self._stopping = True
        deadline = time.time() + 5
        while self._thread is not None and self._thread.is_alive() and time.time() < deadline:
            try:
                self._cancel()
            except Exception:
                pass
            self._thread.join(0.1)
