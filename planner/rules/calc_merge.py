"""A Calc that passes its input through unchanged goes away; two Calcs in a row become one, as Flink's plans show them: the upper projections and condition
rewritten over the lower one's input. Only where nothing is computed twice: every lower field the upper
Calc reads is a plain input field, or the upper Calc only passes fields through."""

from sqlglot import exp

from ..expr.conditions import conjoin, rebuild_and
from ..expr.translate import finish
from ..plan.calc import Calc


def rewrite(node, ctx):
    if isinstance(node, Calc) and node.is_identity:
        return node.input
    if not (isinstance(node, Calc) and isinstance(node.input, Calc)):
        return node
    upper, lower = node, node.input
    below = {name: e for e, name in lower.projections}
    used = set()
    for e, _ in upper.projections:
        used.update(e.refs)
    if upper.condition is not None:
        used.update(upper.condition.refs)
    passes_only = all(e.field is not None for e, _ in upper.projections) and upper.condition is None
    if not passes_only and any(below[n].field is None for n in used):
        return node
    if any(e.tree is None for e, _ in upper.projections) or \
            (upper.condition is not None and upper.condition.tree is None):
        return node

    passed = {f.name for f in lower.fields if below[f.name].field == f.name and lower.input.field(f.name) == f}

    def substitute(e):
        if e.field is not None:
            return below[e.field]
        if all(r in passed for r in e.refs):
            return e        # each field it reads passes through as it is: the same expression, not finished again
        tree = e.tree.transform(lambda n: below[n.meta["field"].name].tree.copy()
                                if isinstance(n, exp.Column) and "field" in n.meta else n, copy=True)
        return finish(tree)
    projections = [(substitute(e), name) for e, name in upper.projections]
    condition = lower.condition
    if upper.condition is not None:
        above = substitute(upper.condition)
        condition = rebuild_and([above.tree], above) if lower.condition is None else conjoin(lower.condition, above)
    return Calc(lower.input, projections, condition, position=upper.position)
