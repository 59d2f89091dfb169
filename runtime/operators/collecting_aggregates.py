"""ARRAY_AGG, JSON_ARRAYAGG, JSON_OBJECTAGG, COLLECT and APPROX_COUNT_DISTINCT as Spark aggregate expressions:
batch mode's GroupAggregate (group_aggregate.aggregate_expression asks here for these five). Over a changelog,
and in streaming, accumulators.py computes the first four row by row (with retraction); APPROX_COUNT_DISTINCT
is batch only (the planner refuses it in streaming, as Flink does).

The values are Flink's (planner/aggregate_functions.py): ARRAY_AGG keeps NULLs unless IGNORE NULLS, in the rows'
order (a DISTINCT one sorted, as Flink's batch plan gives it); the JSON aggregates join their arguments' JSON
texts (the planner made them), JSON_OBJECTAGG's keys sorted, a key met twice failing the query with Flink's
message; COLLECT's MULTISET (element -> count, NULLs skipped) in the order of Flink's java.util.HashMap of the
elements (`_collect`); APPROX_COUNT_DISTINCT is HyperLogLog++ at a relative error of 0.01, as Flink's (a port of
Spark's)."""

from decimal import Decimal

from pyspark.sql import functions as F

from planner.errors import UnsupportedError
from ..connectors import binary_hash

FUNCTIONS = ("ARRAY_AGG", "JSON_ARRAYAGG", "JSON_OBJECTAGG", "COLLECT", "APPROX_COUNT_DISTINCT")

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
    if f == "COLLECT":
        return _collect(c, arg)
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


_MASK = 0xFFFFFFFF


def _java_hash_code(v, elem):
    """Java's hashCode of Flink's object for value column `v` of FlinkType `elem` (as
    map_order.java_hash_map_order hashes it), a BIGINT in [0, 2^32); NULL for a DECIMAL of more than 18 digits
    (its unscaled value a BigInteger of more than 64 bits) and a ROW or ARRAY (binary_hash.py): the Arrow kernel
    hashes them; None for a type not followed (its elements stay in arrival order): BYTES, MAP, a ROW or ARRAY
    of other types."""
    type_name = elem.name if elem is not None else None
    if type_name in ("CHAR", "VARCHAR", "STRING"):
        return F.hash(v).cast("bigint").bitwiseAND(F.lit(_MASK))   # Spark's hash: Murmur3, seed 42, as Flink's
    if type_name in ("TINYINT", "SMALLINT", "INT", "INTEGER"):
        return v.cast("bigint").bitwiseAND(F.lit(_MASK))
    if type_name == "DATE":
        return F.datediff(v, F.lit("1970-01-01").cast("date")).cast("bigint").bitwiseAND(F.lit(_MASK))
    if type_name == "BIGINT":
        return _long_hash(v)
    if type_name == "BOOLEAN":
        return F.when(v, F.lit(1231)).otherwise(F.lit(1237)).cast("bigint")
    if type_name == "TIME":             # an Integer of milliseconds of the day; dynsql's TIME is 'HH:MM:SS[.fff]'
        part = lambda at, n: F.substring(v, at, n).cast("bigint")       # noqa: E731
        millis = F.coalesce(F.rpad(F.substring(v, 10, 3), 3, "0").cast("bigint"), F.lit(0).cast("bigint"))
        return ((part(1, 2) * 60 + part(4, 2)) * 60 + part(7, 2)) * 1000 + millis
    if type_name in ("TIMESTAMP", "TIMESTAMP_LTZ"):     # TimestampData: 31 * Long.hashCode(millis) + nanos of it
        micros = F.unix_micros(v)
        sub = F.pmod(micros, F.lit(1000))
        millis = ((micros - sub) / 1000).cast("bigint")
        return (_long_hash(millis) * 31 + sub * 1000).bitwiseAND(F.lit(_MASK))
    if type_name == "DECIMAL" and elem.params and elem.params[0] > 18:
        return F.lit(None).cast("bigint")     # a BigInteger of more than 64 bits: hashed by the Arrow kernel
    if type_name in ("ROW", "ARRAY") and binary_hash.hashable(elem):
        return F.lit(None).cast("bigint")     # its binary format's Murmur3: hashed by the Arrow kernel
    if type_name == "DECIMAL" and elem.params:
        scale = elem.params[1] if len(elem.params) > 1 else 0      # BigDecimal: 31 * BigInteger's hash + scale
        unscaled = (v * F.lit(Decimal(10) ** scale)).cast("bigint")
        magnitude = F.abs(unscaled)
        h = (F.shiftrightunsigned(magnitude, 32) * 31 + magnitude.bitwiseAND(F.lit(_MASK))).bitwiseAND(F.lit(_MASK))
        signed = F.when(unscaled < 0, (F.lit(1 << 32) - h).bitwiseAND(F.lit(_MASK))).otherwise(h)
        return (signed * 31 + scale).bitwiseAND(F.lit(_MASK))
    return None


def _long_hash(v):
    """Long.hashCode of a BIGINT column: (int) (v ^ (v >>> 32)), in [0, 2^32)."""
    return v.bitwiseXOR(F.shiftrightunsigned(v, 32)).bitwiseAND(F.lit(_MASK))


_FORMATS = {"DOUBLE": (52, 1023, -1022), "FLOAT": (23, 127, -126)}   # mantissa bits, exponent bias, least exponent


def _java_bits(v, type_name):
    """Double.doubleToLongBits / Float.floatToIntBits of a DOUBLE / FLOAT column, a BIGINT, by exact arithmetic
    (Spark has no such function, and refuses reflection in an aggregate): the exponent from log2 put right by
    one division by its power of two (exact), the mantissa the scaled value less its leading 1 (subnormals
    scaled by the least exponent's power); one NaN, the sign bit of -0.0 from its text."""
    mant, bias, least = _FORMATS[type_name]
    x = v.cast("double")
    ax = F.abs(x)
    e0 = F.floor(F.log2(ax))
    m0 = ax / F.pow(F.lit(2.0), e0)
    e = (e0 + F.when(m0 >= 2, 1).when(m0 < 1, -1).otherwise(0)).cast("bigint")
    normal = ((ax / F.pow(F.lit(2.0), e.cast("double")) - 1) * F.lit(float(2 ** mant))).cast("bigint") \
        .bitwiseOR(F.call_function("shiftleft", e + bias, F.lit(mant)))
    subnormal = (ax * F.lit(2.0 ** -least) * F.lit(float(2 ** mant))).cast("bigint")
    inf = ((1 << (8 if type_name == "FLOAT" else 11)) - 1) << mant
    magnitude = F.when(ax == 0, F.lit(0).cast("bigint")).when(ax == float("inf"), F.lit(inf)) \
        .when(e < least, subnormal).otherwise(normal)
    sign = F.lit(-(1 << 63) if type_name == "DOUBLE" else 1 << 31)
    signed = F.when(x.cast("string").startswith("-"), magnitude.bitwiseOR(sign)).otherwise(magnitude)
    return F.when(F.isnan(x), F.lit(inf | (1 << (mant - 1)))).otherwise(signed)


def _collect(c, arg):
    """COLLECT: the values (NULLs skipped) sorted with their arrival places, each run of a value one element
    (its first arrival, its count), then the elements in HashMap order: by slot, (h ^ (h >>> 16)) & (slots - 1)
    in a table of 16 slots doubled while elements > 0.75 * slots, then by first arrival (the Arrow kernel
    `_in_java_order`; an element type whose hash is not followed in arrival order, by a Spark sort).
    A DOUBLE or FLOAT is sorted and told apart by its Java bits (Double.equals: -0.0 is not 0.0, NaN is NaN; Spark
    compares them the other way) and hashed as Double/Float.hashCode. A group with 9 elements or more in one slot
    of 16 is ordered by the streaming accumulator's HashMap simulation (resizes and tree bins:
    `_in_java_order`). Not followed here: the hash of BYTES elements (byte[] by identity in Flink: an order of
    its run) and of ROW and ARRAY elements of types binary_hash.py does not write (`_java_hash_code`;
    arrival order: README)."""
    elem_type = c.type.children[0] if c.type is not None and c.type.children else None
    elem = elem_type.name if elem_type is not None else None
    if c.type is not None and "MAP" in c.type.children[0].text():
        raise UnsupportedError("COLLECT of a %s cannot run in batch mode yet (it runs in streaming mode)"
                               % c.type.children[0].text())
    values = F.collect_list(arg())     # sorted by key k: the value, a DOUBLE's or FLOAT's Java bits (Java's equality)
    keyed = F.transform(values, lambda v, i: F.struct(
        (_java_bits(v, elem) if elem in _FORMATS else v).alias("k"), i.alias("i"), v.alias("v")))
    n = F.size(values)
    seen = F.array_sort(keyed)
    starts = F.filter(F.sequence(F.lit(0), F.greatest(n - 1, F.lit(0))), lambda j: F.when(j == 0, n > 0).otherwise(
        F.element_at(seen, j + 1)["k"] != F.element_at(seen, j)["k"]))
    def element(s, k):
        first = F.element_at(seen, s + 1)
        count = F.coalesce(F.try_element_at(starts, k + 2), n) - s
        if elem == "DOUBLE":               # Double.hashCode: (int) (bits ^ (bits >>> 32))
            h = first["k"].bitwiseXOR(F.shiftrightunsigned(first["k"], 32)).bitwiseAND(F.lit(_MASK))
        elif elem == "FLOAT":              # Float.hashCode: floatToIntBits
            h = first["k"].bitwiseAND(F.lit(_MASK))
        else:
            h = _java_hash_code(first["v"], elem_type)
        return F.struct(first["i"].alias("i"), first["v"].alias("v"), count.cast("int").alias("n"),
                        *([] if h is None else [h.alias("h")]))
    elements = F.transform(starts, element)
    if elem in _FORMATS or _java_hash_code(F.lit(None), elem_type) is not None:
        ordered = _in_java_order(elements, elem_type)
    else:                                   # a type whose hash is not followed: arrival order
        ordered = F.array_sort(elements)
    if elem in _FORMATS:       # Spark's map builders make -0.0 0.0 (a duplicate key beside 0.0); a cast does not
        return F.map_from_entries(F.transform(ordered, lambda e: F.struct(e["v"].cast("string"), e["n"]))) \
            .cast("map<%s,int>" % elem.lower())
    return F.map_from_entries(F.transform(ordered, lambda e: F.struct(e["v"], e["n"])))


def _in_java_order(elements, elem_type):
    """The elements (structs of first arrival i, value v, count n, Java hash h) in java.util.HashMap order, by
    the Arrow kernel map_order.elements_in_java_order: by slot, then first arrival, or, for a group with 9
    elements or more in one slot of 16 (a list that Java grows the table for, or makes a tree bin), as the
    HashMap simulation puts them. (A Spark sort gave the first order alone; the kernel does both, the elements
    written once: Spark refuses a Python UDF inside a lambda, which a choice between the two would need.)"""
    import pyarrow as pa
    from pyspark.sql import types as st
    from pyspark.sql.functions import arrow_udf

    from planner.expr.types import to_spark
    from ..connectors.map_order import elements_in_java_order
    fields = [("i", st.IntegerType()), ("v", to_spark(elem_type)), ("n", st.IntegerType()), ("h", st.LongType())]
    typed = F.transform(elements, lambda e: F.struct(*[e[name].cast(t).alias(name) for name, t in fields]))

    def in_java_order(lists: pa.Array) -> pa.Array:
        return elements_in_java_order(lists, elem_type)
    kernel = arrow_udf(in_java_order, st.ArrayType(st.StructType([st.StructField(n, t) for n, t in fields])))
    return kernel(typed)


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
