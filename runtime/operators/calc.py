"""Calc: projections and a filter, as Spark expressions, row by row. Over a changelog the row kind passes
through; over a native update-mode aggregate the filter decides whether a key is in the result
(`__visible`) instead of dropping its row, so that a key leaving the result is retracted."""

from pyspark.sql import functions as F

from planner.plan.calc import Calc

from ..translate import Stream, conform, translates


@translates(Calc)
def translate_calc(node, inputs, ctx):
    s = inputs[0]
    df = s.df
    projections = [F.expr(e.sql).alias(name) for e, name in node.projections]
    if s.upsert_keys is not None:
        visible = F.col("__visible")
        if node.condition is not None:
            visible = visible & F.coalesce(F.expr(node.condition.sql), F.lit(False))
        out = df.select(*projections, *[F.col(k) for k in s.upsert_keys], visible.alias("__visible"),
                        *([F.col(s.steps)] if s.steps else []))
        return Stream(conform(out, node.fields), upsert_keys=s.upsert_keys, steps=s.steps)
    if node.condition is not None:
        df = df.filter(F.expr(node.condition.sql))
    hidden = [F.col(h) for h in s.hidden()]
    return Stream(conform(df.select(*projections, *hidden), node.fields), changelog=s.changelog)
