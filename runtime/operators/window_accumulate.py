"""A TUMBLE, HOP or CUMULATE aggregate on micro-batches with each (window, key)'s accumulators folded as rows
arrive: O(1) state a (window, key) for STDDEV_POP, STDDEV_SAMP, VAR_POP and VAR_SAMP, which Spark's streaming
aggregate can only compute here from a collect_list of the window's values (Flink's WELFORD_M2 folds them in
arrival order, and no Spark aggregate folds in an order: spread_aggregates.py).

A keyed event-time operator (event_time.py), keyed by the GROUP BY columns. Its input is the (row, window) pairs
(window.py's `window_pairs`, the late pairs already dropped there, per row by `__wm`, as Flink's WindowOperator
drops a row whose window has fired). Per key the state holds {(start ms, end ms): [the key's values, the
accumulators]} (accumulators.py, the group aggregate's own); the rows are folded in arrival order (`__seq`) and
never kept. A window puts one marker in the base's pending list, at its end - 1 ms: when the watermark passes
it, the window's row is emitted and its accumulators dropped, as Flink's WindowOperator fires a window at
end - 1 ms (the end of the input fires them all)."""

from pyspark.sql import functions as F
from pyspark.sql import types as st

from ..connect_shims import portable
from .accumulators import FUNCTIONS, accumulators
from .event_time import EventTimeProcessor
from .group_aggregate import output_schema, python_function
from .keyed_state import PickledValueState, python_grouped
from .spread_aggregates import MOMENTS


def folds_on_arrival(node, lateness_ms):
    """Whether a streaming window aggregate runs here: one of its calls is of the variance family (the others then
    fold here too), each call has an accumulator, and the window fires once (no allowed lateness, no early or
    late firing: those update a window's row)."""
    calls = node.calls
    return lateness_ms == 0 and not getattr(node, "updating", False) \
        and any(c.function in MOMENTS for c in calls) \
        and all(c.function in FUNCTIONS or python_function(c) is not None for c in calls)


class WindowAccumulateProcessor(EventTimeProcessor):
    operator_name = "a window aggregate"

    def __init__(self, keys, accumulators):
        self.keys = tuple(keys)
        self.accumulators = accumulators

    def init_state(self, handle):
        self.windows = PickledValueState(handle, "windows", dict)

    def values(self, row):
        return row

    def on_arrival(self, key, rows):
        windows = self.windows.get()
        for _, seq, r in rows:          # in arrival order (the base sorts them by (time NULL, seq))
            bounds = (r["__start_ms"], r["__end_ms"])
            entry = windows.get(bounds)
            if entry is None:
                entry = windows[bounds] = [tuple(r[k] for k in self.keys), [a.empty() for a in self.accumulators]]
                self.held.append(((bounds[1] - 1) * 1000, seq, bounds))   # fires when the watermark passes it
            accs = entry[1]
            for i, a in enumerate(self.accumulators):
                accs[i] = a.add(accs[i], r, 1)
        self.windows.put(windows)
        return []

    def on_time(self, key, markers, watermark_us, final):
        windows = self.windows.get()
        out = []
        for _, _, bounds in markers:        # in order of their ends
            values, accs = windows.pop(bounds)
            results = tuple(a.result(acc) for a, acc in zip(self.accumulators, accs))
            out.append(values + results + bounds)
        if windows:
            self.windows.put(windows)
        else:
            self.windows.clear()
        return out


def accumulated_windows(node, pairs):
    """The window aggregate over `pairs` (the input's (row, window) pairs, `__start_ms` / `__end_ms`, `__seq`,
    late pairs dropped) -> the keys, the finished calls, then `__start_ms` and `__end_ms`. No eventTimeColumnName:
    the rows come out as the watermark passes their windows, and an operator above finds Spark's watermark on
    the window_time its aggregate's translator marks (window.py's `_finish`)."""
    df = pairs.withColumn("__t", F.lit(None).cast("long")).withColumn("__late", F.lit(False))
    processor = WindowAccumulateProcessor(node.keys, accumulators(node.calls, node.input.fields))
    fields = output_schema(df.schema, node.keys, node.calls) + [st.StructField("__start_ms", st.LongType(), True),
                                    st.StructField("__end_ms", st.LongType(), True)]
    processor.output_names = tuple(f.name for f in fields)
    grouped = python_grouped(df, node.keys) if node.keys else df.withColumn("__all", F.lit(0)).groupBy("__all")
    return grouped.transformWithState(portable(processor), st.StructType(fields), "Append", "EventTime")
