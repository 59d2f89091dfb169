"""The base of keyed event-time operators: rows held until the watermark passes their time, then handed to
the operator in time order (Flink's event-time operators: windows, interval joins, OVER aggregates, temporal
joins, MATCH_RECOGNIZE, rowtime deduplication, temporal sort).

`EventTimeProcessor` is a `transformWithState` processor (TimeMode.EventTime) keyed as its operator needs.
Each input row must carry:
  __t    BIGINT   the row's event time in epoch microseconds (NULL: the row has none and is never released
                  by time; an operator decides what to do with it in `on_arrival`)
  __seq  BIGINT   its arrival order (ties in time keep arrival order)
  __late BOOLEAN  Flink's per-row lateness (rowtime <= the watermark before it arrived, see runtime/tables.py):
                  late rows are dropped and counted before the operator sees them
The operator's own columns travel in the row too; `values(row)` picks them (default: `value_columns`).

Per key the base keeps `pending`: [(time us, seq, values)] not yet passed by the watermark, in one pickled
state value (one read and one write per key and micro-batch). A timer at the earliest pending time wakes the
key when the watermark moves without new rows; the end of a bounded input (the watermark jumping to the
sentinel's year 9999) releases everything. Subclasses implement `on_time(key, rows, watermark_us, final)`
(rows the watermark passed, in (time, seq) order) and may implement `on_arrival(key, rows)` (rows as they
come, before the watermark passes them: e.g. an interval join's matches; `self.held` is then the key's rows held
so far, which it may read and update in place), `more_timers(key)` (other times the key must wake up at: e.g. a
state clean-up time), `finish(key)` (the end of the key's call: write back state of its own) and
`init_state(handle)` for state of their own. An operator without event time (`timers = False`, e.g. a
MATCH_RECOGNIZE ordered by processing time) gets every row in `on_arrival` and registers no timers."""

import datetime as _dt
import sys

from pyspark.sql import Row
from pyspark.sql.streaming import StatefulProcessor

from .keyed_state import PickledValueState

END_WATERMARK_MS = int((_dt.datetime(9000, 1, 1) - _dt.datetime(1970, 1, 1)).total_seconds() * 1000)


class EventTimeProcessor(StatefulProcessor):
    value_columns = ()          # the row's own columns (names), in the order `values` returns them
    output_names = ()           # the output Row's field names
    operator_name = "an event-time operator"   # for the late-row message
    timers = True               # event-time timers (TimeMode.EventTime); False: rows only pass through on_arrival
    watermark_delay_us = 0      # how far behind Spark's watermark this operator's own runs (see watermark_delay_ms)

    def init(self, handle):
        self.handle = handle
        self.pending = PickledValueState(handle, "pending", list)
        self.row = Row(*self.output_names)
        self.init_state(handle)

    # ------------------------------------------------------------------ to implement
    def init_state(self, handle):
        pass

    def on_arrival(self, key, rows):
        """Rows as they arrive (not late), before the watermark passes them -> output tuples."""
        return []

    def on_time(self, key, rows, watermark_us, final):
        """Rows the watermark passed, in time order -> output tuples. `final`: the end of the input."""
        raise NotImplementedError

    def more_timers(self, key):
        """Other times (epoch ms) the key must wake up at."""
        return ()

    def finish(self, key):
        """The end of the key's call (after on_arrival / on_time / more_timers): write back own state."""

    def values(self, row):
        return tuple(row[c] for c in self.value_columns)

    # ------------------------------------------------------------------ Spark entry points
    def handleInputRows(self, key, rows, timerValues):
        new, late = [], 0
        for r in rows:
            if r["__late"]:
                late += 1
                continue
            new.append((r["__t"], r["__seq"], self.values(r)))
        if late:
            print("dynsql: %s dropped %d late row(s) (rowtime at or below the watermark)"
                  % (self.operator_name, late), file=sys.stderr)
        new.sort(key=_order)
        self.held = self.pending.get()
        out = list(self.on_arrival(key, new)) if new else []
        out += self._advance(key, new, timerValues.getCurrentWatermarkInMs())
        self.finish(key)
        return iter([self.row(*v) for v in out])

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        self.held = self.pending.get()
        out = self._advance(key, [], timerValues.getCurrentWatermarkInMs())
        self.finish(key)
        return iter([self.row(*v) for v in out])

    def close(self):
        pass

    # ------------------------------------------------------------------ the work
    def _advance(self, key, new, watermark_ms):
        pending = self.held
        pending.extend(r for r in new if r[0] is not None)
        final, wm_us = operator_watermark(watermark_ms, self.watermark_delay_us)
        if final:
            released, keep = pending, []
        elif wm_us is None:
            released, keep = [], pending
        else:
            released = [r for r in pending if r[0] <= wm_us]
            keep = [r for r in pending if r[0] > wm_us]
        released.sort(key=_order)
        if keep:
            self.pending.put(keep)
        else:
            self.pending.clear()
        out = list(self.on_time(key, released, wm_us, final)) if released or final else []
        if not self.timers:
            return out
        for t in list(self.handle.listTimers()):
            self.handle.deleteTimer(t)
        timers = set(self.more_timers(key))
        if keep:
            timers.add(max(min(r[0] for r in keep) // 1000, 0))
        for t in sorted(timers):
            self.handle.registerTimer(t)
        return out


def operator_watermark(watermark_ms, delay_us=0):
    """Spark's watermark (epoch ms; None or negative before the first) -> (final, the operator's watermark in
    epoch microseconds or None): `final` at the end of a bounded input (the sentinel's year 9999), the
    operator's watermark `delay_us` behind Spark's (see watermark_delay_ms)."""
    final = watermark_ms is not None and watermark_ms >= END_WATERMARK_MS
    wm_us = watermark_ms * 1000 - delay_us if watermark_ms is not None and watermark_ms >= 0 else None
    return final, wm_us


def _order(r):
    return (r[0] if r[0] is not None else -1, r[1] if r[1] is not None else 0)


def event_time_columns(df, rowtime):
    """`df`'s rows with the base's input columns: __t (rowtime in epoch microseconds) and __late (Flink's
    per-row lateness from __wm); __seq is kept."""
    from pyspark.sql import functions as F
    rt = F.col("`%s`" % rowtime.replace("`", "``"))
    from ..lateness import late_column
    return df.withColumn("__t", F.unix_micros(rt)).withColumn("__late", late_column(rt))


def watermark_delay_ms(node):
    """How far behind the sources' watermark the rows reaching `node`'s output may be: Flink holds an interval
    join's output watermark back by its larger relative size (`output_delay_ms`), so an operator above one
    releases rows at Spark's watermark minus the delays below it."""
    return getattr(node, "output_delay_ms", 0) + max((watermark_delay_ms(c) for c in node.inputs), default=0)


def event_time_column(node, ctx, column):
    """`eventTimeColumnName` for an event-time operator's output: `column` when an operator above needs Spark's
    watermark on it and the output cannot be older than that watermark (no held-back watermark below), else
    None (Spark's watermark still reaches the operators above, without a column to check rows against)."""
    if column is None or not feeds_event_time(node, ctx) or any(watermark_delay_ms(c) for c in node.inputs):
        return None
    return column


def feeds_event_time(node, ctx):
    """Some operator above `node` works on event time (its output must then carry Spark's watermark on its
    rowtime column: `eventTimeColumnName`)."""
    return ctx.chosen(node).event_time_above


def output_rowtime(node):
    """The first rowtime field of `node`'s output, or None."""
    return next((f.name for f in node.fields if f.time == "rowtime"), None)
