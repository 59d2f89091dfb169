"""OVER aggregates: an `Over` the Top-N rule left (aggregate functions, LAG, ranking with a frame) becomes
the `OverAggregate` that runs, after Flink's checks.

Streaming (Flink's StreamExecOverAggregate): one ORDER BY, ascending, on a time attribute (rowtime or
proctime); a frame ending at CURRENT ROW; ROWS n PRECEDING, RANGE INTERVAL .. PRECEDING, or UNBOUNDED
PRECEDING. Ordering on another column is refused for a bounded frame with Flink's message; Flink 2.3's
updating OVER over a non-time order with an unbounded frame is not run by dynsql yet. LEAD, NTILE, CUME_DIST
and PERCENT_RANK are refused as Flink refuses them. Batch: any window; DISTINCT is refused as Flink's batch planner refuses it.
Both: RANGE bounds must match the ORDER BY column's type (an INTERVAL for a timestamp, a number otherwise); a
fractional one (`RANGE BETWEEN 0.5 PRECEDING ..`) runs in batch only, as in Flink."""

from decimal import Decimal

from ..errors import SqlError, UnsupportedError
from ..plan.fields import PROCTIME, ROWTIME
from ..plan.over import Frame, Over, OverAggregate
from ..python_functions.aggregate_calls import python_function

STREAMING_FUNCTIONS = ("COUNT", "SUM", "AVG", "MIN", "MAX", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP",
                       "FIRST_VALUE", "LAST_VALUE", "LISTAGG", "ROW_NUMBER", "RANK", "DENSE_RANK", "LAG")
_TIME_TYPES = ("TIMESTAMP", "TIMESTAMP_LTZ", "DATE", "TIME")
_NUMERIC_TYPES = ("TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL")


def rewrite(node, ctx):
    if type(node) is not Over:
        return node
    _check_range(node)
    if ctx.batch:
        _check_fractional_range(node)
        distinct = next((c for c in node.calls if c.distinct), None)
        if distinct is not None:
            raise SqlError("Distinct not supported in Windowing function!", *node.position)
        return OverAggregate(node.input, node.partition, node.order, node.frame, node.calls, None, node.position)
    frame = node.frame
    if any(isinstance(b, Decimal) for b in (frame.lower, frame.upper)):     # (Flink's StreamExecOverAggregate)
        raise SqlError("the specific value is decimal which haven not supported yet.", *node.position,
                       hint="a streaming OVER window's RANGE offset is a whole number or an INTERVAL; "
                            "batch mode runs a fractional one")
    if not frame.explicit and all(c.function == "ROW_NUMBER" for c in node.calls):
        frame = Frame("ROWS", None, 0)       # Flink numbers rows one by one, ties included
    return OverAggregate(node.input, node.partition, node.order, frame, node.calls, _streaming_time(node),
                         node.position)


def _streaming_time(node):
    """The time attribute a streaming OVER is ordered by ('rowtime' / 'proctime'), or Flink's refusal."""
    pos = node.position
    for c in node.calls:
        if c.function in ("LEAD", "NTILE", "CUME_DIST", "PERCENT_RANK"):
            raise SqlError("%s Function is not supported in stream mode." % c.function, *pos)
        if c.function not in STREAMING_FUNCTIONS and python_function(c) is None:   # (Python: aggregate_calls.py)
            raise UnsupportedError("%s over an OVER window is not supported in streaming mode" % c.function, *pos)
    if len(node.order) != 1:
        raise SqlError("The window can only be ordered by a single time column.", *pos)
    field, ascending = node.order[0]
    if not ascending:
        raise SqlError("The window can only be ordered in ASCENDING mode.", *pos)
    if node.frame.upper != 0:
        raise SqlError("OVER RANGE FOLLOWING windows are not supported yet.", *pos)
    time = node.input.field(field).time
    if time not in (ROWTIME, PROCTIME):
        if node.frame.bounded:
            raise SqlError("Non-time attribute sort is not supported for bounded OVER window.", *pos)
        raise UnsupportedError("An OVER window ordered by '%s', not a time attribute, updates its rows in Flink "
                               "2.3; dynsql does not run it yet" % field, *pos,
                               hint="order the window by a rowtime or proctime attribute")
    return time


def _check_range(node):
    """RANGE bounds of the ORDER BY column's type: Flink (Calcite) refuses `RANGE 2 PRECEDING` on a timestamp, and
    any offset on a column neither numeric nor temporal (a STRING: before, Spark's words at the prompt)."""
    frame = node.frame
    if frame.kind != "RANGE" or not frame.explicit or not node.order or \
            all(b in (None, 0) for b in (frame.lower, frame.upper)):
        return
    t = node.input.field(node.order[0][0]).type
    temporal = t is not None and t.name in _TIME_TYPES
    if not temporal and t is not None and t.name not in _NUMERIC_TYPES:
        raise SqlError("Data type of ORDER BY prohibits use of RANGE clause", *node.position)
    if temporal != frame.interval:
        raise SqlError("Data Type mismatch between ORDER BY and RANGE clause", *node.position)


def _check_fractional_range(node):
    """A fractional RANGE offset over a DECIMAL runs on the column's values scaled to whole numbers
    (runtime/operators/over_aggregate.py), which must fit 18 digits."""
    frame = node.frame
    fractions = [b for b in (frame.lower, frame.upper) if isinstance(b, Decimal)]
    t = node.input.field(node.order[0][0]).type if fractions and node.order else None
    if t is None or t.name != "DECIMAL":
        return
    precision, scale = (tuple(t.params) + (10, 0))[:2] if len(t.params) != 1 else (t.params[0], 0)
    digits = max([scale] + [-b.as_tuple().exponent for b in fractions])
    if precision - scale + digits > 18:
        raise UnsupportedError("A RANGE offset of %d digits after the point over a %s column is not supported: "
                               "its values scaled to whole numbers pass 18 digits" % (digits, t.text(False)),
                               *node.position)
