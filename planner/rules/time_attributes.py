"""A Calc over an input a rule rewrote keeps the input's time attributes: a Calc sets its fields when it is
built, from the input it had then (the binder's regular Join, whose time attributes are plain timestamps);
when a rule turns that input into an operator that keeps them (an IntervalJoin), the Calc is built again
over it, with the same projections and condition, so that a field passing a rowtime on stays a rowtime."""

from ..plan.calc import Calc


def rewrite(node, ctx):
    if not isinstance(node, Calc):
        return node
    fresh = Calc(node.input, node.projections, node.condition, position=node.position,
                 types=[f.type for f in node.fields])
    if [f.time for f in fresh.fields] == [f.time for f in node.fields]:
        return node
    return fresh
