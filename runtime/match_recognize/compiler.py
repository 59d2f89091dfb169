"""Compiles MEASURES/DEFINE expressions (sqlglot trees from the planner) into Python functions.

A compiled expression is `f(N, S, M, F, D)`:
    N  the Step of the current row (DEFINE: the candidate row, already mapped to the variable being
       tested; MEASURES: the row the RUNNING value is for), or EMPTY for an empty match
    S  the partition index of the match's first row          M  the match number (1, 2, ...)
    F  the Step of the match's last row (FINAL semantics)     D  the partition's columns (lists)
Navigation follows the standard: `X.c` is c of the last row mapped to X, a bare `c` the current row,
FIRST/LAST count rows mapped to a variable (or all rows), PREV/NEXT count rows of the partition,
aggregates run over the rows mapped so far (their running states live in the Steps).
The Python source is generated once per spec; nothing here parses SQL text."""

import datetime as _dt
from decimal import Decimal

from sqlglot import exp

from planner.match_recognize.expressions import call_args, func_name, qualifier
from runtime.match_recognize import functions as fn
from runtime.match_recognize.paths import Root, Step


class AggregateSlot:
    """A running aggregate over the rows mapped to `vars` (None: all rows)."""

    def __init__(self, kind, vars, arg_fn, star, plain=False):
        self.kind = kind            # SUM COUNT AVG MIN MAX
        self.vars = vars            # frozenset of variable ids, or None
        self.arg_fn = arg_fn        # f(row, D) -> value, or None for COUNT(*)
        self.star = star
        self.plain = star or plain  # COUNT(*) or a bare column: adding a row's first value cannot raise
        self.initial = {"COUNT": 0, "SUM": None, "AVG": (None, 0), "MIN": None, "MAX": None}[kind]

    def add(self, state, row, data):
        if self.star:
            return state + 1
        v = self.arg_fn(row, data)
        if v is None:
            return state
        k = self.kind
        if k == "COUNT":
            return state + 1
        if k == "SUM":
            return v if state is None else fn.arith("+", state, v)
        if k == "AVG":
            total, n = state
            return (v if total is None else fn.arith("+", total, v), n + 1)
        if k == "MIN":
            return v if state is None or v < state else state
        return v if state is None or v > state else state

    def final(self, state):
        if self.kind == "AVG":
            return fn.avg_final(*state)
        return state


# ---- navigation helpers the generated code calls ---------------------------------------------

def nav_last(step, var, n):
    t = step.last[var]
    while n and t is not None:
        t = t.prev_same
        n -= 1
    return None if t is None else t.row


def nav_first(step, var, n):
    c = step.cnt[var]
    if n >= c:
        return None
    if n == 0:
        return step.first[var].row
    t = step.last[var]
    for _ in range(c - 1 - n):
        t = t.prev_same
    return t.row


def nav_all_last(step, start, n):
    if step.row is None:
        return None
    r = step.row - n
    return r if r >= start else None


def nav_all_first(step, start, n):
    if step.row is None:
        return None
    r = start + n
    return r if r <= step.row else None


def _rows_in(step, vars):
    out = []
    s = step
    while s is not None and s.row is not None:
        if s.var in vars:
            out.append(s.row)
        s = s.parent
    out.reverse()
    return out


def nav_set_last(step, vars, n):
    rows = _rows_in(step, vars)
    return rows[-1 - n] if n < len(rows) else None


def nav_set_first(step, vars, n):
    rows = _rows_in(step, vars)
    return rows[n] if n < len(rows) else None


def cand_set_last(step, r, vars, n, cand_in):
    if cand_in:
        if n == 0:
            return r
        n -= 1
    return nav_set_last(step, vars, n)


def cand_set_first(step, r, vars, n, cand_in):
    rows = _rows_in(step, vars)
    if cand_in:
        rows.append(r)
    return rows[n] if n < len(rows) else None


def last_of(step, vars):
    best = None
    for v in vars:
        t = step.last[v]
        if t is not None and (best is None or t.row > best):
            best = t.row
    return best


def physical(base, offset, data):
    if base is None:
        return None
    r = base + offset
    return r if 0 <= r < len(data[0]) else None


class ExpressionCompiler:
    """Compiles the expressions of one spec; aggregate slots are shared by all of them (kept in Steps)."""

    def __init__(self, variables, subsets, columns, rowtime):
        self.var_ids = {v: i for i, v in enumerate(variables)}
        self.var_names = tuple(variables)
        self.subsets = {name: frozenset(self.var_ids[v] for v in vs) for name, vs in subsets.items()}
        self.col_index = {c: i for i, c in enumerate(columns)}
        self.names_read = set()    # the columns any compiled expression reads
        self.rowtime = rowtime
        self.slots = []
        self._slot_keys = {}
        self._n = 0
        self.max_prev = 0          # farthest PREV offset: rows a streaming buffer keeps before a match
        self._cand = None          # compiling a DEFINE: the variable id of the candidate row r

    # -- public
    def compile(self, node, label="expr"):
        """-> f(N, S, M, F, D)"""
        self._consts = {}
        self._cols = set()
        body = self.gen(node, "N", None)
        return self._build("N, S, M, F, D", body, label)

    def compile_define(self, node, var, label="define"):
        """A DEFINE condition for `var`, evaluated before the row is added to the path:
        -> f(P, r, S, M, D) with P the Step of the previous row of the match (ROOT at the start) and r the
        candidate row; the code reads r where the standard reads 'the current row mapped to var'."""
        self._consts = {}
        self._cols = set()
        self._cand = self.var_ids[var]
        try:
            body = self.gen(node, "P", None)
        finally:
            self._cand = None
        return self._build("P, r, S, M, D", body, label)

    def compile_row(self, node, label="row_expr"):
        """An expression evaluated at one row (aggregate arguments) -> f(r, D)"""
        self._consts = {}
        self._cols = set()
        body = self.gen(node, "N", "r")
        return self._build("r, D", body, label)

    def _build(self, params, body, label):
        lines = ["def %s(%s):" % (label, params)]
        for c in sorted(self._cols):
            lines.append("    c%d = D[%d]" % (c, c))
        lines.append("    return " + body)
        src = "\n".join(lines)
        ns = dict(self._consts)
        ns.update(fn=fn, nav_last=nav_last, nav_first=nav_first, nav_all_last=nav_all_last,
                  nav_all_first=nav_all_first, nav_set_last=nav_set_last, nav_set_first=nav_set_first,
                  last_of=last_of, physical=physical, cand_set_last=cand_set_last,
                  cand_set_first=cand_set_first, VN=self.var_names, SLOTS=self.slots,
                  Decimal=Decimal, _dt=_dt)
        exec(compile(src, "<match_recognize %s>" % label, "exec"), ns)
        f = ns[label]
        f.source = src
        return f

    def tmp(self):
        self._n += 1
        return "_t%d" % self._n

    def const(self, value):
        name = "K%d" % len(self._consts)
        self._consts[name] = value
        return name

    def col(self, name):
        i = self.col_index[name]
        self._cols.add(i)
        self.names_read.add(name)
        return "c%d" % i

    # -- code generation: returns a Python expression string
    def gen(self, node, step, rowvar):
        g = lambda n: self.gen(n, step, rowvar)  # noqa: E731
        if isinstance(node, exp.Paren):
            return g(node.this)
        if isinstance(node, exp.Column):
            return self.column(node, step, rowvar)
        if isinstance(node, exp.Literal):
            if node.is_string:
                return repr(node.this)
            text = node.this
            if text.isdigit():
                return text
            return repr(float(text))
        if isinstance(node, exp.Boolean):
            return "True" if node.this else "False"
        if isinstance(node, exp.Null):
            return "None"
        if isinstance(node, exp.Neg):
            t = self.tmp()
            return "(None if (%s := %s) is None else -%s)" % (t, g(node.this), t)
        if isinstance(node, (exp.Add, exp.Sub, exp.Mul)):
            op = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*"}[type(node)]
            if isinstance(node.expression, exp.Interval) or isinstance(node.this, exp.Interval):
                return "fn.arith(%r, %s, %s)" % (op, g(node.this), g(node.expression))
            if self._has_float_literal(node):
                return "fn.arith(%r, %s, %s)" % (op, g(node.this), g(node.expression))
            a, b = self.tmp(), self.tmp()
            return "(None if (%s := %s) is None or (%s := %s) is None else %s %s %s)" % (
                a, g(node.this), b, g(node.expression), a, op, b)
        if isinstance(node, exp.Div):
            return "fn.div(%s, %s)" % (g(node.this), g(node.expression))
        if isinstance(node, exp.Mod):
            return "fn.mod(%s, %s)" % (g(node.this), g(node.expression))
        if isinstance(node, exp.Interval):
            unit = node.args.get("unit")
            return self.const(fn.interval(node.this.this if isinstance(node.this, exp.Literal) else node.this.sql(),
                                          unit.name if unit is not None else "SECOND"))
        if isinstance(node, exp.DPipe):
            a, b = self.tmp(), self.tmp()
            return "(None if (%s := %s) is None or (%s := %s) is None else str(%s) + str(%s))" % (
                a, g(node.this), b, g(node.expression), a, b)
        cmp = {exp.EQ: "==", exp.NEQ: "!=", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<="}
        if type(node) in cmp:
            a, b = self.tmp(), self.tmp()
            return "(None if (%s := %s) is None or (%s := %s) is None else %s %s %s)" % (
                a, g(node.this), b, g(node.expression), a, cmp[type(node)], b)
        if isinstance(node, exp.And):
            a, b = self.tmp(), self.tmp()
            return ("(False if (%s := %s) is False else (False if (%s := %s) is False else "
                    "(None if %s is None or %s is None else True)))") % (a, g(node.this), b, g(node.expression), a, b)
        if isinstance(node, exp.Or):
            a, b = self.tmp(), self.tmp()
            return ("(True if (%s := %s) is True else (True if (%s := %s) is True else "
                    "(None if %s is None or %s is None else False)))") % (a, g(node.this), b, g(node.expression), a, b)
        if isinstance(node, exp.Not):
            if isinstance(node.this, exp.Is):
                return "(not %s)" % g(node.this)
            t = self.tmp()
            return "(None if (%s := %s) is None else not %s)" % (t, g(node.this), t)
        if isinstance(node, exp.Is):
            target = node.expression
            if isinstance(target, exp.Null):
                return "(%s is None)" % g(node.this)
            if isinstance(target, exp.Boolean):
                return "(%s is %s)" % (g(node.this), "True" if target.this else "False")
            raise ValueError("Unsupported IS: %s" % node.sql())
        if isinstance(node, (exp.Like, exp.ILike)):
            return "fn.like(%s, %s, %s)" % (g(node.this), g(node.expression), isinstance(node, exp.ILike))
        if isinstance(node, exp.Between):
            return "fn.between(%s, %s, %s)" % (g(node.this), g(node.args["low"]), g(node.args["high"]))
        if isinstance(node, exp.In):
            t = self.tmp()
            items = ", ".join(g(e) for e in node.expressions)
            return "(None if (%s := %s) is None else (%s in (%s,)))" % (t, g(node.this), t, items)
        if isinstance(node, exp.Case):
            operand = node.args.get("this")
            default = node.args.get("default")
            out = g(default) if default is not None else "None"
            for branch in reversed(node.args.get("ifs") or []):
                cond = branch.this
                if operand is not None:
                    cond = exp.EQ(this=operand, expression=cond)
                out = "(%s if %s is True else %s)" % (g(branch.args["true"]), g(cond), out)
            return out
        if isinstance(node, exp.If):
            false = node.args.get("false")
            return "(%s if %s is True else %s)" % (g(node.args["true"]), g(node.this),
                                                   g(false) if false is not None else "None")
        if isinstance(node, exp.Cast):
            return "fn.cast(%s, %r, %s)" % (g(node.this), node.to.sql().upper(), isinstance(node, exp.TryCast))
        if isinstance(node, (exp.Sum, exp.Count, exp.Avg, exp.Min, exp.Max)):
            return self.aggregate(node, step)
        if isinstance(node, exp.TimestampDiff):
            unit = node.this.name if isinstance(node.this, exp.Column) else node.args.get("unit")
            # sqlglot reads TIMESTAMPDIFF(unit, a, b) as this=unit, expression=a, unit=b
            return "fn.timestampdiff(%r, %s, %s)" % (str(unit), g(node.args["expression"]), g(node.args["unit"]))
        name = func_name(node)
        args = call_args(node) if isinstance(node, exp.Func) else []
        if name == "__RUNNING":
            return self.gen(args[0], "N", rowvar)
        if name == "__FINAL":
            return self.gen(args[0], "F", rowvar)
        if name in ("FIRST", "LAST"):
            return self.navigation(name, args, step)
        if name in ("PREV", "NEXT"):
            return self.physical(name, args, step, rowvar)
        if name == "CLASSIFIER" and self._cand is not None:
            return repr(self.var_names[self._cand])
        if name == "CLASSIFIER":
            t = self.tmp()
            return "(None if (%s := %s.var) is None else VN[%s])" % (t, step, t)
        if name == "MATCH_NUMBER":
            return "M"
        if name == "MATCH_ROWTIME":
            return self.at_row(self.rowtime, "%s.row" % step)
        if name == "MATCH_PROCTIME":
            return "_dt.datetime.now(_dt.timezone.utc).replace(tzinfo=None)"
        if isinstance(node, exp.Coalesce):
            return "fn.coalesce(%s)" % ", ".join(g(a) for a in args)
        if isinstance(node, exp.Length):
            return "fn.SCALARS['CHAR_LENGTH'](%s)" % g(node.this)
        if isinstance(node, exp.Pow):
            return "fn.SCALARS['POWER'](%s, %s)" % (g(node.this), g(node.expression))
        if isinstance(node, exp.Log):
            return self.log(node, g)
        if isinstance(node, exp.Substring):
            parts = [g(node.this), g(node.args["start"])]
            if node.args.get("length") is not None:
                parts.append(g(node.args["length"]))
            return "fn.SCALARS['SUBSTRING'](%s)" % ", ".join(parts)
        if isinstance(node, exp.Trim):
            return "fn.SCALARS['TRIM'](%s)" % g(node.this)
        if isinstance(node, exp.Round):
            parts = [g(node.this)]
            if node.args.get("decimals") is not None:
                parts.append(g(node.args["decimals"]))
            return "fn.SCALARS['ROUND'](%s)" % ", ".join(parts)
        if name in fn.SCALARS:
            return "fn.SCALARS[%r](%s)" % (name, ", ".join(g(a) for a in args))
        raise ValueError("Cannot evaluate %s inside MATCH_RECOGNIZE" % node.sql())

    @staticmethod
    def log(node, g):
        """LOG(x) is LN(x); a bare literal base 10 is LOG10(x) (planner/dialect.py: LOG(10, x) keeps its base in
        parentheses); LOG(b, x) and LOG2(x) are Math.log(x) / Math.log(b), as Flink's SqlFunctionUtils."""
        if node.expression is None:
            return "fn.SCALARS['LN'](%s)" % g(node.this)
        base = node.this
        if isinstance(base, exp.Literal) and not base.is_string and base.name == "10":
            return "fn.SCALARS['LOG10'](%s)" % g(node.expression)
        return "fn.SCALARS['LOG'](%s, %s)" % (g(base), g(node.expression))

    @staticmethod
    def _has_float_literal(node):
        return any(isinstance(x, exp.Literal) and not x.is_string and not x.this.isdigit()
                   for x in (node.this, node.expression))

    def at_row(self, column, row_expr):
        c = self.col(column)
        t = self.tmp()
        return "(None if (%s := %s) is None else %s[%s])" % (t, row_expr, c, t)

    def column(self, node, step, rowvar):
        name = node.name
        if rowvar is not None:                       # inside an aggregate or navigation: the given row
            return "%s[%s]" % (self.col(name), rowvar)
        q = qualifier(node)
        cand = self._cand
        if cand is not None and (q is None or (q in self.var_ids and self.var_ids[q] == cand)
                                 or (q in self.subsets and cand in self.subsets[q])):
            return "%s[r]" % self.col(name)
        if q is None:
            return self.at_row(name, "%s.row" % step)
        if q in self.subsets:
            return self.at_row(name, "last_of(%s, %s)" % (step, self.const(self.subsets[q])))
        v = self.var_ids[q]
        t = self.tmp()
        return "(None if (%s := %s.last[%d]) is None else %s[%s.row])" % (t, step, v, self.col(name), t)

    def _single_var(self, node):
        qs = {qualifier(c) for c in node.find_all(exp.Column)} - {None}
        return next(iter(qs)) if qs else None

    def navigation(self, name, args, step):
        arg = args[0]
        n = int(args[1].this) if len(args) > 1 else 0
        q = self._single_var(arg)
        r = self.tmp()
        if self._cand is not None:
            row = self._cand_nav(name, q, n)
            return "(None if (%s := %s) is None else %s)" % (r, row, self.gen(arg, step, r))
        if q is None:
            row = "nav_all_%s(%s, S, %d)" % (name.lower(), step, n)
        elif q in self.subsets:
            row = "nav_set_%s(%s, %s, %d)" % (name.lower(), step, self.const(self.subsets[q]), n)
        elif name == "LAST":
            row = self._last_row(step, self.var_ids[q], n)
        else:
            row = "nav_%s(%s, %d, %d)" % (name.lower(), step, self.var_ids[q], n)
        return "(None if (%s := %s) is None else %s)" % (r, row, self.gen(arg, step, r))

    def _last_row(self, step, v, n):
        """Row index of LAST(v..., n) from `step`, inlined for small n (a function call costs more):
        the last Step of v, then n times back along prev_same."""
        if n > 2:
            return "nav_last(%s, %d, %d)" % (step, v, n)
        temps = [self.tmp() for _ in range(n + 1)]
        tests = ["(%s := %s.last[%d]) is None" % (temps[0], step, v)]
        for k in range(1, n + 1):
            tests.append("(%s := %s.prev_same) is None" % (temps[k], temps[k - 1]))
        return "(None if %s else %s.row)" % (" or ".join(tests), temps[-1])

    def _cand_nav(self, name, q, n):
        """Row index expression of FIRST/LAST(q..., n) while r is the candidate row of self._cand."""
        cand = self._cand
        if q is None:
            return "(r - %d if r - %d >= S else None)" % (n, n) if name == "LAST" else \
                "(S + %d if S + %d <= r else None)" % (n, n)
        if q in self.subsets:
            vs = self.subsets[q]
            fn_name = "cand_set_last" if name == "LAST" else "cand_set_first"
            return "%s(P, r, %s, %d, %s)" % (fn_name, self.const(vs), n, cand in vs)
        v = self.var_ids[q]
        if v != cand:
            return self._last_row("P", v, n) if name == "LAST" else "nav_first(P, %d, %d)" % (v, n)
        if name == "LAST":
            return "r" if n == 0 else self._last_row("P", v, n - 1)
        return "(r if P.cnt[%d] == %d else nav_first(P, %d, %d))" % (v, n, v, n)

    def physical(self, name, args, step, rowvar):
        arg = args[0]
        n = int(args[1].this) if len(args) > 1 else 1
        if name == "PREV":
            self.max_prev = max(self.max_prev, n)
        offset = -n if name == "PREV" else n
        inner = arg
        if rowvar is not None:
            base = rowvar
        elif isinstance(arg, exp.Func) and func_name(arg) in ("FIRST", "LAST"):
            nav_args = call_args(arg)
            inner = nav_args[0]
            k = int(nav_args[1].this) if len(nav_args) > 1 else 0
            q = self._single_var(inner)
            if q is None:
                base = "nav_all_%s(%s, S, %d)" % (func_name(arg).lower(), step, k)
            elif q in self.subsets:
                base = "nav_set_%s(%s, %s, %d)" % (func_name(arg).lower(), step, self.const(self.subsets[q]), k)
            elif self._cand is not None:
                base = self._cand_nav(func_name(arg), q, k)
            else:
                base = "nav_%s(%s, %d, %d)" % (func_name(arg).lower(), step, self.var_ids[q], k)
        else:
            q = self._single_var(arg)
            if self._cand is not None and (q is None or self.var_ids.get(q) == self._cand
                                           or (q in self.subsets and self._cand in self.subsets[q])):
                base = "r"
            elif q is None:
                base = "%s.row" % step
            elif q in self.subsets:
                base = "last_of(%s, %s)" % (step, self.const(self.subsets[q]))
            else:
                t0 = self.tmp()
                base = "(None if (%s := %s.last[%d]) is None else %s.row)" % (t0, step, self.var_ids[q], t0)
        r = self.tmp()
        return "(None if (%s := physical(%s, %d, D)) is None else %s)" % (r, base, offset, self.gen(inner, step, r))

    def aggregate(self, node, step):
        kind = {exp.Sum: "SUM", exp.Count: "COUNT", exp.Avg: "AVG", exp.Min: "MIN", exp.Max: "MAX"}[type(node)]
        arg = node.this
        star = isinstance(arg, exp.Star) or (isinstance(arg, exp.Column) and isinstance(arg.this, exp.Star))
        q = qualifier(arg) if isinstance(arg, exp.Column) else (None if star else self._single_var(arg))
        if q is None:
            vars = None
        elif q in self.subsets:
            vars = self.subsets[q]
        else:
            vars = frozenset([self.var_ids[q]])
        key = (kind, vars, star, None if star else arg.sql())
        k = self._slot_keys.get(key)
        if k is None:
            saved = (self._consts, self._cols)
            arg_fn = None if star else self.compile_row(arg, "agg%d" % len(self.slots))
            self._consts, self._cols = saved
            k = len(self.slots)
            self.slots.append(AggregateSlot(kind, vars, arg_fn, star, isinstance(arg, exp.Column)))
            self._slot_keys[key] = k
        if self._cand is not None and (vars is None or self._cand in vars):
            return "SLOTS[%d].final(SLOTS[%d].add(P.aggs[%d], r, D))" % (k, k, k)
        return "SLOTS[%d].final(%s.aggs[%d])" % (k, step, k)


__all__ = ["ExpressionCompiler", "AggregateSlot", "Root", "Step"]
