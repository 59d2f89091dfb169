"""Window semi / anti join: a `SemiJoin` (an IN / EXISTS subquery, or their NOT forms) of two inputs carrying the
same windows whose keys equate both sides' window_start and window_end becomes a `WindowSemiJoin`, which waits
for each window to close and keeps the left's time attributes (Flink's Window Join page: `L.num IN (SELECT num
FROM ... R WHERE L.window_start = R.window_start AND L.window_end = R.window_end)`). Otherwise it stays a
regular semi join, as Flink plans it. The binder calls `rewrite` once the join's keys are known."""

from dataclasses import replace

from ..plan.calc import Calc
from ..plan.semi_join import SemiJoin, WindowSemiJoin
from ..plan.window import window_of
from .window_join import check_windows


def rewrite(join):
    if type(join) is not SemiJoin:
        return join
    lw, rw = window_of(join.left), window_of(join.right)
    if lw is None or rw is None:
        return join
    lnames, rnames = bound_names(join.left), bound_names(join.right)
    pairs = list(zip(join.left_keys, join.right_keys))
    starts = [p for p in pairs if p[0] in lnames["start"] and p[1] in rnames["start"]]
    ends = [p for p in pairs if p[0] in lnames["end"] and p[1] in rnames["end"]]
    if not starts or not ends or not lw.spec.same_windows(rw.spec):
        return join
    bounds = (starts[0], ends[0])
    check_windows(join, lw, rw)
    kept = [(a, b, s) for a, b, s in zip(join.left_keys, join.right_keys, join.null_safe) if (a, b) not in bounds]
    lw = replace(lw, start=bounds[0][0], end=bounds[1][0])
    rw = replace(rw, start=bounds[0][1], end=bounds[1][1])
    return WindowSemiJoin(join.left, join.right, join.anti, lw, rw, [a for a, _, _ in kept], [b for _, b, _ in kept],
                          join.condition, [s for _, _, s in kept], position=join.position)


def bound_names(node):
    """{'start': names, 'end': names}: every output field of `node` holding its rows' window_start / window_end
    (a projection may repeat one under another name: a correlated subquery's added columns)."""
    chain = []
    while isinstance(node, Calc):
        chain.append(node)
        node = node.input
    ref = node.window_ref() if hasattr(node, "window_ref") else None
    if ref is None:
        return {"start": set(), "end": set()}
    names = {"start": {ref.start}, "end": {ref.end}}
    for calc in reversed(chain):
        names = {k: {n for e, n in calc.projections if e.field in v} for k, v in names.items()}
    return names
