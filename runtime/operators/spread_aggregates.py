"""STDDEV_POP, STDDEV_SAMP, VAR_POP and VAR_SAMP of a group or window aggregate as Flink 2.3 computes them.

Flink's planner rewrites each into its internal WELFORD_M2 aggregate and COUNT (the plan shows
`$WELFORD_M2$1(x)`; org.apache.flink.table.runtime.functions.aggregate.WelfordM2AggFunction): the values in
arrival order, each as a Java double (a DECIMAL's compact form: its unscaled long / 10^scale), fold into
(n, mean, m2) by Welford's update (delta = x - mean; mean += delta / n; m2 += delta * (x - mean)), a retraction
undoing it; m2 is NULL for no rows or when rounding made it negative. Then, in a Calc:
  VAR_POP = m2 / n, VAR_SAMP = m2 / (n - 1) (NULL for one row), STDDEV_* = POWER(VAR_*, 0.5) (Math.pow),
each CAST to the argument's aggregate type (an integral type narrowed as Java narrows a double: saturated to
INT/BIGINT, a TINYINT/SMALLINT keeping the low bits of that INT; DECIMAL(38, max(s, 6)) rounded half up).
Another summation order, or Spark's own variance (its Welford update is written another way, its STDDEV a
SQRT), differs in the last digits. OVER aggregates are not rewritten so (Calcite expands them into sums there:
accumulators.py); DISTINCT forms are computed over the distinct values."""

import math
from decimal import ROUND_HALF_UP, Decimal

from pyspark.sql import functions as F

MOMENTS = ("STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP")
_INT_RANGE = (-2 ** 31, 2 ** 31 - 1)
_LONG_RANGE = (-2 ** 63, 2 ** 63 - 1)


# ---------------------------------------------------------------------- row by row (accumulators.py)
def welford_empty():
    return [0, 0.0, 0.0]                # n, mean, m2


def welford_add(acc, v, w):
    """Flink's WelfordM2AggFunction.accumulate (w > 0) / retract (w < 0) of the value `v`."""
    x = java_double(v)
    if w > 0:
        acc[0] += 1
        if acc[0] <= 0:                 # (Flink keeps counting, ignoring the value, to agree with its COUNT)
            return acc
        delta = x - acc[1]
        acc[1] += delta / acc[0]
        acc[2] += delta * (x - acc[1])
        return acc
    acc[0] -= 1
    if acc[0] <= 0:
        if acc[0] == 0:
            acc[1] = acc[2] = 0.0
        return acc
    delta2 = x - acc[1]
    acc[1] -= delta2 / acc[0]
    acc[2] -= (x - acc[1]) * delta2
    return acc


def welford_value(function, acc, flink_type):
    """The call's value from (n, m2), narrowed to Flink's result type `flink_type`."""
    n, _, m2 = acc
    if n <= 0 or m2 < 0:
        return None
    if function.endswith("_SAMP"):
        if n == 1:
            return None
        var = m2 / (n - 1)
    else:
        var = m2 / n
    value = math.pow(var, 0.5) if function.startswith("STDDEV") else var
    return narrowed(value, flink_type)


def narrowed(d, flink_type):
    """A double as Flink's CAST of it to the aggregate's type gives it (the translator's conform then takes a
    BIGINT's low bits for a TINYINT/SMALLINT/INT); a DECIMAL(p, s) is the double's shortest text
    (BigDecimal.valueOf) rounded half up to s digits."""
    type_name = flink_type.name if flink_type is not None else "DOUBLE"
    if type_name in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        lo, hi = _LONG_RANGE if type_name == "BIGINT" else _INT_RANGE
        if d != d:
            return 0
        return hi if d >= hi else lo if d <= lo else int(d)
    if type_name == "DECIMAL":
        return Decimal(repr(d)).quantize(Decimal(1).scaleb(-flink_type.params[1]), rounding=ROUND_HALF_UP)
    return d


def java_double(v):
    """A value as Java's doubleValue() gives it: a DECIMAL of up to 18 digits is its unscaled long / 10^scale
    (DecimalDataUtils.doubleValue), two roundings where float(Decimal) makes one."""
    if isinstance(v, Decimal):
        sign, digits, exponent = v.as_tuple()
        if len(digits) <= 18 and isinstance(exponent, int) and exponent <= 0:
            unscaled = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
            return float(unscaled) / float(10 ** -exponent)
    return float(v)


# ---------------------------------------------------------------------- Spark's window aggregate
def welford_column(c, order):
    """The call `c` (not DISTINCT) as a Spark aggregate expression: the group's values collected, put in arrival
    `order` (`__seq`, where the input has one) and folded as Flink folds them; narrowed to `c`'s type. So a
    group's values are all in memory at once: only a window aggregate on micro-batches (Spark's streaming
    aggregate, whose state of a window is freed when the window fires) and a legacy SESSION group window in batch
    mode compute it so; a group aggregate and other batch window aggregates fold in O(1) memory a group
    (accumulators.py on micro-batches, moments_in_order.py in batch)."""
    x = F.col("`%s`" % c.args[0].replace("`", "``"))
    if c.filter:
        x = F.when(F.col("`%s`" % c.filter.replace("`", "``")), x)
    x = x.cast("double")                # (Spark's DECIMAL to DOUBLE: its BigDecimal's; exact up to 15 digits)
    values = values_in_arrival_order(x, order) if order is not None else F.collect_list(x)
    start = F.struct(F.lit(0).cast("long").alias("n"), F.lit(0.0).alias("mean"), F.lit(0.0).alias("m2"))

    def step(acc, v):
        n = acc.getField("n") + 1
        delta = v - acc.getField("mean")
        mean = acc.getField("mean") + delta / n
        return F.struct(n.alias("n"), mean.alias("mean"), (acc.getField("m2") + delta * (v - mean)).alias("m2"))
    folded = F.aggregate(values, start, step)
    n, m2 = folded.getField("n"), folded.getField("m2")
    divisor = n - 1 if c.function.endswith("_SAMP") else n
    var = F.when((n > 0) & (m2 >= 0) & (divisor > 0), m2 / divisor)
    if c.function.startswith("STDDEV"):
        var = _java_pow_half(var)
    return _narrowed_column(var, c.type)


def values_in_arrival_order(x, order):
    """The group's non-NULL values of Column `x` as an array, in the order of Column `order` (`__seq`)."""
    pairs = F.collect_list(F.when(x.isNotNull(), F.struct(order.alias("o"), x.alias("x"))))
    return F.transform(F.array_sort(pairs), lambda e: e.getField("x"))


def _java_pow_half(d):
    """Math.pow(d, 0.5) (Flink's POWER); Spark's SQRT or POW may round another way (reflect's text is exact)."""
    return F.when(d.isNotNull(), F.call_function("java_method", F.lit("java.lang.Math"), F.lit("pow"), d,
                                                 F.lit(0.5)).cast("double"))


def _narrowed_column(d, flink_type):
    name = flink_type.name if flink_type is not None else "DOUBLE"
    if name in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        lo, hi = _LONG_RANGE if name == "BIGINT" else _INT_RANGE
        lo_d, hi_d = F.lit(float(lo)), F.lit(float(hi))
        return (F.when(F.isnan(d), F.lit(0)).when(d <= lo_d, F.lit(lo)).when(d >= hi_d, F.lit(hi))
                .otherwise(d.cast("long")).cast("long"))
    return d
