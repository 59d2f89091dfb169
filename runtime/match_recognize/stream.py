"""MATCH_RECOGNIZE over a streaming DataFrame: `match_stream(df, spec, input_columns, rowtime)`.

A stateful operator keyed by PARTITION BY (`groupBy(...).transformWithState`, row API, event-time
mode; RocksDB state store). Per key it keeps
  - `pending`: rows whose rowtime the watermark has not passed yet (an event-time timer at the
    earliest one wakes the key up);
  - `buffer`: rows the watermark has passed, in (rowtime, ORDER BY, __seq) order, from the first row
    the matcher has not decided yet (plus the rows PREV may look back to);
  - `meta`: that row's index, the match count, the rows covered by matches, Flink's 'blocked' flag.
When the watermark passes rows they move from pending to buffer and the matcher (matcher.py, the same
core as batch) resumes; matches are emitted append-only. WITHIN bounds the state: a start row older
than the watermark minus WITHIN can no longer match and is dropped. The end of a bounded input is the
watermark jumping to the sentinel's time (year 9999, see runtime/connectors/filesystem.py): every
pending row is released and matched as the end of the partition.

Late rows (rowtime <= __wm, Flink's per-row rule) are dropped here, counted, and reported on stderr
as 'dynsql: MATCH_RECOGNIZE dropped N late row(s)' (and added to `late_rows` if an accumulator is given)."""

import datetime as _dt
import math
import sys

from pyspark.sql import Row
from pyspark.sql import functions as F
from pyspark.sql import types as st
from pyspark.sql.streaming import StatefulProcessor

from runtime.connect_shims import portable
from runtime.match_recognize.output_schema import spark_schema
from runtime.operators.keyed_state import PickledValueState



def _instant_micros(value):
    """Epoch microseconds of a TIMESTAMP value as PySpark hands it over: an aware datetime is its instant, a
    naive one is local time (PySpark converts with the worker's time zone)."""
    return math.floor(value.timestamp()) * 1000000 + value.microsecond

END_WATERMARK_MS = int((_dt.datetime(9000, 1, 1) - _dt.datetime(1970, 1, 1)).total_seconds() * 1000)
ALL_KEY = "__mr_all"


def match_stream(df, spec, input_columns, rowtime=None, late_rows=None, event_time_column=None):
    """Streaming MATCH_RECOGNIZE; df already has withWatermark(rowtime, delay) applied."""
    names = [n for n, _ in input_columns]
    cols = names + [c for c in ("__seq", "__wm") if c in df.columns]
    df = df.select(*cols)
    if "__seq" not in df.columns:
        df = df.withColumn("__seq", F.monotonically_increasing_id())
    keys = list(spec.partition_by)
    if not keys:
        df = df.withColumn(ALL_KEY, F.lit(0))
        keys = [ALL_KEY]
    schema = spark_schema(spec, input_columns)
    processor = MatchProcessor(spec, input_columns, schema, late_rows)
    kwargs = {}
    if event_time_column:
        kwargs["eventTimeColumnName"] = event_time_column
    by_time = spec.rowtime is not None and spec.order_by[0].column == spec.rowtime
    return df.groupBy(*keys).transformWithState(portable(processor), schema, "Append", "EventTime" if by_time else "None",
                                                **kwargs)


META_SCHEMA = st.StructType([
    st.StructField("start", st.LongType()), st.StructField("match_number", st.LongType()),
    st.StructField("covered", st.LongType()), st.StructField("blocked", st.BooleanType()),
    st.StructField("origin", st.LongType()),
])


class MatchProcessor(StatefulProcessor):
    def __init__(self, spec, input_columns, output_schema, late_rows=None):
        self.spec = spec
        self.input_columns = list(input_columns)
        self.output_schema = output_schema
        self.late_rows = late_rows

    def init(self, handle):
        from runtime.match_recognize.matcher import CompiledMatch
        self.handle = handle
        # a key's rows, one pickled list each (one state read and write per key and batch, instead of one
        # per row): (input column values..., __seq, rowtime in epoch microseconds)
        self.pending = PickledValueState(handle, "pending")
        self.buffer = PickledValueState(handle, "buffer")
        self.meta = handle.getValueState("meta", META_SCHEMA)
        self.names = [n for n, _ in self.input_columns]
        self.compiled = CompiledMatch(self.spec, self.names)
        self.out_names = [f.name for f in self.output_schema.fields]
        spec = self.spec
        self.by_time = spec.rowtime is not None and spec.order_by[0].column == spec.rowtime
        self.ti = self.names.index(spec.rowtime) if spec.rowtime else None
        from runtime.match_recognize.rows import sort_key_fn
        n = len(self.names)
        self.sort_key = sort_key_fn(self.names, spec, time_index=n + 1, seq_index=n)

    # -- Spark entry points
    def handleInputRows(self, key, rows, timerValues):
        n = len(self.names)
        ti = self.ti
        new = []
        late = 0
        for r in rows:                  # input columns, __seq, __wm (see match_stream's select)
            r = tuple(r)
            rt = r[ti] if ti is not None else None
            if rt is not None:
                wm = r[n + 1]
                if wm is not None and rt <= wm:
                    late += 1
                    continue
                new.append(r[:n + 1] + (_instant_micros(rt),))
            else:
                new.append(r[:n + 1] + (0,))
        if late:
            print("dynsql: MATCH_RECOGNIZE dropped %d late row(s) (rowtime at or below the watermark)" % late,
                  file=sys.stderr)
            if self.late_rows is not None:
                self.late_rows.add(late)
        return iter(self._process(key, new, timerValues.getCurrentWatermarkInMs()))

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        return iter(self._process(key, [], timerValues.getCurrentWatermarkInMs()))

    def close(self):
        pass

    # -- the work
    def _process(self, key, new_rows, watermark_ms):
        pending = self.pending.get() if self.pending.exists() else []
        pending.extend(new_rows)
        final = watermark_ms >= END_WATERMARK_MS
        wm_us = watermark_ms * 1000 if watermark_ms is not None and watermark_ms >= 0 else None
        tu = len(self.names) + 1          # where each kept row carries its rowtime in microseconds
        if self.by_time:
            if final:
                released, keep = pending, []
            elif wm_us is None:
                released, keep = [], pending
            else:
                released = [r for r in pending if r[tu] <= wm_us]
                keep = [r for r in pending if r[tu] > wm_us] if len(released) < len(pending) else []
        else:                              # processing time: rows are released as they arrive
            released, keep = pending, []
        released.sort(key=self.sort_key)
        for t in list(self.handle.listTimers()):
            self.handle.deleteTimer(t)
        timers = set()
        if keep:
            self.pending.put(list(keep))
            timers.add(max(min(r[tu] for r in keep) // 1000, 0))
        else:
            self.pending.clear()
        out = self._match(key, released, final, wm_us, timers)
        for t in sorted(timers):
            self.handle.registerTimer(t)
        return out

    def _match(self, key, released, final, wm_us, timers):
        """Feed released rows to the matcher; add the timers the undecided rows need; -> output Rows."""
        from runtime.match_recognize.matcher import PartitionRun
        if not released and not final and not self.buffer.exists():
            return []
        meta = self.meta.get() if self.meta.exists() else None
        start, match_number, covered, blocked, origin = (meta if meta is not None else (0, 0, 0, False, 0))
        if blocked:                        # Flink never emits this partition again: keep nothing
            self.buffer.clear()
            self.pending.clear()
            timers.clear()
            return []
        buffer = self.buffer.get() if self.buffer.exists() else []
        buffer.extend(released)
        n = len(buffer)
        data = [[r[i] for r in buffer] for i in range(len(self.names))]
        n_cols = len(self.names)
        ts = [r[n_cols + 1] for r in buffer] if self.by_time else [r[n_cols] for r in buffer]
        key_values = key if isinstance(key, tuple) else (key,)
        if not self.spec.partition_by:
            key_values = ()
        run = PartitionRun(self.compiled, key_values, start, match_number, covered, origin)
        out = run.advance(data, ts, n, final=final, watermark=wm_us)
        keep_from = max(0, min(run.start, n) - self.compiled.max_prev)
        rest = buffer[keep_from:]
        if rest and not run.blocked:
            self.buffer.put(list(rest))
        else:
            self.buffer.clear()
        if run.start < n and not run.blocked:
            timers.add(END_WATERMARK_MS)          # the end of input decides what is still open
            if self.compiled.within_us is not None:
                timers.add(-(-(ts[run.start] + self.compiled.within_us) // 1000))   # the start row expires
        self.meta.update((run.start - keep_from, run.match_number, max(0, run.covered - keep_from), run.blocked,
                          origin + keep_from))
        names = self.out_names
        return [Row(**dict(zip(names, values))) for values in out]
