"""Flink's JSON functions on Spark: their Spark SQL (registered into `functions.FLINK_FUNCTIONS`), their result
types (into `bind.types.CALL_TYPES`) and the rewrite of sqlglot's own nodes for them into Flink's calls.

- `IS [NOT] JSON [VALUE | SCALAR | ARRAY | OBJECT]`, JSON_EXISTS, JSON_VALUE and JSON_QUERY read JSON text:
  they call the Python kernels of runtime/json_kernels.py (`dynsql_*` functions on the session), which follow
  Flink's path modes, empty / error behaviours and output text; JSON_VALUE's RETURNING type is a CAST of the
  text the kernel checked.
- JSON_STRING, JSON_OBJECT and JSON_ARRAY write JSON from SQL values: Spark's own `to_json` (Jackson, as in
  Flink) for each value, put together as Flink does (compact, JSON_OBJECT's keys sorted, NULL ON NULL the
  default of JSON_OBJECT and ABSENT ON NULL that of JSON_ARRAY, a nested JSON_OBJECT / JSON_ARRAY as JSON, not
  as a string).
JSON_QUERY's `RETURNING ARRAY<STRING>` reads the kernel's JSON text with Spark's FROM_JSON.
Not here: JSON_ARRAYAGG and JSON_OBJECTAGG (planner/aggregate_functions.py)."""

import sqlglot
from sqlglot import exp

from ...dialect_json import JsonOption
from ...errors import SqlError, UnsupportedError


# ---------------------------------------------------------------------- sqlglot's nodes -> Flink's calls
def canonical_json(node):
    """`x IS JSON [kind]` -> IS_JSON(x, 'kind'); sqlglot's JSONObject -> JSON_OBJECT(k, v, ..., option)."""
    if isinstance(node, exp.Is) and isinstance(node.expression, exp.JSON):
        kind = node.expression.this
        kind = kind.name if isinstance(kind, exp.Expression) else kind if isinstance(kind, str) else "VALUE"
        kind = kind.upper() or "VALUE"
        call = exp.Anonymous(this="$IS_JSON", expressions=[node.this, exp.Literal.string(kind)])
        call.meta.update(node.meta)
        return call
    if isinstance(node, exp.JSONObject):
        args = []
        for kv in node.expressions:
            if isinstance(kv, exp.JSONKeyValue):
                args.extend([kv.this, kv.expression])
            else:
                raise UnsupportedError("JSON_OBJECT takes KEY k VALUE v pairs, not %s" % kv.sql())
        handling = node.args.get("null_handling")
        if handling:
            args.append(JsonOption(this=str(handling).upper()))
        call = exp.Anonymous(this="JSON_OBJECT", expressions=args)
        call.meta.update(node.meta)
        return call
    return node


# ---------------------------------------------------------------------- Spark SQL
def _template(sql, *args):
    tree = sqlglot.parse_one(sql, read="spark")

    def put(n):
        if isinstance(n, exp.Column) and not n.table and n.name.startswith("__a") and n.name[3:].isdigit():
            return args[int(n.name[3:])]
        return n
    out = tree.transform(put)
    out.meta["spark"] = True
    return out


def _split(args):
    """(value arguments, {option words: JsonOption})."""
    values, options = [], {}
    for a in args:
        if isinstance(a, JsonOption):
            options[a.words] = a
        else:
            values.append(a)
    return values, options


def _behaviour(options, target, default):
    """(mode, default expression or None) of `... ON target`."""
    for words, opt in options.items():
        if words.endswith(" ON " + target):
            mode = words[:-len(" ON " + target)]
            return mode, opt.args.get("expression")
    return default, None


def _text(e):
    if e is None:
        return exp.Cast(this=exp.Null(), to=exp.DataType.build("STRING"))
    e.meta["__argument"] = True          # mapped to Spark too (planner.bind.expressions visits marked arguments)
    return exp.Cast(this=e, to=exp.DataType.build("STRING"))


def _returning(options):
    opt = options.get("RETURNING")
    if opt is None:
        return None
    from ...dialect import Flink
    from ..types import parse_type
    if opt.args.get("to") is None:
        raise SqlError("RETURNING needs a type (e.g. RETURNING INT)")
    text = opt.args["to"].sql(dialect=Flink).upper().replace("TEXT", "STRING")
    return parse_type(text)


def _json_value(args):
    values, options = _split(args)
    j, path = values[0], values[1]
    ftype = _returning(options)
    empty, empty_default = _behaviour(options, "EMPTY", "NULL")
    error, error_default = _behaviour(options, "ERROR", "NULL")
    kind = ftype.name if ftype is not None else "STRING"
    call = _template("DYNSQL_JSON_VALUE(__a0, __a1, __a2, __a3, __a4, __a5, __a6)", j, path,
                     exp.Literal.string(empty), _text(empty_default), exp.Literal.string(error),
                     _text(error_default), exp.Literal.string(kind))
    if ftype is None or kind in ("STRING", "VARCHAR", "CHAR"):
        return call
    from ..types import spark_type_sql
    return _template("CAST(__a0 AS %s)" % spark_type_sql(ftype), call)


_WRAPPERS = {"WITHOUT ARRAY WRAPPER": "WITHOUT", "WITHOUT WRAPPER": "WITHOUT",
             "WITH CONDITIONAL ARRAY WRAPPER": "CONDITIONAL", "WITH CONDITIONAL WRAPPER": "CONDITIONAL",
             "WITH UNCONDITIONAL ARRAY WRAPPER": "UNCONDITIONAL", "WITH UNCONDITIONAL WRAPPER": "UNCONDITIONAL",
             "WITH ARRAY WRAPPER": "UNCONDITIONAL", "WITH WRAPPER": "UNCONDITIONAL"}


def _json_query(args):
    values, options = _split(args)
    wrapper = next((_WRAPPERS[w] for w in options if w in _WRAPPERS), "WITHOUT")
    empty, _ = _behaviour(options, "EMPTY", "NULL")
    error, _ = _behaviour(options, "ERROR", "NULL")
    call = _template("DYNSQL_JSON_QUERY(__a0, __a1, __a2, __a3, __a4)", values[0], values[1],
                     exp.Literal.string(wrapper), exp.Literal.string(empty), exp.Literal.string(error))
    ftype = _returning(options)
    if ftype is None or ftype.name != "ARRAY":
        return call
    # RETURNING ARRAY<STRING>: the JSON array's elements, a scalar as its text, an array or object as its JSON;
    # NULL for a result that is not an array
    return _template("CASE WHEN STARTSWITH(__a0, '[') THEN FROM_JSON(__a0, 'array<string>') END", call)


def _json_exists(args):
    values, options = _split(args)
    error, _ = _behaviour(options, "ERROR", "FALSE")
    return _template("DYNSQL_JSON_EXISTS(__a0, __a1, __a2)", values[0], values[1], exp.Literal.string(error))


def _is_json(args):
    return _template("DYNSQL_IS_JSON(__a0, __a1)", args[0], args[1])


_TO_JSON = "REGEXP_EXTRACT(TO_JSON(ARRAY(__a0), MAP('ignoreNullFields', 'false')), '^\\\\[(.*)\\\\]$', 1)"


def _is_json_call(e):
    """A JSON_OBJECT / JSON_ARRAY call, in Flink's form or already written as Spark's (its arguments are mapped
    before it: expressions.to_spark works bottom-up)."""
    return e.meta.get("json_text") or isinstance(e, exp.Anonymous) and e.name.upper() in ("JSON_OBJECT", "JSON_ARRAY")


def _json_written(tree):
    tree.meta["json_text"] = True          # JSON text already: a JSON_OBJECT / JSON_ARRAY that holds it nests it
    return tree


def _json_text(e):
    """The JSON text of a SQL value (a nested JSON_OBJECT / JSON_ARRAY is JSON already); NULL for NULL."""
    e.meta["__argument"] = True
    if _is_json_call(e):
        return e
    return _template("CASE WHEN __a0 IS NULL THEN NULL ELSE %s END" % _TO_JSON, e)


def _member(e, absent):
    """An array element or object value: 'null' for NULL (NULL ON NULL), left out (ABSENT ON NULL)."""
    text = _json_text(e)
    return text if absent else _template("COALESCE(__a0, 'null')", text)


def _join(parts, open_, close):
    if not parts:
        return exp.Literal.string(open_ + close)
    return _template("CONCAT('%s', CONCAT_WS(',', %s), '%s')" % (
        open_, ", ".join("__a%d" % i for i in range(len(parts))), close), *parts)


def _json_array(args):
    values, options = _split(args)
    absent = "NULL ON NULL" not in options
    return _json_written(_join([_member(v, absent) for v in values], "[", "]"))


def _json_object(args):
    values, options = _split(args)
    absent = "ABSENT ON NULL" in options
    pairs = list(zip(values[0::2], values[1::2]))
    if any(not (isinstance(k, exp.Literal) and k.is_string) for k, _ in pairs):
        raise UnsupportedError("JSON_OBJECT with a key that is not a string literal is not supported yet")
    pairs.sort(key=lambda kv: kv[0].name)                 # Flink writes the keys in order
    import json
    parts = []
    for k, v in pairs:
        key = exp.Literal.string(json.dumps(k.name, ensure_ascii=False) + ":")
        parts.append(_template("CONCAT(__a0, __a1)", key, _member(v, absent)))
    return _json_written(_join(parts, "{", "}"))


def _json_string(args):
    return _template("CASE WHEN __a0 IS NULL THEN NULL ELSE %s END" % _TO_JSON, args[0])


REWRITES = {
    "$IS_JSON": ((2, 2), _is_json),
    "JSON_EXISTS": ((2, None), _json_exists),
    "JSON_VALUE": ((2, None), _json_value),
    "JSON_QUERY": ((2, None), _json_query),
    "JSON_STRING": ((1, 1), _json_string),
    "JSON_OBJECT": ((0, None), _json_object),
    "JSON_ARRAY": ((0, None), _json_array),
}


# ---------------------------------------------------------------------- Flink's result types
def _t(text, nullable=True):
    from ..inference import t
    return t(text, nullable)


def _string_args(name, types, count=2):
    for x in types[:count]:
        if x is not None and x.name not in ("CHAR", "VARCHAR", "NULL"):
            raise SqlError("Invalid function call: %s expects a JSON string and a path, not %s" % (
                name, ", ".join(y.text() if y is not None else "?" for y in types[:count])))


def _value_type(types, args):
    _string_args("JSON_VALUE", types)
    _, options = _split(args)
    ftype = _returning(options)
    if ftype is None:
        return _t("STRING")
    if ftype.name not in ("CHAR", "VARCHAR", "BOOLEAN", "INT", "DOUBLE"):      # Flink's choice
        raise SqlError("Unsupported type '%s' for RETURNING in JSON_VALUE()." % ftype.text(with_null=False))
    from ..inference import nullable
    return nullable(ftype, True)


def _query_type(types, args):
    _string_args("JSON_QUERY", types)
    _, options = _split(args)
    ftype = _returning(options)
    if ftype is not None and ftype.name == "ARRAY":
        element = ftype.children[0]
        if element.name not in ("CHAR", "VARCHAR"):
            from ..signatures import calcite
            raise SqlError("Unsupported array element type '%s' for RETURNING ARRAY in JSON_QUERY()."
                           % calcite(element))
        return _t("ARRAY<STRING>")
    if ftype is not None and ftype.name not in ("CHAR", "VARCHAR"):
        raise UnsupportedError("JSON_QUERY ... RETURNING %s is not supported yet" % ftype.text())
    return _t("STRING")


def _exists_type(types, args):
    _string_args("JSON_EXISTS", types)
    return _t("BOOLEAN")


def _object_type(types, args):
    values, _ = _split(args)
    for k, kt in zip(values[0::2], [typ for a, typ in zip(args, types) if not isinstance(a, JsonOption)][0::2]):
        if kt is not None and kt.nullable:
            raise SqlError("Argument to function '%s' must not be NULL" % (k.name if isinstance(k, exp.Column)
                                                                          else k.sql()))
    return _t("STRING", False)


RETURN_TYPES = {
    "$IS_JSON": lambda types, args: _t("BOOLEAN", False),
    "JSON_EXISTS": _exists_type,
    "JSON_VALUE": _value_type,
    "JSON_QUERY": _query_type,
    "JSON_STRING": lambda types, args: _t("STRING", types[0] is None or types[0].nullable),
    "JSON_OBJECT": _object_type,
    "JSON_ARRAY": lambda types, args: _t("STRING", False),
}


def register(functions, mapping_class):
    """Put the JSON functions into FLINK_FUNCTIONS (functions.py calls this once, at import)."""
    for name, (bounds, rewrite) in REWRITES.items():
        functions[name] = mapping_class("json", rewrite=rewrite, args=bounds)
    from .registry import FLINK_UNMAPPED
    FLINK_UNMAPPED.difference_update(REWRITES)
