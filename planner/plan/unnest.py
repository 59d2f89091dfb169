"""Unnest: each input row joined with the rows of one of its collections (Flink's Correlate over the internal
`$UNNEST_ROWS` table function): `CROSS JOIN UNNEST(arr) AS t(x)`, `FROM t, UNNEST(..)`, `LEFT JOIN UNNEST(..)
ON TRUE`. An ARRAY gives one column of its elements, an ARRAY of ROWs the rows' fields, a MAP its keys and
values; WITH ORDINALITY adds each element's 1-based position. Row by row: over a changelog every change of an
input row becomes the same change of each of its output rows, so the input must send -U rows (an upsert of
an input row cannot say which of its output rows to replace)."""

import copy

from .fields import Field
from .node import PlanNode

ARRAY, MAP, ROWS = "array", "map", "rows"


def collection_kind(ftype):
    """ARRAY, MAP or ROWS for a type UNNEST takes, None for any other."""
    if ftype is None:
        return None
    if ftype.name == "MAP":
        return MAP
    if ftype.name in ("ARRAY", "MULTISET"):
        elem = ftype.children[0]
        return ROWS if elem is not None and elem.name == "ROW" else ARRAY
    return None


def element_types(ftype, ordinality):
    """The Flink types of the columns UNNEST of `ftype` adds, with their default names (Calcite's)."""
    kind = collection_kind(ftype)
    if kind == MAP:
        cols = [("KEY", ftype.children[0]), ("VALUE", ftype.children[1])]
    elif kind == ROWS:
        cols = list(ftype.children[0].children)
    else:
        cols = [("EXPR$0", ftype.children[0])]
    if ordinality:
        from ..expr.types import parse_type
        cols.append(("ORDINALITY", parse_type("INT NOT NULL")))
    return cols


class Unnest(PlanNode):
    """`collection`: an Expr over the input fields; `kind`: ARRAY, MAP or ROWS; `join_type`: INNER or LEFT;
    `names`: the output names of the columns it adds (after the input's fields)."""
    name = "Correlate"

    def __init__(self, input, collection, kind, join_type, names, ordinality=False, position=None):
        super().__init__((input,), position)
        self.collection = collection
        self.kind = kind
        self.join_type = join_type
        self.ordinality = ordinality
        added = []
        for (default, ftype), name in zip(element_types(collection.type, ordinality), names):
            if ftype is not None and join_type == "LEFT" and not ftype.nullable:
                ftype = copy.copy(ftype)
                ftype.nullable = True
            added.append(Field(name, ftype))
        self.added = added
        self.fields = list(input.fields) + added

    def input_update_before(self, i, required):
        return not self.input.insert_only

    def explain_detail(self):
        return "invocation=[$UNNEST_ROWS$1(%s)%s], correlate=[table($UNNEST_ROWS$1(%s))], select=[%s], " \
               "joinType=[%s]" % (self.collection.text, " WITH ORDINALITY" if self.ordinality else "",
                                  self.collection.text, ", ".join(self.field_names), self.join_type)
