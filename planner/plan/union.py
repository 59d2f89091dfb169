"""Union: UNION ALL of inputs with the same number of fields (the first input names them). UNION without
ALL is a Union under a GroupAggregate on every field."""

from .fields import Field
from .node import PlanNode


class Union(PlanNode):
    name = "Union"

    def __init__(self, inputs, types=None, position=None):
        super().__init__(inputs, position)
        first = inputs[0]
        self.fields = [Field(f.name, types[i] if types else f.type) for i, f in enumerate(first.fields)]

    def input_update_before(self, i, required):
        return required

    def explain_detail(self):
        return "all=[true], union=[%s]" % ", ".join(self.field_names)
