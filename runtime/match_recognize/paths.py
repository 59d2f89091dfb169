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

    def extend(self, parent, row, var, data, excluded=False):
        if parent.row is None:
            parent = None
            last, first, cnt, aggs, length = self.none, self.none, self.zero, self.agg_init, 1
            prev_same = None
        else:
            last, first, cnt, aggs, length = parent.last, parent.first, parent.cnt, parent.aggs, parent.length + 1
            prev_same = last[var]
        step = Step(row, var, parent, None, None, None, None, prev_same, excluded, length)
        lst = list(last)
        lst[var] = step
        step.last = tuple(lst)
        c = cnt[var]
        if c:
            step.first = first
        else:
            lst = list(first)
            lst[var] = step
            step.first = tuple(lst)
        lst = list(cnt)
        lst[var] = c + 1
        step.cnt = tuple(lst)
        if self.slots:
            new = list(aggs)
            for k, slot in enumerate(self.slots):
                if slot.vars is None or var in slot.vars:
                    new[k] = slot.add(new[k], row, data)
            step.aggs = tuple(new)
        else:
            step.aggs = aggs
        return step
