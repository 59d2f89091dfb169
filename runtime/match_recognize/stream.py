"""MATCH_RECOGNIZE over a streaming DataFrame: `match_stream(df, spec, input_columns, rowtime)`.

`MatchProcessor` is a keyed event-time operator on `transformWithStateInPandas`, keyed by PARTITION BY: each
call gets a key's new rows as pandas frames (sent as stream_columns.py describes, a key with many rows in a
micro-batch packed into one row: operators/packed_rows.py) and keeps per key one pickled state value (one read
and one write per key and call):
  - `pending`: the rows the watermark has not passed yet, a ColumnBlock (column_block.py: numpy arrays);
  - `buffer`: the rows the watermark has passed, as the matcher's column lists, in (rowtime, further ORDER BY
    keys, __seq) order, from the first row the matcher has not decided yet (plus the rows PREV may look back
    to), TIMESTAMP columns as epoch microseconds; and the matcher's position (that row's index, the match
    count, the rows covered by matches, Flink's 'blocked' flag, the partition index of the buffer's first row).
Flink's late rows (rowtime at or below the watermark before they arrived, `__late`) are dropped and counted on
stderr; rows with a NULL rowtime are never released. When the watermark (Spark's, minus `watermark_delay_us`
when an interval join below holds its own back) passes pending rows, a numpy mask releases them, numpy sorts
them, and they move into the buffer; the matcher (matcher.py, the same core as batch) resumes where it
stopped: each row is matched once, whatever the micro-batches. Matches are emitted append-only, each with an
output `__seq`: the releasing rows' last __seq (in matching order) * SEQ_STRIDE + the match's index. An
event-time timer at the earliest pending rowtime wakes a key whose rows the watermark passes without new rows.
WITHIN bounds the state: a start row older than the watermark minus WITHIN can no longer match and is dropped
(a timer wakes the key when that happens). The end of a bounded input (the watermark jumping to the sentinel's
year 9999, END_WATERMARK_MS) releases every held row and matches it as the end of the partition (a timer at
END_WATERMARK_MS reaches keys with undecided rows); a Flink partial match still open then blocks the partition
for good (Flink never emits it again). Ordered by processing time, rows are matched as they arrive, in arrival
order (no timers).

It does not parse SQL; it runs the planner's validated spec."""

import sys

from pyspark.sql import functions as F
from pyspark.sql import types as st
from pyspark.sql.streaming import StatefulProcessor

from runtime.connect_shims import portable
from runtime.match_recognize.output_schema import spark_schema
from runtime.match_recognize.stream_columns import StreamColumns, output_frame
from runtime.operators.event_time import END_WATERMARK_MS, event_time_columns, operator_watermark
from runtime.operators.packed_rows import frames_of_call, pack_by_key
from runtime.translate import q

SEQ_STRIDE = 1 << 20          # output __seq: the releasing row's __seq * SEQ_STRIDE + the match's index
STATE_SCHEMA = st.StructType([st.StructField("blob", st.BinaryType(), True)])


def match_stream(df, spec, input_columns, rowtime=None, event_time_column=None, watermark_delay_ms=0):
    """Streaming MATCH_RECOGNIZE: `df` holds the input columns, __seq and __wm, with Spark's watermark on
    `rowtime` when ordered by it (`watermark_delay_ms`: how far behind it the input's own watermark is).
    -> the output columns and __seq."""
    names = [n for n, _ in input_columns]
    if "__seq" not in df.columns:
        df = df.withColumn("__seq", F.monotonically_increasing_id())
    by_time = spec.ordered_by_rowtime()
    if by_time:
        df = event_time_columns(df, spec.rowtime)
    else:
        df = df.withColumn("__t", F.lit(None).cast("long")).withColumn("__late", F.lit(False))
    layout = StreamColumns(input_columns, spec.partition_by, spec.rowtime if by_time else None)
    df = df.select(*layout.spark_columns())
    schema = st.StructType(list(spark_schema(spec).fields) + [st.StructField("__seq", st.LongType())])
    processor = MatchProcessor(spec, input_columns, [f.name for f in schema.fields])
    processor.watermark_delay_us = watermark_delay_ms * 1000
    processor.packed_in = df.sparkSession.conf.get("spark.sql.session.timeZone")
    df = pack_by_key(df, layout.grouping)
    kwargs = {"eventTimeColumnName": event_time_column} if event_time_column else {}
    return df.groupBy(*[F.col(q(g)) for g in layout.grouping]).transformWithStateInPandas(
        portable(processor), schema, "Append", "EventTime" if by_time else "None", **kwargs)


class KeyState:
    """One key's state, read once and written once per call (see the module docstring)."""
    __slots__ = ("pending", "buffer", "buffer_ts", "timers", "start", "match_number", "covered", "blocked",
                 "origin", "matched", "registered", "key_values")

    def __init__(self):
        self.pending = None         # ColumnBlock or None
        self.matched = False        # the matcher has run for this key (its position below is kept)
        self.buffer = None          # column lists (TIMESTAMP columns as micros lists)
        self.buffer_ts = None       # the buffer's times (epoch micros; __seq when ordered by processing time)
        self.timers = ()            # the matcher's wake-up times (epoch ms)
        self.registered = ()        # the key's event-time timers in Spark now (as this operator left them)
        self.key_values = ()        # the PARTITION BY values (from the rows: the grouping key may be strings)
        self.start = self.match_number = self.covered = self.origin = 0
        self.blocked = False

    def __getstate__(self):
        return tuple(getattr(self, s) for s in self.__slots__)

    def __setstate__(self, values):
        for s, v in zip(self.__slots__, values):
            setattr(self, s, v)


class MatchProcessor(StatefulProcessor):
    operator_name = "MATCH_RECOGNIZE"
    watermark_delay_us = 0      # how far behind Spark's watermark this operator's own runs
    packed_in = None            # the session time zone when the rows come packed (packed_rows.py)

    def __init__(self, spec, input_columns, output_names):
        self.spec = spec
        self.input_columns = list(input_columns)
        self.names = [n for n, _ in self.input_columns]
        self.output_names = tuple(output_names)
        self.by_time = spec.ordered_by_rowtime()

    def init(self, handle):
        from runtime.match_recognize.matcher import CompiledMatch
        from runtime.match_recognize.output_schema import ArrowWriter
        self.handle = handle
        self.value = handle.getValueState("match", STATE_SCHEMA)
        self.compiled = CompiledMatch(self.spec, self.names)
        self.layout = StreamColumns(self.input_columns, self.spec.partition_by,
                                    self.spec.rowtime if self.by_time else None)
        self.further = [(self.names.index(k.column), k.ascending) for k in self.spec.order_by[1:]]
        self.partition_index = [self.names.index(p) for p in self.spec.partition_by]
        schema = st.StructType(list(spark_schema(self.spec).fields)
                               + [st.StructField("__seq", st.LongType())])
        self.output_types = ArrowWriter(schema).schema.types

    def close(self):
        pass

    # ------------------------------------------------------------------ Spark entry points
    def handleInputRows(self, key, rows, timerValues):
        import pandas as pd
        frames = frames_of_call(rows, self.packed_in)
        frame = (frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)) if frames else None
        return self._call(key, frame, timerValues)

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        return self._call(key, None, timerValues, expiredTimerInfo.getExpiryTimeInMs())

    # ------------------------------------------------------------------ the work
    def _call(self, key, frame, timer_values, expired_ms=None):
        """One key's call: new rows (a frame, or None) and the watermark -> output frames. `expired_ms`: the
        timer that woke the key (Spark deletes it once the call returns)."""
        import pickle
        blob = self.value.get()
        state = pickle.loads(blob[0]) if blob is not None and blob[0] is not None else None
        existed = state is not None
        state = state or KeyState()
        out = []
        new = None
        if frame is not None:
            block, late, t_null = self.layout.block(frame)
            state.key_values = self.layout.key_values(block, self.partition_index)
            n_late = int(late.sum())
            if n_late:
                print("dynsql: %s dropped %d late row(s) (rowtime at or below the watermark)"
                      % (self.operator_name, n_late), file=sys.stderr)
                block, t_null = block.take(~late), t_null[~late]
            if not self.by_time and len(block):        # processing time: matched as they arrive
                out += self._match(state, block.take(block.order([], self.layout.kinds, False)), False, None)
            new = block.take(~t_null) if t_null.any() else block
        out += self._advance(state, new, timer_values.getCurrentWatermarkInMs())
        if expired_ms is not None and expired_ms in state.registered:
            state.registered = tuple(t for t in state.registered if t != expired_ms)
        if existed or state.pending is not None or state.matched:
            self.value.update((pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL),))
        if not out:
            return iter(())
        return iter([output_frame(self.output_types, self.output_names, out)])

    def _advance(self, state, new, watermark_ms):
        """Release the pending rows the watermark passed (all at the end of input) into the matcher."""
        from runtime.match_recognize.column_block import ColumnBlock
        pending = state.pending
        if new is not None and len(new):
            pending = ColumnBlock.concat(pending, new)
        final, wm_us = operator_watermark(watermark_ms, self.watermark_delay_us)
        released = keep = None
        if pending is not None and len(pending):
            if final:
                released = pending
            elif wm_us is not None:
                passed = pending.t <= wm_us
                if passed.all():
                    released = pending
                elif passed.any():
                    released, keep = pending.take(passed), pending.take(~passed)
                else:
                    keep = pending
            else:
                keep = pending
        state.pending = keep
        out = []
        if released is not None or final:
            if released is not None:
                released = released.take(released.order(self.further, self.layout.kinds, True))
            out = self._match(state, released, final, wm_us)
        if not self.by_time:
            return out
        timers = set(state.timers)
        if keep is not None:
            timers.add(max(int(keep.t.min()) // 1000, 0))
        # the key's timers become `timers`: only the differences go to Spark (each call is a round trip)
        for t in sorted(set(state.registered) - timers):
            self.handle.deleteTimer(t)
        for t in sorted(timers - set(state.registered)):
            self.handle.registerTimer(t)
        state.registered = tuple(sorted(timers))
        return out

    def _match(self, state, released, final, wm_us):
        """Feed released rows (a ColumnBlock in matching order, or None) to the matcher -> output tuples (with
        __seq); updates the key's state."""
        from runtime.match_recognize.lazy_timestamps import LazyTimestamps
        from runtime.match_recognize.matcher import PartitionRun
        n_released = len(released) if released is not None else 0
        if not n_released and not final and not state.matched:
            return []
        if state.blocked:                    # Flink never emits this partition again
            return []
        data = state.buffer
        if data is None:
            data = [LazyTimestamps([]) if k in ("timestamp", "rowtime") else [] for k in self.layout.kinds]
            ts = []
        else:
            data = [LazyTimestamps(c) if k in ("timestamp", "rowtime") else c
                    for c, k in zip(data, self.layout.kinds)]
            ts = state.buffer_ts
        if n_released:
            for column, values in zip(data, self.layout.python_values(released)):
                column.extend(values)
            ts.extend((released.t if self.by_time else released.seq).tolist())
        n = len(ts)
        run = PartitionRun(self.compiled, state.key_values, state.start, state.match_number, state.covered,
                           state.origin)
        out = run.advance(data, ts, n, final=final, watermark=wm_us)
        keep_from = max(0, min(run.start, n) - self.compiled.max_prev)
        timers = set()
        if run.start < n and not run.blocked:
            timers.add(END_WATERMARK_MS)                 # the end of input decides what is still open
            if self.compiled.within_us is not None:     # the start row expires
                timers.add(-(-(ts[run.start] + self.compiled.within_us) // 1000))
        state.timers = tuple(timers) if self.by_time else ()
        state.matched = True
        state.match_number = run.match_number
        if run.blocked:
            state.blocked = True
            state.buffer, state.buffer_ts = None, None
            state.start = state.covered = state.origin = 0
            state.timers = ()
        else:
            state.buffer = [(c.us if isinstance(c, LazyTimestamps) else c)[keep_from:] for c in data]
            state.buffer_ts = ts[keep_from:]
            state.start = run.start - keep_from
            state.covered = max(0, run.covered - keep_from)
            state.origin += keep_from
        base = (int(released.seq[-1]) if n_released else 0) * SEQ_STRIDE
        return [values + (base + i,) for i, values in enumerate(out)]

