"""What executing a statement gives back to the shell: a message, a finished table, or a live change stream.

A change is `(op, row)`: `op` is one of `+I`, `-U`, `+U`, `-D` (Flink's RowKind) and `row` a tuple of
Python values in result-column order. Rendering (tableau, jsonl, csv, full-screen views) is the repl's job."""

import queue
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from operator import itemgetter

OPS = ("+I", "-U", "+U", "-D")
OP_CODES = {op: code for code, op in enumerate(OPS)}   # Flink's RowKind byte values, our `__op` column
OP_NAMES = dict(enumerate(OPS))


@dataclass(frozen=True)
class Column:
    name: str
    type: str  # Flink type, e.g. "BIGINT NOT NULL", "DECIMAL(10, 2)", "TIMESTAMP(3) *ROWTIME*"


@dataclass
class MessageResult:
    text: str


@dataclass
class TableResult:
    """A finished result: SHOW / DESCRIBE / SET output, or a batch-mode query's final rows."""
    columns: list
    rows: list
    is_query: bool = False  # a query's rows (Flink prints "N rows in set"), not a listing
    skipped_rows: int = 0   # rows the sources' ignore-parse-errors skipped (see ChangeStats)
    nulled_rows: int = 0
    uncut: bool = False     # values printed whole, whatever 'table.display.max-column-width' says (job ids)


@dataclass
class ChangeBatch:
    changes: list  # [(op, row tuple)]
    batch_id: int = 0
    watermark: object = None
    only_op: str = None     # the op of every change, where the producer knows it (a one pass's +I)


@dataclass
class ChangeStats:
    rows: int = 0
    per_op: dict = field(default_factory=lambda: {op: 0 for op in OPS})
    batches: int = 0
    watermark: object = None
    last_batch_at: float = None
    late_rows: int = 0
    input_rows: int = 0            # rows the sources read, over the micro-batches so far (Spark's progress)
    input_rows_per_second: float = None   # the last micro-batch's input rows over its duration
    last_batch_seconds: float = None      # how long the last micro-batch took (Spark's triggerExecution)
    skipped_rows: int = 0   # input rows a format's ignore-parse-errors skipped (set by the runtime)
    nulled_rows: int = 0    # input rows it kept with NULL where a value did not parse
    changed_files: list = field(default_factory=list)   # files changed after a source took them (parse_errors)

    def count(self, batch):
        self.batches += 1
        self.rows += len(batch.changes)
        ops = {batch.only_op: len(batch.changes)} if batch.only_op is not None else \
            Counter(map(itemgetter(0), batch.changes))
        for op, n in ops.items():
            self.per_op[op] += n
        if batch.watermark is not None:
            self.watermark = batch.watermark
        self.last_batch_at = time.time()


class ChangeStream:
    """A running query's changes. The runtime calls `publish`/`finish`/`fail` from Spark's threads;
    the shell calls `poll` (never blocks longer than asked) and `stop` (Ctrl-C, Q)."""

    def __init__(self, columns, description="", stopper=None, note=None):
        self.columns = list(columns)
        self.description = description
        self.note = note        # how the query runs, where the user should know it (a one pass: final rows only)
        self.stats = ChangeStats()
        self._queue = queue.Queue()
        self._stopper = stopper
        self._done = threading.Event()
        self.error = None
        self.started_at = time.time()

    # --- runtime side
    def publish(self, batch):
        if batch.changes or batch.watermark is not None:
            self._queue.put(batch)

    def finish(self):
        self._done.set()
        self._queue.put(None)

    def fail(self, error):
        self.error = error
        self.finish()

    def set_stopper(self, stopper):
        self._stopper = stopper

    # --- shell side
    @property
    def finished(self):
        return self._done.is_set() and self._queue.empty()

    def poll(self, timeout=0.1):
        """Next ChangeBatch, or None when nothing came within `timeout` or the stream is over."""
        try:
            batch = self._queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if batch is None:
            return None
        self.stats.count(batch)
        return batch

    def __iter__(self):
        while not self.finished:
            batch = self.poll(0.2)
            if batch is not None:
                yield batch
        if self.error is not None:
            raise self.error

    def stop(self):
        if self._stopper is not None and not self._done.is_set():
            try:
                self._stopper()
            finally:
                self.finish()
        else:
            self.finish()
