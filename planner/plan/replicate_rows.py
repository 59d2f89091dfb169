"""ReplicateRows: each input row `count` times (Flink's Correlate with the REPLICATE_ROWS table function, what
INTERSECT ALL and EXCEPT ALL end in). The input's first field is the count, the rest are the output; a change
of the input is repeated as it is, so a retraction of a row with count n retracts its n copies."""

from .node import PlanNode


class ReplicateRows(PlanNode):
    name = "Correlate"

    def __init__(self, input, position=None):
        super().__init__((input,), position)
        self.count = input.fields[0].name
        self.fields = list(input.fields[1:])

    def explain_detail(self):
        return "invocation=[REPLICATE_ROWS(%s)], select=[%s], joinType=[INNER]" % (
            ", ".join(self.input.field_names), ", ".join(self.field_names))
