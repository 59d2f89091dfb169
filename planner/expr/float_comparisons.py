"""Comparisons of FLOAT/DOUBLE values as Flink makes them: Java's primitive comparison.

Flink compares two DOUBLEs (or a DOUBLE and an integer) with Java's `==`, `<`, ...: NaN is neither equal to,
less than nor greater than anything, itself included, so every comparison with a NaN is FALSE but `<>`, which
is TRUE; -0.0 equals 0.0. Spark orders NaN above every number and equal to itself (NaN = NaN, NaN > 1 and
`NaN IN (NaN)` are TRUE there). Flink's optimizer (Calcite) first
- folds a comparison of an expression with itself: `x = x`, `x <= x` are TRUE (NULL for NULL), `x <> x`,
  `x < x` FALSE, NaN or not: Spark's operator gives the same, so such a comparison is left to it;
- pushes NOT into a comparison: `NOT (x < y)` is `x >= y`, FALSE for a NaN (`push_negations`, before the
  rewrite; through AND/OR as De Morgan's laws do, and NOT BETWEEN is `x < low OR x > high`);
- orders a DOUBLE against a DECIMAL (a literal such as 1.5) as Double.compare does: NaN above every number, as
  Spark does, but -0.0 below 0.0 (`_double_compare`); `=` and `<>` there are Spark's.
Two more of Calcite's folds (`x > 0 OR x <= 0` is `x IS NOT NULL`, TRUE for a NaN; `x + 0 = x` is `x = x`)
are calcite_folds.py's.
`rewrite(node, typeof)` gives the Spark tree of a comparison, BETWEEN, IN list, IS [NOT] DISTINCT FROM or
simple CASE whose operands are FLOAT/DOUBLE (and integers), or None: every other comparison keeps Spark's
operator, at no cost."""

from sqlglot import exp

from .arithmetic import template

_FLOATS = ("FLOAT", "DOUBLE")
_PRIMITIVE = _FLOATS + ("TINYINT", "SMALLINT", "INT", "BIGINT")
_SYMBOLS = {exp.EQ: "=", exp.NEQ: "<>", exp.LT: "<", exp.LTE: "<=", exp.GT: ">", exp.GTE: ">="}
_NEGATED = {exp.EQ: exp.NEQ, exp.NEQ: exp.EQ, exp.LT: exp.GTE, exp.LTE: exp.GT, exp.GT: exp.LTE,
            exp.GTE: exp.LT}


def _name(ft):
    return ft.name if ft is not None else None


def _java_operands(types):
    """Whether operands of these Flink types are compared as Java primitives with a NaN possible."""
    names = [_name(t) for t in types]
    return all(n in _PRIMITIVE or n == "NULL" for n in names) and any(n in _FLOATS for n in names)


def _unparen(node):
    while isinstance(node, exp.Paren):
        node = node.this
    return node


def _number_literal(node):
    node = _unparen(node)
    if isinstance(node, exp.Neg):
        node = _unparen(node.this)
    return isinstance(node, exp.Literal) and not node.is_string


def _applies(node, typeof):
    if isinstance(node, tuple(_SYMBOLS)) or isinstance(node, exp.Between):
        operands = [node.this, node.expression] if not isinstance(node, exp.Between) else \
            [node.this, node.args["low"], node.args["high"]]
    elif isinstance(node, exp.In) and not node.args.get("query") and not node.args.get("unnest"):
        try:                # `x IN (..)` is `x = a OR x = b ..`: x a FLOAT/DOUBLE, the items any numbers
            return _name(typeof(node.this)) in _FLOATS and \
                all(_name(typeof(i)) in _PRIMITIVE + ("DECIMAL", "NULL") for i in node.expressions)
        except Exception:
            return False
    else:
        return False
    try:
        return _java_operands([typeof(o) for o in operands])
    except Exception:
        return False


# ---------------------------------------------------------------------- NOT pushed into comparisons


def push_negations(tree, typeof):
    """`tree` with each NOT over a FLOAT/DOUBLE comparison (or an AND/OR holding one) replaced by the negated
    comparison, as Flink's optimizer does; the other NOTs kept."""
    holder = exp.Paren(this=tree)                 # (a parent for the root, replaced like any node)
    for node in list(tree.find_all(exp.Not)):     # (one inside a NOT replaced before: in a detached copy)
        negated = _negated(_unparen(node.this), typeof)
        if negated is not None:
            node.replace(negated)
    return holder.this.pop()


def _holds_comparison(node, typeof):
    node = _unparen(node)
    if isinstance(node, (exp.And, exp.Or)):
        return _holds_comparison(node.this, typeof) or _holds_comparison(node.expression, typeof)
    return _applies(node, typeof)


def _negated(node, typeof):
    """NOT `node` with the NOT pushed in, or None when `node` holds no FLOAT/DOUBLE comparison."""
    if not _holds_comparison(node, typeof):
        return None
    return _negate(node, typeof)


def _negate(node, typeof):
    node = _unparen(node)
    if isinstance(node, (exp.And, exp.Or)):
        other = exp.Or if isinstance(node, exp.And) else exp.And
        return exp.Paren(this=other(this=_negate(node.this, typeof), expression=_negate(node.expression, typeof)))
    if _applies(node, typeof) and type(node) in _NEGATED:
        return _NEGATED[type(node)](this=node.this.copy(), expression=node.expression.copy())
    if _applies(node, typeof) and isinstance(node, exp.Between):
        x = node.this
        return exp.Paren(this=exp.Or(this=exp.LT(this=x.copy(), expression=node.args["low"].copy()),
                                     expression=exp.GT(this=x.copy(), expression=node.args["high"].copy())))
    return exp.Not(this=node.copy())


# ---------------------------------------------------------------------- the comparisons


def rewrite(n, typeof):
    """The Spark tree of comparison `n` with Java's semantics (its operands already in Spark's form), or None."""
    out = _rewrite(n, typeof)
    return exp.Paren(this=out) if out is not None and not isinstance(out, exp.Case) else out    # (an operand of NOT)


def _rewrite(n, typeof):
    if isinstance(n, exp.Case) and n.args.get("this") is not None:
        return _simple_case(n, typeof)
    if isinstance(n, (exp.NullSafeEQ, exp.NullSafeNEQ)):
        return _distinct(n, typeof)
    if isinstance(n, _DOUBLE_COMPARE) and _decimal_and_float(typeof(n.this), typeof(n.expression)):
        return _double_compare(n, typeof)
    if not _applies(n, typeof):
        return None
    if isinstance(n, exp.Between):
        x, low, high = n.this, n.args["low"], n.args["high"]
        types = [typeof(x), typeof(low), typeof(high)]
        ge = _compare(">=", "_x", "_l", [types[0], types[1]], [x, low])
        le = _compare("<=", "_x", "_h", [types[0], types[2]], [x, high])
        return template("(%s) AND (%s)" % (ge, le), x=x, l=low, h=high)
    if isinstance(n, exp.In):
        x, items = n.this, list(n.expressions)
        if all(_number_literal(i) for i in items):         # no NaN in the list: only x's NaN to take out
            return template("_x IN (%s) AND NOT isnan(_x)" % ", ".join("_i%d" % k for k in range(len(items))),
                            x=x, **{"i%d" % k: i for k, i in enumerate(items)})
        parts = [_compare("=", "_x", "_i%d" % k, [typeof(x), typeof(i)], [x, i]) for k, i in enumerate(items)]
        return template(" OR ".join("(%s)" % p for p in parts), x=x, **{"i%d" % k: i for k, i in enumerate(items)})
    a, b = n.this, n.expression
    if a == b:             # Flink folds a comparison of an expression with itself: Spark's result is the same
        return None
    if isinstance(n, _DOUBLE_COMPARE) and _decimal_and_float(typeof(a), typeof(b)):
        return _double_compare(n, typeof)
    return template(_compare(_SYMBOLS[type(n)], "_a", "_b", [typeof(a), typeof(b)], [a, b]), a=a, b=b)


def _compare(symbol, a, b, types, nodes):
    """Spark SQL text of Java's `a symbol b` for operands named `a`, `b` (placeholders) of Flink types `types`."""
    maybe_nan = [name for name, ft, node in zip((a, b), types, nodes)
                 if _name(ft) in _FLOATS and not _number_literal(node)]
    if not maybe_nan or nodes[0] == nodes[1]:     # (an expression compared with itself: folded, see above)
        return "%s %s %s" % (a, symbol, b)
    nan = " OR ".join("isnan(%s)" % x for x in maybe_nan)
    if symbol == "<>":
        if len(maybe_nan) == 1 and any(_number_literal(node) for node in nodes):
            return "(%s <> %s) OR %s" % (a, b, nan)
        return "CASE WHEN %s THEN if(%s IS NULL OR %s IS NULL, NULL, TRUE) ELSE %s <> %s END" % (nan, a, b, a, b)
    if len(maybe_nan) == 1 and any(_number_literal(node) for node in nodes):
        return "(%s %s %s) AND NOT %s" % (a, symbol, b, nan)
    return "CASE WHEN %s THEN if(%s IS NULL OR %s IS NULL, NULL, FALSE) ELSE %s %s %s END" % (
        nan, a, b, a, symbol, b)


_DOUBLE_COMPARE = (exp.LT, exp.GTE, exp.GT, exp.LTE)


def _decimal_and_float(a, b):
    names = {_name(a), _name(b)}
    return "DECIMAL" in names and bool(names & set(_FLOATS))


def _double_compare(n, typeof):
    """A FLOAT/DOUBLE ordered against a DECIMAL as Double.compare orders them: Spark's order (NaN above every
    number) but -0.0 below 0.0, so that `x < 0.0` is TRUE and `x >= 0.0` FALSE for x = -0.0."""
    float_left = _name(typeof(n.this)) in _FLOATS
    # the float operand is -0.0 and the decimal 0: where Double.compare differs from Spark's order
    zero = "(_%s = 0 AND _%s = 0 AND CAST(_%s AS STRING) = '-0.0')" % (
        ("a", "b", "a") if float_left else ("b", "a", "b"))
    below = isinstance(n, exp.LT) if float_left else isinstance(n, exp.GT)       # float < decimal
    not_above = isinstance(n, exp.GTE) if float_left else isinstance(n, exp.LTE)  # float >= decimal
    symbol = {exp.LT: "<", exp.GTE: ">=", exp.GT: ">", exp.LTE: "<="}[type(n)]
    if below:
        return template("(_a %s _b) OR %s" % (symbol, zero), a=n.this, b=n.expression)
    if not_above:
        return template("(_a %s _b) AND NOT %s" % (symbol, zero), a=n.this, b=n.expression)
    return None


def _distinct(n, typeof):
    """IS [NOT] DISTINCT FROM: NaN is distinct from every value, itself included."""
    a, b = n.this, n.expression
    types = [typeof(a), typeof(b)]
    if not _java_operands(types) or a == b:
        return None
    nan = " OR ".join("isnan(_%s)" % x for x, ft in zip("ab", types) if _name(ft) in _FLOATS)
    if isinstance(n, exp.NullSafeEQ):
        return template("(_a <=> _b) AND NOT (%s)" % nan, a=a, b=b)
    return template("NOT (_a <=> _b) OR %s" % nan, a=a, b=b)


def _simple_case(n, typeof):
    """CASE x WHEN v THEN ..: Flink compares x and v with `=` (Java's)."""
    x = n.args["this"]
    ifs = n.args.get("ifs") or []
    if not _java_operands([typeof(x)] + [typeof(i.this) for i in ifs]):
        return None
    whens = []
    for i in ifs:
        cond = template(_compare("=", "_a", "_b", [typeof(x), typeof(i.this)], [x, i.this]), a=x.copy(), b=i.this)
        whens.append(exp.If(this=cond, true=i.args["true"]))
    return exp.Case(ifs=whens, default=n.args.get("default"))


def signed_zero_extreme(n, typeof, spark_call):
    """GREATEST / LEAST of FLOAT/DOUBLE values ordered as Flink orders them (Double.compare: -0.0 below 0.0):
    `spark_call(n)` gives Spark's call (which takes -0.0 and 0.0 as equal and keeps the first); a zero result
    gets the sign Flink gives it (GREATEST is 0.0 when any argument is 0.0, LEAST -0.0 when any is -0.0). Else
    None. (A zero's sign from its text: Spark's atan2 and sign make -0.0 0.0 first.)"""
    if not isinstance(n, (exp.Greatest, exp.Least)) or _name(typeof(n)) not in _FLOATS:
        return None
    args = [a.copy() for a in [n.this] + list(n.expressions)]
    greatest = isinstance(n, exp.Greatest)
    zero = "(_a%d = 0 AND CAST(_a%d AS STRING) " + ("<>" if greatest else "=") + " '-0.0')"
    found = " OR ".join(zero % (k, k) for k in range(len(args)))
    t = _name(typeof(n))
    # (abs(zero) times a sign: Spark folds IF(c, 0.0, -0.0), as it takes the two literals as equal)
    signs = ("1", "-1") if greatest else ("-1", "1")
    return template("CASE WHEN _r = 0 THEN abs(_r) * CAST(IF(%s, %s, %s) AS %s) ELSE _r END" % ((found,) + signs + (t,)),
                    r=spark_call(n), **{"a%d" % k: a for k, a in enumerate(args)})
