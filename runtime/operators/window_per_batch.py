"""A TUMBLE, HOP or CUMULATE aggregate that a streaming SELECT shows, on micro-batches, without Spark's state store:
Spark's batch aggregate in each micro-batch over the windows the watermark has closed, the (row, window) pairs of
the windows still open carried to the next micro-batch (the physical choice PER_MICRO_BATCH_WINDOW_AGGREGATE,
runtime/physical/rules.py, which also says when it applies).

Spark's streaming aggregate keeps every (window, key) group in its state store and emits a window in the
micro-batch after the watermark passes it: over a backlog (a file read in micro-batches of 1 M rows) every group
goes into the store and out again, which is most of the query's time. Here the streaming frame is stateless: the
rows are paired with their windows and the late pairs dropped (operators/window.py's `window_pairs`, per row by
`__wm`, as the general path does). Each micro-batch, in the result sink, two Spark jobs:
  1. its pairs and the ones carried are written once, in a local checkpoint (no lineage grows from batch to
     batch), the largest `__wm` of its pairs observed on the way (Spark's `observe`: no job of its own); the
     watermark W is the largest `__wm` seen so far;
  2. the windows with end - 1 ms <= W are closed: every row still to come is late for them (a split's running
     maximum starts at the table's maximum committed before its micro-batch, runtime/connectors/splits.py, so
     each later row's `__wm` is at least W), and their pairs are all here; Spark's batch aggregate computes them
     (operators/window.py's `aggregate_pairs`, the batch plan's code) when the sink collects the result;
  3. the pairs of the other windows are carried: read from that checkpoint in the next micro-batch (written
     again there with its pairs), then the checkpoint is freed.
At the end of the input every window is closed (Flink's final watermark): `flush` aggregates what is carried.
A window's row so comes in the micro-batch whose watermark closes it, one micro-batch sooner than Spark's
streaming aggregate shows it; the rows are the same."""

from pyspark.sql import functions as F

from ..micro_batch_stage import MicroBatchStage
from ..translate import Stream
from .window import aggregate_pairs, window_pairs


def window_aggregate_per_batch(node, s, ctx):
    """The Stream of a window aggregate run per micro-batch: its (row, window) pairs as the streaming frame."""
    pairs = window_pairs(node, s.df, ctx)
    names = list(dict.fromkeys(node.input.field_names))
    pairs = pairs.select(*[F.col("`%s`" % n.replace("`", "``")) for n in names], "__start_ms", "__end_ms",
                         F.col("__seq"), F.unix_millis(F.col("__wm")).alias("__wm_ms"))
    return Stream(pairs, per_batch=MicroBatchStage(WindowsPerBatch(node), ctx))


class WindowsPerBatch:
    """The aggregate's state between micro-batches: the pairs of open windows and the watermark (see the module)."""

    def __init__(self, node):
        self.node = node
        self.watermark_ms = None      # the largest `__wm` seen (epoch milliseconds)
        self.carried = None           # the open windows' pairs (read from `checkpoint`), or None
        self.checkpoint = None        # the last micro-batch's pairs and the carried, locally checkpointed

    def over(self, pairs):
        """The aggregate of `pairs` (a batch frame of pairs): the node's fields, `__seq`, `__wm`."""
        from ..translate import TranslateContext
        ctx = TranslateContext(pairs.sparkSession, streaming=False)
        return Stream(aggregate_pairs(self.node, Stream(pairs), ctx))

    def batch(self, df, watermark_ms=None):     # (Spark's watermark: this operator's one source is in its rows)
        from pyspark.sql import Observation
        seen = Observation()
        df = df.observe(seen, F.max("__wm_ms").alias("wm"))
        if self.carried is not None:
            df = df.unionByName(self.carried)
        pairs = df.localCheckpoint(eager=True)
        self._free()
        self.checkpoint = pairs
        wm = seen.get.get("wm")
        if wm is not None and (self.watermark_ms is None or wm > self.watermark_ms):
            self.watermark_ms = wm
        if self.watermark_ms is None:
            closed = F.lit(False)
        else:       # end - 1 ms <= W: operators/window.py's `fired`, for every row still to come
            closed = F.col("__end_ms") - 1 <= F.lit(self.watermark_ms)
        self.carried = pairs.filter(~closed)
        return self.over(pairs.filter(closed))

    def flush(self):
        if self.carried is None:
            return None
        pairs, self.carried = self.carried, None
        return self.over(pairs)

    def release(self):
        """(The micro-batch's checkpoint holds the carried pairs until the next micro-batch wrote them again.)"""

    def _free(self):
        """Free the previous micro-batch's checkpoint (its blocks would otherwise stay until the JVM's GC): a
        checkpointed frame's plan is the LogicalRDD of the checkpointed RDD."""
        if self.checkpoint is not None:
            self.checkpoint._jdf.queryExecution().analyzed().rdd().unpersist(False)
            self.checkpoint = None
