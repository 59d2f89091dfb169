"""Window assignment and window aggregation on Spark: the WindowTableFunction, WindowAggregate and
GroupWindowAggregate translators.

Windows are assigned by exploding each row into the windows it belongs to (TUMBLE, HOP, CUMULATE: one path for
all three, Flink's assigners' arithmetic, offsets included). A window aggregate then groups by a struct
`__window` (start, end) that carries Spark's event-time watermark metadata, so that Spark's native streaming
aggregate runs in append mode and emits a window's row once the watermark passes its end (a SELECT's result on
micro-batches runs Spark's batch aggregate per micro-batch instead, window_per_batch.py; the window function
SESSION's rows come with their sessions from session_window.py; a legacy SESSION group window groups by
Spark's `session_window`); one over a small file read as one batch, each task reading the file, without a
shuffle (whole_file_aggregate.py); on batch frames STDDEV / VAR by moments_in_order.py's sorted fold, in O(1)
memory a (window, key), joined to the others; on micro-batches (a job's window aggregate) all the calls beside
one of them by window_accumulate.py's keyed operator, O(1) state a (window, key). Before that, a (row, window)
pair whose window had fired when the row arrived (window_end - 1 ms <= the row's watermark `__wm`, plus the allowed lateness of a
legacy group window) is dropped: lateness decided per row, whatever the micro-batches. Outputs are never
late for the next operator (`__wm` NULL), and window_time carries the watermark metadata, so a window
downstream (cascading windows) is again a native append aggregate. In batch mode the same assignment feeds
Spark's aggregate.

Legacy SESSION group windows approximate lateness: a row is dropped when its own session [ts, ts + gap) had
fired when it arrived; Flink keeps such a row when it merges into a session still open (the window function
SESSION decides exactly, see session_window.py)."""

from pyspark.sql import functions as F

from planner.errors import UnsupportedError
from planner.plan.fields import PROCTIME
from planner.plan.window import GroupWindowAggregate, WindowAggregate, WindowTableFunction

from ..lateness import window_fired
from ..physical.nodes import (AGGREGATE_OF_PIECES, ARROW_AGGREGATE_OF_FILES, ARROW_AGGREGATE_OF_PIECES,
                              PER_MICRO_BATCH_WINDOW_AGGREGATE, WHOLE_FILE)
from ..translate import Stream, conform, q, translates
from .group_aggregate import aggregate_column, moments_joined, python_function
from .moments_in_order import folds_in_order
from .whole_file_aggregate import aggregate_whole_file, groups_schema
from .window_accumulate import accumulated_windows, folds_on_arrival

WATERMARK_DELAY_KEY = "spark.watermarkDelayMs"   # Spark's EventTimeWatermark.delayKey
WINDOW = "__window"


def with_watermark_metadata(col, name):
    """`col` named `name`, marked as an event-time column (Spark: the grouping key of an append-mode
    aggregate, a state-evicting key)."""
    return col.alias(name, metadata={WATERMARK_DELAY_KEY: 0})


def shifted(spec):
    """The zone `spec`'s windows are aligned in when it is not UTC (over a TIMESTAMP_LTZ: the session's), else None."""
    return spec.time_zone if spec.time_zone not in (None, "UTC") else None


def local_bound(ms_column, spec, end=False):
    """A window bound (its instant, epoch milliseconds) as window_start / window_end show it: a TIMESTAMP, the
    wall-clock time in the windows' zone. An `end` is the wall-clock time of its last millisecond, plus one: a
    window ending at a time the zone skips (02:00 when DST starts) ends there, not at the hour after."""
    zone = shifted(spec)
    if not zone:
        return F.timestamp_millis(ms_column)
    if end:
        return F.from_utc_timestamp(F.timestamp_millis(ms_column - 1), zone) + F.expr("INTERVAL 1 MILLISECOND")
    return F.from_utc_timestamp(F.timestamp_millis(ms_column), zone)


def bound_ms(column, spec):
    """window_start / window_end of rows carrying them -> the bound's instant (epoch milliseconds)."""
    zone = shifted(spec)
    return F.unix_millis(F.to_utc_timestamp(column, zone) if zone else column)


def assign_windows(df, spec, time_column):
    """Each row once per window of `spec` (TUMBLE, HOP, CUMULATE) it falls in: `__start_ms`, `__end_ms` added,
    the instants of its bounds (epoch milliseconds). Over a TIMESTAMP_LTZ in a zone other than UTC the windows
    are aligned in that zone's wall-clock time, as Flink's assigners shift the time (a day from local midnight)."""
    zone = shifted(spec)
    framed = _assign(df, spec, F.unix_millis(F.from_utc_timestamp(F.col(q(time_column)), zone) if zone
                                             else F.col(q(time_column))))
    if zone:
        for c in ("__start_ms", "__end_ms"):
            framed = framed.withColumn(c, F.unix_millis(F.to_utc_timestamp(F.timestamp_millis(F.col(c)), zone)))
    return framed


def _assign(df, spec, ms):
    """`assign_windows` over `ms`, the rows' times (epoch milliseconds, or a zone's wall-clock time as such)."""
    def aligned(unit_ms):       # the start of the row's `unit_ms`-long period, counted from the offset
        return ms - F.pmod(ms - F.lit(spec.offset_ms), F.lit(unit_ms))
    if spec.kind == "TUMBLE":
        return df.withColumn("__start_ms", aligned(spec.size_ms)) \
            .withColumn("__end_ms", F.col("__start_ms") + F.lit(spec.size_ms))
    if spec.kind == "HOP":
        # Flink's SlidingEventTimeWindows: from the last start down, while start > ts - size
        last = aligned(spec.slide_ms)
        count = -(-spec.size_ms // spec.slide_ms)
        starts = F.filter(F.sequence(last, last - F.lit((count - 1) * spec.slide_ms), F.lit(-spec.slide_ms)),
                          lambda s: s > ms - F.lit(spec.size_ms))
        return df.withColumn("__start_ms", F.explode(starts)) \
            .withColumn("__end_ms", F.col("__start_ms") + F.lit(spec.size_ms))
    if spec.kind == "CUMULATE":
        # one window start per size; ends step by step from the row's step up to the size
        start = aligned(spec.size_ms)
        first_end = aligned(spec.slide_ms) + F.lit(spec.slide_ms)
        return df.withColumn("__start_ms", start) \
            .withColumn("__end_ms", F.explode(F.sequence(first_end, start + F.lit(spec.size_ms), F.lit(spec.slide_ms))))
    raise ValueError("SESSION windows are merged, not assigned per row")


# ---------------------------------------------------------------------- the window table function
@translates(WindowTableFunction)
def translate_window_table_function(node, inputs, ctx):
    s = inputs[0]
    if node.spec.kind == "SESSION":
        from .session_window import session_windows
        return session_windows(node, s, ctx)
    framed = assign_windows(s.df, node.spec, node.spec.time_column)
    start, end = local_bound(F.col("__start_ms"), node.spec), local_bound(F.col("__end_ms"), node.spec, end=True)
    # window_time is not marked as an event-time column: the input's rowtime still is (Spark allows one)
    wtime = F.timestamp_millis(F.col("__end_ms") - 1)
    names = node.field_names[-3:]
    out = framed.select(*[F.col(q(n)) for n in node.input.field_names], start.alias(names[0]),
                        end.alias(names[1]), wtime.alias(names[2]), *[F.col(h) for h in s.hidden()])
    return Stream(out, changelog=s.changelog)


# ---------------------------------------------------------------------- aggregates
def _aggregates(calls, streaming, order=None):
    """The calls as Spark aggregate columns, and the projection finishing them: Spark's streaming aggregate
    has no DISTINCT aggregates, so COUNT / SUM / AVG (DISTINCT x) collect the set of values and reduce it.
    `order`: the rows' arrival order (`__seq`), where MAX / MIN of a FLOAT/DOUBLE depend on it."""
    from ..python_functions.aggregates import collected, collected_name, finished
    aggs, finish = [], []
    for c in calls:
        fn = python_function(c)
        if fn is not None:          # a Python aggregate function: the group's rows collected, its value computed
            aggs.append(collected(c).alias(collected_name(c)))
            finish.append(finished(c, fn, F.col(q(collected_name(c)))).alias(c.name))
            continue
        if not (c.distinct and streaming):
            aggs.append(aggregate_column(c, order))
            finish.append(F.col(q(c.name)))
            continue
        if c.function not in ("COUNT", "SUM", "AVG", "MIN", "MAX"):
            raise UnsupportedError("%s(DISTINCT ..) in a window aggregate is not supported yet" % c.function)
        arg = F.col(q(c.args[0]))
        if c.filter:
            arg = F.when(F.col(q(c.filter)), arg)
        tmp = "__set_" + c.name
        aggs.append(F.collect_set(arg).alias(tmp))
        values = F.col(q(tmp))
        if c.function == "COUNT":
            out = F.size(values).cast("long")
        elif c.function in ("MIN", "MAX"):
            out = F.array_min(values) if c.function == "MIN" else F.array_max(values)
        else:
            total = F.aggregate(values, F.lit(0).cast("double"), lambda a, x: a + x)
            out = total if c.function == "SUM" else total / F.size(values)
            out = F.when(F.size(values) > 0, out)
        finish.append(out.alias(c.name))
    return aggs, finish


def assigned_pairs(node, df):
    """`df`'s rows once per window of `node` (an aggregate) with `__start_ms`, `__end_ms`: assigned from its time
    column, or read from the rows' window_start / window_end."""
    spec = node.spec
    time_field = getattr(node, "time_field", None)
    if time_field is not None:
        return assign_windows(df, spec, time_field)
    return df.withColumn("__start_ms", bound_ms(F.col(q(node.start_field)), spec)) \
        .withColumn("__end_ms", bound_ms(F.col(q(node.end_field)), spec))


def window_pairs(node, df, ctx, lateness_ms=0):
    """The (row, window) pairs of a TUMBLE, HOP or CUMULATE aggregate's input rows `df`: `__start_ms`,
    `__end_ms` assigned from the time column (or read from the rows' window_start / window_end), late pairs
    dropped."""
    df = assigned_pairs(node, df)
    if (ctx.streaming or ctx.late_rows) and node.time_kind != PROCTIME:
        df = df.filter(~window_fired(F.col("__end_ms"), lateness_ms))
    return df


def _window_groups(node, s, ctx, lateness_ms=0, paired=False):
    """The input rows with `__window` (start, end) as Spark groups them: the (row, window) pairs (window_pairs;
    `paired`: the rows are such pairs already), or a legacy SESSION group window's sessions."""
    streaming_rowtime = (ctx.streaming or ctx.late_rows) and node.time_kind != PROCTIME
    df = s.df
    spec = node.spec
    time_field = getattr(node, "time_field", None)
    if spec.kind == "SESSION" and time_field is not None:      # a legacy SESSION group window
        ts = F.col(q(time_field))
        if streaming_rowtime:
            df = df.filter(~window_fired(F.unix_millis(ts) + F.lit(spec.gap_ms), lateness_ms))
        elif node.time_kind == PROCTIME and ctx.streaming:
            df = df.withWatermark(time_field, "0 seconds")
        return df, F.session_window(ts, "%d milliseconds" % spec.gap_ms).alias(WINDOW)
    if not paired:
        df = window_pairs(node, df, ctx, lateness_ms)
    window = _bounds_struct()
    if ctx.streaming:
        if node.time_kind == PROCTIME:
            df = df.withColumn("__ptime", F.timestamp_millis(F.col("__end_ms") - 1)).withWatermark("__ptime", "0 seconds")
        window = with_watermark_metadata(window, WINDOW)
    else:
        window = window.alias(WINDOW)
    return df, window


def _bounds_struct():
    """`__window` of rows carrying their window's instants `__start_ms` / `__end_ms`: (start, end) TIMESTAMPs."""
    return F.struct(F.timestamp_millis(F.col("__start_ms")).alias("start"),
                    F.timestamp_millis(F.col("__end_ms")).alias("end"))


def _aggregate(node, s, ctx, lateness_ms=0, paired=False):
    """-> (Spark's grouped result with the keys, the finished calls and `__window`)."""
    df, window = _window_groups(node, s, ctx, lateness_ms, paired)
    order = F.col("__seq") if "__seq" in df.columns else None
    by_column = node.spec.kind != "SESSION" or getattr(node, "time_field", None) is None
    if ctx.streaming and by_column and node.time_kind != PROCTIME and folds_on_arrival(node, lateness_ms):
        # the variance family on micro-batches: accumulators folded as rows arrive, O(1) state a (window, key)
        out = accumulated_windows(node, df)
        return out.select(*[F.col(q(k)) for k in node.keys], *[F.col(q(c.name)) for c in node.calls],
                          _bounds_struct().alias(WINDOW))
    # a batch frame: the variance family by a sorted fold, O(1) memory a (window, key) (moments_in_order.py)
    in_order = [c for c in node.calls if folds_in_order(c) and python_function(c) is None] \
        if by_column and not ctx.streaming else []
    aggs, finish = _aggregates([c for c in node.calls if not any(c is m for m in in_order)], ctx.streaming, order)
    if by_column:
        # grouped by a column (an attribute), not an expression: Spark finds the watermark metadata on it
        df, window = df.select("*", window), F.col(WINDOW)
    # a FLOAT/DOUBLE key keeps -0.0 apart from 0.0, as Flink groups it (a hidden key: Spark makes -0.0 0.0)
    from .group_aggregate import _negative_zero_keys, _negative_zero_restored, is_negative_zero
    signed = _negative_zero_keys(df, node.keys)
    if signed:
        df = df.withColumns({name: is_negative_zero(F.col(q(key))) for name, key in signed})
    grouped = df.groupBy(window, *[F.col(q(k)) for k in node.keys], *[F.col(name) for name, _ in signed]) \
        .agg(*(aggs or [F.count(F.lit(1)).alias("__n")]))
    out = grouped.select(*[F.col(q(k)) for k in node.keys], *finish, F.col(WINDOW), *[F.col(n) for n, _ in signed])
    out = _negative_zero_restored(out, df, signed, {})
    return moments_joined(out, df, [WINDOW] + list(node.keys), in_order, order) if in_order else out


def _property_columns(props, streaming, proctime_kind, spec):
    cols = []
    start, end = F.col(WINDOW + ".start"), F.col(WINDOW + ".end")      # instants
    for prop, name in props.items():
        if prop in ("start", "end"):     # TIMESTAMPs: the wall-clock time in the windows' zone
            bound = start if prop == "start" else end
            if shifted(spec):
                bound = local_bound(F.unix_millis(bound), spec, end=prop == "end")
            cols.append(bound.alias(name))
        elif prop == "proctime" or (prop == "time" and proctime_kind):
            cols.append(F.current_timestamp().alias(name) if prop == "proctime" else
                        (end - F.expr("INTERVAL 1 MILLISECOND")).alias(name))
        else:       # rowtime / window_time: end - 1 ms, an event-time column for the operators downstream
            t = end - F.expr("INTERVAL 1 MILLISECOND")
            cols.append(with_watermark_metadata(t, name) if streaming else t.alias(name))
    return cols


def _finish(node, grouped, ctx):
    """Keys, calls, window properties, then the hidden columns of a Stream (never late downstream)."""
    props = _property_columns(node.props, ctx.streaming, node.time_kind == PROCTIME, node.spec)
    out = grouped.select(*[F.col(q(k)) for k in node.keys], *[F.col(q(c.name)) for c in node.calls], *props,
                         F.unix_micros(F.col(WINDOW + ".end")).alias("__seq"),
                         F.lit(None).cast("timestamp").alias("__wm"))
    return conform(out.select(*[F.col(q(n)) for n in node.field_names], "__seq", "__wm"), node.fields)


def aggregate_pairs(node, s, ctx):
    """A window aggregate's result over (row, window) pairs already assigned (window_pairs), on batch frames:
    the node's fields, then `__seq` and `__wm` (runtime/operators/window_per_batch.py runs it per micro-batch)."""
    return _finish(node, _aggregate(node, s, ctx, paired=True), ctx)


@translates(WindowAggregate)
def translate_window_aggregate(node, inputs, ctx):
    chosen = ctx.chosen(node)
    if chosen.choice == PER_MICRO_BATCH_WINDOW_AGGREGATE:
        from .window_per_batch import window_aggregate_per_batch
        return window_aggregate_per_batch(node, inputs[0], ctx)
    if chosen.choice in (ARROW_AGGREGATE_OF_PIECES, ARROW_AGGREGATE_OF_FILES):
        from .window_pieces_arrow import aggregate_pieces_with_arrow
        df, merge = aggregate_pieces_with_arrow(ctx, *chosen.file, node, chosen.pieces)   # pieces None: files
        return Stream(df, finished_in_driver=merge)
    if chosen.choice == AGGREGATE_OF_PIECES:
        from .window_pieces import aggregate_pieces
        return Stream(_finish(node, aggregate_pieces(node, inputs[0]), ctx))
    if chosen.choice != WHOLE_FILE:
        return Stream(_finish(node, _aggregate(node, inputs[0], ctx), ctx))
    if chosen.groups_to_driver:
        from .window_pieces_arrow import PiecesMerge
        df = aggregate_whole_file(ctx, *chosen.file, node, node.spec, to_driver=True)
        return Stream(df, finished_in_driver=PiecesMerge(node, groups_schema(chosen.file[0], chosen.file[1], node,
                                                                             node.spec), disjoint=True))
    grouped = aggregate_whole_file(ctx, *chosen.file, node, node.spec)
    window = _bounds_struct().alias(WINDOW)
    return Stream(_finish(node, grouped.select(*[F.col(q(k)) for k in node.keys],
                                               *[F.col(q(c.name)) for c in node.calls], window), ctx))


@translates(GroupWindowAggregate)
def translate_group_window_aggregate(node, inputs, ctx):
    """Insert-only: as a window aggregate. With early / late firing (table.exec.emit.*): Spark's update-mode
    aggregate, each window's result updated at every micro-batch that changes it, its state kept for the allowed
    lateness (the sources' watermark is delayed by it); only projections may follow it."""
    grouped = _aggregate(node, inputs[0], ctx, node.lateness_ms if ctx.streaming or ctx.late_rows else 0)
    out = _finish(node, grouped, ctx)
    if not (ctx.streaming and node.updating):
        return Stream(out)
    # (only projections follow it: the physical plan refuses anything else, runtime/physical/rules.py)
    keys = ["__key%d" % i for i in range(len(node.upsert_key))]
    out = out.select(*[F.col(q(n)) for n in node.field_names],
                     *[F.col(q(k)).alias(kc) for k, kc in zip(node.upsert_key, keys)], F.lit(True).alias("__visible"))
    return Stream(out, upsert_keys=keys)
