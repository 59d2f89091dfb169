"""`(s0, e0) OVERLAPS (s1, e1)` as Flink (Calcite's StandardConvertletTable) computes it: each period's end may be
an INTERVAL (the end is start + interval); each period is put in order (`CASE WHEN s <= e THEN s ELSE e END`, ...),
then the periods overlap when `s0 <= e1 AND s1 <= e0` (periods that touch overlap). Rewritten into comparisons
before binding, so the result's type (BOOLEAN, NULL when an end point is) and its Spark SQL come from them."""

from sqlglot import exp

from ..errors import SqlError


def rewrite_overlaps(node, position):
    periods = []
    for side in (node.this, node.expression):
        if not isinstance(side, exp.Tuple) or len(side.expressions) != 2:
            raise SqlError("OVERLAPS needs two periods of two values each: (start, end | interval)", *position)
        start, end = side.expressions
        if isinstance(end, exp.Interval):
            end = exp.Add(this=start.copy(), expression=end)
        periods.append(_ordered(start, end))
    (s0, e0), (s1, e1) = periods
    return exp.Paren(this=exp.And(this=exp.LTE(this=s0, expression=e1), expression=exp.LTE(this=s1, expression=e0)))


def _ordered(s, e):
    def case(then, other):
        return exp.Case(ifs=[exp.If(this=exp.LTE(this=s.copy(), expression=e.copy()), true=then.copy())],
                        default=other.copy())
    return case(s, e), case(e, s)
