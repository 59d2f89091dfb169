"""The base of keyed event-time operators on pandas batches (`transformWithStateInPandas`, TimeMode.EventTime):
event_time.py's `EventTimeProcessor` with rows held as columns instead of one Python tuple each.

Per key the base keeps `pending`, the rows not yet passed by the watermark, as `Columns` (a dict of numpy
arrays or pandas_values.Values, one entry per column, all of one length) pickled in one state value with the
key's timer: one read and one write per key and call, and a timer call only when the timer moves. Each input
row must carry:
  __t     BIGINT   its event time in epoch microseconds; NO_TIME (the smallest BIGINT) where the row has none:
                   such a row is never held, so never released by time
  __seq   BIGINT   its arrival order (ties in time keep arrival order)
  __late  BOOLEAN  (optional) Flink's per-row lateness: late rows are dropped and counted before the operator
                   sees them (see event_time.py)
The rows with a time at or below the watermark (Spark's, minus `watermark_delay_us`) are released in (time,
seq) order; a timer at the earliest pending time wakes the key when the watermark moves without new rows; the
end of a bounded input (watermark >= END_WATERMARK_MS) releases everything. Subclasses implement
`on_arrival(key, frame) -> (held, output)` (the call's rows, a pandas DataFrame in arrival order; `held`: the
Columns to hold, with __t, __seq and whatever else `on_time` needs) and `on_time(key, rows, watermark_us,
final) -> output` (the released rows, sorted), and may implement `init_state(handle)` and `finish(key)` (write
back state of their own). An output is a pandas DataFrame in the output schema's column order, or None. When the
translator sends the rows packed by key (packed_rows.py), `packed_in` is the session time zone and the call's
frames are unpacked first. Unlike
EventTimeProcessor there are no extra timers (`more_timers`) and no processing-time mode yet."""

import sys

import numpy as np
from pyspark.sql.streaming import StatefulProcessor

from .event_time import operator_watermark
from .keyed_state import PickledValueState
from .packed_rows import frames_of_call
from .pandas_values import Values

NO_TIME = np.iinfo(np.int64).min


def nothing_held():
    return (None, {})      # (the key's timer in epoch ms, the held Columns)


# ---------------------------------------------------------------------- Columns: a dict of equal-length arrays
def length(columns):
    return len(next(iter(columns.values()))) if columns else 0


def take(columns, index):
    """The rows at `index` (positions or a boolean mask)."""
    return {n: c.take(index) if isinstance(c, Values) else c[index] for n, c in columns.items()}


def concat(a, b):
    if not a or not length(a):
        return b
    if not b or not length(b):
        return a
    return {n: c.concat(b[n]) if isinstance(c, Values) else np.concatenate([c, b[n]]) for n, c in a.items()}


class ColumnarEventTimeProcessor(StatefulProcessor):
    operator_name = "an event-time operator"   # for the late-row message
    input_columns = ()          # the input DataFrame's column names, in order (Spark 4.3's pandas worker hands
                                # the frames over with positional names: it rebuilds them from namedtuples)
    watermark_delay_us = 0      # how far behind Spark's watermark this operator's own runs (see watermark_delay_ms)
    packed_in = None            # the session time zone when the rows come packed (packed_rows.py)

    def init(self, handle):
        self.handle = handle
        self.pending = PickledValueState(handle, "pending", nothing_held)
        self.init_state(handle)

    # ------------------------------------------------------------------ to implement
    def init_state(self, handle):
        pass

    def on_arrival(self, key, frame):
        """The call's rows (a pandas DataFrame, arrival order) -> (the Columns to hold, output DataFrame or None)."""
        raise NotImplementedError

    def on_time(self, key, rows, watermark_us, final):
        """The rows the watermark passed (Columns, in (time, seq) order) -> output DataFrame or None."""
        raise NotImplementedError

    def finish(self, key):
        """The end of the key's call: write back own state."""

    # ------------------------------------------------------------------ Spark entry points
    def handleInputRows(self, key, rows, timerValues):
        frame = _not_late(self.operator_name, frames_of_call(rows, self.packed_in), self.input_columns)
        held, arrived = self.on_arrival(key, frame) if frame is not None else (None, None)
        out = [arrived, self._advance(key, held, timerValues.getCurrentWatermarkInMs(), None)]
        self.finish(key)
        return iter([o for o in out if o is not None and len(o)])

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        out = self._advance(key, None, timerValues.getCurrentWatermarkInMs(), expiredTimerInfo.getExpiryTimeInMs())
        self.finish(key)
        return iter([out] if out is not None and len(out) else [])

    def close(self):
        pass

    # ------------------------------------------------------------------ the work
    def _advance(self, key, new, watermark_ms, expired_ms):
        """Hold `new`, release what the watermark passed, keep the key's one timer at its earliest held time.
        `expired_ms`: the timer this call is for (Spark deletes it after the call)."""
        if new is not None and length(new):
            timed = new["__t"] != NO_TIME
            new = take(new, timed) if not timed.all() else new
        timer, pending = self.pending.get()
        pending = concat(pending, new)
        final, wm_us = operator_watermark(watermark_ms, self.watermark_delay_us)
        n = length(pending)
        if final:
            released, keep = pending, {}
        elif wm_us is None or not n:
            released, keep = {}, pending
        else:
            passed = pending["__t"] <= wm_us
            released = take(pending, passed) if passed.any() else {}
            keep = take(pending, ~passed) if not passed.all() else {}
        if released and length(released):
            released = take(released, np.lexsort((released["__seq"], released["__t"])))
        else:
            released = {}
        keep = keep if keep and length(keep) else {}
        out = self.on_time(key, released, wm_us, final) if released or final else None
        timer = self._move_timer(timer, max(int(keep["__t"].min()) // 1000, 0) if keep else None, expired_ms)
        if keep or timer is not None:
            self.pending.put((timer, keep))
        else:
            self.pending.clear()
        return out

    def _move_timer(self, timer, wanted, expired_ms):
        """The key's one timer from `timer` (kept in `pending` beside the rows, so that no call lists the timers)
        to `wanted` -> the timer the key has after the call. A timer re-registered at the expiring time is
        deleted by Spark after the call, as it was when every call deleted and registered all timers."""
        if timer == wanted:
            return None if expired_ms is not None and timer == expired_ms else timer
        if timer is not None and timer != expired_ms:
            self.handle.deleteTimer(timer)
        if wanted is None or wanted == expired_ms:
            return None
        self.handle.registerTimer(wanted)
        return wanted


def _not_late(operator_name, frames, names):
    """The call's frames as one DataFrame named `names`, without its late rows (counted on stderr), or None if no
    row is left."""
    if not frames:
        return None
    import pandas as pd     # here: a worker that only unpickles the processor imports no pandas
    frame = frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
    if names:
        frame.columns = list(names)
    if "__late" in frame.columns:
        late = frame["__late"].to_numpy(dtype=bool)
        if late.any():
            print("dynsql: %s dropped %d late row(s) (rowtime at or below the watermark)"
                  % (operator_name, int(late.sum())), file=sys.stderr)
            frame = frame[~late]
    return frame if len(frame) else None
