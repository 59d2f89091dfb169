"""Unnest (Flink's Correlate of `$UNNEST_ROWS`): Spark's generators, row by row. An ARRAY or MAP is
`posexplode`d (`posexplode_outer` for LEFT JOIN UNNEST, whose row without elements keeps NULLs), an ARRAY of
ROWs then has its struct's fields taken apart; WITH ORDINALITY is the position + 1. The hidden columns (the
row kind of a change among them) are each input row's, repeated on its output rows."""

from pyspark.sql import functions as F

from planner.plan.unnest import MAP, ROWS, Unnest

from ..translate import Stream, conform, q, translates


@translates(Unnest)
def translate_unnest(node, inputs, ctx):
    s = inputs[0]
    df = s.df
    generator = F.posexplode_outer if node.join_type == "LEFT" else F.posexplode
    collection = F.expr(node.collection.sql)
    element_cols = ["__unnest_key", "__unnest_value"] if node.kind == MAP else ["__unnest_elem"]
    keep = [F.col(q(f.name)) for f in node.input.fields] + [F.col(h) for h in s.hidden()]
    exploded = df.select(*keep, generator(collection).alias("__unnest_pos", *element_cols))
    added = node.added[:-1] if node.ordinality else node.added
    if node.kind == ROWS:
        row_fields = [n for n, _ in node.collection.type.children[0].children]
        values = [F.col("__unnest_elem").getField(n) for n in row_fields]
    else:
        values = [F.col(c) for c in element_cols]
    out = [v.alias(f.name) for v, f in zip(values, added)]
    if node.ordinality:
        out.append((F.col("__unnest_pos") + 1).cast("int").alias(node.added[-1].name))
    cols = [F.col(q(f.name)) for f in node.input.fields] + out + [F.col(h) for h in s.hidden()]
    return Stream(conform(exploded.select(*cols), node.fields), changelog=s.changelog)
