"""GroupAggregate. Over insert-only input with nothing but projections above it, Spark's native streaming
aggregate (update mode: the sink derives -U/+U); in batch mode Spark's aggregate, or over a small file each
task reading the file, without a shuffle (whole_file_aggregate.py). Otherwise dynsql's keyed
processor over a changelog (and for DISTINCT, which Spark's streaming aggregate lacks): every function of
runtime/operators/accumulators.py (COUNT .. COLLECT, each with DISTINCT and FILTER (WHERE ...)), applying
retractions, emitting +I for a new group, -U/+U when its row changes and -D when it empties."""

from functools import reduce

from pyspark.sql import functions as F
from pyspark.sql import types as st

from planner.errors import UnsupportedError
from planner.expr.types import to_spark
from planner.plan.aggregate import GroupAggregate

from ..translate import Stream, conform, translates
from .accumulators import FUNCTIONS, accumulators
from .collecting_aggregates import FUNCTIONS as COLLECTING, collecting_expression
from .distinct_order import distinct_values_sorted
from .keyed_state import KeyedChangelogProcessor, key_value, update_pair, weight
from .moments_in_order import KEY_TEXT, folds_in_order, moments_in_order
from .spread_aggregates import MOMENTS, values_in_arrival_order, welford_column
from ..physical.nodes import NATIVE_UPDATE_AGGREGATE, RUNNING_AGGREGATE_OF_PIECES, WHOLE_FILE
from .whole_file_aggregate import aggregate_whole_file


def python_function(call):
    """The Python aggregate function `call` names (planner/python_functions/aggregate_calls.py), or None. Imported
    when first called: that module imports sqlglot and the planner's function registry, which a Python worker
    that unpickles one of the processors of this module (or of window.py, over_aggregate.py) needs not."""
    from planner.python_functions.aggregate_calls import python_function as named
    return named(call)


class AggregateState:
    __slots__ = ("rows", "accs", "shown")

    def __init__(self, accs):
        self.rows = 0                  # signed count of rows in the group
        self.accs = accs
        self.shown = None              # the values last shown, where they are followed row by row


def java_equal(a, b):
    """Whether two rows of values are equal as Flink's record equaliser takes them: FLOAT/DOUBLE values by Java's
    `==` (a NaN equals nothing, -0.0 equals 0.0)."""
    return a is not None and b is not None and len(a) == len(b) and \
        all(x == y and not (isinstance(x, float) and x != x) for x, y in zip(a, b))


class GroupAggregateProcessor(KeyedChangelogProcessor):
    """`accumulators`: one accumulators.Accumulator per aggregate call (COUNT .. COLLECT, DISTINCT, FILTER)."""

    def __init__(self, keys, accumulators, ttl_ms=0):
        self.keys = keys
        self.accumulators = accumulators
        self.ttl_ms = ttl_ms
        # Flink emits a group's new values only when they differ (java_equal) from those it showed last, row by
        # row: where MIN / MAX order zeros by sign (over a changelog) that decides which zero shows
        self.row_by_row = any(getattr(a, "java_compare", False) for a in accumulators)

    def empty(self):
        return AggregateState([a.empty() for a in self.accumulators])

    def is_empty(self, state):
        return state.rows == 0

    def apply(self, state, rows):
        for r in rows:
            w = weight(r["__op"])
            state.rows += w
            for i, a in enumerate(self.accumulators):
                state.accs[i] = a.add(state.accs[i], r, w)
            if self.row_by_row:
                values = self._values(state)
                if not java_equal(values, state.shown):
                    state.shown = values
        return state

    def result(self, state):
        return state.shown if self.row_by_row and state.rows > 0 else self._values(state)

    def _values(self, state):
        if state.rows <= 0:
            return None
        return tuple(a.result(acc) for a, acc in zip(self.accumulators, state.accs))

    def handleInputRows(self, key, rows, timerValues):
        # a global aggregate is keyed by a constant the output does not show; the key's values from its rows (a
        # FLOAT/DOUBLE key reaches the processor as its text: keyed_state.python_key)
        rows = list(rows)
        self._key = tuple(rows[0][k] for k in self.keys) if self.keys and rows else ()
        return super().handleInputRows(key, rows, timerValues)

    def emit(self, old, new):
        k = self._key
        if old is not None and new is not None and old == new and any(v != v for v in new if isinstance(v, float)):
            return [(1, k + old), (2, k + new)]     # Flink compares the values with Java's ==: a NaN is not equal
        return update_pair(k + old if old is not None else None, k + new if new is not None else None)


def output_schema(input_schema, keys, calls):
    """Spark output fields of a processor's rows: the keys, then each call's value as `Accumulator.result`
    gives it (the translator then casts to the Flink type)."""
    return [st.StructField(k, input_schema[k].dataType, True) for k in keys] + \
        [st.StructField(c.name, result_type(c, input_schema), True) for c in calls]


def result_type(c, input_schema):
    """The Spark type of an accumulator's result for planner call `c` over `input_schema`."""
    f = c.function
    if python_function(c) is not None:
        return to_spark(c.type)
    if f == "COUNT":
        return st.LongType()
    if f == "LISTAGG":
        return st.StringType()
    if f in ("BOOL_AND", "BOOL_OR"):
        return st.BooleanType()
    if f in ("JSON_ARRAYAGG", "JSON_OBJECTAGG"):
        return st.StringType()
    t = input_schema[c.args[0]].dataType
    if f == "ARRAY_AGG":
        return st.ArrayType(t, True)
    if f == "COLLECT":
        return st.MapType(t, st.IntegerType(), False)
    if f in ("MIN", "MAX", "FIRST_VALUE", "LAST_VALUE", "SINGLE_VALUE"):
        return t
    if isinstance(t, (st.ByteType, st.ShortType, st.IntegerType, st.LongType)):
        return st.LongType()
    if isinstance(t, st.DecimalType):
        return st.DecimalType(38, t.scale if f == "SUM" else max(t.scale, 6))
    return st.DoubleType()


def aggregate_column(c, order=None, distinct_sorted=False):
    """A planner AggCall as a Spark aggregate expression named after its output field; `order`: a column giving
    the rows' arrival order (`__seq`), where the input has one; `distinct_sorted`: whether Flink's plan hands a
    DISTINCT call its values sorted (distinct_order.py; batch mode)."""
    if c.function == "LISTAGG" and (order is not None or (c.distinct and distinct_sorted)):
        return _listagg_in_order(c, order, distinct_sorted).alias(c.name)
    integral = _integral_aggregate(c)
    if integral is None:
        integral = floating_extreme(c, order)
    if integral is None and c.function in MOMENTS and not c.distinct:
        integral = welford_column(c, order)         # Flink's WELFORD_M2 in arrival order (spread_aggregates.py)
    return (integral if integral is not None else aggregate_expression(c)).alias(c.name)


def _listagg_in_order(c, order, distinct_sorted):
    """LISTAGG in the order Flink's batch aggregate reads its values: DISTINCT ones sorted where its plan sorts
    them (`distinct_sorted`: LISTAGG(DISTINCT s) beside a LISTAGG, FIRST_VALUE, MAX of a STRING ..., ',x,y,zz'),
    else in the rows' arrival `order` (DISTINCT: each value at its first arrival). Spark's collect_list keeps its
    input's order only where nothing reshuffles it, and a COUNT(DISTINCT) beside it does (Spark's Expand for
    distinct aggregates: 'x,,zz,y' where Flink gives 'zz,y,x,')."""
    col = F.col(q(c.args[0]))
    if c.filter:
        col = F.when(F.col(q(c.filter)), col)
    if c.distinct and distinct_sorted:
        values = F.array_sort(F.array_distinct(F.collect_list(col)))     # (collect_list skips NULLs)
    else:
        values = values_in_arrival_order(col, order)
        if c.distinct:
            values = F.array_distinct(values)
    sep = c.options[0] if c.options else ","
    return F.when(F.size(values) > 0, F.concat_ws(sep, values))        # NULL when every value is NULL, as Flink


def floating_extreme(c, order, window=None):
    """MAX / MIN of a FLOAT/DOUBLE as Flink's MaxAggFunction / MinAggFunction compute them over insert-only rows:
    the first value seeds the result and a later one replaces it only when Java's `>` (`<`) holds, never for a
    NaN nor for a zero of the other sign. So a NaN that comes first stays (the result is NaN), a NaN after a
    number is skipped (Spark's MAX takes NaN as the greatest value, its MIN the first number), and a zero result
    has the sign of the first zero to come. Without an arrival `order` (or where it is NULL), the NaNs are skipped
    wherever they come and a zero keeps Spark's sign. `window`: the frame of an OVER aggregate (then `order` is the
    rows' order in it). None for any other call."""
    if c.distinct or c.type is None or not c.args or c.function not in ("MAX", "MIN") or \
            c.type.name not in ("DOUBLE", "FLOAT"):
        return None
    col = F.col(q(c.args[0]))
    if c.filter:
        col = F.when(F.col(q(c.filter)), col)

    def over(aggregate):
        return aggregate.over(window) if window is not None else aggregate
    if c.function == "MAX":
        ranked = F.when(col.isNotNull(), F.struct((~F.isnan(col)).alias("n"), col.alias("v")))   # a NaN below all
        extreme = over(F.max(ranked)).getField("v")
    else:
        extreme = over(F.min(col))          # (Spark's order: a NaN above every number)
    if order is None:
        return extreme
    first = over(F.min_by(col, F.when(col.isNotNull(), order)))
    first_zero = over(F.min_by(col, F.when(col == 0, order)))
    # (rows whose order is NULL, as an aggregate's output in batch mode, have none: Spark's extreme, NaNs skipped)
    return F.when(F.isnan(first), first).when(extreme == 0, F.coalesce(first_zero, extreme)).otherwise(extreme)


def _integral_aggregate(c):
    """SUM of a BIGINT and AVG of an integer as Flink computes them (Java's long: the sum wraps past 2^63, AVG is
    that sum divided by the count as integers, exact past 2^53 where Spark's DOUBLE average is not); None for any
    other call. (Not for OVER windows: these are expressions over several aggregates.)"""
    if c.distinct or c.type is None or not c.args or c.function not in ("SUM", "AVG") or c.type.name not in _INTEGRAL:
        return None
    col = F.col(q(c.args[0]))
    if c.filter:
        col = F.when(F.col(q(c.filter)), col)
    if c.function == "SUM":
        return wrapping_sum(col) if c.type.name == "BIGINT" else None
    total = wrapping_sum(col) if c.type.name == "BIGINT" else F.sum(col).cast("long")
    return F.when(F.count(col) > 0, F.call_function("div", total, F.count(col)))


def aggregate_expression(c):
    """A planner AggCall (or an OVER's WindowCall) as a Spark aggregate expression (FILTER as a CASE inside
    it), unnamed: a window aggregate adds `.over(window)`."""
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
    elif f == "SINGLE_VALUE":      # a scalar subquery's one row; more than one fails with the call's message
        e = F.when(F.count(F.lit(1)) > 1, F.raise_error(F.lit(c.options[0]))).otherwise(F.first(arg()))
    elif f == "MIN":
        e = F.min(arg())
    elif f == "MAX":
        e = F.max(arg())
    elif f in _SPREADS:
        e = F.expr("%s(DISTINCT %s)" % (_SPREADS[f], _arg_sql(c))) if c.distinct else \
            getattr(F, _SPREADS[f])(arg())
    elif f == "FIRST_VALUE":
        e = F.first(arg(), ignorenulls=True)
    elif f == "LAST_VALUE":
        e = F.last(arg(), ignorenulls=True)
    elif f == "LISTAGG":
        sep = c.options[0] if c.options else ","
        values = F.collect_list(arg())
        if c.distinct:
            values = F.array_distinct(values)       # each value at its first arrival
        e = F.when(F.size(values) > 0, F.concat_ws(sep, values))   # NULL when every value is NULL, as Flink
    elif f == "BOOL_AND":
        e = F.bool_and(arg())
    elif f == "BOOL_OR":
        e = F.bool_or(arg())
    elif f in COLLECTING:
        e = collecting_expression(c, arg, flt)
    else:
        raise UnsupportedError("Aggregate function %s cannot run yet" % f)
    return e


_SPREADS = {"STDDEV_POP": "stddev_pop", "STDDEV_SAMP": "stddev_samp", "VAR_POP": "var_pop", "VAR_SAMP": "var_samp"}
_INTEGRAL = ("TINYINT", "SMALLINT", "INT", "BIGINT")


def wrapping_sum(col):
    """SUM of a BIGINT column that wraps around past 2^63 as Flink's (Java's) does, where Spark's sum fails in ANSI
    mode: the high and the low 32 bits summed apart (neither overflows), joined modulo 2^64."""
    high = F.sum(F.shiftright(col, 32))
    low = F.sum(col.bitwiseAND(F.lit(0xFFFFFFFF)))
    exact = high.cast("decimal(38, 0)") * F.lit(4294967296).cast("decimal(20, 0)") + low.cast("decimal(38, 0)")
    return _wrap_to_bigint(exact)


def running_wrapped_sum(col, window):
    """The sum of a BIGINT column over `window` (a window function), wrapping past 2^63 as wrapping_sum."""
    return _wrap_to_bigint(F.sum(col.cast("decimal(38, 0)")).over(window))


def _wrap_to_bigint(decimal_col):
    two63 = F.lit("9223372036854775808").cast("decimal(20, 0)")
    return (F.pmod(decimal_col + two63, F.lit("18446744073709551616").cast("decimal(21, 0)")) - two63).cast("long")


def _arg_sql(c):
    col = q(c.args[0])
    return "CASE WHEN %s THEN %s END" % (q(c.filter), col) if c.filter else col


def native_aggregate(df, keys, calls, signs=()):
    """Spark's own aggregate (streaming: update output mode) of `calls` grouped by `keys`; `signs`: a name for
    each FLOAT/DOUBLE key's column telling whether it is -0.0 (kept in the rows: an upsert key needs it, as
    Python's and Spark's equality take -0.0 for 0.0)."""
    from ..python_functions.aggregates import collected, collected_name, finished
    order = F.col("__seq") if "__seq" in df.columns else None
    # batch: the variance family by a sorted fold, O(1) memory a group (moments_in_order.py), joined by the keys
    in_order = [] if df.isStreaming else [c for c in calls if folds_in_order(c) and python_function(c) is None]
    if in_order and keys and len(in_order) == len(calls):
        return moments_in_order(df, keys, calls, order, [result_type(c, df.schema) for c in calls]) \
            .drop(*[KEY_TEXT % i for i in range(len(keys))])
    distinct_sorted = not df.isStreaming and distinct_values_sorted(calls)
    exprs = [collected(c).alias(collected_name(c)) if python_function(c) else
             aggregate_column(c, order, distinct_sorted) for c in calls if not any(c is m for m in in_order)] \
        or [F.count(F.lit(1)).alias("__count")]
    signed = _negative_zero_keys(df, keys)          # [(hidden column, key)]
    if signed:
        df = df.withColumns({name: is_negative_zero(F.col(q(key))) for name, key in signed})
    grouped = df.groupBy(*[F.col(q(k)) for k in keys + [name for name, _ in signed]]) if keys else df.groupBy()
    out = _negative_zero_restored(grouped.agg(*exprs), df, signed, dict(zip([n for n, _ in signed], signs)))
    if in_order:
        out = moments_joined(out, df, keys, in_order, order)
    if not any(python_function(c) for c in calls):
        return out
    # a Python aggregate function: its value from the group's collected rows (runtime/python_functions/aggregates.py)
    return out.select(*[F.col(q(k)) for k in keys],
                      *[finished(c, python_function(c), F.col(q(collected_name(c)))).alias(c.name)
                        if python_function(c) else F.col(q(c.name)) for c in calls])


def moments_joined(out, df, keys, calls, order):
    """`out`, Spark's aggregate of `df` by `keys`, with the columns of `calls` computed by moments_in_order.py
    (none for a group without values), joined by each key's `python_key` (NaN one group, -0.0 apart from 0.0)."""
    folded = moments_in_order(df, keys, calls, order, [result_type(c, df.schema) for c in calls])
    folded = folded.select(*[F.col(KEY_TEXT % i) for i in range(len(keys))], *[F.col(q(c.name)) for c in calls])
    on = [key_value(F.col(q(k)), out.schema[k].dataType).eqNullSafe(folded[KEY_TEXT % i]) for i, k in enumerate(keys)]
    return out.join(folded, reduce(lambda a, b: a & b, on, F.lit(True)), "left").drop(
        *[KEY_TEXT % i for i in range(len(keys))])


def _negative_zero_keys(df, keys):
    """[(hidden column, key)] for each FLOAT/DOUBLE key: Flink groups -0.0 apart from 0.0 and shows it as it is,
    where Spark makes it 0.0 before grouping; a hidden key (whether the key is -0.0) keeps the groups apart."""
    floating = [k for k in keys if isinstance(df.schema[k].dataType, (st.DoubleType, st.FloatType))]
    return [("__negative_zero_%d" % i, k) for i, k in enumerate(floating)]


def sign_keys(types, prefix):
    """[(position, name)] of a hidden key for each FLOAT/DOUBLE among keys of Spark `types`: whether the value is
    -0.0, for the operators that key by a value's binary form as Flink's streaming joins do (Spark groups -0.0
    with 0.0; a NaN with a NaN, as Flink)."""
    return [(i, "%s%d" % (prefix, i)) for i, t in enumerate(types) if isinstance(t, (st.DoubleType, st.FloatType))]


def is_negative_zero(col):
    # (Spark's atan2 and `/` do not tell -0.0 from 0.0, or fail on it; its text does)
    return F.when(col == 0, col.cast("string") == "-0.0").otherwise(F.lit(False))


def _negative_zero_restored(out, df, signed, kept):
    """The aggregate's rows with each FLOAT/DOUBLE key -0.0 again where its hidden key says so; the hidden keys
    dropped but those `kept` names (hidden name -> name)."""
    if not signed:
        return out
    out = out.withColumns({key: F.when(F.col(name), F.lit(-0.0).cast(df.schema[key].dataType))
                           .otherwise(F.col(q(key))) for name, key in signed})
    return out.withColumnsRenamed(kept).drop(*[name for name, _ in signed if name not in kept])


def negative_zero_signs(df, keys):
    """The names of the sign columns `native_aggregate` keeps for `keys` (one a FLOAT/DOUBLE key)."""
    return ["__key_sign%d" % i for i, _ in enumerate(_negative_zero_keys(df, keys))]


def q(name):
    return "`%s`" % name.replace("`", "``")


# ---------------------------------------------------------------------- the translator
# Spark's streaming aggregate gives Flink's rows for these in O(1) state a key. Not the variance family: Flink folds
# its values in arrival order (spread_aggregates.py), which Spark's aggregate can only do over the group's values
# collected, a state that grows with every row; dynsql's keyed aggregate keeps (n, mean, m2) a key instead
NATIVE_STREAMING_FUNCTIONS = ("COUNT", "SUM", "AVG", "MIN", "MAX")
# a one pass runs a grouped aggregate as batch mode does: these too (moments_in_order.py)
ONE_PASS_FUNCTIONS = NATIVE_STREAMING_FUNCTIONS + MOMENTS


@translates(GroupAggregate)
def translate_group_aggregate(node, inputs, ctx):
    s = inputs[0]
    chosen = ctx.chosen(node)
    if chosen.choice == RUNNING_AGGREGATE_OF_PIECES:     # one pass in pieces, each a step (group_pieces.py)
        from .group_pieces import PIECE, running_values
        out = running_values(node, s.df, ctx, chosen)
        keys = ["__key%d" % i for i in range(len(node.keys))]
        out = out.select(*[F.col(q(n)) for n in node.field_names], *[F.col(q(k)).alias(kc) for k, kc in
                                                                      zip(node.keys, keys)],
                         F.lit(True).alias("__visible"), F.col(PIECE))
        return Stream(conform(out, node.fields), upsert_keys=keys, steps=PIECE)
    if not ctx.streaming:
        out = aggregate_whole_file(ctx, *chosen.file, node) if chosen.choice == WHOLE_FILE else \
            native_aggregate(s.df, node.keys, node.calls)
        out = out.select(*[F.col(q(n)) for n in node.field_names], F.lit(None).cast("long").alias("__seq"),
                         F.lit(None).cast("timestamp").alias("__wm"))
        return Stream(conform(out, node.fields))
    if chosen.choice == NATIVE_UPDATE_AGGREGATE:
        signs = negative_zero_signs(s.df, node.keys)
        out = native_aggregate(s.df, node.keys, node.calls, signs)
        keys = ["__key%d" % i for i in range(len(node.keys))]
        out = out.select(*[F.col(q(n)) for n in node.field_names],
                         *[F.col(q(k)).alias(kc) for k, kc in zip(node.keys, keys)], *signs,
                         F.lit(True).alias("__visible"))
        return Stream(conform(out, node.fields), upsert_keys=keys + signs)
    unsupported = [c for c in node.calls if c.function not in FUNCTIONS and python_function(c) is None]
    if unsupported:
        raise UnsupportedError("Aggregate function %s over a changelog (or with table.exec.state.ttl) is not "
                               "supported yet" % unsupported[0].function, *node.position)
    from .keyed_state import run_keyed
    df = s.df if s.changelog else s.df.withColumn("__op", F.lit(0).cast("tinyint"))
    fields = output_schema(df.schema, node.keys, node.calls)
    processor = GroupAggregateProcessor(node.keys, accumulators(node.calls, node.input.fields,
                                                                retracting=not node.input.insert_only), ctx.ttl_ms)
    out = run_keyed(df, node.keys, processor, fields, ctx)
    return Stream(conform(out, node.fields), changelog=True)
