"""ReplicateRows: each row (or change) repeated as many times as its count field says, with Spark's explode;
streaming and batch alike."""

from pyspark.sql import functions as F

from planner.plan.replicate_rows import ReplicateRows

from ..translate import Stream, q, translates


@translates(ReplicateRows)
def translate_replicate_rows(node, inputs, ctx):
    s = inputs[0]
    copies = F.explode(F.array_repeat(F.lit(0), F.col(q(node.count)).cast("int")))
    df = s.df.select("*", copies.alias("__copy"))
    return Stream(df.select(*s.columns(node.field_names)), changelog=s.changelog)
