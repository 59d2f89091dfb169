"""The one inference pass over a finished plan: every node's changelog mode and upsert key.

Bottom-up, each node states which changes it accepts from each input and which it provides (Flink's
SatisfyModifyKindSetTraitVisitor); an input producing changes its consumer cannot take is refused with
Flink's message, at the consumer's position in the SQL. Top-down, each node says whether its inputs' updates
must carry -U rows (Flink's SatisfyUpdateKindTraitVisitor). Nothing here runs Spark."""

from .errors import SqlError
from .plan.changelog import UPDATE, describe_kinds
from .plan.node import post_order

#: nodes through which a refusal looks for the node that produced the changes (Flink forwards the
#: requirement through them: Calc, Union, Exchange, ...)
FORWARDING = ("Calc", "Union", "WindowTableFunction", "DropUpdateBefore", "Exchange", "Expand")


def provided_kinds(node):
    """The changes `node` produces (inferred from its subtree, refusals not checked)."""
    for n in post_order(node):
        n.kinds = n.provided_kinds([c.kinds for c in n.inputs])
    return node.kinds


def infer(root):
    for node in post_order(root):
        for i, child in enumerate(node.inputs):
            refusal = refused_changes(node.requester or node.explain_name(), child, node.accepted_kinds(i))
            if refusal:
                raise SqlError(refusal, *node.position)
        node.kinds = node.provided_kinds([c.kinds for c in node.inputs])
        node.upsert_key = node.derive_upsert_key()
    stack = [(root, True)]     # the sink takes what it is given, -U rows included
    while stack:
        node, required = stack.pop()
        node.update_before = required and UPDATE in node.kinds
        for i, child in enumerate(node.inputs):
            stack.append((child, node.input_update_before(i, required) and UPDATE in child.kinds))
    return root


def refused_changes(requester, child, accepted):
    """Flink's message when a consumer (named `requester`) that accepts the modify kinds `accepted` is given
    the changes of `child` (inferred), naming the node that produced them; None when it accepts them all."""
    extra = child.kinds - accepted
    if not extra:
        return None
    return ("%s doesn't support consuming %s changes which is produced by node %s"
            % (requester, describe_kinds(extra), _producer(child).describe()))


def _producer(node):
    while type(node).__name__ in FORWARDING and node.inputs:
        node = next((c for c in node.inputs if c.kinds == node.kinds), node.inputs[0]) \
            if len(node.inputs) > 1 else node.inputs[0]
    return node
