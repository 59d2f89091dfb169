"""Windowing table functions on Spark: each row once per window it belongs to (TUMBLE, HOP, CUMULATE),
with `window_start`, `window_end`, `window_time` and the hidden `__window` struct (start, end).

`__window` carries Spark's event-time watermark metadata, so a streaming aggregate grouped by it runs
in append mode and emits a window's rows once the watermark passes its end. When an aggregate (or a
Top-N, or a join) consumes the windows, a (row, window) pair whose window had already fired when the row
arrived (window_end - 1 ms <= the row's watermark `__wm`) is dropped, as Flink drops late rows. SESSION
windows are not assigned here: the aggregate groups by Spark's session_window."""

from pyspark.sql import functions as F

WATERMARK_DELAY_KEY = "spark.watermarkDelayMs"   # Spark's EventTimeWatermark.delayKey


def _fired(window_end_ms):
    """The row's window had fired when it arrived: its end - 1 ms <= the row's watermark `__wm`."""
    return F.col("__wm").isNotNull() & (window_end_ms - 1 <= F.unix_millis(F.col("__wm")))


def assign_windows(df, spec, columns, streaming, delay_ms=None):
    """`df`: the source frame (its columns, then __seq, __wm, __op); `columns`: the input columns to keep."""
    ms = F.unix_millis(F.col("`%s`" % spec.time_column))

    def aligned(unit_ms):       # the start of the row's `unit_ms`-long period, counted from the offset
        return ms - F.pmod(ms - F.lit(spec.offset_ms), F.lit(unit_ms))
    if spec.kind == "SESSION":
        if spec.drop_late and streaming:
            # late when the row's own session [ts, ts + gap) had fired; a row that would bridge into a
            # session still open is dropped too (Flink merges it): an approximation, see the note
            df = df.filter(~_fired(ms + F.lit(spec.gap_ms)))
        return df.select(*[F.col("`%s`" % c) for c in columns], "__wm")
    if spec.kind == "TUMBLE":
        starts = F.array(aligned(spec.size_ms))
        ends = None
    elif spec.kind == "HOP":
        # Flink's SlidingEventTimeWindows: from the last start down, while start > ts - size
        last = aligned(spec.slide_ms)
        count = -(-spec.size_ms // spec.slide_ms)
        starts = F.filter(F.sequence(last, last - F.lit((count - 1) * spec.slide_ms), F.lit(-spec.slide_ms)),
                          lambda s: s > ms - F.lit(spec.size_ms))
        ends = None
    else:  # CUMULATE: one window start per size; ends step by step from the row's step up to the size
        start = aligned(spec.size_ms)
        first_end = aligned(spec.slide_ms) + F.lit(spec.slide_ms)
        starts = None
        ends = F.sequence(first_end, start + F.lit(spec.size_ms), F.lit(spec.slide_ms))
    if ends is None:
        framed = df.withColumn("__start_ms", F.explode(starts)) \
            .withColumn("__end_ms", F.col("__start_ms") + F.lit(spec.size_ms))
    else:
        framed = df.withColumn("__start_ms", start).withColumn("__end_ms", F.explode(ends))
    if spec.drop_late and streaming:
        framed = framed.filter(~_fired(F.col("__end_ms") + F.lit(spec.lateness_ms)))
    window_start = F.timestamp_millis(F.col("__start_ms"))
    window_end = F.timestamp_millis(F.col("__end_ms"))
    window = F.struct(window_start.alias("start"), window_end.alias("end"))
    if streaming and delay_ms is not None:
        window = window.alias("__window", metadata={WATERMARK_DELAY_KEY: int(delay_ms)})
    else:
        window = window.alias("__window")
    return framed.select(
        *[F.col("`%s`" % c) for c in columns],
        window_start.alias("window_start"), window_end.alias("window_end"),
        F.timestamp_millis(F.col("__end_ms") - 1).alias("window_time"),
        window, "__wm")


def collect_windows(sides):
    """The inputs of a window join -> one row per window: `__window` and, per side i, `__side<i>` = the list of
    that side's rows in the window (structs of its visible columns). Streaming, it is an append-mode
    aggregate: a window's row comes out once the watermark (the smaller of the sides') passes its end."""
    structs = [F.struct(*[F.col("`%s`" % f.name) for f in df.schema.fields if not f.name.startswith("__")])
               for df in sides]
    types = [df.select(s.alias("s")).schema["s"].dataType for df, s in zip(sides, structs)]
    tagged = None
    for i, df in enumerate(sides):
        cols = [F.col("__window")] + [
            (structs[i] if i == j else F.lit(None).cast(types[j])).alias("__side%d" % j) for j in range(len(sides))]
        part = df.select(*cols)
        tagged = part if tagged is None else tagged.unionByName(part)
    return tagged.groupBy("__window").agg(*[F.collect_list("__side%d" % j).alias("__side%d" % j)
                                            for j in range(len(sides))])
