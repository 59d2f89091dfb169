"""Rules: rewrite the binder's tree into the operators that run, each rule one module.

`apply(node, ctx)` rewrites bottom-up: a node's inputs first, then the rules in order on the node, again
until none changes it. A rule
is `rewrite(node, ctx) -> node` and returns the node unchanged when its pattern does not match; it keeps
the node's output fields (names, types, time attributes)."""

from ..plan.node import post_order
from . import calc_merge, interval_join, over_aggregate, time_attributes, topn

# over_aggregate after topn: it plans the OVER windows the Top-N rule leaves
RULES = [calc_merge.rewrite, topn.rewrite, over_aggregate.rewrite, interval_join.rewrite, time_attributes.rewrite]


def apply(node, ctx):
    rewritten = {}
    for n in post_order(node):
        n.inputs = [rewritten.get(id(c), c) for c in n.inputs]
        out = n
        for _ in range(16):            # until no rule changes the node (a rewrite can enable another)
            before = out
            for rule in RULES:
                out = rule(out, ctx)
            if out is before:
                break
        rewritten[id(n)] = out
    return rewritten[id(node)]
