"""Subqueries in HAVING and in the select list of a query that aggregates (`HAVING EXISTS (..)`,
`HAVING SUM(o.amount) > (SELECT COALESCE(MAX(x), 0) FROM t WHERE t.k = o.k)`, `.. IN (SELECT ..)`), planned over the aggregate as Flink plans them: the subqueries are
joined to the aggregate's rows as subqueries of WHERE are joined to the FROM's (subqueries.py: a LEFT join, the
correlated ones grouped by their keys, IN / EXISTS counted, a value that is not NULL over no rows computed above
the join, empty_group_value.py), then the condition filters the joined rows and the aggregate's fields go on.

The subqueries see the aggregate's row: the outer block's GROUP BY columns (a correlation names them, as in
Flink, where a column that is not grouped is an error), and the HAVING's aggregate calls and grouped expressions,
which are first replaced by columns of the aggregate (`$hN`) so that an IN's operand can be one."""

import re

from sqlglot import exp

from ..errors import SqlError
from ..expr.bound import Expr
from ..plan.calc import Calc
from .expressions import ExpressionBinder, field_ref
from .scope import Scope, ScopeEntry
from .subqueries import has_subquery


def bind_having(sb, node, scope, condition, replace):
    """The HAVING `condition` (with subqueries) over aggregate `node`: -> a node with `node`'s fields holding the
    rows that meet it. `scope`: the FROM's names; `replace`: the subtrees the aggregate's fields compute."""
    joined, post, (tree,) = join_over_aggregate(sb, node, scope, [condition], replace, in_where=True)
    cond = ExpressionBinder(sb.ctx, post).bind(tree)
    if cond.type is not None and cond.type.name not in ("BOOLEAN", "NULL"):
        raise SqlError("HAVING condition must be a boolean, not %s" % cond.type.text(), *sb.ctx.pos(condition))
    return Calc(joined, [(Expr.of_field(joined.field(f.name)), f.name) for f in node.fields], cond,
                position=sb.ctx.pos(condition))


def bind_items(sb, node, scope, items, replace):
    """Select items [(ast, name)] of a query that aggregates, some with subqueries, over aggregate `node`: -> (the
    node with the subqueries joined, the items with those resolved over it, marked `over_aggregate` for
    swap_computed to keep)."""
    with_subqueries = [e for e, _ in items if has_subquery(e)]
    joined, post, trees = join_over_aggregate(sb, node, scope, with_subqueries, replace)
    trees = iter(trees)
    out = []
    for e, name in items:
        if has_subquery(e):
            e = ExpressionBinder(sb.ctx, post, allow_calls=True).resolve(next(trees))
            for col in e.find_all(exp.Column):
                if "field" in col.meta:
                    col.meta["over_aggregate"] = True
        out.append((e, name))
    return joined, out


def join_over_aggregate(sb, node, scope, trees, replace, in_where=False):
    """The subqueries of `trees` joined to aggregate `node` -> (joined node, the scope over it, the trees with their
    aggregate calls, grouped expressions and subqueries replaced by columns of that scope)."""
    from .subqueries import _scalars
    ctx = sb.ctx
    entries = []
    for e in scope.entries:
        f = replace.get(field_ref(e.field))
        if f is not None:
            entries.append(ScopeEntry(e.qualifier, e.name, f))
    computed = {}                       # $hN -> the aggregate's field
    trees = [_computed_replaced(sb, t.copy(), scope, replace, computed) for t in trees]
    post = Scope(entries + [ScopeEntry(None, name, f) for name, f in computed.items()])
    out = []
    for tree in trees:
        try:
            node, post, tree = _scalars(sb, node, post, tree, in_where=in_where)
        except SqlError as error:
            raise _not_grouped(error, scope) or error
        out.append(tree)
    return node, post, out


def _computed_replaced(sb, tree, scope, replace, computed):
    """`tree` with the subtrees outside its subqueries that the aggregate computes replaced by columns `$hN`
    (added to `computed`); a column left over that the FROM has is not grouped: an error."""
    ctx = sb.ctx
    inside = [n for sub in _outermost_subqueries(tree) for n in _outer_only(sub, scope)]
    for n in _outside_subqueries(tree) + inside:
        if has_subquery(n) or isinstance(n, exp.Column) and (n is tree or n in inside) or not _still_in(n, tree):
            continue
        try:
            r = ExpressionBinder(ctx, scope, allow_calls=True).resolve(n)
        except SqlError:
            continue
        f = replace.get(r)
        if f is None:
            continue
        name = ctx.fresh("$h")
        computed[name] = f
        col = exp.column(name, quoted=True)
        col.meta["position"] = ctx.pos(n)
        if n is tree:
            tree = col
        else:
            n.replace(col)
    for col in [c for c in _outside_subqueries(tree) if isinstance(c, exp.Column) and c.name not in computed
                and "field" not in c.meta and not isinstance(c.this, exp.Star)]:
        try:
            ExpressionBinder(ctx, scope).resolve(col)
        except SqlError:
            continue                    # unknown: the binding names it
        raise SqlError("Expression '%s' is not being grouped" % col.sql(dialect="spark").replace("`", ""),
                       *ctx.pos(col), hint="add it to GROUP BY or aggregate it")
    return tree


def _outermost_subqueries(tree):
    return [n for n in tree.walk() if isinstance(n, exp.Select) and not any(
        isinstance(p, exp.Select) for p in _parents(n, tree))]


def _parents(n, root):
    while n is not root and n.parent is not None:
        n = n.parent
        yield n


def _outer_only(sub, scope):
    """The subtrees of subquery `sub`, outermost first, whose columns all name a table of the outer block that the
    subquery does not name itself (`UPPER(o.cust)`: a grouped expression of the outer block, read as its column)."""
    own = {t.alias_or_name for t in sub.find_all(exp.Table, exp.Subquery)} - {None, ""}
    outer = set(scope.qualifiers) - own
    out = []
    for n in sub.walk():
        cols = list(n.find_all(exp.Column)) if not isinstance(n, exp.Select) else []
        if cols and all(c.table in outer for c in cols) and not any(isinstance(x, exp.Select) for x in n.walk()):
            out.append(n)
    return out


def _not_grouped(error, scope):
    """A subquery's column of the outer block that is there but not grouped (`Column 'amount' not found in table
    'o'`, or `Table 'o' not found`: the aggregate's row has no such column): Flink's words for it, at the column."""
    m = re.match(r"Table '([^']*)' not found$", error.message)
    if m is not None and m.group(1) in scope.qualifiers:        # (none of its columns is grouped)
        return SqlError("A column of table '%s' is not being grouped" % m.group(1), error.line, error.column,
                        hint="add it to GROUP BY or aggregate it")
    m = re.match(r"Column '([^']*)' not found in (?:table '([^']*)'|any table)$", error.message)
    if m is None:
        return None
    parts = ([m.group(2)] if m.group(2) else []) + [m.group(1)]
    try:
        scope.resolve(parts, (None, None))
    except SqlError:
        return None
    return SqlError("Expression '%s' is not being grouped" % ".".join(parts), error.line, error.column,
                    hint="add it to GROUP BY or aggregate it")


def _outside_subqueries(tree):
    """The nodes of `tree`, outermost first, not those inside a subquery (nor an IN's subquery)."""
    out, stack = [], [tree]
    while stack:
        n = stack.pop()
        if isinstance(n, (exp.Subquery, exp.Select)):
            continue
        out.append(n)
        stack.extend(reversed(list(n.iter_expressions())))
    return out


def _still_in(n, tree):
    """Whether `n` is still in `tree` (not under a node replaced already)."""
    while n.parent is not None:
        n = n.parent
    return n is tree
