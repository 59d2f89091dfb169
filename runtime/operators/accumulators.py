"""Aggregate functions as accumulators that take rows in and out: a row adds with weight +1 (+I, +U) and
retracts with -1 (-U, -D). What every aggregating processor shares: the group aggregate over a changelog,
the OVER aggregate's frames (a row leaving a bounded frame is a retraction), window aggregates.

`Accumulator(function, arg, distinct, filter, options, integral)` is one call: `empty()` is its state (small
lists and Counters, pickled with the operator's state), `add(acc, row, w)` folds one input row in (`row`
maps input field names to values; the FILTER field must be TRUE, NULL arguments are skipped),
`result(acc)` is the value Flink gives. Functions and their state:
  COUNT, COUNT(*)            [n]
  SUM, AVG                   [n, sum]            AVG of an integral type divides as Java does (truncating)
  MIN, MAX                   Counter of values   (retracting the current extreme is right); over insert-only
                             rows Flink's MinAggFunction / MaxAggFunction fold them in arrival order with
                             Java's `<` / `>` (a first NaN stays, the first zero keeps its sign), as Python's
                             min / max over the Counter's keys do; over a changelog (`java_compare`) its
                             Min/MaxWithRetractAggFunction orders FLOAT/DOUBLE values by Double.compareTo
                             (NaN above every number, -0.0 below 0.0), each value a key of its own
  STDDEV_POP/_SAMP, VAR_POP/_SAMP  as a group or window aggregate [n, mean, m2]: Flink 2.3's WELFORD_M2 in
                             arrival order, the result cast to the argument's type (spread_aggregates.py); as an
                             OVER aggregate (`integer_moments`) [n, sum, sum of squares]: Calcite expands them
                             into sums there, with integer arithmetic for an integral argument
  FIRST_VALUE, LAST_VALUE, LISTAGG  the values in arrival order (a retraction removes the first equal one)
  COLLECT                    Counter of values (a MULTISET: value -> count), given in the order of Flink's
                             java.util.HashMap of them (connectors/map_order.py)
  BOOL_AND, BOOL_OR          [trues, falses]
  SINGLE_VALUE               Counter of (value,): a scalar subquery's one row (NULL counts); more than one
                             row fails the query with the message in its options (Flink's SingleValueAggFunction)
  ARRAY_AGG                  the values in arrival order, NULLs too (unless IGNORE NULLS); NULL when none
  JSON_ARRAYAGG              the values' JSON texts in arrival order (NULL ON NULL: 'null' for a NULL)
  JSON_OBJECTAGG             {key: JSON text} in arrival order; a key met twice fails the query (Flink's message)
  DISTINCT f                 Counter of the distinct values; f over them
  a Python aggregate function (udaf): runtime/python_functions/aggregates.py's PythonAccumulator
It does not decide output types: the operator's translator casts results to the planner's Flink types."""

import math
from collections import Counter
from decimal import Decimal

from ..connectors.map_order import java_hash_map_order
from ..java_float import JavaFloat
from .keyed_state import add as count_in
from .keyed_state import freeze
from .spread_aggregates import welford_add, welford_empty, welford_value

FUNCTIONS = ("COUNT", "COUNT_STAR", "SUM", "AVG", "MIN", "MAX", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP",
             "VAR_SAMP", "FIRST_VALUE", "LAST_VALUE", "LISTAGG", "COLLECT", "BOOL_AND", "BOOL_OR", "SINGLE_VALUE",
             "ARRAY_AGG", "JSON_ARRAYAGG", "JSON_OBJECTAGG")
_WITH_NULLS = ("ARRAY_AGG", "JSON_ARRAYAGG", "JSON_OBJECTAGG")      # a NULL argument is a value of theirs
_COUNTER = ("MIN", "MAX", "COLLECT", "SINGLE_VALUE")
_ORDERED = ("FIRST_VALUE", "LAST_VALUE", "LISTAGG", "ARRAY_AGG", "JSON_ARRAYAGG")
_MOMENTS = ("STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP")


class Accumulator:
    __slots__ = ("function", "arg", "distinct", "filter", "separator", "integral", "integer_moments", "value_arg",
                 "options", "java_compare", "element_type", "sum_moments", "result_type")

    def __init__(self, function, arg=None, distinct=False, filter=None, options=(), integral=False,
                 integer_moments=False, value_arg=None, java_compare=False):
        self.java_compare = java_compare and function in ("MIN", "MAX")   # FLOAT/DOUBLE by Double.compareTo
        self.function = "COUNT_STAR" if function == "COUNT" and arg is None else function
        self.arg = arg
        self.value_arg = value_arg        # JSON_OBJECTAGG's value (`arg` is its key)
        self.options = tuple(options)
        self.distinct = distinct and self.function != "COUNT_STAR"
        self.filter = filter
        self.separator = options[0] if options else ","
        self.integral = integral          # the argument is TINYINT .. BIGINT: Flink divides as integers
        self.integer_moments = integer_moments and integral
        self.sum_moments = integer_moments    # an OVER aggregate: the spreads from sums, not by Welford's M2
        self.element_type = None          # COLLECT: its argument's FlinkType (the MULTISET's order)
        self.result_type = None           # the spreads: the call's FlinkType (the result is cast to it)

    @classmethod
    def of_call(cls, call, integral=False, integer_moments=False, java_compare=False):
        """From a planner call (expr.AggCall or over.WindowCall): function, args, distinct, filter."""
        return cls(call.function, call.args[0] if call.args else None, call.distinct, call.filter,
                   getattr(call, "options", ()), integral, integer_moments,
                   call.args[1] if len(call.args) > 1 else None, java_compare)

    # ------------------------------------------------------------------ state
    def empty(self):
        return self._empty(self.distinct)

    def _empty(self, distinct):
        f = self.function
        if distinct and f in _WITH_NULLS:
            return [[], Counter()]          # the distinct values in order of arrival, their row counts
        if distinct or f in _COUNTER:
            return Counter()
        if f in _ORDERED:
            return []
        if f == "JSON_OBJECTAGG":
            return {}
        if f in ("COUNT", "COUNT_STAR"):
            return [0]
        if f in _MOMENTS:
            return [0, None, None] if self.sum_moments else welford_empty()
        if f in ("BOOL_AND", "BOOL_OR"):
            return [0, 0]
        return [0, None]

    def add(self, acc, row, w):
        if self.filter is not None and row[self.filter] is not True:
            return acc
        v = row[self.arg] if self.arg is not None else 1
        if self.function == "SINGLE_VALUE":
            count_in(acc, (v,), w)
            return acc
        if self.function in _WITH_NULLS:
            return self._collect(acc, v, row, w)
        if v is None:
            return acc
        if self.distinct:
            count_in(acc, v, w)
            return acc
        if self.function == "COLLECT":
            v = _collect_element(v, self.element_type)
        return self._fold(acc, v, w)

    def _fold(self, acc, v, w):
        f = self.function
        if self.java_compare:
            count_in(acc, compare_to_key(v), w)
        elif f in _COUNTER:
            count_in(acc, v, w)
        elif f in _ORDERED:
            if w > 0:
                acc.append(v)
            elif v in acc:
                acc.remove(v)
        elif f in ("COUNT", "COUNT_STAR"):
            acc[0] += w
        elif f in _MOMENTS and not self.sum_moments:
            welford_add(acc, v, w)
        elif f in _MOMENTS:
            acc[0] += w
            acc[1] = _plus(acc[1], v * w)
            acc[2] = _plus(acc[2], v * v * w)
        elif f in ("BOOL_AND", "BOOL_OR"):
            acc[0 if v else 1] += w
        else:
            acc[0] += w
            acc[1] = _plus(acc[1], v * w)
        return acc

    def _collect(self, acc, v, row, w):
        """ARRAY_AGG, JSON_ARRAYAGG, JSON_OBJECTAGG: NULL arguments are values (or skipped, as the options say)."""
        f = self.function
        if f == "JSON_OBJECTAGG":
            value = row[self.value_arg]
            if w > 0:
                if v in acc:
                    from planner.errors import RuntimeFailure
                    raise RuntimeFailure("Key '%s' is already present. Duplicate keys are not allowed in "
                                         "JSON_OBJECTAGG. Please ensure that keys are unique." % v)
                if value is not None or self.options != ("ABSENT ON NULL",):
                    acc[v] = value
            else:
                acc.pop(v, None)
            return acc
        if v is None:
            if f == "ARRAY_AGG" and self.options == ("IGNORE NULLS",) or \
                    f == "JSON_ARRAYAGG" and self.options != ("NULL ON NULL",):
                return acc
            v = "null" if f == "JSON_ARRAYAGG" else None
        if self.distinct:
            order, counts = acc
            counts[v] += w
            if w > 0 and counts[v] == w:
                order.append(v)
            elif counts[v] <= 0:            # a distinct value leaves with its last row
                del counts[v]
                if v in order:
                    order.remove(v)
            return acc
        return self._fold(acc, v, w)

    # ------------------------------------------------------------------ the value
    def result(self, acc):
        if self.distinct and self.function in _WITH_NULLS:
            return self._value(acc[0])
        if self.distinct:
            folded = self._empty(False)
            for v, c in acc.items():
                if c > 0:
                    folded = self._fold(folded, v, 1)
            return self._value(folded)
        return self._value(acc)

    def _value(self, acc):
        f = self.function
        if f in ("COUNT", "COUNT_STAR"):
            return acc[0]
        if f in ("MIN", "MAX"):
            live = [v for v, c in acc.items() if c > 0]
            extreme = (min(live) if f == "MIN" else max(live)) if live else None
            return compare_to_value(extreme) if self.java_compare and extreme is not None else extreme
        if f == "SINGLE_VALUE":
            live = [(v, c) for v, c in acc.items() if c > 0]
            if sum(c for _, c in live) > 1:
                from planner.errors import RuntimeFailure
                raise RuntimeFailure(self.separator)
            return live[0][0][0] if live else None
        if f == "COLLECT":         # Flink's MULTISET: a java.util.HashMap of element -> count, in its order
            live = [v for v, c in acc.items() if c > 0]
            return {v: acc[v] for v in java_hash_map_order(live, self.element_type)}
        if f == "FIRST_VALUE":
            return acc[0] if acc else None
        if f == "LAST_VALUE":
            return acc[-1] if acc else None
        if f == "LISTAGG":
            return self.separator.join(str(v) for v in acc) if acc else None
        if f == "ARRAY_AGG":
            return list(acc) if acc else None
        if f == "JSON_ARRAYAGG":
            return "[" + ",".join(acc) + "]"
        if f == "JSON_OBJECTAGG":
            return json_object_text(acc)
        if f in ("BOOL_AND", "BOOL_OR"):
            if acc[0] + acc[1] <= 0:
                return None
            return acc[1] <= 0 if f == "BOOL_AND" else acc[0] > 0
        if f in _MOMENTS and not self.sum_moments:
            return welford_value(f, acc, self.result_type)
        n = acc[0]
        if n <= 0:
            return None
        # an integral SUM wraps around past 2^63 as Java's long does, and so does the sum an integral AVG divides
        total = (acc[1] + 2 ** 63) % 2 ** 64 - 2 ** 63 if self.integral and isinstance(acc[1], int) else acc[1]
        if f == "SUM":
            return total
        if f == "AVG":
            return self._div(total, n)
        return self._moment(n, acc[1], acc[2])

    def _div(self, a, b):
        if self.integral and isinstance(a, int):
            return java_div(a, b)
        if isinstance(a, Decimal):
            return a / Decimal(b)
        return a / b

    def _moment(self, n, s, s2):
        """VAR_POP = (Σx² - (Σx)²/n) / n; VAR_SAMP divides by n - 1 (NULL for one row); STDDEV = VAR^0.5."""
        f = self.function
        if f.endswith("_SAMP") and n == 1:
            return None
        d = n - 1 if f.endswith("_SAMP") else n
        if self.integer_moments:
            var = java_div(s2 - java_div(s * s, n), d)
        elif isinstance(s, Decimal):
            var = (s2 - s * s / n) / d
        else:
            var = (float(s2) - float(s) * float(s) / n) / d
        if not f.startswith("VAR"):
            var = float(var) ** 0.5 if var >= 0 else float("nan")
        if self.integral:
            return int(var) if var == var else None
        return Decimal(repr(var)) if isinstance(s, Decimal) and isinstance(var, float) else var


def json_object_text(members):
    """{key: JSON text or None} -> JSON_OBJECTAGG's text: Jackson's compact object, keys in Flink's order (sorted)."""
    import json
    return "{" + ",".join("%s:%s" % (json.dumps(k, ensure_ascii=False), "null" if v is None else v)
                          for k, v in sorted(members.items())) + "}"


def java_div(a, b):
    """Integer division as Java's: truncating toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _plus(a, b):
    return b if a is None else a + b


INTEGRAL = ("TINYINT", "SMALLINT", "INT", "BIGINT")


def compare_to_key(v):
    """A FLOAT/DOUBLE value as a key ordered as Double.compareTo orders them (NaN above every number, -0.0 below
    0.0), equal as Double.equals (NaN equals NaN, -0.0 does not equal 0.0): (rank, number, sign of a zero)."""
    if v != v:
        return (1, 0.0, 0.0)
    return (0, v, math.copysign(1.0, v) if v == 0 else 0.0)


def compare_to_value(key):
    """`compare_to_key` undone."""
    rank, number, sign = key
    return float("nan") if rank else (math.copysign(0.0, sign) if sign else number)


def accumulators(calls, input_fields, integer_moments=False, retracting=False):
    """Accumulators for planner calls over a node's input fields (a fields.Field list): an integral argument
    makes AVG divide as integers, as Flink does (and the variance family too with `integer_moments`);
    `retracting`: the input is a changelog (MIN / MAX of a FLOAT/DOUBLE by Double.compareTo)."""
    from planner.python_functions.aggregate_calls import python_function
    types = {f.name: f.type for f in input_fields}

    def integral(c):
        t = types.get(c.args[0]) if c.args else None
        return t is not None and t.name in INTEGRAL

    def of(c):
        fn = python_function(c)
        if fn is not None:          # a Python aggregate function (udaf): its own accumulator
            from ..python_functions.aggregates import python_accumulator
            return python_accumulator(c, fn)
        t = types.get(c.args[0]) if c.args else None
        floating = t is not None and t.name in ("FLOAT", "DOUBLE")
        acc = Accumulator.of_call(c, integral(c), integer_moments, retracting and floating)
        acc.element_type = t if c.function == "COLLECT" else None
        acc.result_type = getattr(c, "type", None)
        return acc
    return [of(c) for c in calls]


def _collect_element(v, element_type):
    """COLLECT's element as its MULTISET's key: a DOUBLE by Double.equals (JavaFloat), a ROW (Spark hands it over
    as a dict of its fields) as a tuple of them, an ARRAY or MAP frozen (a dict and a list cannot be keys)."""
    if isinstance(v, float):
        return JavaFloat(v)
    if isinstance(v, dict) and element_type is not None and element_type.name == "ROW":
        return tuple(freeze(x) for x in v.values())
    if isinstance(v, (dict, list)):
        return freeze(v)
    return v
