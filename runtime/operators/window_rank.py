"""Window Top-N and window deduplication: keyed event-time operators (runtime/operators/event_time.py) keyed by
the window and the partition keys. A window's rows are held until the watermark passes its end, then ranked
once (ROW_NUMBER; ties keep arrival order; Flink's NULL order: first ascending, last descending) and the
first N emitted, or the first / last row by the rowtime. A row whose window had fired when it arrived is
dropped (counted). The output's window_time is the next operator's event-time column; its rows are never late
(`__wm` NULL). In batch mode: Spark's window functions."""

from pyspark.sql import Window
from pyspark.sql import functions as F
from pyspark.sql import types as st

from planner.plan.window import WindowDeduplicate, WindowRank

from ..sort_keys import Descending
from ..translate import Stream, conform, q, translates
from .event_time import EventTimeProcessor
from .keyed_state import python_grouped
from ..lateness import window_fired
from .window import bound_ms
from ..connect_shims import portable


def _sort_value(v, ascending):
    if ascending:
        return (0, None) if v is None else (1, v)
    return (1, None) if v is None else (0, Descending(v))


class WindowRankProcessor(EventTimeProcessor):
    """Ranks the rows of one window and partition once the watermark passes the window's end."""
    operator_name = "a window Top-N"

    def __init__(self, columns, order, limit, with_rank):
        self.value_columns = tuple(columns)
        self.order = [(columns.index(c), asc) for c, asc in order]
        self.limit = limit
        self.with_rank = with_rank

    def on_time(self, key, rows, watermark_us, final):
        ranked = sorted(rows, key=lambda r: tuple(_sort_value(r[2][i], asc) for i, asc in self.order) + (r[1],))
        out = []
        for n, (_, seq, values) in enumerate(ranked[:self.limit], start=1):
            out.append(values + ((n,) if self.with_rank else ()) + (seq,))
        return out


class WindowDeduplicateProcessor(EventTimeProcessor):
    """Keeps the first (or last) row by (rowtime, arrival) of one window and key."""
    operator_name = "a window deduplication"

    def __init__(self, columns, order_field, keep_last):
        self.value_columns = tuple(columns)
        self.order_index = columns.index(order_field)
        self.keep_last = keep_last

    def on_time(self, key, rows, watermark_us, final):
        if not rows:
            return []
        ordered = sorted(rows, key=lambda r: (r[2][self.order_index] is not None, r[2][self.order_index], r[1]))
        _, seq, values = ordered[-1] if self.keep_last else ordered[0]
        return [values + (seq,)]


def per_window(node, stream, keys, processor, extra_fields, ctx):
    """Run `processor` over the input rows keyed by the window bounds and `keys`: its outputs are the input's
    columns, then `extra_fields`, then __seq; returns them with __wm."""
    w = node.window
    end_ms = bound_ms(F.col(q(w.end)), w.spec)        # the instant window_end (a wall-clock time) stands for
    df = stream.df.withColumn("__t", (end_ms - 1) * 1000) \
        .withColumn("__late", F.coalesce(window_fired(end_ms), F.lit(False)))
    types = {f.name: f.dataType for f in df.schema.fields}
    columns = list(node.input.field_names)
    fields = [st.StructField(c, types[c], True) for c in columns] + extra_fields + \
        [st.StructField("__seq", st.LongType(), True)]
    processor.output_names = tuple(f.name for f in fields)
    grouped = python_grouped(df, [w.start, w.end] + list(keys))
    event_time_column = w.time if w.time is not None else ""
    out = grouped.transformWithState(portable(processor), st.StructType(fields), "Append", "EventTime",
                                     eventTimeColumnName=event_time_column)
    return out.withColumn("__wm", F.lit(None).cast("timestamp"))


def _batch(node, stream, keys, order, limit, signed=False):
    """Spark's window function over each window and key; `signed`: a streaming query read in one pass, whose
    FLOAT/DOUBLE keys keep -0.0 apart from 0.0 as Flink's streaming operator keys them (Flink's batch one takes
    them as equal)."""
    from .group_aggregate import is_negative_zero
    w = node.window
    parts = [F.col(q(k)) for k in [w.start, w.end] + list(keys)]
    if signed:
        types = {f.name: f.dataType for f in stream.df.schema.fields}
        parts += [is_negative_zero(F.col(q(k))) for k in keys if isinstance(types[k], (st.DoubleType, st.FloatType))]
    spec = Window.partitionBy(*parts).orderBy(
        *[(F.col(q(c)).asc_nulls_first() if asc else F.col(q(c)).desc_nulls_last()) for c, asc in order],
        F.col("__seq").asc())
    return stream.df.withColumn("__rank", F.row_number().over(spec)).filter(F.col("__rank") <= limit)


@translates(WindowRank)
def translate_window_rank(node, inputs, ctx):
    s = inputs[0]
    if not ctx.streaming:
        df = _batch(node, s, node.partition, node.order, node.rank_end, ctx.late_rows)
        if node.rank_field:
            df = df.withColumn(node.rank_field, F.col("__rank"))
        return Stream(conform(df.select(*[F.col(q(n)) for n in node.field_names], "__seq", "__wm"), node.fields))
    processor = WindowRankProcessor(list(node.input.field_names), node.order, node.rank_end, bool(node.rank_field))
    extra = [st.StructField(node.rank_field, st.LongType(), True)] if node.rank_field else []
    out = per_window(node, s, node.partition, processor, extra, ctx)
    return Stream(conform(out, node.fields))


@translates(WindowDeduplicate)
def translate_window_deduplicate(node, inputs, ctx):
    s = inputs[0]
    if not ctx.streaming:
        df = _batch(node, s, node.keys, [(node.order_field, not node.keep_last)], 1, ctx.late_rows)
        return Stream(df.select(*[F.col(q(n)) for n in node.field_names], "__seq", "__wm"))
    processor = WindowDeduplicateProcessor(list(node.input.field_names), node.order_field, node.keep_last)
    out = per_window(node, s, node.keys, processor, [], ctx)
    return Stream(conform(out, node.fields))
