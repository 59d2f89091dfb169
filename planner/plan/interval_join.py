"""IntervalJoin: a join whose condition bounds the left rowtime by the right one (Flink's IntervalJoin):
`lower <= left.rt - right.rt <= upper` (milliseconds), with equi keys or without, INNER / LEFT / RIGHT / FULL.

Both inputs must be insert-only (Flink refuses updates as "StreamPhysicalIntervalJoin") and so is its output.
A row of each side is kept until the other side's watermark passes its time plus the interval: until then
it may still find partners; when it expires without one, an outer side's row is emitted with NULLs. Both
rowtimes remain time attributes in the output. `condition` is the rest of the ON condition (neither keys nor
time bounds), tested while rows are paired. planner/rules/interval_join.py makes this node from a Join;
runtime/operators/interval_join.py runs it."""

from .changelog import InsertOnlyInOut
from .join import JOIN_TYPES, Join, joined_fields
from .node import PlanNode


class IntervalJoin(InsertOnlyInOut, Join):
    name = "IntervalJoin"
    requester = "StreamPhysicalIntervalJoin"
    event_time = True

    def __init__(self, left, right, kind, left_keys, right_keys, condition, left_time, right_time, lower_ms,
                 upper_ms, time_predicates, position=None):
        PlanNode.__init__(self, (left, right), position)
        self.kind = kind
        self.left_keys, self.right_keys = list(left_keys), list(right_keys)
        self.condition = condition            # Expr over the output fields, or None
        self.left_time, self.right_time = left_time, right_time   # input field names
        self.lower_ms, self.upper_ms = lower_ms, upper_ms
        self.time_predicates = list(time_predicates)   # the bounds as written (for EXPLAIN)
        self.fields = joined_fields(left, right, kind, keep_time=True)

    @property
    def left_relative_ms(self):
        """How long after its own time a left row may still meet a right row (Flink's leftRelativeSize)."""
        return -self.lower_ms

    @property
    def right_relative_ms(self):
        return self.upper_ms

    @property
    def output_delay_ms(self):
        """How far Flink holds the output's watermark back: a pair may be emitted this long after the watermark
        passed its times."""
        return max(self.left_relative_ms, self.right_relative_ms, 0)

    def explain_detail(self):
        out = self.output_name
        cond = ["=(%s, %s)" % (out(0, a), out(1, b)) for a, b in zip(self.left_keys, self.right_keys)]
        cond += [p.text or p.sql for p in self.time_predicates]
        if self.condition is not None:
            cond.append(self.condition.text or self.condition.sql)
        bounds = "isRowTime=true, leftLowerBound=%d, leftUpperBound=%d, leftTimeIndex=%d, rightTimeIndex=%d" % (
            self.lower_ms, self.upper_ms, self.left.field_names.index(self.left_time),
            self.right.field_names.index(self.right_time))
        return "joinType=[%s], windowBounds=[%s], where=[%s], select=[%s]" % (
            JOIN_TYPES[self.kind], bounds, cond[0] if len(cond) == 1 else "AND(%s)" % ", ".join(cond),
            ", ".join(self.field_names))
