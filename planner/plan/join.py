"""Join: a regular join of two inputs on equalities (`left_keys[i] = right_keys[i]`) and an optional
remaining condition over the joined row. Both inputs' rows are kept for ever (or for the state TTL); time
attributes become plain timestamps in its output, as in Flink. INNER over insert-only inputs is insert-only;
outer joins retract a NULL-padded row when its first match arrives."""

from .changelog import ALL_KINDS
from .fields import unique_names
from .node import PlanNode

JOIN_TYPES = {"INNER": "InnerJoin", "LEFT": "LeftOuterJoin", "RIGHT": "RightOuterJoin", "FULL": "FullOuterJoin"}


def joined_fields(left, right, kind, keep_time=False):
    """The output row of a join: the left fields then the right ones, renamed where a name repeats; the
    side an outer join pads with NULLs becomes nullable; time attributes materialized unless `keep_time`."""
    names = unique_names(left.field_names + right.field_names)
    out = []
    for i, f in enumerate(left.fields + right.fields):
        from_left = i < len(left.fields)
        f = f if keep_time else f.materialized()
        nullable_side = (kind in ("RIGHT", "FULL") and from_left) or (kind in ("LEFT", "FULL") and not from_left)
        if nullable_side and f.type is not None and not f.type.nullable:
            from dataclasses import replace as _replace
            import copy
            t = copy.copy(f.type)
            t.nullable = True
            f = _replace(f, type=t)
        out.append(f.renamed(names[i]))
    return out


class TwoInputs(PlanNode):
    """A node over a left and a right input whose rows it puts side by side (joins, semi joins)."""

    @property
    def left(self):
        return self.inputs[0]

    @property
    def right(self):
        return self.inputs[1]

    def side_by_side_name(self, fields, side, name):
        """The name in `fields` (left's then right's) of input `side`'s (0 left, 1 right) field `name`."""
        offset = 0 if side == 0 else len(self.left.fields)
        return fields[offset + self.inputs[side].field_names.index(name)].name


class Join(TwoInputs):
    name = "Join"

    def __init__(self, left, right, kind, left_keys, right_keys, condition=None, position=None):
        super().__init__((left, right), position)
        self.kind = kind                  # INNER, LEFT, RIGHT, FULL
        self.left_keys = list(left_keys)  # left field names
        self.right_keys = list(right_keys)
        self.condition = condition        # Expr over the output fields, or None
        self.fields = joined_fields(left, right, kind)

    def output_name(self, side, name):
        """The output field name of input `side`'s (0 left, 1 right) field `name`."""
        return self.side_by_side_name(self.fields, side, name)

    def provided_kinds(self, input_kinds):
        if self.kind == "INNER":
            return input_kinds[0] | input_kinds[1]
        return ALL_KINDS

    def input_update_before(self, i, required):
        return True

    def where_text(self):
        """The join condition as Flink prints it: `=(a, b)`, `AND(=(a, b), ...)`, `true`."""
        cond = ["=(%s, %s)" % (self.output_name(0, a), self.output_name(1, b))
                for a, b in zip(self.left_keys, self.right_keys)]
        if self.condition is not None:
            cond.append(self.condition.text or self.condition.sql)
        return cond[0] if len(cond) == 1 else "AND(%s)" % ", ".join(cond) if cond else "true"

    def explain_detail(self):
        return "joinType=[%s], where=[%s], select=[%s]" % (JOIN_TYPES[self.kind], self.where_text(),
                                                            ", ".join(self.field_names))
