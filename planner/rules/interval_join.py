"""Interval joins: a regular Join whose condition bounds one side's rowtime by the other's becomes an
IntervalJoin, as Flink's IntervalJoinUtil decides it:

    l.t BETWEEN r.t - INTERVAL '1' HOUR AND r.t        l.t >= r.t - INTERVAL '10' MINUTE AND l.t < r.t
    r.t + INTERVAL '5' SECOND > l.t AND ...            (the bounds from ON, or from WHERE over a comma join)

Time predicates compare a time attribute of each input (plus or minus interval literals) with <, <=, >, >=;
there must be exactly two of them, a lower and an upper bound of the same pair of attributes, else the join
stays a regular join (e.g. `l.t BETWEEN r.t AND r.expires` when `expires` is computed: not a time attribute).
Strict bounds move by one millisecond (Flink's). Two processing-time attributes are not planned here: Flink
refuses them next to event-time attributes, and dynsql does not run processing-time interval joins yet."""

from sqlglot import exp

from ..expr.conditions import conjuncts, field_of, rebuild_and
from ..expr.translate import finish
from ..errors import UnsupportedError
from ..plan.fields import PROCTIME, ROWTIME
from ..plan.interval_join import IntervalJoin
from ..plan.join import Join

_FLIP = {exp.GT: exp.LT, exp.GTE: exp.LTE, exp.LT: exp.GT, exp.LTE: exp.GTE}


def rewrite(node, ctx):
    if type(node) is not Join or node.condition is None:
        return node
    found = _bounds(node)
    if found is None:
        return node
    (left_time, right_time, kind), lower, upper, predicates, rest = found
    if kind == PROCTIME:
        if any(f.time == ROWTIME for f in node.left.fields + node.right.fields):
            raise UnsupportedError("Interval join with proctime attribute requires no event-time attributes are in "
                                   "the join inputs.", *node.position)
        raise UnsupportedError("Processing-time interval joins are not supported yet", *node.position,
                               hint="bound the rows' event times (WATERMARK columns) instead")
    return IntervalJoin(node.left, node.right, node.kind, node.left_keys, node.right_keys,
                        rebuild_and(rest, node.condition), left_time, right_time, lower, upper, predicates,
                        position=node.position)


def _bounds(join):
    """-> ((left time, right time, time kind), lower ms, upper ms, [time predicate Exprs], [other conjuncts]) or
    None when the condition is not an interval join's."""
    times, lowers, uppers, predicates, rest = set(), [], [], [], []
    for c in conjuncts(join.condition.tree):
        parts = _comparisons(c)
        bounds = [_bound(join, p) for p in parts] if parts else [None]
        if None in bounds:
            rest.append(c)
            continue
        for p, (pair, kind, ms) in zip(parts, bounds):
            times.add(pair)
            (lowers if kind == "lower" else uppers).append(ms)
            predicates.append(finish(p))
    if len(lowers) != 1 or len(uppers) != 1 or len(times) != 1:
        return None
    return times.pop(), lowers[0], uppers[0], predicates, rest


def _comparisons(c):
    """A conjunct as the comparisons it states: `x BETWEEN a AND b` is `x >= a` and `x <= b`."""
    if isinstance(c, exp.Between):
        return [exp.GTE(this=c.this.copy(), expression=c.args["low"].copy()),
                exp.LTE(this=c.this.copy(), expression=c.args["high"].copy())]
    if type(c) in _FLIP:
        return [c]
    return []


def _bound(join, cmp):
    """`a op b` between time attributes of the two sides -> ((left time, right time, kind), 'lower' | 'upper',
    ms) stating `lower <= left - right` or `left - right <= upper`; None for any other comparison."""
    a, b = _time_term(join, cmp.this), _time_term(join, cmp.expression)
    if a is None or b is None or a[0] == b[0] or a[2] != b[2]:
        return None
    op = type(cmp)
    if a[0] == 1:                          # right op left: turn it around
        a, b, op = b, a, _FLIP[op]
    # left + a_off  op  right + b_off   <=>   left - right  op  b_off - a_off
    c = b[3] - a[3]
    pair = (a[1], b[1], a[2])
    if op is exp.GTE:
        return pair, "lower", c
    if op is exp.GT:
        return pair, "lower", c + 1
    if op is exp.LTE:
        return pair, "upper", c
    return pair, "upper", c - 1


def _time_term(join, tree):
    """`field [+|- INTERVAL ...]` over a time attribute of one input -> (side, input field, kind, offset ms)."""
    from ..ddl import interval_ms
    offset = 0
    while True:
        while isinstance(tree, exp.Paren):
            tree = tree.this
        if isinstance(tree, (exp.Add, exp.Sub)) and isinstance(tree.expression, exp.Interval):
            ms = interval_ms(tree.expression)
            offset += ms if isinstance(tree, exp.Add) else -ms
            tree = tree.this
        elif isinstance(tree, exp.Add) and isinstance(tree.this, exp.Interval):
            offset += interval_ms(tree.this)
            tree = tree.expression
        else:
            break
    name = field_of(tree)
    if name is None or name not in join.field_names:
        return None
    i = join.field_names.index(name)
    nleft = len(join.left.fields)
    side, f = (0, join.left.fields[i]) if i < nleft else (1, join.right.fields[i - nleft])
    if f.time not in (ROWTIME, PROCTIME):
        return None
    return side, f.name, f.time, offset
