"""Top-N and deduplication: a ranking function over a window, filtered by its rank.

    Calc(where rn <= N [AND ...]) over [Calcs passing rn through] over Over(ROW_NUMBER() AS rn)
        -> Calc(the rest of the condition) over [the same Calcs] over Rank(rankEnd=N)
    ROW_NUMBER() ... = 1 (or <= 1) ordered by one time attribute, over insert-only input
        -> Deduplicate (keep the first row when ascending, the last when descending)

A ranking function without such a filter is a Rank without a bound; in streaming, ordered ascending by a time
attribute, it is an OverAggregate instead (planner/rules/over_aggregate.py), as Flink plans it. Flink's forms of the bound:
`rn <= N`, `rn < N`, `rn = 1`, `N >= rn`, `N > rn`."""

from sqlglot import exp

from ..expr.conditions import conjuncts, field_of, rebuild_and
from ..plan.calc import Calc
from ..expr.bound import Expr
from ..plan.fields import PROCTIME, ROWTIME
from ..plan.over import RANKING, Over
from ..plan.rank import Deduplicate, Rank


def rewrite(node, ctx):
    if isinstance(node, Calc) and node.condition is not None:
        out = _filtered_rank(node, ctx)
        if out is not None:
            return out
    if type(node) is Over and len(node.calls) == 1 and node.calls[0].function in RANKING \
            and not node.frame.explicit and not _time_ordered(node, ctx):
        return _rank(node, None, ctx)
    return node


def _time_ordered(over, ctx):
    """A streaming ranking ordered ascending by one time attribute: Flink's OverAggregate (insert-only, rows in
    time order) unless a filter on the rank above makes it a Top-N or a deduplication."""
    if ctx.batch or len(over.order) != 1 or not over.order[0][1]:
        return False
    return over.input.field(over.order[0][0]).time in (ROWTIME, PROCTIME)


def _filtered_rank(calc, ctx):
    # the chain of Calcs under the filter that pass fields through, down to a Rank without a bound (what an
    # Over with one ranking call became)
    chain, below = [], calc.input
    while isinstance(below, Calc) and below.condition is None:
        chain.append(below)
        below = below.input
    ranking_over = isinstance(below, Over) and len(below.calls) == 1 and below.calls[0].function in RANKING \
        and not below.frame.explicit
    if not ranking_over and not (isinstance(below, Rank) and below.rank_end is None and below.rank_field is not None):
        return None
    over = below
    rank_name = over.calls[0].name if ranking_over else over.rank_field
    for c in reversed(chain):            # follow the rank field's name up to the filter's input
        rank_name = next((n for e, n in c.projections if e.field == rank_name), None)
        if rank_name is None:
            return None
    bound, rest = None, []
    for c in conjuncts(calc.condition.tree):
        n = _rank_bound(c, rank_name)
        if n is not None:
            bound = n if bound is None else min(bound, n)
        else:
            rest.append(c)
    if bound is None:
        return None
    ranked = _rank(over, bound, ctx)
    node = ranked
    for c in reversed(chain):
        node = Calc(node, c.projections, None, position=c.position)
    return Calc(node, calc.projections, rebuild_and(rest, calc.condition), position=calc.position)


def _rank_bound(cond, rank_name):
    """The rank bound a conjunct states (`rn <= 3` -> 3), or None."""
    while isinstance(cond, exp.Paren):
        cond = cond.this
    ops = {exp.LTE: 0, exp.LT: -1, exp.EQ: 0}
    flipped = {exp.GTE: exp.LTE, exp.GT: exp.LT, exp.EQ: exp.EQ}
    a, b, kind = cond.args.get("this"), cond.args.get("expression"), type(cond)
    if kind in flipped and field_of(b) == rank_name:
        a, b, kind = b, a, flipped[kind]
    if kind not in ops or field_of(a) != rank_name or not isinstance(b, exp.Literal) or b.is_string:
        return None
    if not b.name.isdigit() or len(b.name) > 12:
        return None       # not an integer: an ordinary condition on the rank
    n = int(b.name) + ops[kind]
    if kind is exp.EQ and n != 1:
        return None
    return n if n >= 1 else None


def _rank(over, bound, ctx):
    """An Over with one ranking call (or a Rank without a bound) -> a Rank with `bound`, or a Deduplicate."""
    if isinstance(over, Over):
        function, rank_name = over.calls[0].function, over.calls[0].name
    else:
        function, rank_name = over.function, over.rank_field
    from . import window_rank
    windowed = window_rank.rewrite(over, function, rank_name, bound)
    if windowed is not None:
        return windowed
    order = over.order
    inp = over.input
    if function == "ROW_NUMBER" and bound == 1 and len(order) == 1:
        f = inp.field(order[0][0])
        if f.time in (ROWTIME, PROCTIME) and _insert_only(inp):
            dedup = Deduplicate(inp, over.partition, f.name, f.time, keep_last=not order[0][1],
                                position=over.position)
            return _with_rank_one(dedup, rank_name)
    return Rank(inp, over.partition, order, function, bound, rank_name, position=over.position)


def _with_rank_one(dedup, rank_name):
    """A deduplication's rank field is always 1 (Flink: a Calc adding `1:BIGINT AS rn`)."""
    from ..expr.types import parse_type
    projections = [(Expr.of_field(f), f.name) for f in dedup.fields]
    from sqlglot import exp
    from ..expr.translate import cast_to, finish
    one = finish(cast_to(exp.Literal.number(1), parse_type("BIGINT NOT NULL")))
    projections.append((one, rank_name))
    return Calc(dedup, projections)


def _insert_only(node):
    from ..infer import provided_kinds
    from ..plan.changelog import INSERT_ONLY_KINDS
    return provided_kinds(node) == INSERT_ONLY_KINDS
