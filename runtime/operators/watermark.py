"""WatermarkAssigner (a physical node over a scan, runtime/physical/nodes.py): Spark's watermark on the rowtime,
with the table's delay, on micro-batches with event-time operators; then the source's end-of-input row (its
rowtime END_OF_INPUT, runtime/connectors/filesystem.py) is dropped: it has carried Spark's watermark past every
time, which ends the open windows and releases the held rows, and is no row of the table."""

from pyspark.sql import functions as F

from ..connectors.filesystem import END_OF_INPUT
from ..physical.nodes import WatermarkAssigner
from ..translate import Stream, q, translates


@translates(WatermarkAssigner)
def translate_watermark_assigner(node, inputs, ctx):
    s = inputs[0]
    df = s.df.withWatermark(node.rowtime, "%d milliseconds" % node.delay_ms)
    return Stream(df.filter(F.col(q(node.rowtime)) < F.lit(END_OF_INPUT)), changelog=s.changelog)
