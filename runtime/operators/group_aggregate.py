"""GroupAggregate over a changelog: COUNT, COUNT(*), COUNT(DISTINCT), SUM, AVG, MIN, MAX that apply
retractions (MIN/MAX keep a multiset of values, so retracting the current extreme is right), emitting
+I for a new group, -U/+U when its row changes and -D when it empties.

Over insert-only input the runtime prefers Spark's native streaming aggregate (see `native_aggregate`)."""

from collections import Counter
from decimal import Decimal

from pyspark.sql import functions as F
from pyspark.sql import types as st

from .keyed_state import KeyedChangelogProcessor, add, update_pair, weight


class AggregateState:
    __slots__ = ("rows", "accs")

    def __init__(self, n):
        self.rows = 0                  # signed count of rows in the group
        self.accs = [None] * n


class GroupAggregateProcessor(KeyedChangelogProcessor):
    def __init__(self, keys, aggregates, ttl_ms=0):
        self.keys = keys
        self.aggregates = [(a.function, a.argument, a.distinct) for a in aggregates]
        self.ttl_ms = ttl_ms

    def empty(self):
        st_ = AggregateState(len(self.aggregates))
        for i, (f, _, distinct) in enumerate(self.aggregates):
            st_.accs[i] = Counter() if (distinct or f in ("MIN", "MAX")) else [0, None]  # [count, sum]
        return st_

    def is_empty(self, state):
        return state.rows == 0

    def apply(self, state, rows):
        for r in rows:
            w = weight(r["__op"])
            state.rows += w
            for i, (f, arg, distinct) in enumerate(self.aggregates):
                acc = state.accs[i]
                v = r[arg] if arg is not None else 1
                if v is None:
                    continue
                if isinstance(acc, Counter):
                    add(acc, v, w)
                else:
                    acc[0] += w
                    acc[1] = v * w if acc[1] is None else acc[1] + v * w
        return state

    def result(self, state):
        if state.rows <= 0:
            return None
        out = []
        for (f, arg, distinct), acc in zip(self.aggregates, state.accs):
            if f in ("COUNT", "COUNT_STAR"):
                out.append(len([v for v, c in acc.items() if c > 0]) if distinct else acc[0])
            elif f in ("MIN", "MAX"):
                live = [v for v, c in acc.items() if c > 0]
                out.append((min(live) if f == "MIN" else max(live)) if live else None)
            elif distinct:
                live = [v for v, c in acc.items() if c > 0]
                s = sum(live) if live else None
                out.append(s if f == "SUM" else (_avg(s, len(live)) if live else None))
            elif f == "SUM":
                out.append(acc[1] if acc[0] > 0 else None)
            elif f == "AVG":
                out.append(_avg(acc[1], acc[0]) if acc[0] > 0 else None)
        return tuple(out)

    def handleInputRows(self, key, rows, timerValues):
        # a global aggregate is keyed by a constant the output does not show
        self._key = (tuple(key) if isinstance(key, tuple) else (key,)) if self.keys else ()
        return super().handleInputRows(key, rows, timerValues)

    def emit(self, old, new):
        k = self._key
        return update_pair(k + old if old is not None else None, k + new if new is not None else None)


def _avg(total, n):
    if isinstance(total, Decimal):
        return total / n
    return total / n


def output_schema(input_schema, keys, aggregates):
    """Spark output type of each aggregate, as Spark's own aggregate would type it."""
    fields = [st.StructField(k, input_schema[k].dataType, True) for k in keys]
    for a in aggregates:
        if a.function in ("COUNT", "COUNT_STAR"):
            t = st.LongType()
        else:
            t = input_schema[a.argument].dataType
            if a.function == "SUM":
                t = _sum_type(t)
            elif a.function == "AVG":
                t = st.DecimalType(38, max(t.scale, 6)) if isinstance(t, st.DecimalType) else st.DoubleType()
        fields.append(st.StructField(a.name, t, True))
    return fields


def _sum_type(t):
    if isinstance(t, (st.ByteType, st.ShortType, st.IntegerType, st.LongType)):
        return st.LongType()
    if isinstance(t, st.DecimalType):
        return st.DecimalType(min(38, t.precision + 10), t.scale)
    return st.DoubleType()


def native_aggregate(df, keys, aggregates):
    """Spark's own streaming aggregate for insert-only input (update output mode)."""
    exprs = []
    for a in aggregates:
        col = F.col("`%s`" % a.argument) if a.argument else None
        if a.function == "COUNT_STAR":
            e = F.count(F.lit(1))
        elif a.function == "COUNT":
            e = F.count_distinct(col) if a.distinct else F.count(col)
        elif a.function == "SUM":
            e = F.sum_distinct(col) if a.distinct else F.sum(col)
        elif a.function == "AVG":
            e = F.avg(col)
        elif a.function == "MIN":
            e = F.min(col)
        else:
            e = F.max(col)
        exprs.append(e.alias(a.name))
    if not exprs:
        exprs = [F.count(F.lit(1)).alias("__count")]
    grouped = df.groupBy(*[F.col("`%s`" % k) for k in keys]) if keys else df.groupBy()
    return grouped.agg(*exprs)
