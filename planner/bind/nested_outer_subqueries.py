"""A scalar subquery nested in a subquery's WHERE that names the query two levels out only (not the subquery
around it):

    SELECT id, (SELECT MAX(c) FROM items i WHERE i.oid = o.id
                AND i.c > (SELECT MIN(c) FROM items j WHERE j.cust = o.cust)) FROM orders o

Its value is one per outer row: it is joined to the outer query first (as any scalar subquery, subqueries.py), and
the subquery reads it as a column of the outer query (`i.c > $n1`), a correlation like any other. One naming
both the subquery around it and the query two levels out is refused in words (subqueries.py)."""

from sqlglot import exp

from ..errors import SqlError
from ..expr.conditions import conjuncts
from .scope import Scope, ScopeEntry


def hoist_nested(sb, node, scope, query, predicates=False):
    """Subquery `query` (of the block over `node`, `scope`) with each subquery of its WHERE that names only
    the outer block joined to `node` and replaced by a column `$nN` -> (node, the scope with those columns, the
    query)."""
    from .subqueries import _columns, _scalar_join, bind_inner
    if not isinstance(query, exp.Select) or query.args.get("where") is None:
        return node, scope, query
    try:
        _, mid = bind_inner(sb, query, scope)
    except SqlError:
        return node, scope, query
    query = query.copy()
    for c in conjuncts(query.args["where"].this):
        for sub in _outermost_scalars(c):
            try:
                _, own = bind_inner(sb, sub.this, mid)
            except SqlError:
                continue
            sides = {_side_of(col, own, mid, scope) for col in _columns(sub.this)}
            if "outer" not in sides or "mid" in sides:
                continue
            node, scope, field = _scalar_join(sb, node, scope, sub)
            name = sb.ctx.fresh("$n")
            scope = Scope(scope.entries + [ScopeEntry(None, name, field)])
            sub.replace(exp.column(name, quoted=True))
        for pred in _outermost_predicates(c) if predicates else []:
            inner_query = pred.this if isinstance(pred, exp.Exists) else pred.args["query"]
            while isinstance(inner_query, exp.Subquery):
                inner_query = inner_query.this
            try:
                _, own = bind_inner(sb, inner_query, mid)
            except SqlError:
                continue
            sides = {_side_of(col, own, mid, scope) for col in _columns(inner_query)}
            if isinstance(pred, exp.In):
                sides |= {_side_of(col, Scope([]), mid, scope) for col in _columns(pred.this)}
            if "outer" not in sides or "mid" in sides:
                continue
            node, scope, name = _as_outer_column(sb, node, scope, pred)
            pred.replace(exp.column(name, quoted=True))
    return node, scope, query


def _as_outer_column(sb, node, scope, pred):
    """IN / EXISTS predicate `pred`, naming the outer block only, computed as a column of `node` (its TRUE, FALSE
    or NULL per outer row, as in a select list: subquery_counts.py) -> (node, scope with it, its name)."""
    from .subqueries import _scalars
    from ..plan.calc import Calc
    from ..expr.bound import Expr
    from .expressions import ExpressionBinder
    node, scope, tree = _scalars(sb, node, scope, pred.copy())
    name = sb.ctx.fresh("$n")
    value = ExpressionBinder(sb.ctx, scope).bind(tree)
    node = Calc(node, [(Expr.of_field(f), f.name) for f in node.fields] + [(value, name)], position=sb.ctx.pos(pred))
    from .subqueries import _rescoped
    scope = _rescoped(scope, node)
    return node, Scope(scope.entries + [ScopeEntry(None, name, node.field(name))]), name


def _outermost_predicates(tree):
    """The IN and EXISTS subqueries of `tree` not inside another subquery."""
    from .subqueries import is_predicate
    out, stack = [], [tree]
    while stack:
        n = stack.pop()
        if is_predicate(n):
            out.append(n)
            continue
        if isinstance(n, (exp.Subquery, exp.Select)):
            continue
        stack.extend(n.iter_expressions())
    return out


def _outermost_scalars(tree):
    out, stack = [], [tree]
    while stack:
        n = stack.pop()
        if isinstance(n, exp.Subquery):
            if isinstance(n.this, exp.Select) and not isinstance(n.parent, (exp.In, exp.Exists)):
                out.append(n)
            continue
        if isinstance(n, exp.Select):
            continue
        stack.extend(n.iter_expressions())
    return out


def _side_of(col, own, mid, outer):
    from .expressions import column_parts
    parts = column_parts(col)
    if parts is None:
        return "own"
    for side, scope in (("own", own), ("mid", mid), ("outer", outer)):
        try:
            scope.resolve(parts, (None, None))
            return side
        except SqlError:
            continue
    return "own"
