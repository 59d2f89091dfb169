"""SESSION windows assigned as Flink assigns them: a keyed event-time operator (keyed by the PARTITION BY
columns) that merges each row's window [ts, ts + gap) with the sessions it touches (Flink's TimeWindow
merging: windows that intersect, ends included), and emits a session's rows, each with window_start,
window_end and window_time, once the watermark passes its end. A row is late, and dropped, when the session it
would end up in had fired when it arrived (end - 1 ms <= the row's watermark `__wm`): a late row that merges
into a session still open is kept, as Flink keeps it. In batch mode: sessions from a running maximum of the
rowtime per partition (a new session where a row starts after the previous rows' end)."""

import datetime
import sys

from pyspark.sql import Window
from pyspark.sql import functions as F
from pyspark.sql import types as st

from ..translate import Stream, q
from .event_time import EventTimeProcessor, operator_watermark
from .keyed_state import PickledValueState, python_grouped
from .window import local_bound, shifted
from ..connect_shims import portable

_MS = datetime.timedelta(milliseconds=1)


class SessionWindowProcessor(EventTimeProcessor):
    operator_name = "a SESSION window"

    def __init__(self, columns, time_column, gap_ms):
        self.value_columns = tuple(columns)
        self.time_index = columns.index(time_column)
        self.gap_us = gap_ms * 1000
        self.gap = datetime.timedelta(milliseconds=gap_ms)

    def init_state(self, handle):
        self.sessions = PickledValueState(handle, "sessions", list)   # [[start us, end us, [(seq, values)]]]

    def handleInputRows(self, key, rows, timerValues):
        sessions = self.sessions.get()
        late = 0
        for r in sorted(rows, key=lambda r: r["__seq"] if r["__seq"] is not None else 0):
            t = r["__t"]
            if t is None:
                continue
            start, end, members = t, t + self.gap_us, [(r["__seq"], self.values(r))]
            keep = []
            for s in sessions:
                if s[0] <= end and s[1] >= start:        # intersecting windows merge
                    start, end, members = min(start, s[0]), max(end, s[1]), s[2] + members
                else:
                    keep.append(s)
            wm = r["__wm_us"]
            if wm is not None and end - 1000 <= wm:
                late += 1                                # its session had fired: dropped
                continue
            sessions = keep + [[start, end, members]]
        if late:
            print("dynsql: %s dropped %d late row(s)" % (self.operator_name, late), file=sys.stderr)
        return iter(self._fire(sessions, timerValues.getCurrentWatermarkInMs()))

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        return iter(self._fire(self.sessions.get(), timerValues.getCurrentWatermarkInMs()))

    def _fire(self, sessions, watermark_ms):
        final, wm_us = operator_watermark(watermark_ms)
        closed = [s for s in sessions if final or (wm_us is not None and s[1] - 1000 <= wm_us)]
        open_ = [s for s in sessions if s not in closed]
        rows = []
        for _, _, members in sorted(closed, key=lambda s: s[0]):
            times = [values[self.time_index] for _, values in members]
            start, end = min(times), max(times) + self.gap
            for seq, values in sorted(members, key=lambda m: m[0] if m[0] is not None else 0):
                rows.append(self.row(*values, start, end, end - _MS, seq))
        if open_:
            self.sessions.put(open_)
        else:
            self.sessions.clear()
        for t in list(self.handle.listTimers()):
            self.handle.deleteTimer(t)
        if open_:
            self.handle.registerTimer(max(min(s[1] for s in open_) // 1000 - 1, 0))
        return rows


def session_windows(node, stream, ctx):
    """The SESSION window function's Stream: the input's fields, then window_start, window_end, window_time."""
    spec = node.spec
    names = node.field_names[-3:]
    columns = list(node.input.field_names)
    ts = F.col(q(spec.time_column))
    if not ctx.streaming:
        part = [F.col(q(p)) for p in spec.partition_by]
        by_time = (Window.partitionBy(*part) if part else Window.partitionBy()).orderBy(ts, F.col("__seq"))
        before = by_time.rowsBetween(Window.unboundedPreceding, -1)
        gap = F.expr("INTERVAL %d MILLISECONDS" % spec.gap_ms)
        df = stream.df.withColumn("__new", F.coalesce(ts > F.max(ts).over(before) + gap, F.lit(True)))
        df = df.withColumn("__session", F.sum(F.col("__new").cast("int")).over(
            by_time.rowsBetween(Window.unboundedPreceding, 0)))
        session = Window.partitionBy(*part, F.col("__session"))
        df = df.withColumn(names[0], F.min(ts).over(session)).withColumn(names[1], F.max(ts).over(session) + gap)
        return Stream(df.select(*[F.col(q(c)) for c in columns], *_local_bounds(names, spec),
                                (F.col(names[1]) - F.expr("INTERVAL 1 MILLISECOND")).alias(names[2]),
                                "__seq", "__wm"))
    df = stream.df.withColumn("__t", F.unix_micros(ts)).withColumn("__wm_us", F.unix_micros(F.col("__wm")))
    types = {f.name: f.dataType for f in df.schema.fields}
    processor = SessionWindowProcessor(columns, spec.time_column, spec.gap_ms)
    fields = [st.StructField(c, types[c], True) for c in columns] + \
        [st.StructField(n, types[spec.time_column], True) for n in names] + \
        [st.StructField("__seq", st.LongType(), True)]
    processor.output_names = tuple(f.name for f in fields)
    grouped = python_grouped(df, spec.partition_by) if spec.partition_by else \
        df.withColumn("__all", F.lit(0)).groupBy("__all")
    out = grouped.transformWithState(portable(processor), st.StructType(fields), "Append", "EventTime",
                                     eventTimeColumnName=names[2])
    if shifted(spec):
        out = out.select(*[F.col(q(c)) for c in columns], *_local_bounds(names, spec), F.col(q(names[2])), "__seq")
    return Stream(out.withColumn("__wm", F.lit(None).cast("timestamp")))


def _local_bounds(names, spec):
    """window_start and window_end (instants in the rows) as TIMESTAMPs: wall-clock times in the windows' zone."""
    return [local_bound(F.unix_millis(F.col(q(n))), spec).alias(n) for n in names[:2]]
