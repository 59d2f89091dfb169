"""OverAggregate: each input row with its window functions' values over its frame.

Streaming, ordered by a rowtime: a keyed event-time processor (runtime/operators/event_time.py) per
PARTITION BY key holds rows until the watermark passes them, then runs them through the frame in (rowtime,
arrival) order and emits each once (insert-only; rows behind the watermark are dropped by the base, as
Flink drops them). Ordered by a proctime: rows run through the frame as they arrive. The frame (`OverFrame`):
  ROWS  n PRECEDING | UNBOUNDED PRECEDING: row by row, the oldest row leaving a bounded frame retracted;
  RANGE INTERVAL .. PRECEDING | UNBOUNDED PRECEDING: rows of one time together (each sees all rows of its
        time), rows older than time - interval retracted.
Aggregates are runtime/operators/accumulators.py's (integer arithmetic for the variance family of an
integral argument, as Flink's OVER rewrites them); ROW_NUMBER, RANK, DENSE_RANK and LAG are kept here.
Batch: Spark's window functions (RANGE over a timestamp with an interval as a range over epoch
microseconds); MAX / MIN of a FLOAT/DOUBLE fold each frame in its order as Flink's batch OVER does (MaxAggFunction:
a NaN first in the frame stays, a later one is skipped, a zero has the first zero's sign), where a streaming
bounded frame takes them by Double.compareTo (a NaN in the frame is its MAX, -0.0 below 0.0). It does not run Flink 2.3's updating OVER over a non-time order (the planner refuses it)."""

import functools
from decimal import Decimal

from pyspark.sql import Window
from pyspark.sql import functions as F
from pyspark.sql import types as st
from pyspark.sql.streaming import StatefulProcessor

from planner.plan.fields import ROWTIME
from planner.plan.over import OverAggregate

from ..translate import Stream, conform, translates
from .accumulators import accumulators
from .event_time import EventTimeProcessor, event_time_columns
from .group_aggregate import aggregate_expression, floating_extreme, result_type
from .keyed_state import PickledValueState, run_keyed
from .sorted_partitions import PARTITION, floating, sorted_partitions

SEQUENCE = ("ROW_NUMBER", "RANK", "DENSE_RANK", "LAG", "LEAD")


def q(name):
    return "`%s`" % name.replace("`", "``")


class OverFrame:
    """One partition's rows, in order, through the frame -> output tuples (the row's values, the calls'
    values). Pure Python: the streaming processors keep its state (`empty()`) per key."""

    def __init__(self, columns, calls, kind, lower, accumulators):
        self.columns = list(columns)
        self.calls = list(calls)
        self.kind = kind                     # "ROWS" or "RANGE"
        self.lower = lower                   # rows, or microseconds for RANGE; None: UNBOUNDED
        self.accumulators = accumulators     # for the calls that are not in SEQUENCE, in order
        self.slots = []                      # per call: ("agg", accumulator index) or ("seq", lag index)
        a = lag = 0
        for c in self.calls:
            if c.function in SEQUENCE:
                self.slots.append(("seq", lag if c.function == "LAG" else None))
                lag += c.function == "LAG"
            else:
                self.slots.append(("agg", a))
                a += 1
        self.lag_count = lag

    def empty(self):
        return {"accs": [x.empty() for x in self.accumulators], "kept": [], "rows": 0, "times": 0,
                "lag": [[] for _ in range(self.lag_count)]}

    def run(self, state, rows):
        """`rows`: [(time us or None, seq, values)] in order -> [values + call values + (0, seq)]."""
        out = []
        if self.kind == "ROWS":
            for r in rows:
                self._add(state, r)
                if self.lower is not None:
                    while len(state["kept"]) > self.lower + 1:
                        self._retract(state, state["kept"].pop(0))
                out.append(self._emit(state, r, self._values(state)))
            return out
        i = 0
        while i < len(rows):       # RANGE: the rows of one time are added first, then all see the same values
            j = i
            while j < len(rows) and rows[j][0] == rows[i][0]:
                j += 1
            group = rows[i:j]
            for r in group:
                self._add(state, r)
            if self.lower is not None and group[0][0] is not None:
                while state["kept"] and state["kept"][0][0] is not None and \
                        state["kept"][0][0] < group[0][0] - self.lower:
                    self._retract(state, state["kept"].pop(0))
            values = self._values(state)
            out += [self._emit(state, r, values) for r in group]
            i = j
        return out

    # ------------------------------------------------------------------ the frame
    def _row(self, values):
        return dict(zip(self.columns, values))

    def _add(self, state, r):
        row = self._row(r[2])
        state["rows"] += 1
        for k, acc in enumerate(self.accumulators):
            state["accs"][k] = acc.add(state["accs"][k], row, 1)
        for c, (kind, k) in zip(self.calls, self.slots):
            if c.function == "LAG":
                history = state["lag"][k]
                history.append(row[c.args[0]])
                del history[:max(len(history) - _offset(c) - 1, 0)]
        if self.lower is not None:
            state["kept"].append((r[0], r[2]))

    def _retract(self, state, kept):
        row = self._row(kept[1])
        for k, acc in enumerate(self.accumulators):
            state["accs"][k] = acc.add(state["accs"][k], row, -1)

    def _values(self, state):
        """The calls' values after the rows added so far. Flink's ranking functions in an OVER aggregate count
        the rows so far (ties included, a RANGE frame adding a time's rows together); LAG looks back from the
        last row added."""
        values = []
        for c, (kind, k) in zip(self.calls, self.slots):
            if kind == "agg":
                values.append(self.accumulators[k].result(state["accs"][k]))
            elif c.function in ("ROW_NUMBER", "RANK", "DENSE_RANK"):
                values.append(state["rows"])
            else:
                history, offset = state["lag"][k], _offset(c)
                default = c.options[1] if len(c.options) > 1 else None
                values.append(history[-1 - offset] if offset < len(history) else default)
        return values

    @staticmethod
    def _emit(state, r, values):
        return tuple(r[2]) + tuple(values) + (0, r[1])


def _offset(call):
    return call.options[0] if call.options else 1


class RowtimeOverProcessor(EventTimeProcessor):
    """Rows released by the watermark, in rowtime order, through the key's frame."""
    operator_name = "OverAggregate"

    def __init__(self, frame):
        self.frame = frame
        self.value_columns = tuple(frame.columns)

    def init_state(self, handle):
        self.state = PickledValueState(handle, "over", self.frame.empty)

    def on_time(self, key, rows, watermark_us, final):
        if not rows:
            return []
        state = self.state.get()
        out = self.frame.run(state, rows)
        self.state.put(state)
        return out


class ProctimeOverProcessor(StatefulProcessor):
    """Rows through the key's frame as they arrive (`__t`: their proctime in microseconds)."""

    def __init__(self, frame):
        self.frame = frame
        self.output_names = ()

    def init(self, handle):
        from pyspark.sql import Row
        self.row = Row(*self.output_names)
        self.state = PickledValueState(handle, "over", self.frame.empty)

    def handleInputRows(self, key, rows, timerValues):
        rows = sorted(((r["__t"], r["__seq"], tuple(r[c] for c in self.frame.columns)) for r in rows),
                      key=lambda r: r[1])
        state = self.state.get()
        out = self.frame.run(state, rows)
        self.state.put(state)
        return iter([self.row(*v) for v in out])

    def close(self):
        pass


# ---------------------------------------------------------------------- the translator
def _call_type(c, schema):
    if c.function in ("ROW_NUMBER", "RANK", "DENSE_RANK"):
        return st.LongType()
    if c.function in ("LAG", "LEAD"):
        return schema[c.args[0]].dataType
    return result_type(c, schema)


@translates(OverAggregate)
def translate_over_aggregate(node, inputs, ctx):
    s = inputs[0]
    if not ctx.streaming:
        return Stream(conform(_batch(node, s.df), node.fields))
    names = node.input.field_names
    schema = {f.name: f for f in s.df.schema.fields}
    fields = [st.StructField(n, schema[n].dataType, True) for n in names] + \
        [st.StructField(c.name, _call_type(c, schema), True) for c in node.calls]
    frame = node.frame
    lower = frame.lower if frame.kind == "ROWS" or frame.lower is None else frame.lower * 1000
    aggregates = [c for c in node.calls if c.function not in SEQUENCE]
    # a bounded frame retracts the rows leaving it: Flink's Max/MinWithRetractAggFunction there (a FLOAT/DOUBLE by
    # Double.compareTo: a NaN in the frame is its MAX, -0.0 below 0.0); an unbounded one folds in arrival order
    over = OverFrame(names, node.calls, frame.kind, lower,
                     accumulators(aggregates, node.input.fields, integer_moments=True,
                                  retracting=frame.lower is not None))
    order = node.order[0][0]
    if node.time == ROWTIME:
        df = event_time_columns(s.df, order)
        out = run_keyed(df, node.partition, RowtimeOverProcessor(over), fields, ctx, time_mode="EventTime")
    else:
        df = s.df.withColumn("__t", F.unix_micros(F.col(q(order))))
        out = run_keyed(df, node.partition, ProctimeOverProcessor(over), fields, ctx)
    out = out.select(*[F.col(q(f.name)) for f in fields], "__seq", "__wm")
    return Stream(conform(out, node.fields))


def _nan_apart(df, node, base, keys):
    """The window RANK / DENSE_RANK number peers over: Flink's RankAggFunction / DenseRankAggFunction compare a row's
    ORDER BY keys with the last row's by `==` (its equalTo expressions), for which a NaN equals nothing, so each
    row with a NaN key starts a new rank (in arrival order; -0.0 and 0.0 stay peers). Spark takes NaNs as peers:
    a last key, the row's arrival for a row with a NaN key (NULL, one value, for the others), sets them apart."""
    floats = [c for c, _ in node.order if isinstance(df.schema[c].dataType, (st.DoubleType, st.FloatType))]
    if not keys:
        return base
    if not floats:
        return base.orderBy(*keys)
    any_nan = functools.reduce(lambda a, b: a | b, [F.isnan(F.col(q(c))) for c in floats])
    return base.orderBy(*keys, F.when(any_nan, F.col("__seq")).asc_nulls_first())


def _fractional_range(df, node):
    """A RANGE frame with a fractional offset (`0.5 PRECEDING`) as Spark's rangeBetween, which takes whole
    numbers: (the ORDER BY key, the lower and upper offsets). Flink (RangeBoundComparatorCodeGenerator) keeps a
    row whose `input - current` is within the offsets: for an integer column the offsets' whole parts; for a
    DECIMAL the column's and offsets' values scaled by 10^scale to whole numbers (exact); for a FLOAT / DOUBLE the
    same scaling, exact but where scaling rounds the last binary digit."""
    column, _ = node.order[0]
    t = df.schema[column].dataType
    frame = node.frame
    bounds = [b for b in (frame.lower, frame.upper) if b is not None]
    if isinstance(t, st.IntegralType):
        key, factor = F.col(q(column)), 1
        whole = lambda b: int(b // 1)                       # noqa: E731  (input - current >= -0.5: >= 0)
    else:
        digits = max([-Decimal(b).as_tuple().exponent for b in bounds] + [0] +
                     ([t.scale] if isinstance(t, st.DecimalType) else []))
        factor = 10 ** digits
        if isinstance(t, st.DecimalType):        # (at most 18 digits: planner/rules/over_aggregate.py)
            key = (F.col(q(column)) * F.lit(factor)).cast("bigint")
        else:
            key = F.col(q(column)).cast("double") * F.lit(float(factor))
        whole = lambda b: int(b * factor)                   # noqa: E731
    lower = Window.unboundedPreceding if frame.lower is None else -whole(frame.lower)
    upper = Window.unboundedFollowing if frame.upper is None else whole(frame.upper)
    return key, lower, upper


def _batch(node, df):
    """Spark's window functions, Flink's frames: ranking functions over the ordered partition."""
    first = []
    if node.partition and floating(df, node.partition):     # Flink's runs of sorted rows: their order first
        df, first = sorted_partitions(df, node.partition)
        partition = [F.col(PARTITION)]
    else:
        partition = [F.col(q(p)) for p in node.partition]
    base = Window.partitionBy(*partition) if partition else Window.partitionBy()
    frame = node.frame
    interval = frame.kind == "RANGE" and frame.interval
    order = [F.unix_micros(F.col(q(c))) if interval else F.col(q(c)) for c, _ in node.order]
    keys = [(o.asc_nulls_first() if asc else o.desc_nulls_last()) for o, (_, asc) in zip(order, node.order)]
    ordered = base.orderBy(*keys) if order else base
    by_arrival = base.orderBy(*first, *keys, F.col("__seq")) if order else base   # ties in arrival order, as Flink
    scale = 1000 if interval else 1
    lower = Window.unboundedPreceding if frame.lower is None else -frame.lower * scale
    upper = Window.unboundedFollowing if frame.upper is None else frame.upper * scale
    if frame.kind == "RANGE" and any(isinstance(b, Decimal) for b in (frame.lower, frame.upper)):
        key, lower, upper = _fractional_range(df, node)
        ordered = base.orderBy(key.asc_nulls_first() if node.order[0][1] else key.desc_nulls_last())
    if not order:
        window = base
    elif not frame.explicit:
        window = ordered
    elif frame.kind == "ROWS":
        window = by_arrival.rowsBetween(lower, upper)
    else:
        window = ordered.rangeBetween(lower, upper)
    from planner.python_functions.aggregate_calls import python_function
    from ..python_functions.aggregates import collected, collected_name, finished
    # each row's place in its frames' order (ties in arrival order): MAX / MIN of a FLOAT/DOUBLE fold a frame so
    position = F.row_number().over(by_arrival) if order else F.col("__seq")
    cols, python = [], []
    for c in node.calls:
        if python_function(c) is not None:      # a Python aggregate: the frame's rows collected, then its value
            cols.append(collected(c).over(window).alias(collected_name(c)))
            python.append(c)
            continue
        if c.function in ("ROW_NUMBER", "RANK", "DENSE_RANK"):
            fn = {"ROW_NUMBER": F.row_number, "RANK": F.rank, "DENSE_RANK": F.dense_rank}[c.function]
            e = fn().over(by_arrival if c.function == "ROW_NUMBER" else _nan_apart(df, node, base, keys))
        elif c.function in ("NTILE", "CUME_DIST", "PERCENT_RANK"):      # batch only, as in Flink
            e = (F.ntile(int(c.options[0])) if c.function == "NTILE" else
                 F.cume_dist() if c.function == "CUME_DIST" else F.percent_rank()).over(ordered)
        elif c.function in ("LAG", "LEAD"):
            fn = F.lag if c.function == "LAG" else F.lead
            offset = c.options[0] if c.options else 1
            default = c.options[1] if len(c.options) > 1 else None
            e = fn(F.col(q(c.args[0])), offset, default).over(by_arrival)
        elif floating_extreme(c, position, window) is not None:    # Flink's MaxAggFunction over each frame
            e = floating_extreme(c, position, window)
        else:
            e = aggregate_expression(c).over(window)
        cols.append(e.alias(c.name))
    out = df.select(*[F.col(q(n)) for n in node.input.field_names], *cols, "__seq", "__wm")
    if python:
        done = {collected_name(c): finished(c, python_function(c), F.col(q(collected_name(c)))).alias(c.name)
                for c in python}
        out = out.select(*[done.get(n, F.col(q(n))) for n in out.columns])
    return out
