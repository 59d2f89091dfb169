"""ORDER BY / LIMIT. Batch: Spark's sort and limit. Streaming: ORDER BY .. LIMIT n is a Top-N over the
whole input and LIMIT alone keeps the first n rows to arrive (RankProcessor, one partition); ORDER BY a
rowtime (ascending, then any columns) is Flink's TemporalSort: rows wait for the watermark and are released
in (rowtime, other keys, arrival) order, insert-only, rows behind the watermark dropped (the event-time
base); ORDER BY a proctime passes rows on as they arrive (their processing-time order)."""

from pyspark.sql import functions as F
from pyspark.sql import types as st

from planner.errors import UnsupportedError
from planner.plan.sort import Sort

from ..translate import Stream, conform, q, translates
from .event_time import EventTimeProcessor, event_time_columns
from .group_aggregate import is_negative_zero
from .keyed_state import run_keyed
from .rank import ARRIVAL, _sort_value, ranked_stream


class TemporalSortProcessor(EventTimeProcessor):
    """One key for the whole input: rows the watermark passed, sorted by the ORDER BY keys after the rowtime."""
    operator_name = "TemporalSort"

    def __init__(self, columns, order):
        self.value_columns = tuple(columns)
        self.order = [(list(columns).index(c), asc) for c, asc in order]

    def on_time(self, key, rows, watermark_us, final):
        def sort_key(r):
            return (r[0],) + tuple(_sort_value(r[2][i], asc) for i, asc in self.order) + (r[1],)
        return [tuple(values) + (0, seq) for _, seq, values in sorted(rows, key=sort_key)]


def sort_columns(df, order, signed_zeros=True):
    """Spark sort columns for ORDER BY keys [(column, ascending)] in Flink's batch order: NULLs first ascending,
    last descending; a FLOAT/DOUBLE by Double.compare (NaN above every number, as Spark, and with
    `signed_zeros` -0.0 below 0.0, which Spark takes as equal: a second key, whether the value is -0.0, puts
    them apart), as Flink's full sort orders them (by their normalized keys)."""
    out = []
    for c, asc in order:
        col = F.col(q(c))
        out.append(col.asc_nulls_first() if asc else col.desc_nulls_last())
        if signed_zeros and isinstance(df.schema[c].dataType, (st.DoubleType, st.FloatType)):
            negative = is_negative_zero(col)
            out.append(negative.desc() if asc else negative.asc())
    return out


@translates(Sort)
def translate_sort(node, inputs, ctx):
    s = inputs[0]
    if not ctx.streaming:
        df = s.df
        if node.order:       # (Flink's ORDER BY .. LIMIT compares with Java's `<`: -0.0 and 0.0 are equal)
            df = df.orderBy(*sort_columns(df, node.order, signed_zeros=node.limit is None and not node.offset))
        if node.offset:
            df = df.offset(node.offset)
        if node.limit is not None:
            df = df.limit(node.limit)
        return Stream(df, changelog=s.changelog)
    if node.limit is None:
        if node.offset:
            raise UnsupportedError("OFFSET is not supported in streaming mode", *node.position)
        if not node.event_time:
            return s           # ORDER BY a proctime: rows are in processing-time order as they arrive
        names = node.input.field_names
        types = {f.name: f.dataType for f in s.df.schema.fields}
        fields = [st.StructField(n, types[n], True) for n in names]
        df = event_time_columns(s.df, node.order[0][0])
        out = run_keyed(df, [], TemporalSortProcessor(names, node.order[1:]), fields, ctx, time_mode="EventTime")
        return Stream(conform(out.select(*[F.col(q(n)) for n in names], "__seq", "__wm"), node.fields))
    if node.offset:
        raise UnsupportedError("OFFSET is not supported in streaming mode", *node.position)
    order = list(node.order) or [(ARRIVAL, True)]
    return ranked_stream(node, s, ctx, [], order, "ROW_NUMBER", node.limit, None, False)
