"""Flink's CEP automaton for the patterns Flink accepts, and its way of choosing matches.

The state graph is built the way Flink's NFACompiler builds it (strict contiguity): a TAKE edge per
state, PROCEED (epsilon) edges out of optional states, looping states for `*` `+` `{n,}`; a greedy
quantifier does not prefer longer matches as a backtracking regex would: the edges of the state that
follows it get the extra condition NOT(its DEFINE), so a row that could extend the loop never leaves it.
From one start row all paths run in parallel and the FIRST path to reach the final state is the match
(Flink emits a match as soon as it completes when no earlier-starting partial match is alive; running
start rows one after another gives the same matches without keeping every start alive).

`match_from(...)` runs one start row; the partition-level loop with the skip strategies is in matcher.py."""

TAKE, PROCEED = 0, 1


class State:
    __slots__ = ("var", "edges", "final", "name", "opts")

    def __init__(self, var=None, final=False, name=""):
        self.var = var          # variable id this state takes rows for
        self.edges = []         # [Edge]
        self.final = final
        self.name = name
        self.opts = None        # flattened decisions, filled by FlinkMatcher


class Edge:
    __slots__ = ("action", "target", "var", "not_vars")

    def __init__(self, action, target, var):
        self.action = action
        self.target = target
        self.var = var           # TAKE: the variable whose DEFINE must hold; PROCEED: None
        self.not_vars = ()       # greedy conditions: these variables' DEFINEs must NOT hold


def _greedy(state, var):
    for e in state.edges:
        e.not_vars = e.not_vars + (var,)


def build(elements):
    """elements: [(var id, min, max or None, greedy)] -> start State (Flink's compile, back to front)."""
    sink = State(final=True, name="$end$")
    for var, lo, hi, greedy in reversed(elements):
        sink = _element(var, lo, hi, greedy, sink)
    return sink


def _single(var, take_to, proceed_to=None):
    s = State(var)
    s.edges.append(Edge(TAKE, take_to, var))
    if proceed_to is not None:
        s.edges.append(Edge(PROCEED, proceed_to, None))
    return s


def _element(var, lo, hi, greedy, sink):
    if lo == 0 and hi == 1:                 # `?`: Flink's optional(), never greedy-flagged
        return _single(var, sink, sink)
    if hi is None:                          # looping: * + {n,}
        loop = State(var)
        loop.edges.append(Edge(PROCEED, sink, None))
        if greedy:
            _greedy(sink, var)
        loop.edges.insert(0, Edge(TAKE, loop, var))
        times = max(lo, 1)
        last = loop
        for _ in range(times - 1):
            last = _single(var, last)
        return _single(var, last, sink if lo == 0 else None)
    optional = lo == 0
    lo = max(lo, 1)
    if greedy and lo != hi:
        _greedy(sink, var)
    last = sink
    for _ in range(lo, hi):
        last = _single(var, last, sink)
    for _ in range(lo - 1):
        last = _single(var, last)
    return _single(var, last, sink if optional else None)


def _proceed_closure(state):
    """[(state reached, greedy NOT-vars collected on the way)] through PROCEED edges, state itself first."""
    out = []
    stack = [(state, ())]
    seen = set()
    while stack:
        st, nots = stack.pop()
        key = (id(st), nots)
        if key in seen:
            continue
        seen.add(key)
        out.append((st, nots))
        for e in st.edges:
            if e.action == PROCEED:
                stack.append((e.target, nots + e.not_vars))
    return out


def _options(state):
    """Flattened decisions of a state: [(take var, NOT-vars, target state, [NOT-vars of each way on to the
    final state right after the take])]."""
    out = []
    for st, nots in _proceed_closure(state):
        for e in st.edges:
            if e.action == TAKE:
                finals = [n for t, n in _proceed_closure(e.target) if t.final]
                out.append((e.var, tuple(dict.fromkeys(nots + e.not_vars)), e.target, finals))
    return out


class FlinkMatcher:
    """Runs Flink's automaton from one start row over rows start, start+1, ..."""

    def __init__(self, start_state, defines, factory):
        self.start = start_state
        self.defines = defines          # var id -> f(P, r, S, M, D) or None (always true)
        self.factory = factory
        self.origin = 0
        stack = [start_state]
        while stack:
            st = stack.pop()
            if st.opts is not None:
                continue
            st.opts = [(var, nots, target, finals, factory.ext[var], defines[var])
                       for var, nots, target, finals in _options(st)]
            stack.extend(o[2] for o in st.opts)
        # a start state with one way on, a variable with no DEFINE that cannot end the match at once: every
        # start row is taken (the first step needs no test)
        opts = start_state.opts
        self.first_take = None
        if len(opts) == 1 and opts[0][5] is None and not opts[0][1] and not opts[0][3]:
            self.first_take = (opts[0][4], opts[0][2])

    def match_from(self, s, n, data, ts, within, match_number):
        """-> ('match', last Step) | ('fail', None) | ('pending', None) (rows ran out with paths alive)."""
        defines = self.defines
        first = self.first_take
        if first is not None and s < n:         # the start row is taken whatever it holds
            ext, target = first
            paths = ((target, ext(self.factory.root, s, data)),)
            begin = s + 1
        else:
            paths = ((self.start, self.factory.root),)
            begin = s
        t0 = ts[s] if within is not None else None
        for r in range(begin, n):
            if t0 is not None and ts[r] - t0 >= within:
                return FAIL
            new_paths = []
            for state, parent in paths:
                memo = {}
                for var, nots, target, finals, ext, f in state.opts:
                    if nots and not _all_fail(nots, memo, defines, parent, r, s, match_number, data):
                        continue
                    if f is not None:
                        h = memo.get(var)
                        if h is None:
                            h = memo[var] = f(parent, r, s, match_number, data) is True
                        if not h:
                            continue
                    step = ext(parent, r, data)
                    for fnots in finals:
                        if not fnots or _all_fail(fnots, memo, defines, parent, r, s, match_number, data):
                            return "match", step
                    new_paths.append((target, step))
            if not new_paths:
                return FAIL
            paths = new_paths
        return PENDING


FAIL, PENDING = ("fail", None), ("pending", None)


def _all_fail(nots, memo, defines, parent, r, s, m, data):
    """True when none of the variables' DEFINEs holds for row r (Flink's greedy NOT conditions)."""
    for g in nots:
        h = memo.get(g)
        if h is None:
            f = defines[g]
            h = memo[g] = f is None or f(parent, r, s, m, data) is True
        if h:
            return False
    return True
