"""Which start rows can go on to a second row: one numpy test over a partition before Flink's matcher runs.

When Flink's automaton takes every start row whatever it holds (FlinkMatcher.first_take: the first variable
has no DEFINE and the match cannot end there), a start row s fails at once unless row s+1 makes the DEFINE of
some way on from the state after that take TRUE. There the path is just [s -> start variable], so every
navigation is static: `V.c` is row s+1 for the variable V being tested, row s for the start variable, NULL
for any other; FIRST/LAST count those rows; PREV(c, k) is row s+1-k (NULL before the buffer's first row).
`NextRowsTest.cannot_take` evaluates those DEFINEs for every start row of a partition at once, as numpy
arrays with NULL masks and SQL's three-valued logic, and PartitionRun.advance fails the start rows whose
second row no way on can take without calling match_from.

Only a safe subset compiles (`compile_test` returns None otherwise): numeric columns and literals, unary
minus, + - * /, comparisons, AND OR NOT, IS [NOT] NULL / TRUE / FALSE, FIRST/LAST of a column
expression and PREV. Aggregates, strings, timestamps, functions, CASE, NEXT, a way on with no DEFINE or an
aggregate the start row's step computes from an expression (it could raise) give no test. Per call the
columns must hold ints or floats (None for NULL), and integer results must stay in int64 (bounds checked),
else there is no test for that call. The test only says 'cannot' where no way on's DEFINE is TRUE and none
of the DEFINEs match_from would evaluate at row s+1 could raise (an integer division by zero): it never
changes a result. Greedy NOT conditions are left out (they only forbid takes). Plain numpy; no Spark."""

import numpy as np
from sqlglot import exp

from planner.match_recognize.expressions import call_args, func_name, qualifier
from planner.match_recognize.types import parse_type_text

NUMERIC_TYPES = ("TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE")
INT64_MAX = 2 ** 63 - 1
EXACT_FLOAT_INT = 2 ** 53        # an int up to this compares with a float the same in numpy as in Python
MIN_ROWS = 64                    # fewer start rows: no test (its ~12 us would cost about what it saves)


class Unsupported(Exception):
    """The expression is outside the subset this module evaluates."""


class GiveUp(Exception):
    """This call's values cannot be evaluated exactly (non-numeric values, integers past int64)."""


class Num:
    """Numeric values for every start row: `vals` (int64 or float64 array, or a scalar), `null` (bool
    array or scalar, or None: no NULL), `bound` (ints: an upper bound of |vals|, None until asked)."""
    __slots__ = ("vals", "null", "is_int", "_bound")

    def __init__(self, vals, null, is_int, bound=None):
        self.vals, self.null, self.is_int, self._bound = vals, null, is_int, bound

    def bound(self):
        if self._bound is None:
            v = self.vals
            self._bound = max(abs(int(np.max(v))), abs(int(np.min(v)))) if np.size(v) else 0
        return self._bound


def _or(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a | b


NULL_NUM = Num(np.int64(0), np.True_, True, 0)


def compile_test(spec, columns, engine, slots):
    """A NextRowsTest for a FlinkMatcher `engine` with first_take set, or None when its DEFINEs are outside
    the subset. columns: names of the partition's data lists; slots: the spec's aggregate slots."""
    if engine.first_take is None:
        return None
    start_var = engine.start.opts[0][0]
    target = engine.first_take[1]
    variables = spec.variables()
    var_ids = {v: i for i, v in enumerate(variables)}
    subsets = {s.name: frozenset(var_ids[v] for v in s.variables) for s in spec.subsets}
    types = {name: parse_type_text(t).name for name, t in spec.input_columns}
    col_index = {c: i for i, c in enumerate(columns)}
    # an aggregate over the start variable runs its argument at row s before anything is tested
    for slot in slots:
        if (slot.vars is None or start_var in slot.vars) and not slot.plain:
            return None
    options, checked = [], []
    tests, lows = {}, {}
    try:
        for var, nots, _, _, _, define in target.opts:
            if define is None or var == start_var:
                return None
            options.append(var)
            checked.extend(nots)
        for var in dict.fromkeys(options + checked):
            d = spec.definition(variables[var])
            if d is None:          # a greedy NOT of a variable without DEFINE: never evaluated, never true
                continue
            gen = _DefineCompiler(var, start_var, var_ids, subsets, col_index, types, lows)
            tests[var] = gen.boolean(d.expr)
    except Unsupported:
        return None
    if not options:
        return None
    return NextRowsTest([tests[v] for v in dict.fromkeys(options)],
                         [t for v, t in tests.items() if v not in options], sorted(lows.items()))


class NextRowsTest:
    """The compiled test: `cannot_take(data, ts, lo, n, within)`."""

    def __init__(self, options, others, columns):
        self.options = options          # f(frame) -> (TRUE mask, FALSE mask): the DEFINE of each way on
        self.others = others            # DEFINEs only evaluated for their errors (greedy NOT conditions)
        self.columns = columns          # (column index, lowest row offset read)

    def cannot_take(self, data, ts, lo, n, within):
        """[bool] for the start rows lo .. n-2: True where row s+1 cannot be taken after [s -> start variable]
        (match_from would return 'fail'); None when there is no test for these rows."""
        m = n - 1 - lo
        if m < MIN_ROWS:
            return None
        if within is not None and None in ts[lo:n]:      # match_from would raise on a NULL time: let it
            return None
        try:
            frame = _Frame(data, lo, n, self.columns)
            with np.errstate(all="ignore"):
                maybe = None
                for f in self.options:
                    maybe = _or(maybe, f(frame)[0])
                for f in self.others:
                    f(frame)
                maybe = _or(maybe, frame.risky)
        except GiveUp:
            return None
        return np.logical_not(np.broadcast_to(maybe, (m,))).tolist()


class _Frame:
    """The columns of one call, read at row offsets from the start rows lo .. n-2."""

    def __init__(self, data, lo, n, columns):
        self.lo, self.n, self.m = lo, n, n - 1 - lo
        self.cache = {}
        self.risky = None               # rows where an evaluated DEFINE could raise (integer division by zero)
        self.base = {}
        for ci, low in columns:
            first = max(0, lo + low)
            self.base[ci] = (first, _numeric(data[ci][first:n]))

    def column(self, ci, offset):
        key = (ci, offset)
        got = self.cache.get(key)
        if got is None:
            first, (vals, null) = self.base[ci]
            a = self.lo + offset - first
            if a >= 0:
                v, nl = vals[a:a + self.m], None if null is None else null[a:a + self.m]
            else:                        # rows before the buffer's first row: NULL
                pad = min(-a, self.m)
                rest = self.m - pad
                v = np.concatenate([np.zeros(pad, vals.dtype), vals[:rest]])
                nl = np.concatenate([np.ones(pad, bool), np.zeros(rest, bool) if null is None else null[:rest]])
            got = self.cache[key] = Num(v, nl, v.dtype.kind == "i")
        return got


def _numeric(values):
    """A list of ints or of floats (None for NULL) -> (int64 or float64 array, NULL mask or None)."""
    kinds = set(map(type, values))
    null = None
    if type(None) in kinds:
        kinds.discard(type(None))
        null = np.fromiter((v is None for v in values), bool, len(values))
        values = [0 if v is None else v for v in values]
    if kinds <= {int}:
        try:
            return np.array(values, dtype=np.int64).reshape(-1), null
        except OverflowError:
            raise GiveUp()
    if kinds == {float}:
        return np.array(values, dtype=np.float64), null
    raise GiveUp()


# ---- evaluators: compiled once, each `f(frame)` -> Num (values) or (TRUE, FALSE) masks (booleans) --------

class _DefineCompiler:
    """One DEFINE of `cand` (tested at row s+1) after [s -> start]: row offsets 0 (s), 1 (s+1), None (NULL)."""

    def __init__(self, cand, start, var_ids, subsets, col_index, types, lows):
        self.cand, self.start = cand, start
        self.var_ids, self.subsets = var_ids, subsets
        self.col_index, self.types = col_index, types
        self.lows = lows            # column index -> lowest row offset read (shared by a spec's DEFINEs)

    # -- variables -> the rows they hold in this context
    def _vars(self, q):
        if q is None:
            return None
        if q in self.subsets:
            return self.subsets[q]
        if q in self.var_ids:
            return frozenset([self.var_ids[q]])
        raise Unsupported()

    def _rows(self, vs):
        """Offsets of the rows mapped to the variables `vs` (None: all), in order."""
        rows = []
        if vs is None or self.start in vs:
            rows.append(0)
        if vs is None or self.cand in vs:
            rows.append(1)
        return rows

    def _single_qualifier(self, node):
        qs = {qualifier(c) for c in node.find_all(exp.Column)} - {None}
        if len(qs) > 1:
            raise Unsupported()
        return next(iter(qs)) if qs else None

    # -- booleans: f(frame) -> (T, F)
    def boolean(self, node):
        if isinstance(node, exp.Paren):
            return self.boolean(node.this)
        cmp = {exp.EQ: np.equal, exp.NEQ: np.not_equal, exp.GT: np.greater, exp.GTE: np.greater_equal,
               exp.LT: np.less, exp.LTE: np.less_equal}
        if type(node) in cmp:
            return _compare(cmp[type(node)], self.value(node.this, None), self.value(node.expression, None))
        if isinstance(node, (exp.And, exp.Or)):
            a, b = self.boolean(node.this), self.boolean(node.expression)
            if isinstance(node, exp.And):
                return lambda fr: _and(a(fr), b(fr))
            return lambda fr: _swap(_and(_swap(a(fr)), _swap(b(fr))))
        if isinstance(node, exp.Not):
            a = self.boolean(node.this)
            return lambda fr: _swap(a(fr))
        if isinstance(node, exp.Is):
            target = node.expression
            if isinstance(target, exp.Null):
                if _is_boolean(node.this):
                    a = self.boolean(node.this)

                    def is_null(fr):
                        t, f = a(fr)
                        unknown = ~(t | f)
                        return unknown, ~unknown
                    return is_null
                v = self.value(node.this, None)

                def value_is_null(fr):
                    x = v(fr)
                    null = np.False_ if x.null is None else x.null
                    return null, ~null
                return value_is_null
            if isinstance(target, exp.Boolean):
                a = self.boolean(node.this)
                want_true = bool(target.this)

                def is_bool(fr):
                    t, f = a(fr)
                    hit = t if want_true else f
                    return hit, ~hit
                return is_bool
        raise Unsupported()

    # -- values: f(frame) -> Num; `row` None: the DEFINE's own context, else every column at that offset
    def value(self, node, row):
        if isinstance(node, exp.Paren):
            return self.value(node.this, row)
        if isinstance(node, exp.Column):
            return self.column(node, row)
        if isinstance(node, exp.Literal) and not node.is_string:
            text = node.this
            if text.isdigit():
                k = int(text)
                if k > INT64_MAX:
                    raise Unsupported()
                c = Num(np.int64(k), None, True, k)
            else:
                c = Num(np.float64(float(text)), None, False)
            return lambda fr: c
        if isinstance(node, exp.Neg):
            a = self.value(node.this, row)
            return lambda fr: _neg(a(fr))
        ops = {exp.Add: np.add, exp.Sub: np.subtract, exp.Mul: np.multiply}
        if type(node) in ops:
            if isinstance(node.this, exp.Interval) or isinstance(node.expression, exp.Interval):
                raise Unsupported()
            op = ops[type(node)]
            a, b = self.value(node.this, row), self.value(node.expression, row)
            return lambda fr: _arith(op, a(fr), b(fr))
        if isinstance(node, exp.Div):
            a, b = self.value(node.this, row), self.value(node.expression, row)
            return lambda fr: _div(fr, a(fr), b(fr))
        if row is not None:              # no navigation inside a navigation's argument
            raise Unsupported()
        name = func_name(node)
        if name in ("FIRST", "LAST"):
            return self.navigation(name, call_args(node))
        if name == "PREV":
            return self.prev(call_args(node))
        raise Unsupported()

    def column(self, node, row):
        if isinstance(node.this, exp.Star):
            raise Unsupported()
        name = node.name
        if name not in self.col_index or self.types.get(name) not in NUMERIC_TYPES:
            raise Unsupported()
        if row is None:
            vs = self._vars(qualifier(node))
            if vs is None or self.cand in vs:
                row = 1
            else:
                row = 0 if self.start in vs else None
        return self._read(self.col_index[name], row)

    def _read(self, ci, row):
        if row is None:
            return lambda fr: NULL_NUM
        self.lows[ci] = min(self.lows.get(ci, row), row)
        return lambda fr: fr.column(ci, row)

    def _count(self, args, default):
        if len(args) < 2:
            return default
        k = args[1]
        if not (isinstance(k, exp.Literal) and not k.is_string and k.this.isdigit()):
            raise Unsupported()
        return int(k.this)

    def navigation(self, name, args):
        arg = args[0]
        k = self._count(args, 0)
        rows = self._rows(self._vars(self._single_qualifier(arg)))
        if k >= len(rows):
            return lambda fr: NULL_NUM
        return self.value(arg, rows[-1 - k] if name == "LAST" else rows[k])

    def prev(self, args):
        arg = args[0]
        if isinstance(arg, exp.Func) and func_name(arg) in ("FIRST", "LAST", "PREV", "NEXT"):
            raise Unsupported()
        k = self._count(args, 1)
        vs = self._vars(self._single_qualifier(arg))
        if vs is None or self.cand in vs:
            base = 1
        elif self.start in vs:
            base = 0
        else:
            return lambda fr: NULL_NUM
        return self.value(arg, base - k)


def _is_boolean(node):
    while isinstance(node, exp.Paren):
        node = node.this
    return isinstance(node, (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.And, exp.Or, exp.Not,
                             exp.Is))


# ---- numpy semantics of the compiled Python code (runtime/match_recognize/compiler.py, functions.py) ------

def _swap(tf):
    return tf[1], tf[0]


def _and(a, b):
    """SQL AND: FALSE if either is FALSE, TRUE if both are TRUE, else NULL."""
    return a[0] & b[0], a[1] | b[1]


def _compare(op, fa, fb):
    def f(fr):
        a, b = fa(fr), fb(fr)
        if a.is_int != b.is_int and (a if a.is_int else b).bound() > EXACT_FLOAT_INT:
            raise GiveUp()               # Python compares a big int and a float exactly, numpy rounds the int
        c = op(a.vals, b.vals)
        null = _or(a.null, b.null)
        if null is None:
            return c, ~c
        known = ~null
        return c & known, ~c & known
    return f


def _neg(a):
    if a.is_int:
        if a.bound() > INT64_MAX:
            raise GiveUp()
        return Num(np.negative(a.vals), a.null, True, a.bound())
    return Num(np.negative(a.vals), a.null, False)


def _arith(op, a, b):
    null = _or(a.null, b.null)
    if a.is_int and b.is_int:
        bound = a.bound() * b.bound() if op is np.multiply else a.bound() + b.bound()
        if bound > INT64_MAX:
            raise GiveUp()
        return Num(op(a.vals, b.vals), null, True, bound)
    return Num(op(a.vals, b.vals), null, False)


def _div(fr, a, b):
    """functions.div: integers divide truncating toward zero (raising on a zero divisor), else IEEE with
    x / 0 = NaN for x = 0 and +-inf by x's sign."""
    null = _or(a.null, b.null)
    zero = b.vals == 0
    if a.is_int and b.is_int:
        if a.bound() > INT64_MAX or b.bound() > INT64_MAX:
            raise GiveUp()
        raises = zero if null is None else zero & ~null
        fr.risky = _or(fr.risky, raises)
        q = np.abs(a.vals) // np.abs(np.where(zero, 1, b.vals))
        return Num(np.where((a.vals >= 0) == (b.vals >= 0), q, -q), null, True, a.bound())
    x, y = np.asarray(a.vals, np.float64), np.asarray(b.vals, np.float64)
    by_zero = np.where(x == 0, np.nan, np.copysign(np.inf, x))
    return Num(np.where(zero, by_zero, x / np.where(zero, 1.0, y)), null, False)
