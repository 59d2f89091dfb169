"""Flink's result type of an expression (a sqlglot tree whose columns the binder resolved: each Column
carries its input Field in `meta["field"]` and a nested path in `meta["path"]`), following Flink's rules:
integer arithmetic stays in the wider integer type, DECIMAL precision and scale as Flink's
LogicalTypeMerging computes them, SUM/AVG of an integer keep its type, string functions give STRING.
An expression whose type cannot be told gives None (the runtime then names the type from Spark's)."""

import copy

from sqlglot import exp

from ..literals import number_type
from .types import FlinkType, parse_type

_INT_PRECISION = {"TINYINT": 3, "SMALLINT": 5, "INT": 10, "BIGINT": 19}
_INT_ORDER = ["TINYINT", "SMALLINT", "INT", "BIGINT"]
_NUMERIC = set(_INT_PRECISION) | {"DECIMAL", "FLOAT", "DOUBLE"}
STRING = "STRING"


_PARSED = {}                 # type text -> FlinkType: a long expression asks for "BOOLEAN" a hundred thousand times


def t(text, nullable=True):
    parsed = _PARSED.get(text)
    if parsed is None:
        parsed = _PARSED[text] = parse_type(text)
    ft = copy.copy(parsed)     # shallow, as `nullable` copies: a type's children are never changed in place
    ft.nullable = nullable
    return ft


def nullable(ft, value=True):
    if ft is None:
        return None
    out = copy.copy(ft)
    out.nullable = value
    return out


def any_nullable(types):
    return any(x is None or x.nullable for x in types)


# functions written without parentheses, which the binder leaves as unresolved columns
_NIL_FUNCTION_TYPES = {"LOCALTIMESTAMP": t("TIMESTAMP(3)", False), "CURRENT_TIMESTAMP": t("TIMESTAMP_LTZ(3)", False),
                       "CURRENT_DATE": t("DATE", False), "LOCALTIME": t("TIME(0)", False),
                       "CURRENT_TIME": t("TIME(0)", False)}


def _decimal(ft):
    if ft.name == "DECIMAL":
        return ft.params
    if ft.name in _INT_PRECISION:
        return (_INT_PRECISION[ft.name], 0)
    return None


def _clamp_decimal(p, s):
    # Flink: precision at most 38; when over, the scale shrinks but keeps at least min(s, 6) digits
    if p > 38:
        s = max(min(s, 6), s - (p - 38))
        p = 38
    return p, s


def arithmetic(op, a, b):
    """Flink's result type of `a <op> b` (op: + - * / %), or None."""
    if a is None or b is None:
        return None
    null = a.nullable or b.nullable
    na, nb = a.name, b.name
    if na in ("TIMESTAMP", "TIMESTAMP_LTZ", "DATE") and op in "+-" and nb == "INTERVAL":
        return nullable(a, null)
    if nb in ("TIMESTAMP", "TIMESTAMP_LTZ", "DATE") and op == "+" and na == "INTERVAL":
        return nullable(b, null)
    if na == "TIME" and op in "+-" and nb == "INTERVAL":           # the time of day, wrapped around midnight
        return nullable(a, null)
    if nb == "TIME" and op == "+" and na == "INTERVAL":
        return nullable(b, null)
    if na == "INTERVAL" and (nb == "INTERVAL" and op in "+-" or nb in _NUMERIC and op in "*/"):
        return nullable(a, null)
    if nb == "INTERVAL" and na in _NUMERIC and op == "*":
        return nullable(b, null)
    if na not in _NUMERIC or nb not in _NUMERIC:
        return None
    if "DOUBLE" in (na, nb):
        return t("DOUBLE", null)
    if "FLOAT" in (na, nb):
        return t("FLOAT", null)
    if na in _INT_PRECISION and nb in _INT_PRECISION:
        if op == "%":
            return t(nb, null)
        return t(max(na, nb, key=_INT_ORDER.index), null)
    (p1, s1), (p2, s2) = _decimal(a), _decimal(b)
    if op == "*":
        p, s = p1 + p2 + 1, s1 + s2
    elif op == "/":
        s = max(6, s1 + p2 + 1)
        p = p1 - s1 + s2 + s
    elif op == "%":
        s = max(s1, s2)
        p = min(p1 - s1, p2 - s2) + s
    else:
        s = max(s1, s2)
        p = max(p1 - s1, p2 - s2) + s + 1
    p, s = _clamp_decimal(p, s)
    return t("DECIMAL(%d, %d)" % (p, s), null)


def least_restrictive(types):
    """The common type of CASE branches, COALESCE arguments, UNION columns, ARRAY elements; or None."""
    known = [x for x in types if x is not None and x.name != "NULL"]
    if not known or len(known) != len([x for x in types if x is not None and x.name != "NULL"]) \
            or any(x is None for x in types):
        if any(x is None for x in types):
            return None
    if not known:
        return None
    null = any(x.nullable or x.name == "NULL" for x in types)
    names = {x.name for x in known}
    if names <= {"CHAR", "VARCHAR"}:
        lengths = [x.params[0] if x.params else 1 for x in known]
        if names == {"CHAR"} and len(set(lengths)) == 1:
            return t("CHAR(%d)" % lengths[0], null)
        n = max(lengths)
        return t(STRING if n >= 2147483647 else "VARCHAR(%d)" % n, null)
    if names <= _NUMERIC:
        out = known[0]
        for x in known[1:]:
            if out.name == x.name and out.params == x.params:
                continue
            if {out.name, x.name} <= set(_INT_PRECISION):
                out = t(max(out.name, x.name, key=_INT_ORDER.index))
            elif "DOUBLE" in (out.name, x.name) or "FLOAT" in (out.name, x.name):
                out = t("DOUBLE" if "DOUBLE" in (out.name, x.name) else "FLOAT")
            else:
                (p1, s1), (p2, s2) = _decimal(out), _decimal(x)
                s = max(s1, s2)
                p, s = _clamp_decimal(max(p1 - s1, p2 - s2) + s, s)
                out = t("DECIMAL(%d, %d)" % (p, s))
        return nullable(out, null)
    if len(names) == 1 or names == {"TIMESTAMP", "TIMESTAMP_LTZ"}:   # (Flink: CASE of both is the first's kind)
        first = known[0]
        if first.name in ("TIMESTAMP", "TIMESTAMP_LTZ", "TIME"):
            p = max(x.params[0] if x.params else 6 for x in known)
            return t("%s(%d)" % (first.name, p), null)
        return nullable(first, null)
    return None


def literal_type(node):
    if isinstance(node, exp.Boolean):
        return t("BOOLEAN", False)
    if isinstance(node, exp.Null):
        return FlinkType("NULL")
    if node.is_string:
        n = len(node.name)
        return t("CHAR(%d)" % n if n else "CHAR(0)".replace("CHAR(0)", "CHAR(1)"), False) if n else t("CHAR(1)", False)
    return t(number_type(node.name.lstrip("-")), False)


def function_name(node):
    if isinstance(node, exp.Anonymous):
        return node.name.upper()
    return {"STRPOSITION": "POSITION", "LENGTH": "CHAR_LENGTH", "DPIPE": "CONCAT", "REGEXPEXTRACT":
            "REGEXP_EXTRACT", "REGEXPREPLACE": "REGEXP_REPLACE", "TIMESTAMPDIFF": "TIMESTAMPDIFF",
            "CURRENTTIMESTAMP": "CURRENT_TIMESTAMP", "CURRENTDATE": "CURRENT_DATE", "STDDEVPOP": "STDDEV_POP",
            "STDDEVSAMP": "STDDEV_SAMP", "VARIANCEPOP": "VAR_POP", "VARIANCE": "VAR_SAMP", "ROWNUMBER": "ROW_NUMBER",
            "DENSERANK": "DENSE_RANK", "ARRAYCONTAINS": "ARRAY_CONTAINS", "GROUPCONCAT": "LISTAGG",
            "FIRSTVALUE": "FIRST_VALUE", "LASTVALUE": "LAST_VALUE", "DAYOFMONTH": "DAYOFMONTH", "CEIL": "CEIL",
            "ARRAYSIZE": "CARDINALITY", "TSORDSTODATE": "TO_DATE", "STRTOTIME": "TO_TIMESTAMP", "STRTODATE": "TO_DATE",
            "ROUND": "ROUND", "TRUNC": "TRUNCATE", "POW": "POWER", "PAD": "LPAD", "TYPEOF": "TYPEOF",
            "CONCATWS": "CONCAT_WS", "SHA": "SHA1", "TOBASE64": "TO_BASE64", "FROMBASE64": "FROM_BASE64",
            "STRTOMAP": "STR_TO_MAP", "ARRAYDISTINCT": "ARRAY_DISTINCT", "ARRAYTOSTRING": "ARRAY_JOIN",
            "MAPKEYS": "MAP_KEYS", "MAPVALUES": "MAP_VALUES"}.get(node.key.upper(), node.key.upper())


def _args(node):
    if isinstance(node, exp.Anonymous):
        return list(node.expressions)
    out = [node.this] if isinstance(node.args.get("this"), exp.Expression) else []
    for k in ("expression", "expressions"):
        v = node.args.get(k)
        if isinstance(v, exp.Expression):
            out.append(v)
        elif isinstance(v, list):
            out.extend(x for x in v if isinstance(x, exp.Expression))
    return out


def aggregate_type(function, arg):
    """Flink's result type of an aggregate function over an argument of type `arg` (None for COUNT(*))."""
    f = function.upper()
    if f in ("COUNT", "COUNT_STAR"):
        return t("BIGINT", False)
    if arg is None:
        return None
    if f == "SUM":
        if arg.name == "DECIMAL":
            return t("DECIMAL(38, %d)" % arg.params[1])
        return nullable(arg, True) if arg.name in _NUMERIC else None
    if f == "AVG":
        if arg.name == "DECIMAL":
            return t("DECIMAL(38, %d)" % max(6, arg.params[1]))
        return nullable(arg, True) if arg.name in _NUMERIC else None
    if f in ("MIN", "MAX", "FIRST_VALUE", "LAST_VALUE"):
        return nullable(arg, True)
    if f in ("STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "STDDEV", "VARIANCE"):
        if arg.name == "DECIMAL":
            return t("DECIMAL(38, %d)" % max(6, arg.params[1]))
        return nullable(arg, True) if arg.name in _NUMERIC else None
    if f == "LISTAGG":
        return t(STRING)
    if f == "COLLECT":
        return FlinkType("MULTISET", (), [arg], nullable=False)
    if f in ("BOOL_AND", "BOOL_OR"):
        return t("BOOLEAN")
    return None


def return_type_rule(name, node):
    from .functions.registry import return_type_rule as rule        # (the registry's rules use this module's)
    return rule(name, node)


def infer(node, typeof):
    """The Flink type of `node`; `typeof(child)` gives a child's type (the binder memoizes it)."""
    if isinstance(node, exp.Anonymous) and "result_type" in node.meta:
        return node.meta["result_type"]        # a call whose resolver declared its type (a Python function's)
    if isinstance(node, exp.Paren):
        return typeof(node.this)
    if isinstance(node, exp.Column):
        f = node.meta.get("field")
        if f is None:
            return _NIL_FUNCTION_TYPES.get(node.name.upper()) if not node.table else None
        return _path_type(f.type, node.meta.get("path") or [])
    if isinstance(node, exp.Dot):
        base = typeof(node.this)
        return _path_type(base, [node.expression.name]) if base is not None else None
    if isinstance(node, (exp.Literal, exp.Boolean, exp.Null)):
        return literal_type(node)
    if isinstance(node, exp.HexString):
        return t("BINARY(%d)" % max(len(node.this) // 2, 1), False)
    if isinstance(node, (exp.Cast, exp.TryCast)):
        target = node.meta.get("flink_type")
        if target is None:
            return None
        out = copy.copy(target)
        src = typeof(node.this)
        out.nullable = isinstance(node, exp.TryCast) or src is None or src.nullable
        return out
    if isinstance(node, exp.Interval):
        return FlinkType("INTERVAL")
    ops = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/", exp.Mod: "%", exp.IntDiv: "/"}
    for cls, op in ops.items():
        if isinstance(node, cls):
            return arithmetic(op, typeof(node.this), typeof(node.expression))
    if isinstance(node, exp.Neg):
        return typeof(node.this)
    if isinstance(node, (exp.Is,)):
        return t("BOOLEAN", False)
    if isinstance(node, (exp.Predicate, exp.And, exp.Or, exp.Not, exp.Xor)) or isinstance(node, exp.In):
        kids = [typeof(c) for c in _args(node)]
        return t("BOOLEAN", any_nullable(kids))
    if isinstance(node, exp.Case):
        branches = [typeof(i.args["true"]) for i in node.args.get("ifs") or []]
        default = node.args.get("default")
        branches.append(typeof(default) if default is not None else FlinkType("NULL"))
        return least_restrictive(branches)
    if isinstance(node, exp.If):     # Flink's IF(c, a, b) is nullable whatever its branches
        return nullable(least_restrictive([typeof(node.args["true"]), typeof(node.args["false"])
                                           if node.args.get("false") is not None else FlinkType("NULL")]), True)
    if isinstance(node, exp.Coalesce):
        types = [typeof(a) for a in _args(node)]
        out = least_restrictive(types)
        if out is not None and out.name == "TIMESTAMP" and any(x is not None and x.name == "TIMESTAMP_LTZ"
                                                               for x in types):
            out = t("TIMESTAMP_LTZ(%d)" % out.params[0])   # Flink's COALESCE: the local time zone's kind wins
        return nullable(out, all(x is None or x.nullable for x in types)) if out is not None else None
    if isinstance(node, exp.DPipe):
        return t(STRING, any_nullable([typeof(node.this), typeof(node.expression)]))
    if isinstance(node, exp.Array):
        elems = [typeof(e) for e in node.expressions]
        inner = least_restrictive(elems)
        return FlinkType("ARRAY", (), [inner], nullable=False) if inner is not None else None
    if isinstance(node, exp.Bracket):
        base = typeof(node.this)
        if base is None:
            return None
        if base.name == "ARRAY":
            return nullable(base.children[0], True)
        if base.name == "MAP":
            return nullable(base.children[1], True)
        return None
    name = function_name(node)
    rule = return_type_rule(name, node)      # the function registry's (planner/expr/functions)
    if rule is None:
        return None
    try:
        return rule(node, _args(node), typeof)
    except IndexError:      # a call without the arguments its type needs (CARDINALITY()): Flink's message
        from ..errors import SqlError
        raise SqlError("Invalid number of arguments to function '%s'" % name)


def _path_type(ft, path):
    for name in path:
        if ft is None or ft.name != "ROW":
            return None
        child = next((ct for cn, ct in ft.children if cn == name), None)
        if child is None:
            return None
        ft = nullable(child, ft.nullable or child.nullable)
    return ft
