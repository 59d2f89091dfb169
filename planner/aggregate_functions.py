"""Flink 2.3's aggregate functions beyond the SQL standard's few, as the binder plans them: a sqlglot call ->
(Flink's name, its arguments, options), its result type, and Flink's refusals.

- `ARRAY_AGG(x [RESPECT NULLS | IGNORE NULLS])`: the values in arrival order, NULLs kept unless IGNORE NULLS
  (Flink's ArrayAggFunction), ARRAY<type of x>; a retraction removes one equal value.
- `JSON_ARRAYAGG(x [ABSENT ON NULL | NULL ON NULL])` (ABSENT the default) and `JSON_OBJECTAGG([KEY] k VALUE v
  [NULL ON NULL | ABSENT ON NULL])` (NULL the default): as Flink's WrapJsonAggFunctionArgumentsRule, the value is
  aggregated as its JSON text (JSON_STRING of it; a JSON_OBJECT / JSON_ARRAY call is JSON already), the
  runtime only joins texts; STRING NOT NULL. A key met twice in one group fails the query with Flink's message.
- `APPROX_COUNT_DISTINCT(x)`: batch only, as in Flink ("does not support yet for streaming").
- Flink's other aggregate functions that sqlglot knows by a name of its own (BITMAP_OR_AGG is sqlglot's
  BITMAPORAGG) are refused under Flink's name.
It does not run anything: runtime/operators/accumulators.py and group_aggregate.py compute the values."""

from sqlglot import exp

from .errors import SqlError, UnsupportedError
from .expr.functions.flink_builtins import NAMES as FLINK_NAMES
from .expr.signatures import calcite
from .expr.types import FlinkType, parse_type

NEW = ("ARRAY_AGG", "JSON_ARRAYAGG", "JSON_OBJECTAGG", "APPROX_COUNT_DISTINCT")

# sqlglot's own node names -> Flink's
_SQLGLOT = {"ARRAYAGG": "ARRAY_AGG", "APPROXDISTINCT": "APPROX_COUNT_DISTINCT", "JSONOBJECTAGG": "JSON_OBJECTAGG"}
_SQLGLOT.update({n.replace("_", ""): n for n in FLINK_NAMES if n.endswith("_AGG") and n.replace("_", "") not in _SQLGLOT})

JSON_TEXT_CALLS = ("JSON_OBJECT", "JSON_ARRAY")


def flink_name(sqlglot_name):
    """sqlglot's name of an aggregate node (BITMAPORAGG) -> Flink's (BITMAP_OR_AGG); others unchanged."""
    return _SQLGLOT.get(sqlglot_name, sqlglot_name)


def unwrap(resolved):
    """A call wrapped in RESPECT NULLS / IGNORE NULLS -> (the call, True when IGNORE NULLS)."""
    if isinstance(resolved, exp.IgnoreNulls):
        return resolved.this, True
    if isinstance(resolved, exp.RespectNulls):
        return resolved.this, False
    return resolved, False


def is_wrapped_aggregate(node, is_aggregate):
    return isinstance(node, (exp.IgnoreNulls, exp.RespectNulls)) and is_aggregate(node.this)


def arguments(name, resolved, args, ignore_nulls, position, batch):
    """(arguments, options) of a call of one of NEW; raises Flink's refusals. `args` are the call's
    arguments as the binder read them (JSON_OBJECTAGG's are read here from its KEY .. VALUE pair)."""
    if name == "APPROX_COUNT_DISTINCT" and not batch:
        raise UnsupportedError("APPROX_COUNT_DISTINCT aggregate function does not support yet for streaming.",
                               *position)
    if ignore_nulls and name != "ARRAY_AGG":
        raise SqlError("RESPECT NULLS / IGNORE NULLS is allowed for ARRAY_AGG only, not %s" % name, *position)
    if name == "ARRAY_AGG":
        if len(args) == 1 and isinstance(args[0], exp.Order):
            args = [args[0].this]     # Flink 2.3 takes the ORDER BY and keeps the rows' arrival order all the same
        return args, ("IGNORE NULLS",) if ignore_nulls else ()
    if name == "JSON_ARRAYAGG":
        values = [a for a in args if not _is_option(a)]
        options = [a.name.upper() for a in args if _is_option(a)]
        if len(values) != 1:
            raise SqlError("JSON_ARRAYAGG takes one value", *position)
        return [json_text(values[0])], ("NULL ON NULL" if "NULL ON NULL" in options else "ABSENT ON NULL",)
    if name == "JSON_OBJECTAGG":
        pairs = resolved.expressions
        if len(pairs) != 1 or not isinstance(pairs[0], exp.JSONKeyValue):
            raise SqlError("JSON_OBJECTAGG takes one KEY .. VALUE pair", *position)
        handling = (resolved.args.get("null_handling") or "NULL ON NULL").upper()
        return [pairs[0].this, json_text(pairs[0].expression)], (handling,)
    return args, ()


def _is_option(a):
    return isinstance(a, exp.Var)            # planner/dialect_json.py's NULL ON NULL / ABSENT ON NULL


def json_text(value):
    """The JSON text of a value, as Flink aggregates it: JSON_STRING(value), a JSON_OBJECT / JSON_ARRAY as is."""
    if isinstance(value, exp.Anonymous) and value.name.upper() in JSON_TEXT_CALLS:
        return value
    text = exp.Anonymous(this="JSON_STRING", expressions=[value])
    text.meta["json_value"] = True
    return text


def value_of(arg):
    """An argument as the user wrote it (the value under json_text's JSON_STRING), for messages naming its type."""
    return arg.expressions[0] if arg.meta.get("json_value") else arg


def check_key_type(name, arg_types, options, position):
    """JSON_OBJECTAGG's key must be a string: Flink's (Calcite's) words when it is not."""
    if name == "JSON_OBJECTAGG" and arg_types[0] is not None and arg_types[0].name not in ("CHAR", "VARCHAR"):
        flink = "JSON_OBJECTAGG_" + options[0].replace(" ", "_")
        raise SqlError("Cannot apply '%s' to arguments of type '%s(<%s>, <%s>)'. Supported form(s): "
                       "'%s(<CHARACTER>, <ANY>)'" % (flink, flink, _calcite_name(arg_types[0]),
                                                     _calcite_name(arg_types[1]), flink), *position)


_UNORDERED = {"ARRAY": "ARRAY", "MAP": "MAP", "MULTISET": "MULTISET", "ROW": "ROW", "BYTES": "VARBINARY",
              "VARBINARY": "VARBINARY", "BINARY": "BINARY"}


def check_min_max(name, arg_types, position):
    """MIN / MAX of a collection, a ROW or bytes: Flink's planner finds no MIN / MAX for it ("Min aggregate function does
    not support type: ''ARRAY''."), over a GROUP BY, a window or OVER alike."""
    if name in ("MIN", "MAX") and arg_types and arg_types[0] is not None and arg_types[0].name in _UNORDERED:
        raise SqlError("%s aggregate function does not support type: ''%s''.\nPlease re-check the data type."
                       % (name.capitalize(), _UNORDERED[arg_types[0].name]), *position())


_BYTES = ("BINARY", "VARBINARY", "BYTES")


def check_collect(name, arg_types, position):
    """COLLECT of BYTES: Flink 2.3 keys its MULTISET (a java.util.HashMap) by the byte[] itself, whose equals and
    hashCode are its object's identity: equal byte strings are counted apart ({x'6162'=1, x'61'=1, x'61'=1, ..})
    in an order of identity hashes, which no run repeats. Not copied: refused in words. (BYTES inside a ROW or
    ARRAY element are hashed by the element's binary form, equal ones counted together: binary_hash.py.)"""
    if name == "COLLECT" and arg_types and arg_types[0] is not None and arg_types[0].name in _BYTES:
        raise UnsupportedError("COLLECT of BYTES values is not supported: Flink 2.3 counts equal byte strings apart "
                               "(by each array's identity), in an order no run repeats", *position(),
                               hint="COLLECT(TO_BASE64(x)) or COLLECT(CAST(x AS STRING))")


def _calcite_name(t):
    return "ANY" if t is None else calcite(t)


def check_calls(calls, position):
    """Flink's batch planner refuses APPROX_COUNT_DISTINCT beside a DISTINCT aggregate in one statement."""
    if any(c.function == "APPROX_COUNT_DISTINCT" for c in calls) and any(c.distinct for c in calls):
        raise UnsupportedError("There are both Distinct AggCall and Approximate Distinct AggCall in one sql "
                               "statement, it is not supported yet. Please choose one of them.", *position)


def result_type(name, arg_types, options):
    """Flink's type of the call's result."""
    if name == "ARRAY_AGG":
        element = arg_types[0]
        if element is not None and options == ("IGNORE NULLS",):
            element = FlinkType(element.name, element.params, element.children, nullable=False)
        return FlinkType("ARRAY", (), [element], nullable=True)
    if name in ("JSON_ARRAYAGG", "JSON_OBJECTAGG"):
        t = parse_type("STRING")
        t.nullable = False
        return t
    if name == "APPROX_COUNT_DISTINCT":
        t = parse_type("BIGINT")
        t.nullable = False
        return t
    return None
