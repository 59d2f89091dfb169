"""ORDER BY / LIMIT. Batch: Spark's sort and limit. Streaming: ORDER BY .. LIMIT n is a Top-N over the
whole input and LIMIT alone keeps the first n rows to arrive (RankProcessor, one partition); a temporal
sort (ORDER BY a rowtime) is not run yet."""

from pyspark.sql import functions as F

from planner.errors import UnsupportedError
from planner.plan.sort import Sort

from ..translate import Stream, translates
from .rank import ARRIVAL, ranked_stream


def _q(name):
    return "`%s`" % name.replace("`", "``")


@translates(Sort)
def translate_sort(node, inputs, ctx):
    s = inputs[0]
    if not ctx.streaming:
        df = s.df
        if node.order:
            df = df.orderBy(*[(F.col(_q(c)).asc_nulls_first() if asc else F.col(_q(c)).desc_nulls_last())
                              for c, asc in node.order])
        if node.offset:
            df = df.offset(node.offset)
        if node.limit is not None:
            df = df.limit(node.limit)
        return Stream(df, changelog=s.changelog)
    if node.limit is None:
        raise UnsupportedError("%s cannot run in streaming mode yet" % node.explain_name(), *node.position)
    if node.offset:
        raise UnsupportedError("OFFSET is not supported in streaming mode", *node.position)
    order = list(node.order) or [(ARRIVAL, True)]
    return ranked_stream(node, s, ctx, [], order, "ROW_NUMBER", node.limit, None, False)
