"""MATCH_RECOGNIZE over a streaming DataFrame: `match_stream(df, spec, input_columns, rowtime)`.

`MatchProcessor` is a keyed event-time operator (runtime/operators/event_time.py: rows held until the
watermark passes them, Flink's late rows dropped and counted) keyed by PARTITION BY. Besides the base's
pending rows it keeps per key one pickled value: `buffer`, the rows the watermark has passed, in (rowtime,
ORDER BY, __seq) order, from the first row the matcher has not decided yet (plus the rows PREV may look
back to), and the matcher's position (that row's index, the match count, the rows covered by matches,
Flink's 'blocked' flag). When the watermark passes rows they move into the buffer and the matcher
(matcher.py, the same core as batch) resumes where it stopped: each row is matched once, whatever the
micro-batches. Matches are emitted append-only, each with an output `__seq`. WITHIN bounds the state: a
start row older than the watermark minus WITHIN can no longer match and is dropped. The end of a bounded
input (the watermark jumping to the sentinel's year 9999) matches every held row as the end of the
partition. Ordered by processing time, rows are matched as they arrive (no timers).

It does not parse SQL; it runs the planner's validated spec."""

from pyspark.sql import functions as F
from pyspark.sql import types as st

from runtime.connect_shims import portable
from runtime.match_recognize.output_schema import spark_schema
from runtime.match_recognize.rows import sort_key_fn
from runtime.operators.event_time import END_WATERMARK_MS, EventTimeProcessor, event_time_columns
from runtime.operators.keyed_state import PickledValueState

ALL_KEY = "__mr_all"
SEQ_STRIDE = 1 << 20          # output __seq: the releasing row's __seq * SEQ_STRIDE + the match's index


def match_stream(df, spec, input_columns, rowtime=None, event_time_column=None, watermark_delay_ms=0):
    """Streaming MATCH_RECOGNIZE: `df` holds the input columns, __seq and __wm, with Spark's watermark on
    `rowtime` when ordered by it (`watermark_delay_ms`: how far behind it the input's own watermark is).
    -> the output columns and __seq."""
    names = [n for n, _ in input_columns]
    if "__seq" not in df.columns:
        df = df.withColumn("__seq", F.monotonically_increasing_id())
    by_time = is_by_time(spec)
    if by_time:
        df = event_time_columns(df, spec.rowtime)
    else:
        df = df.withColumn("__t", F.lit(None).cast("long")).withColumn("__late", F.lit(False))
    df = df.select(*[F.col(_q(n)) for n in names], "__t", "__seq", "__late")
    keys = list(spec.partition_by)
    if not keys:
        df = df.withColumn(ALL_KEY, F.lit(0))
        keys = [ALL_KEY]
    schema = st.StructType(list(spark_schema(spec, input_columns).fields) + [st.StructField("__seq", st.LongType())])
    processor = MatchProcessor(spec, input_columns, [f.name for f in schema.fields])
    processor.watermark_delay_us = watermark_delay_ms * 1000
    kwargs = {"eventTimeColumnName": event_time_column} if event_time_column else {}
    return df.groupBy(*[F.col(_q(k)) for k in keys]).transformWithState(
        portable(processor), schema, "Append", "EventTime" if by_time else "None", **kwargs)


def is_by_time(spec):
    return spec.rowtime is not None and spec.order_by[0].column == spec.rowtime


def _q(name):
    return "`%s`" % name.replace("`", "``")


class MatchProcessor(EventTimeProcessor):
    operator_name = "MATCH_RECOGNIZE"

    def __init__(self, spec, input_columns, output_names):
        self.spec = spec
        self.input_columns = list(input_columns)
        self.names = [n for n, _ in self.input_columns]
        self.value_columns = tuple(self.names)
        self.output_names = tuple(output_names)
        self.by_time = is_by_time(spec)
        self.timers = self.by_time

    def init_state(self, handle):
        from runtime.match_recognize.matcher import CompiledMatch
        self.state = PickledValueState(handle, "match", lambda: None)
        self.compiled = CompiledMatch(self.spec, self.names)
        n = len(self.names)
        # a buffered row: (input column values..., __seq, rowtime in epoch microseconds)
        self.sort_key = sort_key_fn(self.names, self.spec, time_index=n + 1, seq_index=n)
        self.key_timers = None

    # ------------------------------------------------------------------ the base's hooks
    def on_arrival(self, key, rows):
        if self.by_time:
            return []
        return self._match(key, [v + (s, s) for _, s, v in sorted(rows, key=lambda r: r[1])], False, None)

    def on_time(self, key, rows, watermark_us, final):
        return self._match(key, [v + (s, t) for t, s, v in rows], final, watermark_us)

    def more_timers(self, key):
        if self.key_timers is None:          # no row was matched in this call: the key's state says
            state = self.state.get()
            self.key_timers = state[1] if state is not None else ()
        return self.key_timers

    def finish(self, key):
        self.key_timers = None

    # ------------------------------------------------------------------ the work
    def _match(self, key, released, final, wm_us):
        """Feed released rows to the matcher -> output tuples (with __seq); keeps the key's state."""
        from runtime.match_recognize.matcher import PartitionRun
        state = self.state.get()
        if not released and not final and state is None:
            self.key_timers = ()
            return []
        buffer, timers, start, match_number, covered, blocked, origin = \
            state if state is not None else ([], (), 0, 0, 0, False, 0)
        if blocked:                          # Flink never emits this partition again
            self.key_timers = ()
            return []
        released.sort(key=self.sort_key)
        buffer.extend(released)
        n = len(buffer)
        n_cols = len(self.names)
        data = [[r[i] for r in buffer] for i in range(n_cols)]
        ts = [r[n_cols + 1] for r in buffer]
        key_values = (key if isinstance(key, tuple) else (key,)) if self.spec.partition_by else ()
        run = PartitionRun(self.compiled, key_values, start, match_number, covered, origin)
        out = run.advance(data, ts, n, final=final, watermark=wm_us)
        keep_from = max(0, min(run.start, n) - self.compiled.max_prev)
        rest = buffer[keep_from:]
        timers = set()
        if run.start < n and not run.blocked:
            timers.add(END_WATERMARK_MS)                 # the end of input decides what is still open
            if self.compiled.within_us is not None:     # the start row expires
                timers.add(-(-(ts[run.start] + self.compiled.within_us) // 1000))
        self.key_timers = tuple(timers) if self.by_time else ()
        if run.blocked:
            self.state.put(([], (), 0, run.match_number, 0, True, 0))
        else:
            self.state.put((rest, self.key_timers, run.start - keep_from, run.match_number,
                            max(0, run.covered - keep_from), False, origin + keep_from))
        base = (released[-1][n_cols] if released else 0) * SEQ_STRIDE
        return [values + (base + i,) for i, values in enumerate(out)]
