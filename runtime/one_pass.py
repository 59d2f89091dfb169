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

A directory counts as one file when a streaming read takes each of its files whole in its first micro-batch:
that micro-batch reads them in parallel, each against its own running maximum, as a batch read of one split a
file does. A TUMBLE, HOP or CUMULATE aggregate or an event-time MATCH_RECOGNIZE over one csv or json file larger
than the limit below, with only projections between them, reads the file in pieces in parallel, each row's
lateness decided by its piece's running maximum and the earlier pieces' maximum
(runtime/operators/window_pieces.py): the rows of a read from the top. An event-time temporal join of a
versioned view whose versions a streaming read takes whole in its first micro-batch, and whose probe rows are
one csv or json file that micro-batches would split or that is past the limit, reads that file in pieces in
parallel: every version arrives before the watermark moves, as when micro-batches read the probe file whole in
their first one, so each probe row meets the version valid at its time among all the versions, whichever piece
it is in, and none is late (the earlier pieces' watermark plays no part; as_of_join.py). A grouped aggregate of
functions that merge over such a file, or over one that micro-batches would split, reads it in pieces as well,
each piece a step of the changelog shown as micro-batches of the pieces would show it
(runtime/operators/group_pieces.py, `changes_piece_by_piece` below).
A window aggregate of the functions Arrow computes as Spark does, under Calcs that only pick fields, is computed
in each piece's task (over a directory: a file a piece, each against its own running maximum; over one small
file: each task's share of the keys, the file read whole) and the tasks' groups, handed over as Arrow values,
merged in the driver (operators/window_pieces_arrow.py, the ResultFrame's `finish`).

Kept on micro-batches: other updating results (their changelog is what the user wants to see), an aggregate
over a file whose table sets its micro-batches ('scan.rows-per-batch'; it shows updates between micro-batches),
a temporal join whose versions they would split or whose probe table asks for micro-batches of its own (what it
has seen of each input then depends on the split), anything stateful after them, anything reading
processing time, other directories, paced or watched tables, INSERT INTO jobs (they keep checkpoints), and other
inputs larger than `dynsql.one-pass.max-input-size` (the result is collected at once, where micro-batches bound
it).

The choice is the physical plan's (runtime/physical/rules.py, which holds these rules); this module runs it.
A one pass shows final rows only (but a grouped aggregate in pieces, which shows them piece by piece), where
micro-batches show an aggregate's -U/+U as rows flow: the result view's status line and EXPLAIN say so, and
`SET 'dynsql.one-pass.enabled' = 'false'` turns it off."""

import threading
import time
import uuid

from .results import ChangeBatch
from .streaming import count_parse_errors


class OnePassRun:
    """Runs a one-pass query's batch frame in a thread of its own and hands its rows to the ChangeStream as
    one batch of +I, or (`steps`: a grouped aggregate in pieces) its changes piece by piece; `stop` (the shell's
    Ctrl-C or Q) cancels its Spark jobs by their tag."""

    def __init__(self, spark, frame, names, stream, parse_errors=None, steps=None, finish=None):
        from .session import is_connect
        self.spark = spark
        self.connect = is_connect(spark)
        self.frame = frame
        self.names = names
        self.stream = stream
        self.parse_errors = parse_errors
        self.steps = steps          # (the upsert key columns, the piece column): operators/group_pieces.py
        self.finish = finish        # Arrow table collected -> the result's columns (engine.ResultFrame.finish)
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
                if self.steps is None:
                    columns = collect_columns(self.frame, self.names, self.finish)
                    batches = [ChangeBatch(columns.changes(self.names), 0, only_op="+I")]
                else:
                    batches = changes_piece_by_piece(self.frame, self.names, *self.steps)
            finally:
                self._tag(False)
        except Exception as e:        # a DynsqlError passes through from_spark as it is
            if not self._stopping:
                self.stream.fail(from_spark(e))
            return
        if self._stopping:
            return
        count_parse_errors(self.parse_errors, self.stream)
        for batch in batches:
            self.stream.publish(batch)
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


def changes_piece_by_piece(frame, names, keys, piece):
    """[ChangeBatch] of a grouped aggregate read in pieces (operators/group_pieces.py): `frame` holds each key's
    values after each piece it appears in, with the upsert `keys`, `__visible` and the `piece` column; a batch a
    piece, in file order, its changes as the update-mode sink derives a micro-batch's (+I, -U/+U)."""
    import numpy as np
    from .result_columns import Columns, collect_columns
    from .streaming import UpsertSink
    wanted = list(dict.fromkeys(list(names) + list(keys) + ["__visible", piece]))
    block = collect_columns(frame, wanted)
    at = np.asarray(block[piece], dtype=np.int64)
    order = np.argsort(at, kind="stable")
    runs = np.split(order, np.flatnonzero(np.diff(at[order])) + 1) if len(order) else []
    sink = UpsertSink(names, keys)
    out = []
    for run in runs:
        rows = run.tolist()
        part = Columns(wanted, [[block[n][i] for i in rows] for n in wanted], len(rows))
        out.append(ChangeBatch(sink.changes(part), int(at[rows[0]])))
    return out
