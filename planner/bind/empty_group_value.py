"""The value of a correlated scalar subquery for an outer row that meets no inner row, where it is not NULL: the
subquery's select item evaluated over the empty group, as Calcite's decorrelator does (`COALESCE(MAX(x), -1)`
-> -1, `COUNT(*) + 1` -> 1). The LEFT join gives NULL for such a row, so the subquery gives its aggregate calls
(`$aN`) instead of its value, and the value is computed over the join: each call's field, a COUNT's NULL read as
0, the empty group's COUNT. (A plain aggregate needs none of this: NULL, or a COUNT's 0, added by the caller.)"""

from sqlglot import exp

from .expressions import ExpressionBinder, field_ref, is_aggregate_call

# what can make an expression over aggregates other than NULL when its aggregates are NULL (over no rows)
_NOT_NULL_STRICT = (exp.Coalesce, exp.Case, exp.If, exp.Is, exp.NullSafeEQ, exp.NullSafeNEQ, exp.And, exp.Or,
                    exp.Not, exp.Nvl2, exp.Array, exp.Struct, exp.Map, exp.VarMap, exp.ConcatWs, exp.Anonymous)


class EmptyGroupValue:
    """A select item over aggregates split into its calls (`calls`: [(name, call)]) and the item reading them
    (`template`: the calls replaced by columns named `name`)."""

    def __init__(self, template, calls):
        self.template, self.calls = template, calls

    def select_items(self):
        return [exp.alias_(call.copy(), name, quoted=True) for name, call in self.calls]

    def bind(self, ctx, scope, fields):
        """The value over the joined row, whose `fields` hold the calls (in order; NULL without inner rows)."""
        by_name = {name: f for (name, _), f in zip(self.calls, fields)}
        counts = {name for name, call in self.calls if _is_count(call)}
        tree = self.template.copy()
        for col in [c for c in tree.find_all(exp.Column) if c.name in by_name and c.meta.get("empty_group")]:
            ref = field_ref(by_name[col.name])
            if col.name in counts:
                ref = exp.Coalesce(this=ref, expressions=[exp.Literal.number(0)])
            col.replace(ref)
        return ExpressionBinder(ctx, scope).bind(tree)


def empty_group_value(sb, query):
    """The EmptyGroupValue of the aggregating subquery `query`, or None where its value over no rows is NULL or a
    plain COUNT's 0. With HAVING, the value is NULL where HAVING does not hold (on the group or, without inner rows,
    on the empty group): its calls are the EmptyGroupValue's too, the subquery's HAVING checked over the join."""
    item = query.expressions[0] if len(query.expressions) == 1 else None     # (else: not one column, said later)
    item = item.this if isinstance(item, exp.Alias) else item
    having = query.args.get("having")
    if item is None or not _not_null_strict(item) or is_aggregate_call(item) and having is None:
        return None
    calls = []
    template = _split(sb, item, calls)
    if having is not None:      # its one group kept or not: over the join, where no inner row is the empty group
        template = exp.Case(ifs=[exp.If(this=_split(sb, having.this, calls), true=template)])
    return EmptyGroupValue(template, calls)


def _split(sb, tree, calls):
    """`tree` (a copy) with its aggregate calls replaced by columns `$aN`, added to `calls`."""
    template = tree.copy()
    for call in [n for n in template.walk() if is_aggregate_call(n) and not _under_call(n, template)]:
        name = sb.ctx.fresh("$a")
        calls.append((name, call.copy()))
        col = exp.column(name, quoted=True)
        col.meta["empty_group"] = True
        if call is template:
            template = col
        else:
            call.replace(col)
    return template


def _not_null_strict(item):
    """Whether `item` may be other than NULL when its aggregate calls are NULL, or holds a COUNT in an
    expression (0 over no rows)."""
    stack = [item]
    while stack:
        n = stack.pop()
        if is_aggregate_call(n):
            if _is_count(n):
                return True
            continue
        if isinstance(n, _NOT_NULL_STRICT):
            return True
        stack.extend(n.iter_expressions())
    return False


def _is_count(call):
    return (call.this if isinstance(call, exp.Filter) else call).key == "count"


def _under_call(n, root):
    p = n.parent
    while p is not None and n is not root:
        if is_aggregate_call(p):
            return True
        if p is root:
            return False
        p = p.parent
    return False
