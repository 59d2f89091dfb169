"""Ranking per partition: Top-N (`Rank`) and deduplication (`Deduplicate`), as Flink plans
`ROW_NUMBER() / RANK() / DENSE_RANK() OVER (PARTITION BY .. ORDER BY ..)` filtered by the rank."""

from ..expr.types import parse_type
from .changelog import ALL_KINDS, INSERT_ONLY_KINDS
from .fields import ROWTIME, Field
from .node import PlanNode


def _order_text(order):
    return ", ".join("%s %s" % (c, "ASC" if asc else "DESC") for c, asc in order)


class Rank(PlanNode):
    """Rows ranked within their partition by `order` ([(field, ascending)]); rows ranked past `rank_end`
    (None: no bound) are left out. `rank_field` names the rank number's output field (None: not shown)."""
    name = "Rank"

    def __init__(self, input, partition, order, function="ROW_NUMBER", rank_end=None, rank_field=None,
                 position=None):
        super().__init__((input,), position)
        self.partition = list(partition)
        self.order = list(order)
        self.function = function
        self.rank_end = rank_end
        self.rank_field = rank_field
        self.fields = list(input.fields) + ([Field(rank_field, parse_type("BIGINT NOT NULL"))] if rank_field else [])

    def provided_kinds(self, input_kinds):
        return ALL_KINDS

    def input_update_before(self, i, required):
        return True

    def derive_upsert_key(self):
        if self.rank_field:
            return tuple(self.partition) + (self.rank_field,)
        return None

    def explain_detail(self):
        return "rankType=[%s], rankRange=[rankStart=1, rankEnd=%s], partitionBy=[%s], orderBy=[%s], select=[%s]" % (
            self.function, self.rank_end if self.rank_end is not None else "inf", ", ".join(self.partition),
            _order_text(self.order), ", ".join(self.field_names))


class Deduplicate(PlanNode):
    """The first or the last row of each key by a time attribute (`ROW_NUMBER() ... = 1` ordered by a rowtime
    or proctime). Keeping the first row is insert-only (on a rowtime, rows behind the watermark are
    dropped and a key's row is emitted once the watermark passes it); keeping the last row updates."""
    name = "Deduplicate"
    requester = "Deduplicate"

    def __init__(self, input, keys, order_field, time_kind, keep_last, rank_field=None, position=None):
        super().__init__((input,), position)
        self.keys = list(keys)
        self.order_field = order_field
        self.time_kind = time_kind        # "rowtime" or "proctime"
        self.keep_last = keep_last
        self.rank_field = rank_field      # the rank's output field (always 1), or None
        self.fields = list(input.fields) + ([Field(rank_field, parse_type("BIGINT NOT NULL"))] if rank_field else [])

    @property
    def event_time(self):
        """Keeping the first row on a rowtime waits for the watermark (the sources must carry it)."""
        return self.time_kind == ROWTIME and not self.keep_last

    def accepted_kinds(self, i):
        return INSERT_ONLY_KINDS

    def provided_kinds(self, input_kinds):
        return ALL_KINDS if self.keep_last else INSERT_ONLY_KINDS

    def input_update_before(self, i, required):
        return False

    def derive_upsert_key(self):
        return tuple(self.keys)

    def explain_detail(self):
        return "keep=[%s], key=[%s], order=[%s]" % ("LastRow" if self.keep_last else "FirstRow",
                                                  ", ".join(self.keys), self.time_kind.upper())
