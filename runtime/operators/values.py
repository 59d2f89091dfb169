"""Values: literal rows (VALUES, or the one empty row a SELECT without FROM reads), a bounded batch frame."""

from pyspark.sql import functions as F

from planner.plan.scan import Values

from ..translate import Stream, conform, translates


@translates(Values)
def translate_values(node, inputs, ctx):
    spark = ctx.spark
    frames = []
    for i, row in enumerate(node.rows):
        cols = [F.expr(e.sql).alias(f.name) for e, f in zip(row, node.fields)]
        frames.append(spark.range(1).select(*cols, F.lit(i).cast("long").alias("__seq"),
                                            F.lit(None).cast("timestamp").alias("__wm")))
    df = frames[0]
    for f in frames[1:]:
        df = df.unionByName(f)
    return Stream(conform(df, node.fields))
