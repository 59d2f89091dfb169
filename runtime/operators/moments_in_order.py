"""STDDEV_POP, STDDEV_SAMP, VAR_POP and VAR_SAMP of a batch group aggregate in O(1) memory per group, with Flink's
values (spread_aggregates.py: WELFORD_M2 folds the values in arrival order, so Spark's aggregate, whose partial
buffers merge in no set order, cannot compute them, and collecting a group's values into one array holds the
whole group in memory).

Spark shuffles the rows by the group keys and sorts each partition by (keys, `__seq`, the first call's value);
one `mapInArrow` pass then walks the runs of equal keys, keeping only the current group's (n, mean, m2) per
call, folded by the row-by-row operator's own code (spread_aggregates.welford_add / welford_value), and gives
one row per group: the keys, each key's `python_key` (`__mk<i>`: a FLOAT/DOUBLE key as its text, so NaN is one
group and -0.0 one apart from 0.0, as Flink groups them), the calls' values. Spark's sort spills to disk: a group
may be larger than memory. The other calls of the aggregate are Spark's, joined to these by the keys
(group_aggregate.native_aggregate).

Where rows share an order (no `__seq`, or NULL: an aggregate's output in batch mode; a row repeated by an
Expand), they fold in ascending order of the first call's value (`collect_list` gave no order before)."""

from pyspark.sql import functions as F
from pyspark.sql import types as st

from ..translate import q
from .keyed_state import key_type, key_value
from .spread_aggregates import MOMENTS

KEY_TEXT = "__mk%d"
VALUE = "__mv%d"


def folds_in_order(c):
    """Whether the planner call `c` is computed by `moments_in_order` (not DISTINCT: Spark's, over the values)."""
    return c.function in MOMENTS and not c.distinct


def moments_in_order(df, keys, calls, order, result_types):
    """-> a frame of `keys`, their `__mk<i>` and one column per call (named after it, of `result_types`' Spark
    types) for each group of `df` (a batch frame) by `keys`; `order`: the rows' arrival order (a Column) or None."""
    texts = [key_value(F.col(q(k)), df.schema[k].dataType).alias(KEY_TEXT % i) for i, k in enumerate(keys)]
    values = []
    for i, c in enumerate(calls):
        v = F.col(q(c.args[0]))
        values.append((F.when(F.col(q(c.filter)), v) if c.filter else v).alias(VALUE % i))
    rows = df.select(*[F.col(q(k)) for k in keys], *texts, *values,
                     (order if order is not None else F.lit(None).cast("long")).alias("__o"))
    by = [F.col(KEY_TEXT % i) for i in range(len(keys))]
    rows = rows.repartition(*by) if keys else rows.repartition(1)
    rows = rows.sortWithinPartitions(*by, F.col("__o").asc_nulls_first(), F.col(VALUE % 0).cast("double"))
    schema = st.StructType([st.StructField(k, df.schema[k].dataType, True) for k in keys] +
                           [st.StructField(KEY_TEXT % i, key_type(df.schema[k].dataType), True)
                            for i, k in enumerate(keys)] +
                           [st.StructField(c.name, t, True) for c, t in zip(calls, result_types)])
    from ..connect_shims import portable_map_function
    fold = WelfordFold(schema.fieldNames(), len(keys), [c.function for c in calls], [c.type for c in calls],
                       [_arrow_type(t) for t in result_types])
    return rows.mapInArrow(portable_map_function(fold), schema)


def _arrow_type(spark_type):
    import pyarrow as pa
    if isinstance(spark_type, st.DecimalType):
        return pa.decimal128(spark_type.precision, spark_type.scale)
    return pa.int64() if isinstance(spark_type, st.LongType) else pa.float64()


class WelfordFold:
    """The mapInArrow function: batches of (keys, key texts, values, __o) sorted by the key texts -> a row per run
    of equal key texts; the group whose run reaches the end of a batch is carried to the next."""

    def __init__(self, names, key_count, functions, flink_types, arrow_types):
        self.names = names
        self.key_count = key_count
        self.functions = functions
        self.flink_types = flink_types
        self.arrow_types = arrow_types

    def __call__(self, batches):
        import pyarrow as pa
        from runtime.operators.spread_aggregates import welford_add, welford_empty, welford_value
        k, calls = self.key_count, len(self.functions)
        group = None            # (key texts, keys, accumulators) of the group being folded
        key_types = None
        done = []               # finished groups, not yet sent

        def rows_of(groups):
            columns = [[g[1][i] for g in groups] for i in range(k)] + [[g[0][i] for g in groups] for i in range(k)]
            results = [[welford_value(f, g[2][j], t) for g in groups]
                       for j, (f, t) in enumerate(zip(self.functions, self.flink_types))]
            return pa.RecordBatch.from_arrays(
                [pa.array(c, t) for c, t in zip(columns, key_types)] +
                [pa.array(r, t) for r, t in zip(results, self.arrow_types)],
                names=self.names)

        for batch in batches:
            n = batch.num_rows
            if not n:
                continue
            key_types = [batch.schema.field(i).type for i in range(2 * k)]
            keys = [batch.column(i).to_pylist() for i in range(k)]
            texts = list(zip(*[batch.column(k + i).to_pylist() for i in range(k)])) if k else [()] * n
            values = [batch.column(2 * k + j).to_pylist() for j in range(calls)]
            start = 0
            for end in [i for i in range(1, n) if texts[i] != texts[i - 1]] + [n]:
                if group is None or group[0] != texts[start]:
                    if group is not None:
                        done.append(group)
                    group = (texts[start], [c[start] for c in keys], [welford_empty() for _ in range(calls)])
                for j, acc in enumerate(group[2]):
                    for v in values[j][start:end]:
                        if v is not None:
                            welford_add(acc, v, 1)
                start = end
            if len(done) >= 4096:
                yield rows_of(done)
                done = []
        if group is not None:
            done.append(group)
        if done:
            yield rows_of(done)
