"""Event-time temporal joins (`JOIN v FOR SYSTEM_TIME AS OF l.rowtime ON l.k = v.k`): Flink's TemporalJoin,
and DropUpdateBefore, how Flink reads a changelog source as a versioned table.

`TemporalJoin` joins each row of its left (probe) input with the version of its right (versioned) input that
was valid at the row's rowtime: the latest version with a version time at or before it, unless that version
is a deletion. INNER drops a row without one, LEFT pads it with NULLs. It accepts all changes and forwards
the left side's kinds (an insert-only probe side gives an insert-only result); it reads the versioned side
as inserts and updates without -U (a -U only reaches it where a filter over updates needs them). The left
rowtime stays a rowtime attribute of the output; every other time attribute becomes a plain timestamp.
Nothing here runs anything: runtime/operators/temporal_join.py does."""

from dataclasses import replace

from .calc import Calc
from .changelog import ALL_KINDS
from .fields import ROWTIME
from .join import JOIN_TYPES, Join, joined_fields
from .node import PlanNode
from .rank import Deduplicate


class TemporalJoin(Join):
    name = "TemporalJoin"
    event_time = True

    def __init__(self, left, right, kind, left_time, right_time, primary_key, position=None):
        PlanNode.__init__(self, (left, right), position)
        self.kind = kind                    # INNER or LEFT
        self.left_keys, self.right_keys = [], []
        self.condition = None               # the rest of ON: an Expr over the output fields, or None
        self.left_time = left_time          # the left field FOR SYSTEM_TIME AS OF names
        self.right_time = right_time        # the versioned side's version time field
        self.primary_key = list(primary_key)   # the versioned side's key fields
        fields = joined_fields(left, right, kind)
        i = left.field_names.index(left_time)
        fields[i] = replace(fields[i], time=left.fields[i].time)
        self.fields = fields

    def accepted_kinds(self, i):
        return ALL_KINDS

    def provided_kinds(self, input_kinds):
        return input_kinds[0]

    def input_update_before(self, i, required):
        return required if i == 0 else False

    def explain_detail(self):
        out = self.output_name
        cond = ["=(%s, %s)" % (out(0, a), out(1, b)) for a, b in zip(self.left_keys, self.right_keys)]
        if self.condition is not None:
            cond.append(self.condition.text or self.condition.sql)
        cond.append("__TEMPORAL_JOIN_CONDITION(%s, %s, __TEMPORAL_JOIN_CONDITION_PRIMARY_KEY(%s), "
                    "__TEMPORAL_JOIN_LEFT_KEY(%s), __TEMPORAL_JOIN_RIGHT_KEY(%s))" % (
                        out(0, self.left_time), out(1, self.right_time),
                        ", ".join(out(1, k) for k in self.primary_key),
                        ", ".join(out(0, k) for k in self.left_keys), ", ".join(out(1, k) for k in self.right_keys)))
        return "joinType=[%s], where=[%s], select=[%s]" % (
            JOIN_TYPES[self.kind], cond[0] if len(cond) == 1 else "AND(%s)" % ", ".join(cond),
            ", ".join(self.field_names))


def versioned_view(side):
    """A temporal join's versioned side as a versioned view: (the keep-last-row deduplication on a rowtime it
    is, the projections over it from the top down), or (None, []) when the side is something else."""
    projections, node = [], side
    while isinstance(node, Calc) and node.condition is None:
        projections.append(node)
        node = node.input
    if isinstance(node, Deduplicate) and node.keep_last and node.time_kind == ROWTIME:
        return node, projections
    return None, []


class DropUpdateBefore(PlanNode):
    """A changelog without its -U rows (what a temporal join reads of a changelog source)."""
    name = "DropUpdateBefore"

    def __init__(self, input, position=None):
        super().__init__((input,), position)
        self.fields = list(input.fields)

    def input_update_before(self, i, required):
        return True

    def derive_upsert_key(self):
        return self.input.upsert_key
