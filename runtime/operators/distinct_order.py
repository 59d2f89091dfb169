"""Whether Flink 2.3's batch plan of an aggregate hands its DISTINCT calls their values sorted: the order
LISTAGG(DISTINCT) joins them in (group_aggregate.py).

Flink's FlinkAggregateExpandDistinctAggregatesRule turns the DISTINCT calls into an aggregate under another:
- every call DISTINCT over the same arguments and FILTER, beside only MIN / MAX of those arguments
  (convertMonopole): the lower aggregate groups by the key and the arguments and has no calls, a hash
  aggregate, whose rows come out in the order each value first arrived;
- otherwise (rewriteUsingGroupingSets) an Expand under an aggregate grouped by the key, the DISTINCT arguments
  and the grouping id, holding the non-DISTINCT calls. BatchPhysicalHashAggRule makes it a hash aggregate only
  where every call's buffer is of fixed length (BatchPhysicalAggRuleBase.isAggBufferFixedLength:
  BinaryRowData.isMutable); else BatchPhysicalSortAggRule's sort aggregate, whose input is sorted by those
  fields: each group's distinct values come to the upper aggregate sorted (Flink's ASC, NULL first: a STRING
  by its UTF-8 bytes, as Spark's array_sort).
Not followed here: Flink sorts the lower aggregate's rows again, by the group key alone, for the upper
SortAggregate, with its in-memory QuickSort (org.apache.flink.runtime.operators.sort.QuickSort: an insertion sort
under 13 rows, else a median-of-three pivot and three-way partition, not stable), over all the rows of the task.
Past 12 rows that permutes a group's values, in either order. A simulation of that QuickSort over the lower
rows in the order above (first arrival of each (key, value[, grouping id]) row; sorted) gave Flink 2.3's strings
exactly at parallelism 1, e.g. 'y|zz|x|' for LISTAGG(DISTINCT s, '|') beside LISTAGG(DISTINCT s) over 16 lower
rows, where first arrival is 'zz|y|x|'."""

# calls whose buffers are numbers (COUNT; SUM and AVG of numbers or DECIMALs: isMutable holds for every DECIMAL).
# Not the variance family: Flink 2.3 computes it with $WELFORD_M2, whose plan here is a sort aggregate
_NUMBER_BUFFERS = ("COUNT", "SUM", "SUM0", "AVG")
# calls whose buffer holds a value of the argument's type (MinAggFunction, MaxAggFunction, SingleValueAggFunction)
_VALUE_BUFFERS = ("MIN", "MAX", "SINGLE_VALUE")
# BinaryRowData.isMutable: the types held in a row's fixed-length part, and every DECIMAL
_MUTABLE = ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE", "DATE", "TIME",
            "DECIMAL", "INTERVAL_YEAR_MONTH", "INTERVAL_DAY_TIME")


def distinct_values_sorted(calls):
    """Whether Flink's batch plan of an aggregate of planner AggCalls `calls` sorts its DISTINCT calls' values."""
    if not any(c.distinct for c in calls):
        return False
    plain = [c for c in calls if not c.distinct]
    arguments = {(tuple(c.args) + tuple(c.options), c.filter)
                 for c in calls if c.distinct or c.function in ("MIN", "MAX")}
    if len(arguments) == 1 and all(c.function in ("MIN", "MAX") for c in plain):
        return False                                     # convertMonopole: a hash aggregate under it
    return not all(_fixed_length_buffer(c) for c in plain)


def _fixed_length_buffer(c):
    if c.function in _NUMBER_BUFFERS:
        return True
    if c.function in _VALUE_BUFFERS and c.type is not None:
        return _mutable(c.type)
    return False          # LISTAGG's STRING, FIRST_VALUE's, ARRAY_AGG's, COLLECT's ... accumulator objects


def _mutable(flink_type):
    if flink_type.name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return (flink_type.params[0] if flink_type.params else 6) <= 3      # TimestampData.isCompact
    return flink_type.name in _MUTABLE or flink_type.name.startswith("INTERVAL")
