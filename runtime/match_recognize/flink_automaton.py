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
    __slots__ = ("var", "edges", "final", "name")

    def __init__(self, var=None, final=False, name=""):
        self.var = var          # variable id this state takes rows for
        self.edges = []         # [Edge]
        self.final = final
        self.name = name


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


class FlinkMatcher:
    """Runs Flink's automaton from one start row over rows start, start+1, ..."""

    def __init__(self, start_state, defines, factory):
        self.start = start_state
        self.defines = defines          # var id -> f(N, S, M, F, D) or None (always true)
        self.factory = factory

    def match_from(self, s, n, data, ts, within, match_number):
        """-> ('match', last Step) | ('fail', None) | ('pending', None) (rows ran out with paths alive)."""
        paths = [(self.start, None)]
        defines = self.defines
        extend = self.factory.extend
        t0 = ts[s] if ts is not None else None
        for r in range(s, n):
            if within is not None and ts[r] - t0 >= within:
                return "fail", None
            new_paths = []
            for state, parent in paths:
                cands = {}

                def holds(var, _parent=parent, _cands=cands, _r=r):
                    step = _cands.get(var)
                    if step is None:
                        step = extend(_parent, _r, var, data)
                        _cands[var] = step
                    f = defines[var]
                    return f is None or f(step, s, match_number, step, data) is True

                takes = []
                stack = [state]
                while stack:
                    st = stack.pop()
                    for e in st.edges:
                        ok = True
                        for g in e.not_vars:
                            if holds(g):
                                ok = False
                                break
                        if not ok:
                            continue
                        if e.action == PROCEED:
                            stack.append(e.target)
                        elif holds(e.var):
                            takes.append(e)
                for e in takes:
                    step = cands[e.var]
                    if self._final_after_proceed(e.target, holds):
                        return "match", step
                    new_paths.append((e.target, step))
            if not new_paths:
                return "fail", None
            paths = new_paths
        return "pending", None

    @staticmethod
    def _final_after_proceed(state, holds):
        if state.final:
            return True
        stack = [state]
        while stack:
            st = stack.pop()
            for e in st.edges:
                if e.action != PROCEED:
                    continue
                if any(holds(g) for g in e.not_vars):
                    continue
                if e.target.final:
                    return True
                stack.append(e.target)
        return False
