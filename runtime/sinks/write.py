"""A running sink write, as the job's process watches it: rows written so far, finished or failed, stop.

`StreamingWrite` wraps a Spark streaming query: the rows it wrote come from a metric observed on its input
(`observe`), counted once per micro-batch id, so a batch Spark runs again after a crash is not counted twice
(a batch that committed just before a kill, before its progress was read, is missed: the filesystem sink
counts from the checkpoint instead, `count_rows`); a bounded but paced input ends it when every source is
done (as the shell's streaming runs do).
`BatchWrite` runs a batch-mode write in a thread. `start_noop` is the blackhole sink (Spark's `noop`)."""

import threading

from ..errors import from_spark
from ..streaming import EndOfInputWatch, start_query, trigger_for
from .unlogged_start import clear_unlogged_start

ROWS_METRIC = "dynsql_rows"


def observe_rows(df):
    """`df` with a row count Spark reports with each micro-batch's progress."""
    from pyspark.sql import functions as F
    return df.observe(ROWS_METRIC, F.count(F.lit(1)).alias("n"))


def observed_count(row):
    """The count `observe_rows` reported with a micro-batch's progress: a Row(n=...) in a classic session; in the
    progress a Spark Connect client (pyspark 4.3) rebuilds, the row has no field `n` and its first value is a
    list (an INSERT INTO a jdbc table through `--remote` failed on it: make connect-jdbc), so the first number
    inside is read, whatever holds it."""
    value = row
    while True:
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, (list, tuple)):
            if not value:
                return 0
            value = value[0]
            continue
        return int(value)


class SinkWrite:
    """What the job's process asks of a write."""
    rows_written = 0
    last_batch = -1
    finished = False
    error = None
    on_finish = None       # called once when the write ends without an error (a partition commit)
    on_poll = None         # called at each poll while the write runs (the filesystem sink publishes its files)

    def poll(self):
        """Bring rows_written / finished / error up to date."""

    def _finish(self):
        if self.error is None and self.on_finish is not None and not self.finished:
            try:
                self.on_finish()
            except Exception as e:
                self.error = from_spark(e)
        self.finished = True

    def stop(self):
        """Stop writing (the checkpoint keeps what was committed)."""


class StreamingWrite(SinkWrite):
    count_rows = None      # a function giving the rows written, where the sink keeps the count itself

    def __init__(self, query, result, rows=0, last_batch=-1):
        self.query = query
        self.rows_written = rows
        self.last_batch = last_batch
        self._end = EndOfInputWatch(result.bounded and result.paced)
        self._stopping = False

    def poll(self):
        q = self.query
        try:
            for progress in q.recentProgress:
                metrics = progress.get("observedMetrics") or {}
                if ROWS_METRIC in metrics and progress["batchId"] > self.last_batch:
                    self.rows_written += observed_count(metrics[ROWS_METRIC])
                    self.last_batch = progress["batchId"]
            if self.count_rows is not None:
                self.rows_written = self.count_rows()
            if q.isActive:
                if self.on_poll is not None:
                    self.on_poll()
                if self._end.reached(q):
                    self.stop()
                return
            exc = q.exception()
        except Exception as e:    # the query failed while we asked it
            exc = e
        if exc is not None and not self._stopping:
            self.error = from_spark(exc)
        self._finish()

    def stop(self):
        self._stopping = True
        try:
            self.query.stop()
        except Exception:
            pass


class BatchWrite(SinkWrite):
    """A batch-mode write (`work()` returns the rows it wrote) in a thread of its own."""

    def __init__(self, work, cancel=None, on_finish=None):
        self._cancel = cancel
        self.on_finish = on_finish
        self._thread = threading.Thread(target=self._run, args=(work,), name="dynsql-batch-write", daemon=True)
        self._thread.start()

    def _run(self, work):
        try:
            self.rows_written = work()
            self.last_batch = 0
        except Exception as e:
            self.error = from_spark(e)
        self._finish()

    def stop(self):
        if self._cancel is not None:
            self._cancel()


def cancel_spark_jobs(spark):
    """A function that cancels this session's running Spark jobs (classic or Connect)."""
    def cancel():
        try:
            if hasattr(spark, "interruptAll"):
                spark.interruptAll()
            else:
                spark.sparkContext.cancelAllJobs()
        except Exception:
            pass
    return cancel


def start_streaming(spark, result, writer, checkpoint, rows=0, last_batch=-1, interval=None):
    """Start `writer` (a DataStreamWriter of the result) with its checkpoint and the result's trigger (a
    micro-batch each `interval`, e.g. '2 seconds', for an unbounded input when given)."""
    trigger = trigger_for(result.bounded, result.paced)
    if interval and "processingTime" in trigger:
        trigger = {"processingTime": interval}
    writer = (writer.outputMode(result.output_mode).option("checkpointLocation", checkpoint)
              .trigger(**trigger))
    clear_unlogged_start(checkpoint)      # a job killed while it logged its first batch (unlogged_start.py)
    try:
        query = start_query(spark, writer, result.end_of_input, result.state_store)
    except Exception as e:
        raise from_spark(e)
    return StreamingWrite(query, result, rows, last_batch)


def start_noop(spark, plan, result, checkpoint, rows=0, last_batch=-1):
    """The blackhole sink: Spark's noop sink."""
    from . import sink_frame
    if not result.streaming:
        frame = sink_frame(result.df, plan, result.columns)
        return BatchWrite(frame.count, cancel_spark_jobs(spark))
    writer = observe_rows(sink_frame(result.df, plan, result.columns)).writeStream.format("noop")
    return start_streaming(spark, result, writer, checkpoint, rows, last_batch)
