"""Operands Flink 2.3's validator refuses where Spark would convert them, each refusal in Flink's words at the
call: a function or operator whose operand is not of the family Flink's signature asks for (`UPPER(1)`, `'a' +
1`, `NOT 1`, `DATE '2020-01-01' + 1`: signatures.py holds the forms), a bare NULL where a family is asked for,
a comparison of types Calcite does not compare (DATE with TIMESTAMP, BOOLEAN with a number, a string with a
number), a CAST Flink does not make (casts_allowed.py), ARRAY / MAP elements without a common type, CASE
branches without one or a WHEN that is not a condition, and a subscript of what is no collection. Run by
`translate.finish` over a typed tree; the types come from inference.py, this module only judges them."""

from sqlglot import exp

from ..errors import SqlError
from .casts_allowed import cast_refusal
from .inference import function_name, least_restrictive
from .signatures import CALCITE, FLINK_STACK, calcite, calcite_refusal, cannot_apply, flink_refusal, in_family, \
    shown_forms

_EXACT = ("TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL")
_NUMBER = _EXACT + ("FLOAT", "DOUBLE")
_STRING = ("CHAR", "VARCHAR")
_TIMES = ("DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ")
_COMPARISONS = {exp.EQ: "=", exp.NEQ: "<>", exp.LT: "<", exp.LTE: "<=", exp.GT: ">", exp.GTE: ">="}
_ARITHMETIC = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/"}
_ARITHMETIC_FORMS = {"+": [("NUMERIC", "NUMERIC"), ("DATETIME_INTERVAL", "DATETIME_INTERVAL"),
                           ("DATETIME", "DATETIME_INTERVAL"), ("DATETIME_INTERVAL", "DATETIME")],
                     "-": [("NUMERIC", "NUMERIC"), ("DATETIME_INTERVAL", "DATETIME_INTERVAL"),
                           ("DATETIME", "DATETIME_INTERVAL")],
                     "*": [("NUMERIC", "NUMERIC"), ("DATETIME_INTERVAL", "NUMERIC"), ("NUMERIC", "DATETIME_INTERVAL")],
                     "/": [("NUMERIC", "NUMERIC"), ("DATETIME_INTERVAL", "NUMERIC")]}
_EXTRACT_UNITS = {"DAYOFMONTH": "DAY", "DAYOFYEAR": "DOY", "DAYOFWEEK": "DOW"}


def check_operands(tree, typeof, position, call_name=lambda node: None):
    """Raise Flink's SqlError for the first operator in `tree` whose operand types Flink refuses; `call_name(node)`:
    the name a call is written with (SUBSTR for SUBSTRING, LOCATE or INSTR for POSITION, IFNULL for COALESCE),
    asked for when a refusal names it."""
    for node in tree.walk():
        if "unary_plus" in node.meta:
            _unary_plus(node, typeof, position)
        symbol = _COMPARISONS.get(type(node))
        if symbol is not None:
            _comparison(node, symbol, typeof, position)
            continue
        op = _ARITHMETIC.get(type(node))
        if op is not None:
            _arithmetic(node, op, typeof, position)
        elif isinstance(node, exp.Mod):
            _mod(node, typeof, position)
        else:
            _other(node, typeof, position, call_name)


def _comparison(node, symbol, typeof, position):
    a, b = typeof(node.this), typeof(node.expression)
    if a is None or b is None or a.name == b.name:
        return
    names = {a.name, b.name}
    if names & set(_STRING) and names & set(_NUMBER):
        raise SqlError("implicit type conversion between %s and %s is not supported now"
                       % (_family(a), _family(b)), *position(node))
    if _incomparable(names):
        raise SqlError("Cannot apply '%s' to arguments of type '<%s> %s <%s>'. Supported form(s): "
                       "'<COMPARABLE_TYPE> %s <COMPARABLE_TYPE>'" % (symbol, calcite(a), symbol, calcite(b), symbol),
                       *position(node))


def _incomparable(names):
    """Whether values of these type names are never compared by Calcite (a DATE with a TIMESTAMP, a BOOLEAN with a
    number, a collection with anything else)."""
    if len(names) < 2:
        return False
    times = names <= set(_TIMES) and names != {"TIMESTAMP", "TIMESTAMP_LTZ"}
    kinds = {"COLLECTION" if n in ("ARRAY", "MAP", "MULTISET", "ROW") else n for n in names}
    return times or "BOOLEAN" in names and names & set(_NUMBER) or {"DATE", "TIME"} & names and \
        names & set(_NUMBER) or "COLLECTION" in kinds and len(kinds) > 1


def _in_list(node, typeof, position):
    values = [typeof(e) for e in node.expressions]
    names = {t.name for t in values if t is not None and t.name != "NULL"}
    if names & set(_STRING) and names & set(_NUMBER) or _incomparable(names):
        raise SqlError("Values in expression list must have compatible types", *position(_list_opening(node)))
    subject = typeof(node.this)
    if subject is not None and _incomparable(names | {subject.name}):
        raise SqlError("Values passed to IN operator must have compatible types", *position(node))


def _list_opening(node):
    """What places an error in `x IN (a, ..)`'s list where Flink does: at its `(` (the first value without it)."""
    if "list_open" not in node.meta:
        return node.expressions[0]
    mark = exp.Null()
    mark.meta["open"] = node.meta["list_open"]
    return mark


def _between(node, typeof, position):
    types = [typeof(node.this), typeof(node.args.get("low")), typeof(node.args.get("high"))]
    if any(t is None for t in types):
        return
    if _incomparable({t.name for t in types if t.name != "NULL"}):
        raise cannot_apply("BETWEEN ASYMMETRIC", "<%s> BETWEEN ASYMMETRIC <%s> AND <%s>" % tuple(
            calcite(t) for t in types), ["'<COMPARABLE_TYPE> BETWEEN <COMPARABLE_TYPE> AND <COMPARABLE_TYPE>'"],
            position(node))


def _null_operand(nodes, position):
    for n in nodes:
        if isinstance(n, exp.Null):
            raise SqlError("Illegal use of 'NULL'", *position(n))


def _arithmetic(node, op, typeof, position):
    _null_operand([node.this, node.expression], position)
    a, b = typeof(node.this), typeof(node.expression)
    if a is None or b is None:
        return
    if any(in_family(a, f) and in_family(b, g) for f, g in _ARITHMETIC_FORMS[op]):
        return
    raise cannot_apply(op, "<%s> %s <%s>" % (calcite(a), op, calcite(b)), shown_forms(op), position(node))


def _mod(node, typeof, position):
    """MOD(a, b) and `a % b`, one node: refused as Flink names what was written."""
    _null_operand([node.this, node.expression], position)
    types = [typeof(node.this), typeof(node.expression)]
    written = None if node.meta.get("call") else (lambda: "<%s> %% <%s>" % tuple(calcite(t) for t in types))
    refusal = calcite_refusal("MOD", types, lambda: position(node), written=written,
                              shown=None if written is None else ["'<EXACT_NUMERIC> % <EXACT_NUMERIC>'"])
    if refusal is not None:
        if written is not None:
            refusal.message = refusal.message.replace("Cannot apply 'MOD'", "Cannot apply '%'", 1)
        raise refusal


def _family(t):
    return t.name if t.name in _STRING else calcite(t)


def _unary(node, name, written, forms, typeof, position, operand=None):
    operand = node.this if operand is None else operand
    _null_operand([operand], position)
    t = typeof(operand)
    if t is not None and not any(in_family(t, f) for f in forms[0]):
        raise cannot_apply(name, written % calcite(t), forms[1], position(node))


def _unary_plus(node, typeof, position):
    """`+x` (the parser marks x): x a number or an interval, as Flink's `+` asks."""
    _null_operand([node], position)
    t = typeof(node)
    if t is not None and t.name != "NULL" and not any(in_family(t, f) for f in ("NUMERIC", "DATETIME_INTERVAL")):
        raise cannot_apply("+", "+<%s>" % calcite(t), ["'+<NUMERIC>'", "'+<DATETIME_INTERVAL>'"], position(node))


def _other(node, typeof, position, call_name):
    if isinstance(node, exp.Neg):
        _unary(node, "-", "-<%s>", (("NUMERIC", "DATETIME_INTERVAL"), shown_forms("NEG")), typeof, position)
    elif isinstance(node, exp.Not) and not isinstance(node.this, exp.Is):
        _unary(node, "NOT", "NOT<%s>", (("BOOLEAN",), ["'NOT<BOOLEAN>'"]), typeof, position)
    elif isinstance(node, (exp.And, exp.Or)):
        word = "AND" if isinstance(node, exp.And) else "OR"
        _null_operand([node.this, node.expression], position)
        a, b = typeof(node.this), typeof(node.expression)
        if a is not None and b is not None and not (a.name == "BOOLEAN" and b.name == "BOOLEAN"):
            raise cannot_apply(word, "<%s> %s <%s>" % (calcite(a), word, calcite(b)),
                               ["'<BOOLEAN> %s <BOOLEAN>'" % word], position(node))
    elif isinstance(node, exp.Is) and isinstance(node.expression, exp.Boolean):
        word = "IS %s%s" % ("NOT " if isinstance(node.parent, exp.Not) else "", "TRUE" if node.expression.this
                            else "FALSE")
        _unary(node, word, "<%s> " + word, (("BOOLEAN",), ["'<BOOLEAN> %s'" % word]), typeof, position)
    elif isinstance(node, exp.Is) and node.expression.meta.get("unknown"):
        word = "IS NOT UNKNOWN" if isinstance(node.parent, exp.Not) else "IS UNKNOWN"
        _unary(node, word, "<%s> " + word, (("BOOLEAN",), ["'<BOOLEAN> %s'" % word]), typeof, position)
    elif isinstance(node, exp.DPipe):
        _null_operand([node.this, node.expression], position)
        a, b = typeof(node.this), typeof(node.expression)
        if a is not None and b is not None and "NULL" not in (a.name, b.name) and a.name != b.name and \
                not (in_family(a, "STRING") and in_family(b, "STRING")):
            raise cannot_apply("||", "<%s> || <%s>" % (calcite(a), calcite(b)), shown_forms("||"), position(node))
    elif isinstance(node, (exp.Like, exp.SimilarTo)):
        name = ("NOT " if node.args.get("negate") or isinstance(node.parent, exp.Not) else "") + \
            ("LIKE" if isinstance(node, exp.Like) else "SIMILAR TO")
        types = [typeof(node.this), typeof(node.expression)]
        if all(t is not None and t.name != "NULL" for t in types) and not all(in_family(t, "STRING") for t in types):
            raise cannot_apply(name, "%s(%s)" % (name, ", ".join("<%s>" % calcite(t) for t in types)),
                               ["'%s(<STRING>, <STRING>, <STRING>)'" % name], position(node))
    elif isinstance(node, (exp.Cast, exp.TryCast)):
        refusal = cast_refusal(typeof(node.this), node.meta.get("flink_type"))
        if refusal is not None:
            raise SqlError(refusal, *(position(node) if refusal.startswith("Cast function") else (None, None)))
    elif isinstance(node, exp.Array):
        if node.expressions and all(_written_null(e) for e in node.expressions):
            raise SqlError("Parameters must be of the same type", *position(node))      # ARRAY[NULL]
        _same_type([typeof(e) for e in node.expressions], node, position)
    elif isinstance(node, exp.Case):
        _case(node, typeof, position)
    elif isinstance(node, exp.If) and not isinstance(node.parent, exp.Case):
        _if(node, typeof, position)
    elif isinstance(node, exp.Bracket):
        _item(node, typeof, position)
    elif isinstance(node, exp.Nullif):
        a, b = typeof(node.this), typeof(node.expression)
        if a is not None and b is not None and least_restrictive([a, b]) is None and \
                {a.name, b.name} & set(_STRING) and {a.name, b.name} & set(_NUMBER):
            raise SqlError("implicit type conversion between %s and %s is not supported now"
                           % (_family(a), _family(b)), *position(node))
    elif isinstance(node, exp.In) and not node.args.get("query"):
        _in_list(node, typeof, position)
    elif isinstance(node, exp.Between):
        _between(node, typeof, position)
    elif isinstance(node, exp.Func):
        _call(node, typeof, position, call_name)


def _same_type(types, node, position):
    known = [t for t in types if t is not None and t.name != "NULL"]
    if len(known) == len([t for t in types if t is not None]) and known and least_restrictive(known) is None \
            and None not in types:
        raise SqlError("Parameters must be of the same type", *position(node))


def _written_null(n):
    """A NULL the statement's text holds (the parser placed it), not one a rewrite made."""
    return isinstance(n, exp.Null) and "start" in n.meta


def _case(node, typeof, position):
    results = [b.args.get("true") for b in node.args.get("ifs") or []] + [node.args.get("default")]
    if all(r is None or _written_null(r) for r in results) and any(r is not None for r in results):
        raise SqlError("ELSE clause or at least one THEN clause must be non-NULL", *position(node))
    subject = node.this
    for branch in node.args.get("ifs") or []:
        cond = typeof(branch.this)
        if subject is not None:
            s = typeof(subject)
            if s is not None and cond is not None and {s.name, cond.name} & set(_STRING) and \
                    {s.name, cond.name} & set(_NUMBER):
                raise SqlError("implicit type conversion between %s and %s is not supported now"
                               % (_family(s), _family(cond)), *position(node))
        elif cond is not None and cond.name not in ("BOOLEAN", "NULL"):
            raise SqlError("Expected a boolean type", *position(node))
    values = [typeof(b.args["true"]) for b in node.args.get("ifs") or []]
    if node.args.get("default") is not None:
        values.append(typeof(node.args["default"]))
    known = [t for t in values if t is not None and t.name != "NULL"]
    if None not in values and known and least_restrictive(known) is None:
        raise SqlError("Illegal mixing of types in CASE or COALESCE statement", *position(node))


_IF_PAIRS = ("NUMERIC", "CHARACTER", "BOOLEAN", "BINARY", "DATE", "TIMESTAMP", "TIME")


def _if(node, typeof, position):
    args = [node.this, node.args.get("true"), node.args.get("false")]
    if any(a is None for a in args):
        return
    _null_operand(args, position)
    types = [typeof(a) for a in args]
    if any(t is None or t.name == "NULL" for t in types):
        return
    if types[0].name == "BOOLEAN" and any(in_family(types[1], f) and in_family(types[2], f) for f in _IF_PAIRS):
        return
    raise cannot_apply("IF", "IF(%s)" % ", ".join("<%s>" % calcite(t) for t in types), shown_forms("IF"),
                       position(node))


def _item(node, typeof, position):
    base = typeof(node.this)
    if base is None or len(node.expressions) != 1:
        return
    key = typeof(node.expressions[0])
    if key is None or key.name == "NULL":
        return
    ok = base.name == "ARRAY" and in_family(key, "INTEGER") or base.name == "ROW" and (
        in_family(key, "CHARACTER") or in_family(key, "INTEGER")) or base.name == "MAP" and \
        least_restrictive([base.children[0], key]) is not None or base.name == "VARIANT"
    if not ok:
        raise cannot_apply("ITEM", "ITEM(<%s>, <%s>)" % (calcite(base), calcite(key)), shown_forms("ITEM"),
                           position(node))


def _call(node, typeof, position, call_name):
    if isinstance(node, exp.Anonymous) and node.name.upper() == "MAP":
        _same_type([typeof(e) for e in node.expressions[0::2]], node, position)
        _same_type([typeof(e) for e in node.expressions[1::2]], node, position)
        return
    if isinstance(node, (exp.Floor, exp.Ceil)) and node.args.get("to") is not None:
        check_floor_to(node, typeof, position)
        return
    name, operands, written = call_operands(node)
    if name == "$IS_JSON" and len(operands) == 2:
        t, kind = typeof(operands[0]), "IS JSON %s" % operands[1].name.upper()
        if t is not None and t.name != "NULL" and not in_family(t, "CHARACTER"):
            raise cannot_apply(kind, "<%s> %s" % (calcite(t), kind), ["'<CHARACTER> %s'" % kind], position(node))
        return
    if name == "COALESCE" and operands and all(_written_null(a) for a in operands):
        _null_operand(operands[:1], position)                   # COALESCE(NULL, NULL): at the first
    if name in CALCITE:
        _null_operand(operands, position)
        refusal = calcite_refusal(name, [typeof(a) for a in operands], lambda: position(node),
                                  written=(lambda: written(typeof)) if written else None)
        if refusal is not None:
            raise _as_written(refusal, node, operands, typeof, position, call_name(node))
    elif name in FLINK_STACK:
        refusal = flink_refusal(name, [typeof(a) for a in operands], lambda: position(node))
        if refusal is not None:
            written_as = call_name(node)
            if written_as in FLINK_STACK and written_as != name:       # IFNULL, read as COALESCE
                refusal.message = refusal.message.replace("\n%s(" % name, "\n%s(" % written_as, 1)
            raise refusal


def _as_written(refusal, node, operands, typeof, position, written_as):
    """The refusal of a call Flink names by another name than the one sqlglot reads it as: SUBSTR (SUBSTRING),
    LOCATE and INSTR (POSITION), with their own forms and, for LOCATE, their operands in the order written."""
    if written_as not in _ALIASES or _ALIASES[written_as][0] != function_name(node):
        return refusal
    _, forms, order = _ALIASES[written_as]
    shown = ["'%s(%s)'" % (written_as, ", ".join("<%s>" % f for f in form)) for form in forms]
    types = [typeof(a) for a in (order(operands) if order else operands)]
    return cannot_apply(written_as, "%s(%s)" % (written_as, ", ".join("<%s>" % calcite(t) for t in types)),
                        shown, position(node))


_C3 = ("CHARACTER", "CHARACTER", "INTEGER")
_ALIASES = {      # name as written -> (the name sqlglot reads, Flink's forms, the operands' order as written)
    "SUBSTR": ("SUBSTRING", [("CHARACTER", "INTEGER"), ("CHARACTER", "INTEGER", "INTEGER")], None),
    "LOCATE": ("POSITION", [_C3[:2], _C3], None),
    "INSTR": ("POSITION", [_C3[:2], _C3, _C3 + ("INTEGER",)], lambda ops: [ops[1], ops[0]] + ops[2:]),
}


def call_operands(node):
    """(Flink's name of the call, its operands in Flink's order, None or a function typeof -> the call as
    Calcite writes it with its operand types, where that is not `NAME(<T>, ...)`)."""
    name = function_name(node)
    if isinstance(node, exp.Anonymous):
        args = list(node.expressions)
        if name in ("TIMESTAMPADD", "TIMESTAMPDIFF") and len(args) == 3:
            unit = args[0].name.upper()
            return name, [args[1], args[2]], lambda typeof: "%s(<INTERVAL %s>, %s)" % (
                name, unit, ", ".join("<%s>" % calcite(typeof(a)) for a in args[1:]))
        return name, args, None
    if isinstance(node, exp.Log):
        if isinstance(node.this, exp.Literal) and node.this.name in ("10", "2"):
            return "LOG" + node.this.name, [node.expression], None
        return "LOG", [a for a in (node.this, node.expression) if a is not None], None
    if isinstance(node, (exp.Floor, exp.Ceil)):
        return ("FLOOR" if isinstance(node, exp.Floor) else "CEIL"), [node.this], None
    if isinstance(node, (exp.Round, exp.Trunc)):
        digits = node.args.get("decimals")
        return ("ROUND" if isinstance(node, exp.Round) else "TRUNCATE"), \
            [node.this] + ([digits] if digits is not None else []), None
    if isinstance(node, exp.Substring):
        return "SUBSTRING", [a for a in (node.this, node.args.get("start"), node.args.get("length"))
                             if a is not None], None
    if isinstance(node, exp.Repeat):
        return "REPEAT", [node.this, node.args.get("times")], None
    if isinstance(node, exp.Pad):
        args = [node.this, node.expression] + ([node.args["fill_pattern"]] if node.args.get("fill_pattern") else [])
        return ("LPAD" if node.args.get("is_left") else "RPAD"), args, None
    if isinstance(node, (exp.Replace, exp.RegexpReplace)):
        return name, [node.this, node.expression, node.args.get("replacement")], None
    if isinstance(node, exp.RegexpExtract):
        group = node.args.get("group") or node.args.get("position")
        return "REGEXP_EXTRACT", [node.this, node.expression] + ([group] if group is not None else []), None
    if isinstance(node, exp.StrPosition):
        args = [node.args["substr"], node.this] + ([node.args["position"]] if node.args.get("position") else [])
        return "POSITION", args, lambda typeof: "POSITION(%s)" % " IN ".join(
            "<%s>" % calcite(typeof(a)) for a in args[:2])
    if isinstance(node, exp.Trim):
        if node.args.get("position") in ("LEADING", "TRAILING") and node.args.get("expression") is None:
            return ("LTRIM" if node.args["position"] == "LEADING" else "RTRIM"), [node.this], None
        chars = node.args.get("expression")
        return "TRIM", [node.this], lambda typeof: "TRIM([BOTH|LEADING|TRAILING] <SYMBOL> FROM <%s>)" % (
            calcite(typeof(chars)) if chars is not None else "CHAR(1)")
    if isinstance(node, exp.Extract) or name in _EXTRACT_UNITS or isinstance(node, (
            exp.Year, exp.Quarter, exp.Month, exp.Week, exp.DayOfMonth, exp.DayOfYear, exp.DayOfWeek,
            exp.Hour, exp.Minute, exp.Second)):
        if isinstance(node, exp.Extract):
            unit, arg = node.this.name.upper(), node.expression
        else:
            unit, arg = _EXTRACT_UNITS.get(name, name), node.this
        return "EXTRACT", [arg], lambda typeof: "EXTRACT(<INTERVAL %s> FROM <%s>)" % (unit, calcite(typeof(arg)))
    if isinstance(node, exp.Initcap):
        return "INITCAP", [node.this], None
    if isinstance(node, (exp.Concat, exp.ConcatWs, exp.Chr)):
        return name, list(node.expressions), None
    if isinstance(node, (exp.Greatest, exp.Coalesce)):
        return name, [node.this] + list(node.expressions), None
    args = [node.this] if isinstance(node.args.get("this"), exp.Expression) else []
    if isinstance(node.args.get("expression"), exp.Expression):
        args.append(node.args["expression"])
    return name, args + [e for e in (node.args.get("expressions") or []) if isinstance(e, exp.Expression)], None


def check_floor_to(node, typeof, position):
    """FLOOR / CEIL (x TO unit) of what is no DATE, TIME or TIMESTAMP."""
    t = typeof(node.this)
    if t is not None and not in_family(t, "DATETIME"):
        name = "FLOOR" if isinstance(node, exp.Floor) else "CEIL"
        raise cannot_apply(name, "%s(<%s>, <INTERVAL %s>)" % (name, calcite(t), node.args["to"].name.upper()),
                           shown_forms(name), position(node))
