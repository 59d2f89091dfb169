"""IN and EXISTS where a semi join cannot take them (under OR, under NOT with other terms, in the select list),
as scalar subqueries that count, which subqueries.py joins as it joins any scalar subquery (a LEFT join, the
correlated ones grouped by their keys). Flink plans these as mark joins; the values are the same:

- `EXISTS (q)` is `COALESCE((SELECT COUNT(*) FROM .. WHERE ..), 0) > 0`: TRUE or FALSE, never NULL;
- in streaming mode an uncorrelated IN's count of all rows is an INNER join, as Flink's plan joins it (a
  streaming aggregate over no rows emits nothing: over an empty subquery the query gives no row at all);
- `x IN (SELECT y FROM .. WHERE ..)` is SQL's three-valued IN: TRUE when a row has `y = x`; else FALSE when
  the subquery has no row; else NULL when `x` is NULL or a `y` is NULL; else FALSE. A correlated one is NULL
  for a NULL `x` even when the subquery has no row for its outer row, as Flink 2.3 gives (Calcite's plan
  LEFT joins the counts grouped by the correlation, and a missing group's count is NULL, not 0). As a
  condition of WHERE that no NOT turns (`.. OR x IN (..)`), NULL and FALSE both drop the row: the first count
  alone decides.

A subquery that groups, is DISTINCT, has a LIMIT or is no plain SELECT is counted from outside,
`(SELECT COUNT(*) FROM (q) AS $in($v) WHERE $v = x)`, which needs it uncorrelated (as Flink's decorrelator
does not, dynsql refuses a correlation there with its usual message)."""

from sqlglot import exp

from ..errors import SqlError, UnsupportedError


def _is_predicate(node):
    return isinstance(node, exp.Exists) or isinstance(node, exp.In) and node.args.get("query") is not None


def as_counts(tree, outer, in_where, sb):
    """`tree` (a copy the caller owns) with each IN / EXISTS subquery replaced by its counting form (`sb`: the
    SelectBinder of the block, which binds an IN subquery's FROM to expand its `*`)."""
    for pred in [n for n in tree.walk() if _is_predicate(n)]:
        if any(isinstance(p, (exp.Subquery, exp.Exists)) or _is_predicate(p) for p in _above(pred, tree)):
            continue                          # inside another subquery: that one's binding rewrites it
        decides_alone = in_where and all(isinstance(p, (exp.And, exp.Or, exp.Paren)) for p in _above(pred, tree))
        from .derived_correlation import hoisted      # a derived table's correlation moved to the query's WHERE
        q = _query(pred)
        moved = hoisted(sb, q, outer)
        if moved is not q:
            q.replace(moved)
        if not _plain(_query(pred)):
            _refuse_correlated(_query(pred), outer, sb)
        counted = _exists(pred) if isinstance(pred, exp.Exists) else _in(pred, outer, decides_alone, sb)
        if pred is tree:
            tree = counted
        else:
            pred.replace(counted)
    return tree


def _above(node, root):
    p = node.parent
    while p is not None and node is not root:
        yield p
        if p is root:
            return
        p = p.parent


def _query(pred):
    q = pred.this if isinstance(pred, exp.Exists) else pred.args["query"]
    while isinstance(q, exp.Subquery):
        q = q.this
    return q


def _plain(q):
    """Whether conditions can be added to `q`'s WHERE and its select list replaced by a COUNT."""
    if not isinstance(q, exp.Select):
        return False
    if any(q.args.get(a) is not None for a in ("group", "having", "distinct", "limit", "offset", "qualify")):
        return False
    from .subqueries import _aggregates
    return not _aggregates(q)


def _count(q, *conditions):
    """`COALESCE((SELECT COUNT(*) FROM <q's FROM> WHERE <q's WHERE> AND conditions), 0)` (q plain)."""
    q = q.copy()
    q.set("expressions", [exp.Count(this=exp.Star())])
    q.set("order", None)
    where = q.args.get("where")
    parts = ([where.this] if where is not None else []) + list(conditions)
    if parts:
        cond = parts[0]
        for c in parts[1:]:
            cond = exp.And(this=exp.Paren(this=cond) if isinstance(cond, exp.Or) else cond,
                           expression=exp.Paren(this=c) if isinstance(c, exp.Or) else c)
        q.set("where", exp.Where(this=cond))
    return exp.Coalesce(this=exp.Subquery(this=q), expressions=[exp.Literal.number(0)])


def _wrapped(q, *conditions):
    """`q` counted from outside: `SELECT * FROM (q) AS $in($v) WHERE conditions` (its value named `$v`)."""
    alias = exp.TableAlias(this=exp.to_identifier("$in", quoted=True),
                           columns=[exp.to_identifier("$v", quoted=True)])
    outer = exp.Select(expressions=[exp.Star()]).from_(exp.Subquery(this=q.copy(), alias=alias))
    return _count(outer, *conditions)


def _value():
    return exp.column("$v", table="$in", quoted=True)


def _positive(count):
    return exp.GT(this=count, expression=exp.Literal.number(0))


def _exists(pred):
    q = _query(pred)
    if _plain(q):
        return exp.Paren(this=_positive(_count(q)))
    outer = exp.Select(expressions=[exp.Star()]).from_(exp.Subquery(
        this=q.copy(), alias=exp.TableAlias(this=exp.to_identifier("$ex", quoted=True))))
    return exp.Paren(this=_positive(_count(outer)))


def _in(pred, outer, decides_alone, sb):
    q = _star_expanded(_query(pred), outer, sb)
    correlated = _outer_column(q, outer, sb) is not None
    x = _qualified(pred.this, outer)
    if isinstance(q, exp.Select) and len(q.expressions) != 1 and not any(isinstance(e, exp.Star)
                                                                          for e in q.expressions):
        raise SqlError("The subquery of IN must return one column, not %d" % len(q.expressions))
    if _plain(q) and not isinstance(q.expressions[0], exp.Star):
        q = _unshadowed(q, {c.table for c in x.find_all(exp.Column) if c.table})
        y = q.expressions[0].unalias()
        match = _count(q, exp.EQ(this=y.copy(), expression=x.copy()))
        every = _count(q)
        nulls = _count(q, exp.Is(this=y.copy(), expression=exp.Null()))
    else:
        match = _wrapped(q, exp.EQ(this=_value(), expression=x.copy()))
        every = _wrapped(q)
        nulls = _wrapped(q, exp.Is(this=_value(), expression=exp.Null()))
    counts_joined = not correlated and not sb.ctx.batch
    if counts_joined:
        # Flink's streaming plan inner-joins an uncorrelated IN's counts (Calcite's COUNT(*), COUNT(y) of the
        # subquery, no GROUP BY), even where the first count would decide alone: a streaming aggregate over no
        # rows emits nothing, so an empty subquery leaves no outer row at all (batch's emits its row)
        every.this.meta["inner_join"] = True
    if decides_alone and not counts_joined:
        return exp.Paren(this=_positive(match))
    unknown = exp.Cast(this=exp.Null(), to=exp.DataType.build("BOOLEAN"))
    empty = exp.If(this=exp.EQ(this=every, expression=exp.Literal.number(0)), true=exp.false())
    null_value = exp.If(this=exp.Is(this=x.copy(), expression=exp.Null()), true=unknown)
    return exp.Case(ifs=[
        exp.If(this=_positive(match), true=exp.true()),
        *([null_value, empty] if correlated else [empty, null_value]),
        exp.If(this=_positive(nulls), true=unknown.copy()),
    ], default=exp.false())


def _refuse_correlated(q, outer, sb):
    """A subquery counted from outside (not plain) that names a column of the outer block: refused in words."""
    col = _outer_column(q, outer, sb)
    if col is not None:
        what = next((a.upper() for a in ("group", "having", "distinct", "limit", "offset", "qualify")
                     if q.args.get(a) is not None), None)
        raise UnsupportedError("A correlated IN or EXISTS subquery %s is not supported yet here (under OR or NOT, "
                               "in the select list)" % ("with " + what if what else "that aggregates"),
                               *sb.ctx.pos(col))


def _outer_column(q, outer, sb):
    """The first column of subquery `q` (not of a subquery nested in it) that names the outer block, or None."""
    if not isinstance(q, exp.Select):
        return None
    from .subqueries import _columns, _side, bind_inner
    _, inner = bind_inner(sb, q, outer)
    return next((col for col in _columns(q) if _side(col, inner, outer, sb.ctx) == "outer"), None)


def _star_expanded(q, outer, sb):
    """A plain subquery `SELECT * FROM ..` with its `*` replaced by the column of its FROM (counted from outside,
    a correlated one could not be)."""
    if not (_plain(q) and len(q.expressions) == 1 and isinstance(q.expressions[0], exp.Star)):
        return q
    from .subqueries import bind_inner
    _, inner = bind_inner(sb, q, outer)
    if len(inner.entries) != 1:
        raise SqlError("The subquery of IN must return one column, not %d" % len(inner.entries),
                       *sb.ctx.pos(q))
    x = inner.entries[0]
    q = q.copy()
    q.set("expressions", [exp.column(x.name, table=x.qualifier, quoted=True) if x.qualifier is not None
                          else exp.column(x.name, quoted=True)])
    return q


def _qualified(x, outer):
    """The IN operand with its columns named by their table in the outer block, so that the subquery's own
    columns of the same name do not take their place once the operand is inside it."""
    x = x.copy()
    for col in list(x.find_all(exp.Column)):
        if col.table or isinstance(col.this, exp.Star):
            continue
        try:
            entry, _ = outer.resolve([col.name], (None, None))
        except SqlError:
            continue
        if entry.qualifier is not None:
            col.set("table", exp.to_identifier(entry.qualifier, quoted=True))
    return x


def _unshadowed(q, qualifiers):
    """`q` (a copy when changed) with each table of its FROM whose name or alias is one of `qualifiers` (the
    outer block's, which the IN operand names its columns by) under an alias of its own, its columns renamed
    with it: `x IN (SELECT user FROM clicks ..)` over `clicks` would otherwise compare `clicks.user` with
    itself inside the subquery."""
    tables = [t for t in q.find_all(exp.Table) if t.parent_select is q and t.alias_or_name in qualifiers]
    if not tables:
        return q
    q = q.copy()
    for n, table in enumerate(t for t in q.find_all(exp.Table)
                              if t.parent_select is q and t.alias_or_name in qualifiers):
        old, new = table.alias_or_name, "$inner%d" % n
        table.set("alias", exp.TableAlias(this=exp.to_identifier(new, quoted=True)))
        for col in q.find_all(exp.Column):
            if col.table == old:
                col.set("table", exp.to_identifier(new, quoted=True))
    return q
