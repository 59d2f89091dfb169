"""Each operand of a Spark SQL template written once, however often the template reads it.

Flink's semantics on Spark often need an argument more than once (`if(x < 0, -x, x)`); copying the
argument's tree into each place makes a nested expression (`ABS(ABS(ABS(...)))`) grow exponentially with its
depth. `fill(tree, places, operands)` puts each operand in its places; an operand read in more than one
place that is not a plain column or literal is evaluated once and bound to a Spark lambda variable:
`TRANSFORM(ARRAY(operand), _v1 -> body)[0]` (several such operands: one struct of them). The text then grows
linearly with the depth. Lambda variables are numbered above every lambda inside the operands, so that an
inner one never shadows an outer one."""

from sqlglot import exp

_PLAIN = (exp.Column, exp.Literal, exp.Null, exp.Boolean)


def is_plain(tree):
    """A column, a literal, or a CAST / parenthesis / sign of one (at most two of those around it): cheap to write
    again. (Not `- - - ... x`: a chain of them written again at each level would grow exponentially.)"""
    for _ in range(3):          # looks at three nodes at most: called at every level of a chain, it stays linear
        if not isinstance(tree, (exp.Cast, exp.TryCast, exp.Paren, exp.Neg)):
            return isinstance(tree, _PLAIN)
        tree = tree.this
    return False


_KERNEL = "calls_kernel"


def _is_kernel_call(node):
    """A DYNSQL_* call, or a Flink call that becomes one when rewritten (STR_TO_MAP)."""
    if isinstance(node, exp.StrToMap):
        return True
    return isinstance(node, exp.Anonymous) and str(node.name).upper().startswith(("DYNSQL_", "STR_TO_MAP"))


def calls_a_kernel(tree):
    """Whether `tree` calls one of dynsql's Python kernels (a DYNSQL_* function, registered on the session):
    Spark refuses a Python UDF inside a lambda, so such an operand is written again in each place, not bound.
    Each node's answer is kept in its meta, so that a chain of templates is looked through once (linear)."""
    order, stack = [], [tree]
    while stack:
        node = stack.pop()
        if node._meta is not None and _KERNEL in node._meta:
            continue
        order.append(node)
        stack.extend(node.iter_expressions())
    for node in reversed(order):            # a pre-order reversed: each node after everything below it
        node.meta[_KERNEL] = _is_kernel_call(node) or any(child.meta[_KERNEL] for child in node.iter_expressions())
    return tree.meta[_KERNEL]


def fill(tree, places, operands, wrap=lambda t: exp.paren(t, copy=False)):
    """`places`: [(placeholder node in `tree`, operand key)]; `operands`: key -> tree. Returns the filled
    tree (a new root when an operand is bound once). An operand's tree goes into its first place itself (the
    caller's rewrite gives it up), copies into the others: copying it at every level of a nested expression
    made the whole quadratic in the depth."""
    uses = {}
    for _, key in places:
        uses[key] = uses.get(key, 0) + 1
    shared = [key for key in operands if uses.get(key, 0) > 1 and not is_plain(operands[key])
              and not calls_a_kernel(operands[key])]
    placed = set()              # ids of the operand trees already put somewhere: a second place gets a copy

    def take(operand):
        if id(operand) in placed:
            return operand.copy()
        placed.add(id(operand))
        return operand

    if not shared:
        for node, key in places:
            new = wrap(take(operands[key]))
            if node is tree:
                return new
            node.replace(new)
        return tree
    number = 1 + sum(lambdas(operands[key]) for key in shared)
    var = "_v%d" % number
    for node, key in places:
        if key in shared:
            ref = exp.column(var) if len(shared) == 1 else exp.column("a%d" % shared.index(key), table=var)
        else:
            ref = wrap(take(operands[key]))
        if node is tree:
            tree = ref
        else:
            node.replace(ref)
    if len(shared) == 1:
        bound = take(operands[shared[0]])
    else:
        bound = exp.func("named_struct", *[x for i, key in enumerate(shared)
                                          for x in (exp.Literal.string("a%d" % i), take(operands[key]))])
        bound.meta["spark"] = True
    lam = exp.Lambda(this=tree, expressions=[exp.to_identifier(var)])
    call = exp.Transform(this=exp.Array(expressions=[bound]), expression=lam)
    out = exp.Bracket(this=call, expressions=[exp.Literal.number(0)])
    out.meta[_LAMBDAS] = lambdas(tree) + number     # its own lambda and those of its body; `bound`'s: number - 1
    return out


_LAMBDAS = "lambdas within"


def lambdas(tree):
    """How many lambdas `tree` holds: a tree `fill` bound once knows its count (kept in its meta, copied with
    it), so that counting at every level of a nested expression does not walk the levels below again."""
    count, stack = 0, [tree]
    while stack:
        node = stack.pop()
        known = node.meta_get(_LAMBDAS)
        if known is not None:
            count += known
            continue
        count += isinstance(node, exp.Lambda)
        stack.extend(node.iter_expressions())
    return count
