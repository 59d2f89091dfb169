"""Expand: each input row once per grouping set of a `GROUP BY GROUPING SETS / ROLLUP / CUBE` (Flink's Expand),
the keys a set lacks NULL in its copy, and an `$e` column numbering the set. The aggregate above it groups by
the keys and `$e` as an ordinary GROUP BY; GROUPING(..) / GROUPING_ID(..) are computed from `$e` above that.

`$e` of a set is Flink's expand id: over the grouping keys k0..kn-1, bit n-1-i is set when the set lacks ki (so
GROUPING_ID of all the keys in order is `$e`). A set repeated in the list (Flink keeps each: `GROUPING SETS ((a),
(a))` gives each group twice) gets its own `$e`: the repetition's number above those bits. Changes pass through
as they are: a retraction is expanded as its row was. Nothing here runs Spark."""

from ..expr.types import parse_type
from .fields import Field
from .node import PlanNode
from .window import window_of

EXPAND_ID_TYPE = "BIGINT NOT NULL"


def expand_ids(keys, sets):
    """The `$e` value of each set (a list of key names) over the grouping `keys`: absent keys' bits, and for a
    repeated set its repetition's number above them."""
    seen, ids = {}, []
    n = len(keys)
    for s in sets:
        bits = 0
        for i, k in enumerate(keys):
            if k not in s:
                bits |= 1 << (n - 1 - i)
        repeat = seen.get(bits, 0)
        seen[bits] = repeat + 1
        ids.append(bits | (repeat << n))
    return ids


class Expand(PlanNode):
    """`keys`: the grouping keys (input field names, every key of every set); `sets`: one list of key names per
    grouping set, in the query's order. The output is the input's fields, the keys some set lacks made
    nullable, then `id_name` (`$e`). Keys in every set keep their values and types (and a window's bounds so
    kept still carry the window: a window aggregate over the expanded rows)."""
    name = "Expand"

    def __init__(self, input, keys, sets, id_name="$e", position=None):
        super().__init__((input,), position)
        self.keys = list(keys)
        self.sets = [list(s) for s in sets]
        self.id_name = id_name
        self.ids = expand_ids(self.keys, self.sets)
        self.nulled = [k for k in self.keys if any(k not in s for s in self.sets)]
        fields = []
        for f in input.fields:
            if f.name in self.nulled:
                f = f.materialized()
                f = Field(f.name, _nullable(f.type))
            fields.append(f)
        self.fields = fields + [Field(id_name, parse_type(EXPAND_ID_TYPE))]

    def sets_with(self, key):
        """The `$e` values of the sets that hold `key` (its value is kept in their copies)."""
        return [e for e, s in zip(self.ids, self.sets) if key in s]

    def window_ref(self):
        """The input's windows, when their bounds are in every set (not nulled) and they are TUMBLE, HOP or CUMULATE
        windows (Flink aggregates the sets of SESSION windows' rows as an ordinary, updating aggregate)."""
        ref = window_of(self.input)
        if ref is None or ref.start in self.nulled or ref.end in self.nulled or ref.spec.kind == "SESSION":
            return None
        if ref.time is not None and ref.time in self.nulled:
            from dataclasses import replace
            ref = replace(ref, time=None)
        return ref

    def explain_detail(self):
        projects = []
        for e, s in zip(self.ids, self.sets):
            items = [("null AS %s" % f.name) if f.name in self.nulled and f.name not in s else f.name
                     for f in self.input.fields]
            projects.append("{%s}" % ", ".join(items + ["%d AS %s" % (e, self.id_name)]))
        return "projects=[%s]" % ", ".join(projects)


def _nullable(t):
    if t is None or t.nullable:
        return t
    import copy
    out = copy.copy(t)
    out.nullable = True
    return out
