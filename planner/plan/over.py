"""OVER windows: `f(args) OVER (PARTITION BY .. ORDER BY .. ROWS|RANGE BETWEEN .. AND CURRENT ROW)`.

The binder turns the window functions of a SELECT into `Over` nodes, one per distinct window, each adding
its calls' fields to its input's. Rules then plan them: a ranking function filtered by its rank becomes a
`Rank` / `Deduplicate` (planner/rules/topn.py); the rest become an `OverAggregate`
(planner/rules/over_aggregate.py), which is what runs."""

from dataclasses import dataclass

from .changelog import ALL_KINDS, INSERT_ONLY_KINDS
from .fields import Field, ROWTIME
from .node import PlanNode


@dataclass(frozen=True)
class Frame:
    """ROWS or RANGE BETWEEN `lower` PRECEDING AND `upper` FOLLOWING: `lower` None is UNBOUNDED PRECEDING,
    `upper` None UNBOUNDED FOLLOWING; 0 is CURRENT ROW. ROWS bounds count rows; RANGE bounds are milliseconds
    when written as an INTERVAL (`interval`), else values of the ORDER BY column."""
    kind: str = "RANGE"
    lower: object = None
    upper: object = 0
    explicit: bool = False     # written in the SQL (else SQL's default frame)
    interval: bool = False     # RANGE bounds written as INTERVALs (milliseconds)

    @property
    def bounded(self):
        """A bounded PRECEDING side (n rows or an interval back), as Flink's bounded OVER windows."""
        return self.lower is not None

    def text(self):
        def bound(v, side):
            if v is None:
                return "UNBOUNDED %s" % side
            if v == 0:
                return "CURRENT ROW"
            return "%s %s" % (v, side)
        return "%s BETWEEN %s AND %s" % (self.kind, bound(self.lower, "PRECEDING"), bound(self.upper, "FOLLOWING"))

    def __str__(self):
        return self.text()


@dataclass(frozen=True)
class WindowCall:
    function: str                 # ROW_NUMBER, RANK, DENSE_RANK, SUM, COUNT, ...
    args: tuple                   # input field names
    name: str                     # output field name
    type: object = None
    distinct: bool = False
    filter: str = None            # input field name of a FILTER condition
    options: tuple = ()           # literal arguments after the first (LAG/LEAD: offset, default)

    def text(self):
        args = list(self.args) + [_literal_text(v) for v in self.options]
        s = "%s(%s%s)" % (self.function, "DISTINCT " if self.distinct else "", ", ".join(args) or
                          ("*" if self.function == "COUNT" else ""))
        return s + (" FILTER (WHERE %s)" % self.filter if self.filter else "")


def _literal_text(v):
    return "NULL" if v is None else "'%s'" % v if isinstance(v, str) else str(v)


RANKING = ("ROW_NUMBER", "RANK", "DENSE_RANK")


class Over(PlanNode):
    """Window functions sharing one window over `input`: the input's fields, then one field per call."""
    name = "OverAggregate"
    requester = "OverAggregate"

    def __init__(self, input, partition, order, frame, calls, position=None):
        super().__init__((input,), position)
        self.partition = list(partition)      # input field names
        self.order = list(order)              # [(field, ascending)]
        self.frame = frame
        self.calls = list(calls)
        self.fields = list(input.fields) + [Field(c.name, c.type) for c in self.calls]

    @property
    def ranking(self):
        return all(c.function in RANKING for c in self.calls)

    def input_update_before(self, i, required):
        return True

    def explain_detail(self):
        parts = ["partitionBy=[%s]" % ", ".join(self.partition)] if self.partition else []
        if self.order:
            parts.append("orderBy=[%s]" % ", ".join("%s %s" % (c, "ASC" if a else "DESC") for c, a in self.order))
        parts.append("window=[%s]" % self.frame.text())
        parts.append("select=[%s]" % ", ".join(self.input.field_names + ["%s AS %s" % (c.text(), c.name)
                                                                         for c in self.calls]))
        return ", ".join(parts)


class OverAggregate(Over):
    """An Over planned to run (planner/rules/over_aggregate.py). In streaming it is Flink's OverAggregate:
    ordered by one time attribute (`time`: 'rowtime' or 'proctime'), insert-only in and out; on a rowtime
    each row is emitted once the watermark passes it, with the aggregates over its frame, and rows behind the
    watermark are dropped. In batch mode (`time` None) any window Spark's window functions run."""

    requester = "StreamPhysicalOverAggregate"

    def __init__(self, input, partition, order, frame, calls, time=None, position=None):
        super().__init__(input, partition, order, frame, calls, position)
        self.time = time

    @property
    def event_time(self):
        return self.time == ROWTIME

    def accepted_kinds(self, i):
        return INSERT_ONLY_KINDS if self.time is not None else ALL_KINDS

    def provided_kinds(self, input_kinds):
        return INSERT_ONLY_KINDS if self.time is not None else input_kinds[0]
