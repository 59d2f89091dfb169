"""A subquery whose FROM holds a derived table naming the outer query's table in its WHERE:

    (SELECT MAX(c) FROM (SELECT amount AS c FROM items i WHERE i.oid = o.id) s)

Calcite's decorrelator pulls the correlated condition out of the derived table; so does this: each WHERE
conjunct of the derived table naming an outer column moves to the enclosing subquery's WHERE, the derived
table's columns it reads added to its select list (`i.oid AS $cN`, read as `s.$cN`):

    (SELECT MAX(c) FROM (SELECT amount AS c, i.oid AS $c1 FROM items i) s WHERE s.$c1 = o.id)

which subqueries.py decorrelates as any subquery correlated in its WHERE. A derived table that groups or is
DISTINCT keeps its groups when the correlation is an equality (its column is added to GROUP BY / the distinct
row: a single value per outer row); one that aggregates without GROUP BY is grouped by it, so that an outer row
without inner rows meets no row of it (no COUNT of 0), which is what Flink 2.3 gives. Refused in words, naming
the place: an outer column elsewhere in the derived table (its select list, a join's ON), a condition other than
an equality beside an aggregate or DISTINCT, LIMIT / ORDER BY / a set operation in the derived table."""

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..expr.conditions import conjuncts


def hoisted(sb, query, outer):
    """Subquery `query` (a SELECT of the block whose scope is `outer`) with its derived tables' correlated WHERE
    conjuncts moved to its own WHERE; `query` itself when none has any."""
    if not isinstance(query, exp.Select):
        return query
    derived = [t for t in _from_items(query) if isinstance(t, exp.Subquery)]
    if not derived:
        return query
    query = query.copy()
    moved = []
    for table in [t for t in _from_items(query) if isinstance(t, exp.Subquery)]:
        moved += _hoist_from(sb, query, table, outer)
    if not moved:
        return query
    where = query.args.get("where")
    parts = ([where.this] if where is not None else []) + moved
    cond = parts[0]
    for p in parts[1:]:
        cond = exp.And(this=_paren(cond), expression=_paren(p))
    query.set("where", exp.Where(this=cond))
    return query


def _paren(c):
    return exp.Paren(this=c) if isinstance(c, exp.Or) else c


def _from_items(query):
    items = []
    if query.args.get("from_") is not None:
        items.append(query.args["from_"].this)
    items += [j.this for j in query.args.get("joins") or []]
    return items


def _hoist_from(sb, query, table, outer):
    """The correlated conjuncts of derived table `table` (a Subquery in `query`'s FROM, changed in place), their
    derived-table columns read through the table's alias."""
    from .relations import bind_from
    from .subqueries import _columns, _side
    inner_query = table.this
    if not isinstance(inner_query, exp.Select):
        _refuse_outer(sb, inner_query, outer, "a set operation")
        return []
    try:
        _, inner = bind_from(sb.binder, inner_query)
    except SqlError:
        return []                   # its own error (or a deeper correlation: refused by bind_inner's words)
    where = inner_query.args.get("where")
    correlated, kept = [], []
    for c in conjuncts(where.this) if where is not None else []:
        if any(_side(col, inner, outer, sb.ctx) == "outer" for col in _columns(c)):
            correlated.append(c)
        else:
            kept.append(c)
    alias = table.alias_or_name
    outer_items = [e for e in inner_query.expressions
                   if any(_side(col, inner, outer, sb.ctx) == "outer" for col in _columns(e))]
    if (correlated or outer_items) and not alias:
        alias = sb.ctx.fresh("$dt")
        table.set("alias", exp.TableAlias(this=exp.to_identifier(alias, quoted=True)))
    for e in [j.args.get("on") for j in inner_query.args.get("joins") or []]:
        for col in _columns(e) if e is not None else []:
            if _side(col, inner, outer, sb.ctx) == "outer":
                raise UnsupportedError("The derived table '%s' in the subquery's FROM refers to '%s' of the outer "
                                       "query in a join's ON: not supported" % (alias, ".".join(_parts(col))),
                                       *sb.ctx.pos(col), hint="name the outer query's columns in the WHERE of "
                                                              "the derived table")
    if outer_items:
        _pull_outer_items(sb, query, table, alias, inner, outer, outer_items)
    if not correlated:
        return []
    clause = next((a for a in ("limit", "offset", "order", "qualify") if inner_query.args.get(a) is not None), None)
    if clause is not None:
        raise UnsupportedError("A derived table with %s in a subquery's FROM refers to the outer query: not "
                               "supported" % ("ORDER BY" if clause == "order" else clause.upper()),
                               *sb.ctx.pos(correlated[0]))
    from .subqueries import _aggregates
    grouped = inner_query.args.get("group") is not None
    distinct = inner_query.args.get("distinct") is not None
    aggregates = grouped or _aggregates(inner_query) or inner_query.args.get("having") is not None
    if any(isinstance(n, exp.Window) for e in inner_query.expressions for n in e.walk()):
        raise UnsupportedError("A derived table with OVER windows in a subquery's FROM refers to the outer query: "
                               "not supported", *sb.ctx.pos(correlated[0]))
    if (aggregates or distinct) and not all(_equality(c, inner, outer, sb) for c in correlated):
        raise UnsupportedError("A derived table %s in a subquery's FROM refers to the outer query by a "
                               "condition other than an equality: not supported"
                               % ("that aggregates" if aggregates else "with DISTINCT"), *sb.ctx.pos(correlated[0]))
    if any(isinstance(e, exp.Star) or isinstance(e, exp.Column) and isinstance(e.this, exp.Star)
           for e in query.expressions):
        inner_names = _output_names(inner_query, inner)
        if inner_names is None or len(_from_items(query)) > 1:
            raise UnsupportedError("SELECT * over a correlated derived table is not supported here",
                                   *sb.ctx.pos(query), hint="name the columns")
        query.set("expressions", [exp.column(n, table=alias, quoted=True) for n in inner_names])
    added, moved, group_extra = [], [], []
    for c in correlated:
        c = c.copy()
        for col in _columns(c):
            if _side(col, inner, outer, sb.ctx) != "inner":
                continue
            name = sb.ctx.fresh("$c")
            added.append(exp.alias_(col.copy(), name, quoted=True))
            group_extra.append(col.copy())
            col.replace(exp.column(name, table=alias, quoted=True))
        moved.append(c)
    inner_query.set("where", exp.Where(this=_and(kept)) if kept else None)
    inner_query.set("expressions", list(inner_query.expressions) + added)
    if aggregates:      # (an aggregate without GROUP BY: one group per outer value, none without rows, as in Flink)
        keys = list(inner_query.args["group"].expressions) if grouped else []
        inner_query.set("group", exp.Group(expressions=keys + group_extra))
    return moved


def _pull_outer_items(sb, query, table, alias, inner, outer, items):
    """The select items of derived table `table` (of `query`) that name the outer row, pulled up into `query`, as
    Calcite's decorrelator pulls a Project holding correlation variables above its input: the derived table gives
    the inner columns they read (`c.v AS $cN`), and `query` reads `s.x` as the item's expression over them
    (`(s.$cN + o.amount)`), an outer column of `query` like any other (planned per outer value where it is in
    the select list: scalar_by_outer_values.py)."""
    from .subqueries import _aggregates, _columns, _side
    inner_query = table.this
    where = next((w for w in ("group", "having", "distinct", "qualify") if inner_query.args.get(w) is not None),
                 None)
    if where is not None or _aggregates(inner_query) or any(
            isinstance(n, exp.Window) for e in inner_query.expressions for n in e.walk()):
        col = next(c for e in items for c in _columns(e) if _side(c, inner, outer, sb.ctx) == "outer")
        raise UnsupportedError("The derived table '%s' in the subquery's FROM %s and refers to '%s' of the outer "
                               "query in its select list: not supported"
                               % (alias, "aggregates" if where != "distinct" else "is DISTINCT",
                                  ".".join(_parts(col))), *sb.ctx.pos(col))
    if any(isinstance(e, exp.Star) or isinstance(e, exp.Column) and isinstance(e.this, exp.Star)
           for e in query.expressions):
        raise UnsupportedError("SELECT * over a derived table that refers to the outer query in its select list is "
                               "not supported", *sb.ctx.pos(query), hint="name the columns")
    single = len(_from_items(query)) == 1
    pulled = {}                             # item name -> its expression over the derived table's columns
    added = []
    for e in items:
        body = (e.this if isinstance(e, exp.Alias) else e).copy()
        for col in _columns(body):
            if _side(col, inner, outer, sb.ctx) == "inner":
                name = sb.ctx.fresh("$c")
                added.append(exp.alias_(col.copy(), name, quoted=True))
                col.replace(exp.column(name, table=alias, quoted=True))
        pulled[e.alias_or_name] = body
    inner_query.set("expressions", [e for e in inner_query.expressions if not any(e is i for i in items)] + added)
    for col in [c for c in query.find_all(exp.Column) if not _in_from_item(c, query)]:
        if col.name in pulled and (col.table == alias or not col.table and single):
            col.replace(exp.Paren(this=pulled[col.name].copy()))


def _in_from_item(node, query):
    """Whether `node` is inside a FROM item (a derived table) of `query`."""
    items = [t for t in _from_items(query) if isinstance(t, exp.Subquery)]
    p = node.parent
    while p is not None and p is not query:
        if any(p is t for t in items):
            return True
        p = p.parent
    return False


def _equality(c, inner, outer, sb):
    from .subqueries import _columns, _side
    while isinstance(c, exp.Paren):
        c = c.this
    if not isinstance(c, exp.EQ):
        return False
    sides = [{_side(col, inner, outer, sb.ctx) for col in _columns(x)} for x in (c.this, c.expression)]
    return sorted(map(tuple, sides)) == [("inner",), ("outer",)]


def _output_names(inner_query, inner):
    """The column names of a derived table's select list, or None where one has none."""
    names = []
    for e in inner_query.expressions:
        if isinstance(e, exp.Star):
            names += [x.name for x in inner.entries]
        elif isinstance(e, exp.Column) and isinstance(e.this, exp.Star):
            names += [x.name for x in inner.columns(e.table)]
        elif isinstance(e, (exp.Alias, exp.Column)):
            names.append(e.alias_or_name)
        else:
            return None
    return names


def _refuse_outer(sb, q, outer, what):
    """`q` (not a SELECT) naming an outer column in a WHERE of its SELECTs: refused; else left to its binding."""
    from .relations import bind_from
    from .subqueries import _columns, _side
    for sel in q.find_all(exp.Select):
        if sel.args.get("where") is None:
            continue
        try:
            _, scope = bind_from(sb.binder, sel)
        except SqlError:
            continue
        for col in _columns(sel.args["where"].this):
            if _side(col, scope, outer, sb.ctx) == "outer":
                raise UnsupportedError("A derived table with %s in a subquery's FROM refers to '%s' of the outer "
                                       "query: not supported" % (what, ".".join(_parts(col))), *sb.ctx.pos(col))


def _parts(col):
    from .expressions import column_parts
    return column_parts(col) or [col.sql()]


def _and(parts):
    tree = parts[0]
    for p in parts[1:]:
        tree = exp.And(this=_paren(tree), expression=_paren(p))
    return tree
