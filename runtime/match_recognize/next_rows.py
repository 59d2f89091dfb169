"""Which start rows can go on to their next rows: one numpy test over a partition before Flink's matcher runs.

When Flink's automaton takes every start row whatever it holds (FlinkMatcher.first_take: the first variable
has no DEFINE and the match cannot end there), a start row s fails unless some way on o1 from the state after
that take takes row s+1 and, from o1's state, some way on o2 takes row s+2, and so on down to row s+d. A way
on takes a row where its DEFINE is TRUE and none of its greedy NOT conditions' is. Along a path of variables
[s -> start variable, s+1 -> o1, s+2 -> o2, ...] every navigation is static: `V.c` is the last row of the path
mapped to V (an unqualified `c`: the row tested), NULL where V has none; FIRST/LAST count those rows;
PREV(V.c, k) is k rows before that one (NULL before the buffer's first row). `NextRowsTest.cannot_take`
evaluates those DEFINEs for every start row of a partition at once, as numpy arrays with NULL masks and SQL's
three-valued logic, and PartitionRun.advance fails the start rows no way takes as far as row s+d, or as far
as the rows there are (rows from n on may come later: a start row near n is tested on fewer rows), without
calling match_from.

The ways on form a tree, built level by level down to row s+DEPTH: a way on at row s+k goes on wherever it
takes its row (the tree stops there) where it can end the match, where its step computes an aggregate of an
expression (it could raise), where a way on from its state has no DEFINE or a DEFINE outside the subset, or
where the next level would bring the tree past MAX_WAYS ways on (compile time stays bounded). A call tests
rows s+1 .. s+d, d = depth_for(its start rows): s+2, deeper while it evaluates at most a way per ROWS_PER_WAY
start rows (each way costs some microseconds a call, and each row deeper rules out fewer start rows).

The subset: numeric columns and literals, unary minus, + - * /, comparisons, AND OR NOT, IS [NOT] NULL / TRUE /
FALSE, FIRST/LAST of a column expression and PREV; no aggregates, strings, timestamps, functions, CASE or NEXT.
There is no test where a way on at row s+1 is outside it or has no DEFINE, or where the start row's step
computes an aggregate of an expression. Per call the columns must hold ints or floats (None for NULL), and
integer results must stay in int64 (bounds checked), else the way on before goes on wherever it takes its row
(at row s+1: no test for that call). The test only says 'cannot' where no way takes the rows and none of the
DEFINEs match_from evaluates on the way could raise (an integer division by zero; counted where the compiled
Python evaluates it: NOTs in order while none holds, the right side of AND / OR / comparisons / + - * where the
left does not decide or is not NULL): it never changes a result. Plain numpy; no Spark."""

import numpy as np
from sqlglot import exp

from planner.match_recognize.expressions import call_args, func_name, qualifier
from planner.match_recognize.types import parse_type_text

NUMERIC_TYPES = ("TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE")
INT64_MAX = 2 ** 63 - 1
EXACT_FLOAT_INT = 2 ** 53        # an int up to this compares with a float the same in numpy as in Python
MIN_ROWS = 64                    # fewer start rows: no test (its ~12 us would cost about what it saves)
DEPTH = 8                        # rows s+1 .. s+DEPTH at most are tested
MAX_WAYS = 64                    # ways on in the tree at most: a level that would pass it is not built
ROWS_PER_WAY = 16                # a call goes past row s+2 while it evaluates a way per 16 start rows at most


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


def _only(mask, rows):
    """mask (None: no row) on `rows` only (None: every row)."""
    return mask if mask is None or rows is None else mask & rows


NULL_NUM = Num(np.int64(0), np.True_, True, 0)


def compile_test(spec, columns, engine, slots):
    """A NextRowsTest for a FlinkMatcher `engine` with first_take set, or None when its DEFINEs are outside
    the subset. columns: names of the partition's data lists; slots: the spec's aggregate slots."""
    if engine.first_take is None:
        return None
    start = (engine.start.opts[0][0],)
    if any(_computes_expression(slot, start[0]) for slot in slots):
        return None                 # the start row's step could raise at any start row
    defines = _Defines(spec, columns)
    try:
        first = _ways_on(start, engine.first_take[1], defines)
    except Unsupported:
        return None
    if not first:
        return None
    level, counts = first, [len(first)]
    while len(counts) < DEPTH:      # the ways on at the next row after each at this one that does not go on
        deeper = [w for w in level if _can_deepen(w, slots)]
        if not deeper or sum(counts) + sum(len(w.target.opts) for w in deeper) > MAX_WAYS:
            break
        below = []
        for w in deeper:
            try:
                w.next = _ways_on(w.path, w.target, defines)
            except Unsupported:     # outside the subset: w goes on wherever it takes its row
                continue
            below += w.next or ()
        if not below:
            break
        level = below
        counts.append(len(below))
    return NextRowsTest(first, counts, defines)


def _computes_expression(slot, var):
    """Does the step of a row mapped to `var` add a value computed from an expression (it could raise)?"""
    return not slot.plain and (slot.vars is None or var in slot.vars)


def _can_deepen(way, slots):
    """Can the rows after `way`'s rule it out? Not where it can end the match or its step could raise."""
    return not way.finals and not any(_computes_expression(slot, way.path[-1]) for slot in slots)


class _Way:
    """A way on match_from tries at the row after `path[:-1]` (the variables of the rows before): `path` the
    path of its DEFINE, `nots` those of its greedy NOT conditions (None for a variable without DEFINE),
    `target` and `finals` the automaton's, `next` the ways on at the row after (None: it goes on wherever it
    takes its row, or it is at the last level)."""
    __slots__ = ("path", "nots", "target", "finals", "next")

    def __init__(self, path, nots, target, finals):
        self.path, self.nots, self.target, self.finals, self.next = path, nots, target, finals, None


def _ways_on(path, state, defines):
    """[_Way] match_from tries at the row after `path` (the variables of the rows before) in `state`, or None
    when a way on has no DEFINE (it takes every row)."""
    ways = []
    for var, nots, target, finals, _, define in state.opts:
        if define is None:
            return None
        ways.append(_Way(defines.compile(path + (var,)), tuple(defines.compile(path + (g,)) for g in nots),
                         target, finals))
    return ways


class _Defines:
    """The spec's DEFINEs compiled along static paths (tuples of variable ids, one a row from the start row
    on; the last is the variable tested), each once: `compile(path)` -> its path, or None (no DEFINE)."""

    def __init__(self, spec, columns):
        self.spec = spec
        self.variables = spec.variables()
        self.var_ids = {v: i for i, v in enumerate(self.variables)}
        self.subsets = {s.name: frozenset(self.var_ids[v] for v in s.variables) for s in spec.subsets}
        self.types = {name: parse_type_text(t).name for name, t in spec.input_columns}
        self.col_index = {c: i for i, c in enumerate(columns)}
        self.lows = {}              # column index -> lowest row offset read
        self.tests = {}             # path -> f(frame) -> (TRUE mask, FALSE mask)

    def compile(self, path):
        """-> path, its DEFINE compiled into self.tests; None where its variable has no DEFINE."""
        if path not in self.tests:
            d = self.spec.definition(self.variables[path[-1]])
            if d is None:
                return None
            self.tests[path] = _DefineCompiler(path, self).boolean(d.expr)
        return path


class NextRowsTest:
    """The compiled test: `cannot_take(data, ts, lo, n, within)`."""

    def __init__(self, ways, counts, defines):
        self.ways = ways                # [_Way] at row s+1, each with the ways on after it
        self.depth = len(counts)        # the deepest row tested: s+depth (lowering it is allowed)
        self.ways_by = np.cumsum(counts).tolist()   # [k-1]: the ways on at rows s+1 .. s+k
        self.tests = defines.tests      # path -> f(frame) -> (TRUE mask, FALSE mask)
        self.lows = defines.lows

    def depth_for(self, m):
        """The deepest row a call over m start rows tests: s+2, deeper while it evaluates no more than a way
        per ROWS_PER_WAY start rows (a way costs a few microseconds a call, and each row deeper rules out
        fewer start rows than the one before)."""
        k = min(self.depth, 2)
        while k < self.depth and self.ways_by[k] * ROWS_PER_WAY <= m:
            k += 1
        return k

    def cannot_take(self, data, ts, lo, n, within):
        """[bool] for the start rows lo .. n-2: True where match_from would return 'fail' by row s+d, d =
        depth_for(n-1-lo) (by row n-1 where that is earlier); None when there is no test for these rows."""
        m = n - 1 - lo
        if m < MIN_ROWS:
            return None
        if within is not None and None in ts[lo:n]:      # match_from would raise on a NULL time: let it
            return None
        frame = _Frame(data, lo, n, self.lows, self.tests)
        with np.errstate(all="ignore"):
            try:
                on = frame.goes_on(self.ways, 1, self.depth_for(m))
            except GiveUp:
                return None
        return np.logical_not(np.broadcast_to(on, (m,))).tolist()


class _Frame:
    """The columns of one call, read at row offsets from the start rows lo .. n-2 (NULL outside rows
    0 .. n-1), and the DEFINEs evaluated so far."""

    def __init__(self, data, lo, n, lows, tests):
        self.data, self.lo, self.n, self.m = data, lo, n, n - 1 - lo
        self.lows, self.tests = lows, tests
        self.cache = {}
        self.base = {}
        self.results = {}
        self.risky = None               # rows where the DEFINE being evaluated could raise (integer division by 0)
        self.reach = None               # rows where the compiled Python evaluates the part being evaluated (None: all)

    def goes_on(self, ways, k, depth):
        """Where some of `ways` (at row s+k) takes its row and its ways on go on as far as row s+depth, or
        evaluating them could raise, or row s+k is not there yet (it may come later)."""
        on = None
        for way in ways:
            t, risky = self.taken(way)
            if way.next is not None and k < depth:
                try:
                    t = t & self.goes_on(way.next, k + 1, depth)
                except GiveUp:          # not exact at row s+k+1: the way goes on wherever it takes row s+k
                    pass
            on = _or(on, _or(t, risky))
        if on is None:
            on = np.False_
        if k > 1:                       # the last k-1 start rows have no row s+k yet
            on = on | (np.arange(self.m) >= self.m - k + 1)
        return on

    def evaluate(self, path):
        """(TRUE mask, rows where it could raise) of the DEFINE along `path`."""
        got = self.results.get(path)
        if got is None:
            self.risky = self.reach = None
            t = self.tests[path](self)[0]
            got = self.results[path] = (t, self.risky)
        return got

    def taken(self, way):
        """(where match_from takes the row for the _Way `way`: its DEFINE is TRUE and none of its NOTs' is,
        where evaluating them could raise). match_from evaluates the NOTs in order while none holds, then
        the DEFINE where none does."""
        open_ = risky = None            # open_: rows where no NOT so far holds (None: all)
        for g in way.nots:
            if g is None:               # a NOT of a variable without DEFINE holds: the row is never taken
                return np.False_, risky
            tg, rg = self.evaluate(g)
            risky = _or(risky, _only(rg, open_))
            open_ = _only(~tg, open_)
        t, r = self.evaluate(way.path)
        return _only(t, open_), _or(risky, _only(r, open_))

    def where(self, keep, f):
        """f(self), where the compiled Python evaluates it only on the rows `keep` (None: all): it can raise
        there only."""
        if keep is None:
            return f(self)
        outer = self.reach
        self.reach = _only(keep, outer)
        try:
            return f(self)
        finally:
            self.reach = outer

    def column(self, ci, offset):
        key = (ci, offset)
        got = self.cache.get(key)
        if got is None:
            base = self.base.get(ci)
            if base is None:             # each column converted once a call, from the lowest row read
                first = max(0, self.lo + self.lows[ci])
                base = self.base[ci] = (first, _numeric(self.data[ci][first:self.n]))
            first, (vals, null) = base
            got = self.cache[key] = _window(vals, null, self.lo + offset - first, self.m)
        return got


def _window(vals, null, a, m):
    """Num of the m values from position a of vals (NULL outside vals)."""
    b = a + m
    if a >= 0 and b <= len(vals):
        return Num(vals[a:b], None if null is None else null[a:b], vals.dtype.kind == "i")
    s = min(max(a, 0), len(vals))
    e = max(min(b, len(vals)), s)
    before = min(max(-a, 0), m)
    after = m - before - (e - s)
    v = np.concatenate([np.zeros(before, vals.dtype), vals[s:e], np.zeros(after, vals.dtype)])
    nl = np.concatenate([np.ones(before, bool), np.zeros(e - s, bool) if null is None else null[s:e],
                         np.ones(after, bool)])
    return Num(v, nl, vals.dtype.kind == "i")


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
    """The DEFINE of path[-1] along a static path of variable ids, one a row offset from the start row s:
    `V.c` reads the last offset mapped to V (an unqualified column: the last offset, the row tested), None
    (NULL) where V has none."""

    def __init__(self, path, defines):
        self.path = path
        self.var_ids, self.subsets = defines.var_ids, defines.subsets
        self.col_index, self.types = defines.col_index, defines.types
        self.lows = defines.lows    # column index -> lowest row offset read (shared by a spec's DEFINEs)

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
        return [i for i, v in enumerate(self.path) if vs is None or v in vs]

    def _last(self, q):
        """Offset of the last row mapped to qualifier q (None: the row tested), None where there is none."""
        rows = self._rows(self._vars(q))
        return rows[-1] if rows else None

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
            if isinstance(node, exp.And):       # b where a is not FALSE (the compiled Python's short cut)
                return lambda fr: _and(*_then(fr, a, b, 1))
            return lambda fr: _swap(_and(*map(_swap, _then(fr, a, b, 0))))
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
            return lambda fr: _arith(op, *_operands(fr, a, b))
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
            row = self._last(qualifier(node))
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
        base = self._last(self._single_qualifier(arg))
        if base is None:
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


def _then(fr, fa, fb, stop):
    """fa's (TRUE, FALSE) masks, then fb's, which the compiled Python evaluates where fa's [stop] is not set
    (AND: where a is not FALSE, OR: where a is not TRUE)."""
    a = fa(fr)
    return a, fr.where(~a[stop], fb)


def _operands(fr, fa, fb):
    """fa's Num, then fb's, which the compiled Python evaluates where fa's is not NULL (+ - * and comparisons;
    one of two float literals: neither can be NULL or raise)."""
    a = fa(fr)
    return a, fr.where(None if a.null is None else ~a.null, fb)


def _compare(op, fa, fb):
    def f(fr):
        a, b = _operands(fr, fa, fb)
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
        raises = _only(zero if null is None else zero & ~null, fr.reach)
        fr.risky = _or(fr.risky, raises)
        q = np.abs(a.vals) // np.abs(np.where(zero, 1, b.vals))
        return Num(np.where((a.vals >= 0) == (b.vals >= 0), q, -q), null, True, a.bound())
    x, y = np.asarray(a.vals, np.float64), np.asarray(b.vals, np.float64)
    by_zero = np.where(x == 0, np.nan, np.copysign(np.inf, x))
    return Num(np.where(zero, by_zero, x / np.where(zero, 1.0, y)), null, False)
