"""GroupAggregate: GROUP BY keys (input fields) with aggregate calls (`expr.AggCall`); no keys is a global
aggregate. It consumes any changes and updates its result: +I for a new group, -U/+U when a group's row
changes, -D when a group empties (only over an input that retracts)."""

from .changelog import DELETE, INSERT, UPDATE
from .fields import Field
from .node import PlanNode


class GroupAggregate(PlanNode):
    name = "GroupAggregate"

    def __init__(self, input, keys, calls, position=None):
        super().__init__((input,), position)
        self.keys = list(keys)
        self.calls = list(calls)
        self.fields = [input.field(k).materialized() for k in self.keys] + \
            [Field(c.name, c.type) for c in self.calls]

    def provided_kinds(self, input_kinds):
        kinds = {INSERT, UPDATE}
        if input_kinds[0] & {UPDATE, DELETE}:
            kinds.add(DELETE)
        return frozenset(kinds)

    def input_update_before(self, i, required):
        return True      # retracting an input row needs its old value

    def derive_upsert_key(self):
        return tuple(self.keys)

    def explain_detail(self):
        calls = ", ".join("%s AS %s" % (c.text(), c.name) for c in self.calls)
        keys = ", ".join(self.keys)
        select = ", ".join(x for x in (keys, calls) if x)
        return ("groupBy=[%s], select=[%s]" % (keys, select)) if self.keys else "select=[%s]" % select
