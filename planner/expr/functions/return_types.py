"""Flink's return-type rules of its built-in functions, by name: each rule is `rule(node, args, typeof)` -> the
call's Flink type (nullability included: NULL in, NULL out where Flink's function is so), or None when it
cannot be told. The function registry (registry.py) holds them beside each function's translation to
Spark; planner/expr/inference.py asks the registry for a call's rule. Collection and JSON functions have
theirs in their own modules (collections.py, json.py: `rule(argument types, arguments)`)."""

import re

from sqlglot import exp

from ..inference import STRING, aggregate_type, any_nullable, arithmetic, least_restrictive, nullable, t
from ..time_zones import to_timestamp_ltz_type
from ..types import FlinkType

_STRING_FUNCTIONS = {
    "UPPER", "LOWER", "INITCAP", "CONCAT", "CONCAT_WS", "SUBSTRING", "SUBSTR", "TRIM", "LTRIM", "RTRIM",
    "REPLACE", "REPEAT", "REVERSE", "LPAD", "RPAD", "LEFT", "RIGHT", "REGEXP_REPLACE", "REGEXP_EXTRACT",
    "SPLIT_INDEX", "MD5", "SHA1", "SHA256", "TO_BASE64", "FROM_BASE64", "JSON_VALUE", "DATE_FORMAT",
    "FROM_UNIXTIME", "CONVERT_TZ", "CHR", "UUID", "BIN", "HEX", "LISTAGG", "TYPEOF", "OVERLAY", "TRANSLATE",
    "URL_DECODE", "URL_ENCODE", "PARSE_URL", "ARRAY_JOIN", "DECODE", "ENCODE",
}
_INT_FUNCTIONS = {"CHAR_LENGTH", "CHARACTER_LENGTH", "POSITION", "LOCATE", "INSTR", "ASCII",
                  "TIMESTAMPDIFF", "CARDINALITY", "RAND_INTEGER"}
_BIGINT_FUNCTIONS = {"YEAR", "QUARTER", "MONTH", "WEEK", "DAYOFYEAR", "DAYOFMONTH", "DAYOFWEEK", "HOUR", "MINUTE",
                     "SECOND", "EXTRACT", "UNIX_TIMESTAMP", "ROW_NUMBER", "RANK", "DENSE_RANK", "NTILE"}
_DOUBLE_FUNCTIONS = {"POWER", "SQRT", "EXP", "LN", "LOG10", "LOG2", "LOG", "SIN", "COS", "TAN", "ASIN",
                     "ACOS", "ATAN", "ATAN2", "DEGREES", "RADIANS", "PI", "E", "RAND", "PERCENT_RANK", "CUME_DIST",
                     "COT", "SINH", "COSH", "TANH"}
_BOOLEAN_FUNCTIONS = {"IS_DIGIT", "IS_ALPHA", "IS_DECIMAL", "REGEXP", "ARRAY_CONTAINS", "LIKE", "SIMILAR"}
_SAME_AS_FIRST = {"ABS", "FLOOR", "CEIL", "CEILING", "ROUND", "TRUNCATE", "SIGN", "MIN", "MAX", "FIRST_VALUE",
                  "LAST_VALUE", "LAG", "LEAD", "ARRAY_DISTINCT"}


def _types(args, typeof):
    return [typeof(a) for a in args]


def _row(node, args, typeof):
    types = _types(args, typeof)
    if any(x is None for x in types):
        return None
    return FlinkType("ROW", (), [("EXPR$%d" % i, x) for i, x in enumerate(types)], nullable=False)


def _map(node, args, typeof):
    if not isinstance(node, exp.Anonymous):
        return None
    ks, vs = _types(args[0::2], typeof), _types(args[1::2], typeof)
    k, v = least_restrictive(ks), least_restrictive(vs)
    return FlinkType("MAP", (), [k, v], nullable=False) if k is not None and v is not None else None


def _aggregate(name):
    def rule(node, args, typeof):
        arg = args[0] if args else None
        if isinstance(arg, exp.Distinct):
            arg = arg.expressions[0] if arg.expressions else None
        return aggregate_type(name, typeof(arg) if arg is not None else None)
    return rule


def _aggregate_call_or(name, otherwise):
    """MIN, MAX, FIRST_VALUE, LAST_VALUE: the aggregate's type when the call is sqlglot's aggregate node."""
    aggregate = _aggregate(name)
    return lambda node, args, typeof: aggregate(node, args, typeof) if isinstance(node, exp.AggFunc) \
        else otherwise(node, args, typeof)


def _case_of_argument(node, args, typeof):
    """UPPER, LOWER, INITCAP: Flink keeps a CHAR / VARCHAR argument's type, else STRING."""
    if args and typeof(args[0]) is not None and typeof(args[0]).name in ("CHAR", "VARCHAR"):
        return typeof(args[0])
    return _string(node, args, typeof)


def _string(node, args, typeof):
    return t(STRING, any_nullable(_types(args, typeof)) if args else False)


def _int(node, args, typeof):
    return t("INT", any_nullable([typeof(a) for a in args if not isinstance(a, exp.Var)]))


def _bigint(name):
    def rule(node, args, typeof):
        kids = [typeof(a) for a in args if not isinstance(a, exp.Var)]
        return t("BIGINT", name not in ("ROW_NUMBER", "RANK", "DENSE_RANK") and any_nullable(kids))
    return rule


def _double(node, args, typeof):
    return t("DOUBLE", any_nullable(_types(args, typeof)) if args else False)


def _boolean(node, args, typeof):
    return t("BOOLEAN", any_nullable(_types(args, typeof)))


def _same_as_first(name):
    def rule(node, args, typeof):
        if not args:
            return None
        first = typeof(args[0])
        if name in ("CEIL", "CEILING", "FLOOR") and first is not None and first.name == "DECIMAL" \
                and node.args.get("to") is None:
            return t("DECIMAL(%d, 0)" % first.params[0], first.nullable)
        if name in ("ROUND", "TRUNCATE") and first is not None and first.name == "DECIMAL":
            digits = node.args.get("decimals") if not isinstance(node, exp.Anonymous) else \
                (args[1] if len(args) > 1 else None)
            d = int(digits.name) if isinstance(digits, exp.Literal) and not digits.is_string \
                and re.fullmatch(r"-?\d+", digits.name) else 0
            p, s = first.params       # Flink's LogicalTypeMerging.findRoundDecimalType
            p, s = (p, s) if d >= s else (min(38, 1 + p - s), 0) if d < 0 else (1 + p - s + d, d)
            return t("DECIMAL(%d, %d)" % (p, s), first.nullable)
        return first
    return rule


def _nullif(node, args, typeof):
    return nullable(typeof(args[0]), True) if args else None


def _ifnull(node, args, typeof):
    if len(args) != 2:
        return None
    out = least_restrictive(_types(args, typeof))
    return nullable(out, typeof(args[1]) is None or typeof(args[1]).nullable) if out else None


def _if(node, args, typeof):
    return least_restrictive([typeof(args[1]), typeof(args[2])]) if len(args) == 3 else None


def _mod(node, args, typeof):
    return arithmetic("%", typeof(args[0]), typeof(args[1])) if len(args) == 2 else None


def _constant(text, null=True):
    return lambda node, args, typeof: t(text, null)


def _timestampadd(node, args, typeof):
    return typeof(args[2]) if len(args) == 3 else None


def _map_keys_or_values(name):
    def rule(node, args, typeof):
        m = typeof(args[0]) if args else None
        if m is not None and m.name == "MAP":
            return FlinkType("ARRAY", (), [m.children[0 if name == "MAP_KEYS" else 1]], nullable=m.nullable)
        return None
    return rule


def _element(node, args, typeof):
    a = typeof(args[0]) if args else None
    return nullable(a.children[0], True) if a is not None and a.name == "ARRAY" else None


_AGGREGATES = ("SUM", "AVG", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "LISTAGG", "COLLECT")


def rules():
    """name -> rule, each name's first in Flink's order of precedence (as inference.py read them in turn)."""
    out = {}
    put = out.setdefault
    put("ROW", _row)
    put("MAP", _map)
    put("COUNT", _constant("BIGINT", False))
    for name in _AGGREGATES:
        put(name, _aggregate(name))
    for name in ("MIN", "MAX", "FIRST_VALUE", "LAST_VALUE"):
        put(name, _aggregate_call_or(name, _same_as_first(name)))
    put("TYPEOF", _constant(STRING))
    for name in ("UPPER", "LOWER", "INITCAP"):
        put(name, _case_of_argument)
    put("ENCODE", lambda node, args, typeof: t("BYTES", any_nullable(_types(args, typeof))))
    for names, rule_of in ((_STRING_FUNCTIONS, lambda name: _string), (_INT_FUNCTIONS, lambda name: _int),
                           (_BIGINT_FUNCTIONS, _bigint), (_DOUBLE_FUNCTIONS, lambda name: _double),
                           (_BOOLEAN_FUNCTIONS, lambda name: _boolean), (_SAME_AS_FIRST, _same_as_first)):
        for name in sorted(names):
            put(name, rule_of(name))
    put("GREATEST", lambda node, args, typeof: least_restrictive(_types(args, typeof)))
    put("LEAST", lambda node, args, typeof: least_restrictive(_types(args, typeof)))
    put("NULLIF", _nullif)
    put("IFNULL", _ifnull)
    put("IF", _if)
    put("MOD", _mod)
    put("TO_TIMESTAMP", _constant("TIMESTAMP(3)"))
    put("STRTOTIME", _constant("TIMESTAMP(3)"))
    put("TO_TIMESTAMP_LTZ", lambda node, args, typeof: t(to_timestamp_ltz_type(args, typeof)))
    put("TO_DATE", _constant("DATE"))
    for name in ("NOW", "CURRENT_TIMESTAMP", "CURRENT_ROW_TIMESTAMP", "PROCTIME"):
        put(name, _constant("TIMESTAMP_LTZ(3)", False))
    put("LOCALTIMESTAMP", _constant("TIMESTAMP(3)", False))
    put("CURRENT_DATE", _constant("DATE", False))
    put("TIMESTAMPADD", _timestampadd)
    put("STR_TO_MAP", lambda node, args, typeof: FlinkType("MAP", (), [t(STRING), t(STRING)]))
    put("MAP_KEYS", _map_keys_or_values("MAP_KEYS"))
    put("MAP_VALUES", _map_keys_or_values("MAP_VALUES"))
    put("ELEMENT", _element)
    return out
