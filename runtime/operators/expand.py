"""Expand (GROUPING SETS, ROLLUP, CUBE): each row once per grouping set, as Spark's explode of the sets' `$e`
values; a key is kept in the copies of the sets that hold it and NULL in the others. Every other column (the
hidden ones, `__op` of a changelog included) is passed on as it is, so the aggregate above runs unchanged, and a
column that is not nulled keeps its metadata (an event-time column stays one)."""

from pyspark.sql import functions as F

from planner.plan.expand import Expand

from ..translate import Stream, conform, q, translates


@translates(Expand)
def translate_expand(node, inputs, ctx):
    s = inputs[0]
    ids = F.explode(F.array(*[F.lit(e).cast("long") for e in node.ids])).alias(node.id_name)
    exploded = s.df.select(*[F.col(q(c)) for c in s.df.columns], ids)
    e = F.col(q(node.id_name))
    columns = []
    for f in node.input.fields:
        col = F.col(q(f.name))
        if f.name in node.nulled:
            col = F.when(e.isin(*node.sets_with(f.name)), col).alias(f.name)
        columns.append(col)
    out = exploded.select(*columns, e, *[F.col(h) for h in s.hidden()])
    return Stream(conform(out, node.fields), changelog=s.changelog)
