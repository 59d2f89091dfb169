"""`SELECT DISTINCT k FROM t ORDER BY <expression>` where the expression is not a select-list column (a scalar
subquery, `k + 1`): Calcite accepts it where the expression reads only the select list's columns, sorting the
distinct rows; so does this, as a query over the distinct rows:

    SELECT k FROM (SELECT DISTINCT k FROM t) AS t ORDER BY <expression>

The derived table takes the FROM table's name, so that `t.k` in the expression (in a correlated subquery too)
reads the distinct row's `k`. A FROM column the select list renames (`SELECT DISTINCT k AS kk .. ORDER BY k + 1`,
or `t.k`) reads its output name, as Calcite orders by the grouped key the column is; an unqualified select-list
name is read first (Calcite's ORDER BY sees aliases first). A column not in the select list is then not found,
where Flink refuses it too.
Only for a FROM of one table and a select list of named columns; other queries keep the binder's refusal."""

from sqlglot import exp


def over_distinct_rows(sel):
    """`sel` (a SELECT DISTINCT with ORDER BY expressions beyond its select list's names) as a sort over its
    distinct rows, or None where it cannot be."""
    order = sel.args.get("order")
    if order is None or sel.args.get("joins") or sel.args.get("from_") is None \
            or not isinstance(sel.args["from_"].this, exp.Table) or sel.args["distinct"].args.get("on"):
        return None
    names, renamed = [], {}       # renamed: a FROM column `k` of `k AS kk` -> 'kk'
    for e in sel.expressions:
        if isinstance(e, exp.Alias) or isinstance(e, exp.Column) and not isinstance(e.this, exp.Star):
            names.append(e.alias_or_name)
            if isinstance(e, exp.Alias) and isinstance(e.this, exp.Column):
                renamed.setdefault(e.this.name, e.alias_or_name)
        else:
            return None
    if all(isinstance(o.this, exp.Literal) or isinstance(o.this, exp.Column) and not o.this.table
           and o.this.name in names for o in order.expressions):
        return None
    table = sel.args["from_"].this.alias_or_name
    order = order.copy()
    from .subqueries import _columns
    for c in [c for o in order.expressions for c in _columns(o.this)]:
        if c.name in names and (not c.table or c.name not in renamed):
            continue
        if c.name not in renamed or c.table not in ("", table):
            return None                 # (a column the distinct rows lack: the binder's words)
        c.replace(exp.column(renamed[c.name], table=c.table or None, quoted=True))
    inner = sel.copy()
    for arg in ("order", "limit", "offset"):
        inner.set(arg, None)
    outer = exp.Select(expressions=[exp.column(n, quoted=True) for n in names])
    outer.set("from_", exp.From(this=exp.Subquery(this=inner, alias=exp.TableAlias(
        this=exp.to_identifier(table, quoted=True)))))
    outer.set("order", order)
    for arg in ("limit", "offset"):
        if sel.args.get(arg) is not None:
            outer.set(arg, sel.args[arg].copy())
    return outer
