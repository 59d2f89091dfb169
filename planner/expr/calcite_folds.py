"""Two folds of Flink's optimizer (Calcite's RexSimplify) that change a FLOAT/DOUBLE answer, made before the
expression is translated (after float_comparisons.push_negations):

- an arithmetic identity is its operand: `x + 0`, `0 + x`, `x - 0`, `x * 1`, `1 * x`, `x / 1` are `x` (where
  the result has x's type), so `x + 0 = x` is `x = x` (TRUE for a NaN, as a comparison of an expression with
  itself is folded) and `-0.0 + 0` stays -0.0;
- the comparisons of one FLOAT/DOUBLE expression with integer literals joined by OR (AND) are one range set
  (Calcite's Sarg), as over the real numbers: a set holding every number is `x IS NOT NULL` (TRUE for a NaN,
  NULL for NULL: `x > 0 OR x <= 0`, `x BETWEEN 0 AND 1 OR x NOT BETWEEN 0 AND 1`), an empty one FALSE (NULL for
  NULL), one holding all numbers but a few is `x <> a AND x <> b ..` (TRUE for a NaN: `x < 0 OR x > 0`); other
  sets are their ranges, each bound compared as its literal compares with a DOUBLE (float_comparisons.py: a
  DECIMAL literal such as 0.5 by Double.compare, a NaN above it; an integer or DOUBLE literal by Java's `<`,
  FALSE for a NaN): `x > 0.5 AND x <> 1` is `x > 0.5 AND x < 1 OR x > 1` (FALSE for a NaN), `x < 1 OR x >= 1.5`
  TRUE for a NaN. Sets whose bounds are all integer or DOUBLE literals keep their comparisons (the same
  answers). Literals of both kinds join one set (`x > 0 OR x <= 0.5` is every number).
`simplify(tree, typeof)` gives the tree so folded (its nodes replaced in place; the root may be new)."""

from sqlglot import exp

from .float_comparisons import _unparen

_FLOATS = ("FLOAT", "DOUBLE")
_NUMBERS = _FLOATS + ("TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL")
_INF = float("inf")


def _literal_value(node, integral=True):
    """The value of a number literal (or one negated): with `integral`, only an integer's (as int), else None."""
    node = _unparen(node)
    sign = 1
    if isinstance(node, exp.Neg):
        node, sign = _unparen(node.this), -1
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            value = sign * (int(node.this) if integral else float(node.this))
        except ValueError:
            return None
        return value if value == value and abs(value) != _INF else None
    return None


def _is_decimal(literal):
    """Whether a number literal is a DECIMAL one (`0.5`; not `1`, nor the DOUBLE `1E0`)."""
    node = _unparen(literal)
    node = _unparen(node.this) if isinstance(node, exp.Neg) else node
    return "." in node.this and "e" not in node.this.lower()


def _name(typeof, node):
    try:
        ft = typeof(node)
    except Exception:
        return None
    return ft.name if ft is not None else None


def _text(typeof, node):
    try:
        ft = typeof(node)
        return ft.text() if ft is not None else None
    except Exception:
        return None


def simplify(tree, typeof):
    holder = exp.Paren(this=tree)
    for node in reversed(list(holder.find_all(exp.Add, exp.Sub, exp.Mul, exp.Div))):   # (children first)
        other = _identity_operand(node, typeof)
        if other is not None:
            node.replace(other.copy())
    for node in reversed(list(holder.find_all(exp.Or, exp.And))):
        if node.parent is None or (isinstance(node.parent, type(node))):
            continue                       # (a chain is folded at its top)
        folded = _range_fold(node, typeof)
        if folded is not None:
            node.replace(folded)
    return holder.this.pop()


def _identity_operand(node, typeof):
    a, b = node.this, node.expression
    if _name(typeof, a) not in _NUMBERS or _name(typeof, b) not in _NUMBERS:
        return None
    candidates = []
    if isinstance(node, exp.Add):
        candidates = [(b, a, 0), (a, b, 0)]
    elif isinstance(node, exp.Sub):
        candidates = [(b, a, 0)]
    elif isinstance(node, exp.Mul):
        candidates = [(b, a, 1), (a, b, 1)]
    elif isinstance(node, exp.Div):
        candidates = [(b, a, 1)]
    result = _text(typeof, node)
    for literal, other, identity in candidates:
        if _literal_value(literal, integral=False) == identity and result is not None and _text(typeof, other) == result:
            return other
    return None


# ---------------------------------------------------------------------- range sets (Calcite's Sarg)
# a range set: sorted, disjoint [(low, low closed, high, high closed)] over the real numbers


def _terms(node, kind):
    node = _unparen(node)
    if isinstance(node, kind):
        return _terms(node.this, kind) + _terms(node.expression, kind)
    return [node]


def _ranges(term, typeof, literals):
    """(operand, range set) of a comparison of a FLOAT/DOUBLE operand with number literals, else None; each
    bound's literal noted in `literals` (value -> literal node, the first one met)."""
    term = _unparen(term)
    if isinstance(term, exp.Between):
        low, high = _bound(term.args["low"], literals), _bound(term.args["high"], literals)
        if _name(typeof, term.this) in _FLOATS and low is not None and high is not None:
            return term.this, ([(low, True, high, True)] if low <= high else [])
        return None
    if isinstance(term, exp.Not) and isinstance(_unparen(term.this), exp.Between):
        inner = _ranges(_unparen(term.this), typeof, literals)
        return (inner[0], _complement(inner[1])) if inner is not None else None
    ops = {exp.EQ: "=", exp.NEQ: "<>", exp.LT: "<", exp.LTE: "<=", exp.GT: ">", exp.GTE: ">="}
    if type(term) not in ops:
        return None
    op, a, b = ops[type(term)], term.this, term.expression
    if _literal_value(a, False) is not None and _literal_value(b, False) is None:
        a, b = b, a
        op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
    v = _bound(b, literals)
    if v is None or _name(typeof, a) not in _FLOATS:
        return None
    return a, {"=": [(v, True, v, True)], "<>": [(-_INF, False, v, False), (v, False, _INF, False)],
               "<": [(-_INF, False, v, False)], "<=": [(-_INF, False, v, True)],
               ">": [(v, False, _INF, False)], ">=": [(v, True, _INF, False)]}[op]


def _bound(node, literals):
    v = _literal_value(node, False)
    if v is not None:
        literals.setdefault(v, _unparen(node))
    return v


def _union(a, b):
    out = []
    for r in sorted(a + b, key=lambda r: (r[0], not r[1])):
        if out:
            lo, lc, hi, hc = out[-1]
            if r[0] < hi or (r[0] == hi and (hc or r[1])):
                if r[2] > hi or (r[2] == hi and r[3]):
                    hi, hc = r[2], r[3] or (r[2] == hi and hc)
                out[-1] = (lo, lc, hi, hc)
                continue
        out.append(r)
    return out


def _complement(a):
    out, lo, lc = [], -_INF, False
    for r in a:
        if r[0] > lo or (r[0] == lo and lc and not r[1]):
            out.append((lo, lc, r[0], not r[1]))
        lo, lc = r[2], not r[3]
    if lo < _INF:
        out.append((lo, lc, _INF, False))
    return [r for r in out if r[0] < r[2] or (r[0] == r[2] and r[1] and r[3])]


def _intersection(a, b):
    return _complement(_union(_complement(a), _complement(b)))


def _range_fold(node, typeof):
    kind = type(node)
    terms = _terms(node, kind)
    groups, order, literals = {}, [], {}
    for i, t in enumerate(terms):
        r = _ranges(t, typeof, literals)
        if r is None:
            continue
        key = r[0].sql()
        if key not in groups:
            groups[key] = (r[0], [])
            order.append(key)
        groups[key][1].append((i, r[1]))
    replaced = {}
    for key in order:
        operand, members = groups[key]
        if len(members) < 2:
            continue
        ranges = members[0][1]
        for _, r in members[1:]:
            ranges = _union(ranges, r) if kind is exp.Or else _intersection(ranges, r)
        folded = _sarg(operand, ranges, literals)
        if folded is None:
            continue
        replaced[members[0][0]] = folded
        for i, _ in members[1:]:
            replaced[i] = None
    if not replaced:
        return None
    kept = [replaced.get(i, t.copy()) if i in replaced else t.copy() for i, t in enumerate(terms)]
    kept = [t for t in kept if t is not None]
    out = kept[0]
    for t in kept[1:]:
        out = kind(this=out, expression=t)
    return exp.Paren(this=out)


def _sarg(operand, ranges, literals):
    """The fold of `operand` in `ranges` where it differs from its comparisons for a NaN, else None (`literals`:
    each bound's literal)."""
    null = exp.Is(this=operand.copy(), expression=exp.Null())
    if ranges == [(-_INF, False, _INF, False)]:               # every number: x IS NOT NULL (NULL for NULL)
        return exp.Case(ifs=[exp.If(this=null, true=exp.Null())], default=exp.true())
    if not ranges:
        return exp.Case(ifs=[exp.If(this=null, true=exp.Null())], default=exp.false())
    holes = _complement(ranges)
    if all(r[0] == r[2] for r in holes):                     # all numbers but a few: x <> a AND ..
        out = None
        for r in holes:
            ne = exp.NEQ(this=operand.copy(), expression=literals[r[0]].copy())
            out = ne if out is None else exp.And(this=out, expression=ne)
        return exp.Paren(this=out)
    bounds = [literals[v] for r in ranges for v in r[:3:2] if abs(v) != _INF]
    if not any(_is_decimal(b) for b in bounds):
        return None                 # (integer and DOUBLE bounds: the comparisons answer as the ranges do)
    out = None
    for lo, lc, hi, hc in ranges:   # a DECIMAL bound: the ranges, each bound as its literal compares
        if lo == hi:
            term = exp.EQ(this=operand.copy(), expression=literals[lo].copy())
        else:
            sides = []
            if lo != -_INF:
                sides.append((exp.GTE if lc else exp.GT)(this=operand.copy(), expression=literals[lo].copy()))
            if hi != _INF:
                sides.append((exp.LTE if hc else exp.LT)(this=operand.copy(), expression=literals[hi].copy()))
            term = sides[0] if len(sides) == 1 else exp.Paren(this=exp.And(this=sides[0], expression=sides[1]))
        out = term if out is None else exp.Or(this=out, expression=term)
    return exp.Paren(this=out)
