"""LookupJoin on Spark: a stream-static join. The looked-up table is read as a batch DataFrame (it is bounded,
as Flink's CsvTableSource is) and broadcast; each probe row (streaming or batch) is joined with its rows on
the whole ON condition, INNER or LEFT (Spark's stream-static joins keep the stream on the left). Spark takes
the equalities of ON, expressions of the probe side included (`MOD(auction, 10000) = key`), as the keys of a
broadcast hash join. The output keeps the probe row's hidden columns (its order, watermark and kind)."""

from dataclasses import replace

from pyspark.sql import functions as F

from planner.plan.lookup_join import LookupJoin

from ..translate import Stream, conform, q, translates
from .scan import translate_table_scan


@translates(LookupJoin)
def translate_lookup_join(node, inputs, ctx):
    probe = inputs[0]
    nleft = len(node.left.fields)
    left_names, right_names = node.field_names[:nleft], node.field_names[nleft:]
    table = translate_table_scan(node.lookup, [], replace(ctx, streaming=False, event_time=False))
    l_df = probe.df.select(*[F.col(q(a)).alias(b) for a, b in zip(node.left.field_names, left_names)],
                           *[F.col(h) for h in probe.hidden()])
    r_df = table.df.select(*[F.col(q(a)).alias(b) for a, b in zip(node.lookup.field_names, right_names)])
    how = "left" if node.kind == "LEFT" else "inner"
    joined = l_df.join(F.broadcast(r_df), on=F.expr(node.condition.sql), how=how)
    out = joined.select(*[F.col(q(n)) for n in node.field_names], *[F.col(h) for h in probe.hidden()])
    return Stream(conform(out, node.fields), changelog=probe.changelog)
