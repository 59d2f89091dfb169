"""`LATERAL (SELECT ...)` in FROM: a derived table that names the FROM items before it (the outer row) in its WHERE.

    SELECT * FROM t1, LATERAL (SELECT COUNT(*) AS c FROM t2 WHERE t2.k = t1.k)

Calcite's decorrelator (RelDecorrelator, as Flink 2.3 plans a LogicalCorrelate) pulls the correlated conditions out
of the derived table into the join; so does this, as derived_correlation.py does for a subquery's FROM: each WHERE
conjunct naming an outer column moves to the join's ON, the derived table giving what it reads of its own rows as
extra columns (`t2.k AS $cN`, read as `x.$cN`, hidden from the query's `*`):

    SELECT * FROM t1 JOIN (SELECT COUNT(*) AS c, t2.k AS $c1 FROM t2 GROUP BY t2.k) x ON x.$c1 = t1.k

A derived table that aggregates or is DISTINCT keeps its groups when every correlated conjunct is an equality of
its own expression and the outer row's (the expression becomes a group key / part of the distinct row: a single
value per outer row); one that aggregates without GROUP BY is grouped by it, so an outer row without inner rows
meets no row of it: Flink 2.3 gives no row for it (no COUNT of 0) in a comma / CROSS / INNER join. What this cannot
plan is planned per distinct outer value (lateral_by_outer_values.py): an outer column outside the WHERE, another
condition beside an aggregate or DISTINCT, a LEFT JOIN LATERAL that aggregates without GROUP BY. Refused in words:
LIMIT / ORDER BY / OVER windows / a set operation that names the outer row, a table of the outer row named in the
derived table's FROM (a join's ON), RIGHT / FULL JOIN LATERAL."""

import re

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..expr.conditions import conjuncts
from .scalar_by_outer_values import nested_outer_columns


def bind_lateral_derived(binder, lateral, left, lscope, join, select):
    """`[kind] JOIN LATERAL (query) [AS x] [ON ..]` after the FROM items bound as (left, lscope)."""
    from .relations import bind_join
    derived = exp.Subquery(this=lateral.this.this.copy(), alias=lateral.args.get("alias"))
    plain = join.copy()
    plain.set("this", derived)
    rewritten, hidden = _decorrelated(binder, derived, left, lscope, plain)
    if not isinstance(rewritten, exp.Join):     # (node, scope): planned per outer value
        return rewritten
    node, scope = bind_join(binder, left, lscope, rewritten, select)
    if hidden:
        from .scope import Scope
        alias = rewritten.this.alias_or_name
        scope = Scope([e for e in scope.entries if not (e.qualifier == alias and e.name in hidden)])
    return node, scope


def _decorrelated(binder, derived, left, lscope, join):
    """(the join with its derived table decorrelated, the names of the columns added to it); the join as it is,
    with no names, where the derived table names nothing of the outer row; ((node, scope), None) where it is planned
    per distinct outer value (lateral_by_outer_values.py)."""
    from .relations import bind_from
    from .subqueries import _aggregates, _columns, _side
    ctx = binder.ctx
    query = derived.this
    if not isinstance(query, exp.Select):
        _refuse_outer_names(binder, query, lscope)
        return join, []
    try:
        _, inner = bind_from(binder, query)
    except SqlError as error:       # the derived table's own error, when the join binds it
        m = re.match(r"Table '(.*)' not found$", error.message)
        if m is not None and m.group(1) in lscope.qualifiers:   # (a join's ON or a derived table naming it)
            raise UnsupportedError("The LATERAL derived table refers to table '%s' of the FROM items before it in its "
                                   "FROM: not supported" % m.group(1), error.line, error.column,
                                   hint="name the outer row's columns in the WHERE of the derived table")
        return join, []
    where = query.args.get("where")
    correlated, kept = [], []
    for c in conjuncts(where.this) if where is not None else []:
        (correlated if any(_side(col, inner, lscope, ctx) == "outer" for col in _columns(c)) else kept).append(c)
    elsewhere = []                  # its outer columns outside the WHERE (the select list, HAVING, a join's ON)
    for part in [e for k, e in query.args.items() if k not in ("where", "from_") and e is not None]:
        for node in part if isinstance(part, list) else [part]:
            elsewhere += [col for col in _columns(node) if _side(col, inner, lscope, ctx) == "outer"]
            elsewhere += nested_outer_columns(node, inner, lscope)
    if not correlated and not elsewhere:
        return join, []
    where_first = ctx.pos(correlated[0] if correlated else elsewhere[0])
    clause = next((a for a in ("limit", "offset", "order", "qualify") if query.args.get(a) is not None), None)
    if clause is not None:
        raise UnsupportedError("A LATERAL derived table with %s that refers to the FROM items before it is not "
                               "supported" % ("ORDER BY" if clause == "order" else clause.upper()), *where_first)
    if any(isinstance(n, exp.Window) for e in query.expressions for n in e.walk()):
        raise UnsupportedError("A LATERAL derived table with OVER windows that refers to the FROM items before it "
                               "is not supported", *where_first)
    grouped = query.args.get("group") is not None
    aggregates = grouped or _aggregates(query) or query.args.get("having") is not None
    distinct = query.args.get("distinct") is not None
    side = (join.args.get("side") or "").upper()
    if side not in ("", "LEFT"):
        raise UnsupportedError("%s JOIN LATERAL is not supported" % side, *where_first)
    alias = derived.alias_or_name
    if not alias:
        alias = ctx.fresh("$lateral")
        derived.set("alias", exp.TableAlias(this=exp.to_identifier(alias, quoted=True)))
    if elsewhere or side and aggregates and not grouped or (aggregates or distinct) and any(
            _equality_sides(c, inner, lscope, ctx) is None for c in correlated):
        from .lateral_by_outer_values import bind_by_outer_values
        return bind_by_outer_values(binder, derived, left, lscope, join, correlated, kept, aggregates), None
    added, moved = [], []
    for original in correlated:
        c = original.copy()
        pair = _equality_sides(c, inner, lscope, ctx)
        # (an equality's own side whole, so that `t2.k * t2.k = t1.k` groups by one value per outer row)
        targets = [pair[0]] if pair is not None else \
            [col for col in _columns(c) if _side(col, inner, lscope, ctx) == "inner"]
        for target in targets:
            name = ctx.fresh("$c")
            added.append((target.copy(), name))
            target.replace(exp.column(name, table=alias, quoted=True))
        moved.append(c)
    query.set("where", exp.Where(this=_and(kept)) if kept else None)
    query.set("expressions", list(query.expressions) + [exp.alias_(e, n, quoted=True) for e, n in added])
    if aggregates:
        keys = list(query.args["group"].expressions) if query.args.get("group") is not None else []
        query.set("group", exp.Group(expressions=keys + [e.copy() for e, _ in added]))
    columns = derived.args["alias"].columns if derived.args.get("alias") is not None else None
    if columns:
        derived.args["alias"].set("columns", list(columns) + [exp.to_identifier(n, quoted=True) for _, n in added])
    on = join.args.get("on")
    join.set("on", _and(([on] if on is not None else []) + moved))
    if not side and (join.args.get("kind") or "").upper() == "CROSS":
        join.set("kind", None)
    return join, {n for _, n in added}


def _equality_sides(c, inner, outer, ctx):
    """(the derived table's side, the outer row's side) of an equality conjunct whose sides name only one of
    them each, or None."""
    from .subqueries import _columns, _side
    while isinstance(c, exp.Paren):
        c = c.this
    if not isinstance(c, exp.EQ):
        return None
    sides = [{_side(col, inner, outer, ctx) for col in _columns(x)} for x in (c.this, c.expression)]
    if sides == [{"inner"}, {"outer"}]:
        return c.this, c.expression
    if sides == [{"outer"}, {"inner"}]:
        return c.expression, c.this
    return None


def _refuse_outer_names(binder, query, lscope):
    """A set operation inside LATERAL (...) naming the outer row in a WHERE of its SELECTs: refused in words."""
    from .derived_correlation import _refuse_outer
    from .lateral_by_outer_values import _Sb
    try:
        _refuse_outer(_Sb(binder), query, lscope, "a set operation")
    except UnsupportedError as e:
        e.message = e.message.replace("A derived table with a set operation in a subquery's FROM",
                                      "A LATERAL derived table with a set operation")
        raise


def _and(parts):
    tree = parts[0]
    for p in parts[1:]:
        tree = exp.And(this=exp.Paren(this=tree) if isinstance(tree, exp.Or) else tree,
                       expression=exp.Paren(this=p) if isinstance(p, exp.Or) else p)
    return tree
