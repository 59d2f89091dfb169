"""OVER windows: `f(args) OVER (PARTITION BY .. ORDER BY .. ROWS|RANGE BETWEEN .. AND CURRENT ROW)`.

The binder turns the window functions of a SELECT into `Over` nodes, one per distinct window, each adding
its calls' fields to its input's. Rules then plan them: a ranking function filtered by its rank becomes a
`Rank` / `Deduplicate` (planner/rules/topn.py); the rest run as an OverAggregate."""

from dataclasses import dataclass

from .fields import Field
from .node import PlanNode


@dataclass(frozen=True)
class Frame:
    """ROWS or RANGE BETWEEN `lower` PRECEDING AND `upper`: None is UNBOUNDED; 0 is CURRENT ROW;
    ROWS bounds count rows, RANGE bounds are milliseconds (a time attribute order) or values."""
    kind: str = "RANGE"
    lower: object = None
    upper: object = 0
    explicit: bool = False     # written in the SQL (else SQL's default frame)

    def text(self):
        def bound(v, side):
            if v is None:
                return "UNBOUNDED %s" % side
            if v == 0:
                return "CURRENT ROW"
            return "%s %s" % (v, side)
        return "%s BETWEEN %s AND %s" % (self.kind, bound(self.lower, "PRECEDING"), bound(self.upper, "FOLLOWING"))


@dataclass(frozen=True)
class WindowCall:
    function: str                 # ROW_NUMBER, RANK, DENSE_RANK, SUM, COUNT, ...
    args: tuple                   # input field names
    name: str                     # output field name
    type: object = None
    distinct: bool = False
    filter: str = None            # input field name of a FILTER condition

    def text(self):
        s = "%s(%s%s)" % (self.function, "DISTINCT " if self.distinct else "", ", ".join(self.args) or
                          ("*" if self.function == "COUNT" else ""))
        return s + (" FILTER (WHERE %s)" % self.filter if self.filter else "")


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
    def input(self):
        return self.inputs[0]

    @property
    def ranking(self):
        return all(c.function in RANKING for c in self.calls)

    def input_update_before(self, i, required):
        return True

    def explain_detail(self):
        return "partitionBy=[%s], orderBy=[%s], window=[%s], select=[%s]" % (
            ", ".join(self.partition), ", ".join("%s %s" % (c, "ASC" if a else "DESC") for c, a in self.order),
            self.frame.text(), ", ".join(self.input.field_names + ["%s AS %s" % (c.text(), c.name)
                                                                   for c in self.calls]))
