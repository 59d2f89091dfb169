"""Conditions taken apart and put back together: conjuncts of an AND, equalities between two fields,
comparisons against a literal. Rules and the binder use them on the bound trees inside `Expr`s."""

from sqlglot import exp

from .translate import bound, finish, typer


def conjuncts(tree):
    """The AND-ed parts of a condition tree (parentheses around an AND looked through), iteratively."""
    out, stack = [], [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, exp.Paren) and isinstance(_unparen(node), exp.And):
            stack.append(_unparen(node))
        elif isinstance(node, exp.And):
            stack.append(node.expression)
            stack.append(node.this)
        else:
            out.append(node)
    return out


def field_of(node):
    """The field name `node` references when it is a plain field reference (parentheses looked through)."""
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.Column) and "field" in node.meta:
        return node.meta["field"].name
    return None


def field_equality(node):
    """`a = b` of two plain fields -> (a, b), else None."""
    node = _unparen(node)
    if isinstance(node, exp.EQ):
        a, b = field_of(node.this), field_of(node.expression)
        if a is not None and b is not None:
            return a, b
    return None


def _unparen(node):
    while isinstance(node, exp.Paren):
        node = node.this
    return node


def _grouped(part):
    """A conjunct as an operand of AND: an OR (or another connective) keeps its parentheses."""
    return exp.Paren(this=part) if isinstance(part, (exp.Or, exp.Xor)) else part


def is_flat_and(tree):
    """Whether `rebuild_and(conjuncts(tree))` would give `tree` again: a left-deep AND chain, no part an
    OR (without its parentheses) or a parenthesized AND. A caller with that condition's Expr keeps it
    instead of finishing the same tree twice."""
    def plain(part):
        return not isinstance(part, (exp.And, exp.Or, exp.Xor)) and \
            not (isinstance(part, exp.Paren) and isinstance(_unparen(part), exp.And))
    node = tree
    while isinstance(node, exp.And):
        if not plain(node.expression):
            return False
        node = node.this
    return plain(node)


def rebuild_and(parts, *sources):
    """Conjunct trees -> one Expr (None for no parts). `sources`: the finished Exprs whose trees the parts were
    taken from (their calls already checked); nothing is walked again then: the parts' types are in the
    sources' memos, the Spark SQL is written when the runtime asks for it. A rule that drops one conjunct
    of a long condition stays linear. Without sources the tree is finished."""
    if not parts:
        return None
    tree = _grouped(parts[0])
    for p in parts[1:]:
        tree = exp.And(this=tree, expression=_grouped(p))
    if not sources:
        return finish(tree)
    memos = [s.types for s in sources if s is not None and s.types is not None]
    types = memos[0] if len(memos) == 1 else {k: v for memo in memos for k, v in memo.items()}
    return bound(tree, typer(types)(tree), None, types)


def conjoin(left, right):
    """`left AND right` of two finished condition Exprs, neither walked again: merging a chain of n Calcs
    one at a time (rules/calc_merge.py) stays linear where `rebuild_and` would finish the growing AND
    n times. The same tree, type and (when asked for) Spark SQL as `rebuild_and([left.tree, right.tree])`."""
    from .bound import Expr
    from .inference import t
    nullable = any(e.type is None or e.type.nullable for e in (left, right))
    return Expr(type=t("BOOLEAN", nullable), refs=tuple(dict.fromkeys(left.refs + right.refs)),
                tree=exp.And(this=_grouped(left.tree), expression=_grouped(right.tree)))


def referenced(tree):
    return {n.meta["field"].name for n in tree.find_all(exp.Column) if "field" in n.meta}
