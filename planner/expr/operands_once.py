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
    wrappers = 0
    while isinstance(tree, (exp.Cast, exp.TryCast, exp.Paren, exp.Neg)):
        tree = tree.this
        wrappers += 1
    return isinstance(tree, _PLAIN) and wrappers <= 2


def fill(tree, places, operands, wrap=lambda t: exp.paren(t, copy=False)):
    """`places`: [(placeholder node in `tree`, operand key)]; `operands`: key -> tree. Returns the filled
    tree (a new root when an operand is bound once)."""
    uses = {}
    for _, key in places:
        uses[key] = uses.get(key, 0) + 1
    shared = [key for key in operands if uses.get(key, 0) > 1 and not is_plain(operands[key])]
    if not shared:
        for node, key in places:
            new = wrap(operands[key].copy())
            if node is tree:
                return new
            node.replace(new)
        return tree
    number = 1 + sum(1 for key in shared for _ in operands[key].find_all(exp.Lambda))
    var = "_v%d" % number
    for node, key in places:
        if key in shared:
            ref = exp.column(var) if len(shared) == 1 else exp.column("a%d" % shared.index(key), table=var)
        else:
            ref = wrap(operands[key].copy())
        if node is tree:
            tree = ref
        else:
            node.replace(ref)
    if len(shared) == 1:
        bound = operands[shared[0]].copy()
    else:
        bound = exp.func("named_struct", *[x for i, key in enumerate(shared)
                                          for x in (exp.Literal.string("a%d" % i), operands[key].copy())])
        bound.meta["spark"] = True
    lam = exp.Lambda(this=tree, expressions=[exp.to_identifier(var)])
    call = exp.Transform(this=exp.Array(expressions=[bound]), expression=lam)
    return exp.Bracket(this=call, expressions=[exp.Literal.number(0)])
