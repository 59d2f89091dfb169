"""The part of a streaming query that runs on each micro-batch's rows, in the result sink's `foreachBatch`: a node
whose operator keeps what it carries from one micro-batch to the next itself (runtime/operators/
window_per_batch.py), and the nodes above it (only projections and filters: runtime/physical/rules.py), each
translated by its own translator on the batch's frame, with a batch translate context.

Spark runs the streaming frame below it (stateless: no state store); `batch(df, watermark_ms)` turns a micro-batch's rows into
the result's rows; `flush()` gives what the operator still holds when the input has ended (None: nothing);
`release()` frees what one micro-batch cached once its result was read."""

from dataclasses import replace


class MicroBatchStage:
    def __init__(self, operator, ctx):
        """operator: `.batch(df, watermark_ms) -> Stream`, `.flush() -> Stream or None`, `.release()`; ctx: the query's
        TranslateContext (the nodes above are translated with a batch copy of it)."""
        self.operator = operator
        self.ctx = replace(ctx, streaming=False, event_time=False, late_rows=False)
        self.above = []         # (translator, node), bottom up

    def then(self, translator, node):
        self.above.append((translator, node))
        return self

    def _above(self, stream):
        for translator, node in self.above:
            stream = translator(node, [stream], self.ctx)
        return stream.df

    def batch(self, df, watermark_ms=None):
        """`watermark_ms`: Spark's watermark for this micro-batch (streaming.batch_watermark_ms), or None."""
        return self._above(self.operator.batch(df, watermark_ms))

    def flush(self):
        stream = self.operator.flush()
        return None if stream is None else self._above(stream)

    def release(self):
        self.operator.release()

    def check(self, schema):
        """Build the frames over an empty batch of `schema` (the streaming frame's): Spark's analysis errors
        show when the query starts, not in its first micro-batch. Runs no Spark job."""
        return self._above(self.operator.over(self.ctx.spark.createDataFrame([], schema)))
