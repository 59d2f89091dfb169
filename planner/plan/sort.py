"""ORDER BY and LIMIT. In streaming, ORDER BY a rowtime (ascending first) is a temporal sort (rows released
in time order as the watermark passes them; insert-only); ORDER BY with a LIMIT is a Top-N over the whole
input (updates); LIMIT alone keeps the first rows. In batch mode all three are Spark's."""

from .changelog import ALL_KINDS, INSERT_ONLY_KINDS
from .fields import ROWTIME
from .node import PlanNode


def _order_text(order):
    return ", ".join("%s %s" % (c, "ASC" if asc else "DESC") for c, asc in order)


class Sort(PlanNode):
    """`order`: [(field, ascending)]; `limit`/`offset`: ints or None. `temporal`: ordered by a time attribute
    first (streaming: a TemporalSort)."""

    def __init__(self, input, order, limit=None, offset=None, temporal=False, position=None):
        super().__init__((input,), position)
        self.order = list(order)
        self.limit = limit
        self.offset = offset
        self.temporal = temporal
        self.fields = list(input.fields)

    @property
    def event_time(self):
        """A temporal sort on a rowtime releases rows as the watermark passes them."""
        return self.temporal and self.limit is None and self.input.field(self.order[0][0]).time == ROWTIME

    def explain_name(self):
        if self.temporal and self.limit is None:
            return "TemporalSort"
        if self.order and self.limit is not None:
            return "SortLimit"
        return "Limit" if not self.order else "Sort"

    @property
    def requester(self):
        return self.explain_name()

    def accepted_kinds(self, i):
        return INSERT_ONLY_KINDS if self.temporal and self.limit is None else ALL_KINDS

    def provided_kinds(self, input_kinds):
        if self.temporal and self.limit is None:
            return INSERT_ONLY_KINDS
        if not self.order and input_kinds[0] == INSERT_ONLY_KINDS:
            return INSERT_ONLY_KINDS
        return ALL_KINDS

    def input_update_before(self, i, required):
        return True

    def explain_detail(self):
        parts = []
        if self.order:
            parts.append("orderBy=[%s]" % _order_text(self.order))
        if self.offset:
            parts.append("offset=[%d]" % self.offset)
        if self.limit is not None:
            parts.append("fetch=[%d]" % self.limit)
        return ", ".join(parts)
