"""The partitions of Flink's batch operators over a sorted input (OVER aggregates, deduplication, Top-N / RANK).

Flink's batch OverAggregate and Rank read their input sorted by the partition keys (then the ORDER BY keys) and
start a new partition wherever the partition keys of a row and the one before it compare unequal (the keys in the
order of their fields in the input, not as PARTITION BY lists them: a set of field indexes): its generated
RecordComparator compares a FLOAT/DOUBLE with Java's `<` and `>` (SortCodeGenerator / GenerateUtils'
generateCompare), for which a NaN equals every number and -0.0 equals 0.0, while the sort itself puts -0.0 below
0.0 and a NaN above every number (their normalized keys). So -0.0 and 0.0 rows are one partition (the -0.0 rows
first) and the NaN rows join the partition sorted just before them (the largest number's, with the same other
keys), unless a NULL or a change of another key comes between. Spark's window partitions by value (NaN one,
-0.0 with 0.0), so a batch partition over a FLOAT/DOUBLE key is numbered here as Flink's runs of sorted rows:
`__fp`, over the distinct keys sorted as Flink sorts them (one Spark task: they are the partition keys, not the
rows), joined back to the rows."""

from functools import reduce

from pyspark.sql import Window
from pyspark.sql import functions as F
from pyspark.sql import types as st

from ..translate import q
from .keyed_state import key_value
from .sort import sort_columns

PARTITION = "__fp"


def floating(df, partition):
    """Whether a partition key is a FLOAT/DOUBLE (only then Flink's sorted runs differ from Spark's partitions)."""
    return any(isinstance(df.schema[p].dataType, (st.DoubleType, st.FloatType)) for p in partition)


def sorted_partitions(df, partition):
    """(`df` with `__fp`, the number of its row's Flink batch partition, the sort columns of the partition keys
    as Flink's sort orders them: each ascending, NULLs first, -0.0 below 0.0, NaN last)."""
    partition = sorted(partition, key=df.columns.index)      # Flink's partition keys are a set of field indexes
    order = sort_columns(df, [(p, True) for p in partition])
    texts = ["__fk%d" % i for i in range(len(partition))]
    rows = df.select("*", *[key_value(F.col(q(p)), df.schema[p].dataType).alias(t) for p, t in zip(partition, texts)])
    keys = rows.groupBy(*texts).agg(*[F.first(F.col(q(p))).alias(p) for p in partition])
    by_sort = Window.orderBy(*sort_columns(keys, [(p, True) for p in partition]))
    apart = F.lit(False)
    for p in partition:
        cur, prev = F.col(q(p)), F.lag(F.col(q(p))).over(by_sort)
        if isinstance(df.schema[p].dataType, (st.DoubleType, st.FloatType)):   # Java's < or >: a NaN is neither
            differ = cur.isNotNull() & prev.isNotNull() & ~F.isnan(cur) & ~F.isnan(prev) & (cur != prev)
        else:
            differ = cur.isNotNull() & prev.isNotNull() & (cur != prev)
        apart = apart | (cur.isNull() != prev.isNull()) | differ
    numbered = keys.select(*[F.col(t).alias(t + "_") for t in texts], F.sum(F.when(apart, 1).otherwise(0)).over(
        by_sort.rowsBetween(Window.unboundedPreceding, Window.currentRow)).alias(PARTITION))
    on = reduce(lambda a, b: a & b, [rows[t].eqNullSafe(numbered[t + "_"]) for t in texts])
    return rows.join(numbered, on=on).drop(*texts, *[t + "_" for t in texts]), order
