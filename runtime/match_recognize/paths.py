"""A match in progress as a persistent path: one immutable `Step` per row, linked to the step before.

Branching paths share their common prefix, so extending one is O(number of variables), never a copy
of the rows so far. Each step carries, per pattern variable, its last and first step and row count,
and the running states of the aggregates the expressions need: pattern-variable references, FIRST/LAST
and aggregates read them in O(1)."""


class Step:
    __slots__ = ("row", "var", "parent", "last", "first", "cnt", "aggs", "prev_same", "excluded", "length")

    def __init__(self, row, var, parent, last, first, cnt, aggs, prev_same, excluded, length):
        self.row = row              # index of the row in the partition buffer
        self.var = var              # pattern variable id the row is mapped to
        self.parent = parent        # Step of the previous row of the match (None for the first)
        self.last = last            # tuple: per variable id, its last Step (or None)
        self.first = first          # tuple: per variable id, its first Step (or None)
        self.cnt = cnt              # tuple: per variable id, rows mapped so far
        self.aggs = aggs            # tuple: running aggregate states (see expressions.AggregateSlot)
        self.prev_same = prev_same  # the previous Step mapped to the same variable
        self.excluded = excluded    # inside {- -}: matched but not output by ALL ROWS PER MATCH
        self.length = length        # rows in the match up to and including this one

    def steps(self):
        """All steps of the path, first to last."""
        out = []
        s = self
        while s is not None:
            out.append(s)
            s = s.parent
        out.reverse()
        return out


class Root:
    """The path before its first row (and the 'no row' of an empty match): every reference reads NULL."""
    row = None
    var = None
    parent = None
    excluded = False
    length = 0

    def __init__(self, n_vars, agg_init):
        self.last = (None,) * n_vars
        self.first = (None,) * n_vars
        self.cnt = (0,) * n_vars
        self.aggs = agg_init

    def steps(self):
        return []


class PathFactory:
    """Creates Steps for a fixed number of variables and a fixed list of aggregate slots."""

    def __init__(self, n_vars, agg_slots):
        self.n_vars = n_vars
        self.none = (None,) * n_vars
        self.zero = (0,) * n_vars
        self.slots = agg_slots
        self.agg_init = tuple(s.initial for s in agg_slots)
        self.root = Root(n_vars, self.agg_init)

        self.ext = [self._generate(v) for v in range(n_vars)]

    def extend(self, parent, row, var, data, excluded=False):
        """The Step mapping `row` to variable `var` after `parent` (the Root for a match's first row)."""
        return self.ext[var](parent, row, data, excluded)

    def _generate(self, var):
        """A straight-line extend function for one variable (tuples built without loops)."""
        n = self.n_vars

        def tup(fmt_other, fmt_var):
            return "(%s,)" % ", ".join(fmt_var if i == var else (fmt_other % i if "%" in fmt_other else fmt_other)
                                       for i in range(n))

        aggs = []
        for k, slot in enumerate(self.slots):
            if slot.vars is None or var in slot.vars:
                aggs.append("SLOTS[%d].add(a[%d], row, data)" % (k, k))
            else:
                aggs.append("a[%d]" % k)
        agg_expr = "(%s,)" % ", ".join(aggs) if aggs else "()"
        src = "\n".join([
            "def extend_%d(parent, row, data, excluded=False):" % var,
            "    if parent.row is None:",
            "        step = Step(row, %d, None, None, None, None, None, None, excluded, 1)" % var,
            "        step.last = step.first = %s" % tup("None", "step"),
            "        step.cnt = %s" % tup("0", "1"),
            "        a = AGG_INIT",
            "    else:",
            "        l = parent.last",
            "        step = Step(row, %d, parent, None, None, None, None, l[%d], excluded, parent.length + 1)"
            % (var, var),
            "        step.last = %s" % tup("l[%d]", "step"),
            "        c = parent.cnt",
            "        step.cnt = %s" % tup("c[%d]", "c[%d] + 1" % var),
            "        if c[%d]:" % var,
            "            step.first = parent.first",
            "        else:",
            "            f = parent.first",
            "            step.first = %s" % tup("f[%d]", "step"),
            "        a = parent.aggs",
            "    step.aggs = %s" % agg_expr,
            "    return step",
        ])
        ns = {"Step": Step, "SLOTS": self.slots, "AGG_INIT": self.agg_init}
        exec(compile(src, "<match_recognize extend>", "exec"), ns)
        return ns["extend_%d" % var]
