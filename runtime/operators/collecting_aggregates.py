"""ARRAY_AGG, JSON_ARRAYAGG, JSON_OBJECTAGG and APPROX_COUNT_DISTINCT as Spark aggregate expressions: batch mode's
GroupAggregate (group_aggregate.aggregate_expression asks here for these four). Over a changelog, and in
streaming, accumulators.py computes the first three row by row (with retraction); APPROX_COUNT_DISTINCT is
batch only (the planner refuses it in streaming, as Flink does).

The values are Flink's (planner/aggregate_functions.py): ARRAY_AGG keeps NULLs unless IGNORE NULLS, in the rows'
order (a DISTINCT one sorted, as Flink's batch plan gives it); the JSON aggregates join their arguments' JSON
texts (the planner made them), JSON_OBJECTAGG's keys sorted, a key met twice failing the query with Flink's
message; APPROX_COUNT_DISTINCT is HyperLogLog++ at a relative error of 0.01, as Flink's (a port of Spark's)."""

from pyspark.sql import functions as F

FUNCTIONS = ("ARRAY_AGG", "JSON_ARRAYAGG", "JSON_OBJECTAGG", "APPROX_COUNT_DISTINCT")

DUPLICATE_KEY = ("Key '%s' is already present. Duplicate keys are not allowed in JSON_OBJECTAGG. "
                 "Please ensure that keys are unique.")


def collecting_expression(c, arg, flt):
    """Planner call `c` (one of FUNCTIONS) as a Spark aggregate expression; `arg(i)` is its i-th argument
    (NULL where the FILTER is not TRUE), `flt` the FILTER column or None."""
    f = c.function
    if f == "APPROX_COUNT_DISTINCT":
        return F.approx_count_distinct(arg(), rsd=0.01)
    if f == "ARRAY_AGG":
        return _array_agg(c, arg, flt)
    if f == "JSON_ARRAYAGG":
        text = arg() if c.options != ("NULL ON NULL",) else F.coalesce(F.col(_q(c.args[0])), F.lit("null"))
        texts = F.collect_list(F.when(flt, text) if flt is not None else text)
        if c.distinct:
            texts = F.array_distinct(texts)
        return F.concat(F.lit("["), F.array_join(texts, ","), F.lit("]"))
    return _json_objectagg(c, flt)


def _array_agg(c, arg, flt):
    if c.options == ("IGNORE NULLS",):
        values = F.collect_list(arg())
    else:                      # collect_list skips NULLs: collect one-field structs, which are never NULL
        one = F.struct(F.col(_q(c.args[0])).alias("v"))
        values = F.transform(F.collect_list(F.when(flt, one) if flt is not None else one), lambda s: s["v"])
    if c.distinct:
        values = F.sort_array(F.array_distinct(values))
    return F.when(F.size(values) > 0, values)


def _json_objectagg(c, flt):
    entry = F.struct(F.col(_q(c.args[0])).alias("k"), F.col(_q(c.args[1])).alias("v"))
    entries = F.collect_list(F.when(flt, entry) if flt is not None else entry)
    if c.options == ("ABSENT ON NULL",):
        entries = F.filter(entries, lambda e: e["v"].isNotNull())
    keys = F.transform(entries, lambda e: e["k"])
    repeated = F.filter(keys, lambda k, i: F.call_function("array_position", keys, k) != i + 1)
    members = F.transform(F.array_sort(entries), lambda e: F.concat(
        _json_string(e["k"]), F.lit(":"), F.coalesce(e["v"], F.lit("null"))))
    text = F.concat(F.lit("{"), F.array_join(members, ","), F.lit("}"))
    message = F.format_string(DUPLICATE_KEY, F.element_at(repeated, 1))
    return F.when(F.size(repeated) > 0, F.raise_error(message)).otherwise(text)


def _json_string(col):
    """A string as a JSON string literal (Jackson's escapes): to_json of a one-element array, brackets cut."""
    text = F.to_json(F.array(col))
    return F.call_function("substring", text, F.lit(2), F.length(text) - F.lit(2))


def _q(name):
    return "`%s`" % name.replace("`", "``")
