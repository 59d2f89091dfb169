"""GroupAggregate. Over insert-only input with nothing but projections above it, Spark's native streaming
aggregate (update mode: the sink derives -U/+U); in batch mode Spark's aggregate. Otherwise dynsql's keyed
processor over a changelog: COUNT, COUNT(*), COUNT(DISTINCT), SUM, AVG, MIN, MAX (each with DISTINCT and
FILTER (WHERE ...)) that apply retractions (MIN/MAX keep a multiset of values, so retracting the current
extreme is right), emitting +I for a new group, -U/+U when its row changes and -D when it empties."""

from collections import Counter
from decimal import Decimal

from pyspark.sql import functions as F
from pyspark.sql import types as st

from planner.errors import UnsupportedError
from planner.plan.aggregate import GroupAggregate

from ..translate import Stream, conform, translates
from .keyed_state import KeyedChangelogProcessor, add, update_pair, weight


class AggregateState:
    __slots__ = ("rows", "accs")

    def __init__(self, n):
        self.rows = 0                  # signed count of rows in the group
        self.accs = [None] * n


PROCESSOR_FUNCTIONS = ("COUNT", "SUM", "AVG", "MIN", "MAX")


class GroupAggregateProcessor(KeyedChangelogProcessor):
    """`calls`: planner AggCalls (function, args, distinct, filter) over the input rows' fields."""

    def __init__(self, keys, calls, ttl_ms=0):
        self.keys = keys
        self.aggregates = [(("COUNT_STAR" if c.function == "COUNT" and not c.args else c.function),
                            c.args[0] if c.args else None, c.distinct, c.filter) for c in calls]
        self.ttl_ms = ttl_ms

    def empty(self):
        st_ = AggregateState(len(self.aggregates))
        for i, (f, _, distinct, _) in enumerate(self.aggregates):
            st_.accs[i] = Counter() if (distinct or f in ("MIN", "MAX")) else [0, None]  # [count, sum]
        return st_

    def is_empty(self, state):
        return state.rows == 0

    def apply(self, state, rows):
        for r in rows:
            w = weight(r["__op"])
            state.rows += w
            for i, (f, arg, distinct, flt) in enumerate(self.aggregates):
                if flt is not None and r[flt] is not True:
                    continue
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
        for (f, arg, distinct, _), acc in zip(self.aggregates, state.accs):
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


def output_schema(input_schema, keys, calls):
    """Spark output type of each aggregate, as Spark's own aggregate would type it (the translator then casts
    to the Flink type)."""
    fields = [st.StructField(k, input_schema[k].dataType, True) for k in keys]
    for c in calls:
        if c.function == "COUNT":
            t = st.LongType()
        else:
            t = input_schema[c.args[0]].dataType
            if c.function == "SUM":
                t = _sum_type(t)
            elif c.function == "AVG":
                t = st.DecimalType(38, max(t.scale, 6)) if isinstance(t, st.DecimalType) else st.DoubleType()
        fields.append(st.StructField(c.name, t, True))
    return fields


def _sum_type(t):
    if isinstance(t, (st.ByteType, st.ShortType, st.IntegerType, st.LongType)):
        return st.LongType()
    if isinstance(t, st.DecimalType):
        return st.DecimalType(min(38, t.precision + 10), t.scale)
    return st.DoubleType()


def aggregate_column(c):
    """A planner AggCall as a Spark aggregate expression (FILTER as a CASE inside it)."""
    flt = F.col(q(c.filter)) if c.filter else None

    def arg(i=0):
        col = F.col(q(c.args[i]))
        return F.when(flt, col) if flt is not None else col
    f = c.function
    if f == "COUNT" and not c.args:
        e = F.count(F.when(flt, F.lit(1))) if flt is not None else F.count(F.lit(1))
    elif f == "COUNT":
        e = F.count_distinct(arg()) if c.distinct else F.count(arg())
    elif f == "SUM":
        e = F.sum_distinct(arg()) if c.distinct else F.sum(arg())
    elif f == "AVG":
        e = F.expr("avg(DISTINCT %s)" % _arg_sql(c)) if c.distinct else F.avg(arg())
    elif f == "MIN":
        e = F.min(arg())
    elif f == "MAX":
        e = F.max(arg())
    elif f == "STDDEV_POP":
        e = F.stddev_pop(arg())
    elif f == "STDDEV_SAMP":
        e = F.stddev_samp(arg())
    elif f == "VAR_POP":
        e = F.var_pop(arg())
    elif f == "VAR_SAMP":
        e = F.var_samp(arg())
    elif f == "FIRST_VALUE":
        e = F.first(arg(), ignorenulls=True)
    elif f == "LAST_VALUE":
        e = F.last(arg(), ignorenulls=True)
    elif f == "LISTAGG":
        sep = c.options[0] if c.options else ","
        e = F.concat_ws(sep, F.collect_list(arg()))
    elif f == "BOOL_AND":
        e = F.bool_and(arg())
    elif f == "BOOL_OR":
        e = F.bool_or(arg())
    else:
        raise UnsupportedError("Aggregate function %s cannot run yet" % f)
    return e.alias(c.name)


def _arg_sql(c):
    col = q(c.args[0])
    return "CASE WHEN %s THEN %s END" % (q(c.filter), col) if c.filter else col


def native_aggregate(df, keys, calls):
    """Spark's own aggregate (streaming: update output mode) of `calls` grouped by `keys`."""
    exprs = [aggregate_column(c) for c in calls] or [F.count(F.lit(1)).alias("__count")]
    grouped = df.groupBy(*[F.col(q(k)) for k in keys]) if keys else df.groupBy()
    return grouped.agg(*exprs)


def q(name):
    return "`%s`" % name.replace("`", "``")


# ---------------------------------------------------------------------- the translator
_NATIVE_STREAMING = ("COUNT", "SUM", "AVG", "MIN", "MAX", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP")


@translates(GroupAggregate)
def translate_group_aggregate(node, inputs, ctx):
    s = inputs[0]
    if not ctx.streaming:
        out = native_aggregate(s.df, node.keys, node.calls)
        out = out.select(*[F.col(q(n)) for n in node.field_names], F.lit(None).cast("long").alias("__seq"),
                         F.lit(None).cast("timestamp").alias("__wm"))
        return Stream(conform(out, node.fields))
    native = (not s.changelog and node.input.insert_only and not ctx.ttl_ms and ctx.only_calcs_above(node)
              and all(c.function in _NATIVE_STREAMING and not c.distinct for c in node.calls))
    if native:
        out = native_aggregate(s.df, node.keys, node.calls)
        keys = ["__key%d" % i for i in range(len(node.keys))]
        out = out.select(*[F.col(q(n)) for n in node.field_names],
                         *[F.col(q(k)).alias(kc) for k, kc in zip(node.keys, keys)], F.lit(True).alias("__visible"))
        return Stream(conform(out, node.fields), upsert_keys=keys)
    unsupported = [c for c in node.calls if c.function not in PROCESSOR_FUNCTIONS]
    if unsupported:
        raise UnsupportedError("Aggregate function %s over a changelog (or with table.exec.state.ttl) is not "
                               "supported yet" % unsupported[0].function, *node.position)
    from .keyed_state import run_keyed
    df = s.df if s.changelog else s.df.withColumn("__op", F.lit(0).cast("tinyint"))
    fields = output_schema(df.schema, node.keys, node.calls)
    processor = GroupAggregateProcessor(node.keys, node.calls, ctx.ttl_ms)
    out = run_keyed(df, node.keys, processor, fields, ctx)
    return Stream(conform(out, node.fields), changelog=True)
