"""Calc: a projection and an optional filter, row by row (Flink's Calc). Over a changelog each change is
projected and filtered as it is: a retraction carries the whole old row."""

from .fields import PROCTIME, Field
from .node import PlanNode


class Calc(PlanNode):
    """`projections`: [(Expr over the input fields, output name)]; `condition`: an Expr or None. An output
    field that is a plain reference to a time attribute stays one; anything computed from it is a plain value."""

    def __init__(self, input, projections, condition=None, position=None, types=None):
        super().__init__((input,), position)
        self.projections = list(projections)
        self.condition = condition
        fields = []
        for i, (e, name) in enumerate(self.projections):
            src = input.field(e.field) if e.field is not None else None
            t = types[i] if types is not None and types[i] is not None else e.type
            time = src.time if src is not None else PROCTIME if _is_proctime_call(e) else None
            fields.append(Field(name, t, time))
        self.fields = fields

    @property
    def is_identity(self):
        """Passes every input field through unchanged, in order, and filters nothing."""
        return self.condition is None and [e.field for e, _ in self.projections] == self.input.field_names \
            and [n for _, n in self.projections] == self.input.field_names

    def derive_upsert_key(self):
        key = self.input.upsert_key
        if key is None:
            return None
        kept = {e.field: name for e, name in self.projections if e.field is not None}
        return tuple(kept[k] for k in key) if all(k in kept for k in key) else None

    def input_update_before(self, i, required):
        # a filter over updates needs the old row to take a row out of the result (Flink, FLINK-9528)
        return required or (self.condition is not None and not self.input.insert_only)

    def explain_detail(self):
        items = []
        for e, name in self.projections:
            text = e.text or e.sql
            items.append(name if text == name else "%s AS %s" % (text, name))
        s = "select=[%s]" % ", ".join(items)
        if self.condition is not None:
            s += ", where=[%s]" % (self.condition.text or self.condition.sql)
        return s


def _is_proctime_call(e):
    """`PROCTIME()` computed here: a processing-time attribute (Flink: `SELECT *, PROCTIME() AS p FROM t`)."""
    from sqlglot import exp
    tree = e.tree
    return isinstance(tree, exp.Anonymous) and tree.name.upper() == "PROCTIME" and not tree.expressions
