"""Subqueries in a join's ON (`FROM orders o JOIN items i ON o.id = i.oid AND i.c > (SELECT MIN(c) FROM items)`):

- an inner join's conjunct holding a subquery moves to the block's WHERE (the same rows), where subqueries.py
  joins it;
- a LEFT JOIN's conjunct holding a subquery that names only the joined (right) table filters that table before
  the join, `LEFT JOIN (SELECT * FROM items i WHERE i.c > (..)) AS i ON o.id = i.oid` (the same rows: a right
  row that fails it meets no left row);

IN and EXISTS there are refused in words (Flink 2.3's planner fails on them with a NullPointerException), and so
are other places (a conjunct naming the left side of a LEFT JOIN, RIGHT and FULL joins, an inner join followed
by a RIGHT or FULL join, which would filter out the rows that join keeps)."""

from sqlglot import exp

from ..errors import UnsupportedError
from ..expr.conditions import conjuncts
from .subqueries import _and, has_subquery, is_predicate


def on_conditions_moved(sel, ctx):
    """`sel` (a copy where changed) with the ON conjuncts that hold subqueries moved as the module says."""
    if not any(has_subquery(j.args.get("on")) for j in sel.args.get("joins") or []):
        return sel
    sel = sel.copy()
    moved = []
    joins = sel.args["joins"]
    for n, j in enumerate(joins):
        on = j.args.get("on")
        if not has_subquery(on):
            continue
        predicate = next((x for x in on.walk() if is_predicate(x)), None)
        if predicate is not None:
            raise UnsupportedError("IN or EXISTS with a subquery in a join's ON is not supported (Flink 2.3 fails "
                                   "to plan it too)", *ctx.pos(predicate), hint="move it to the WHERE")
        parts = conjuncts(on)
        kept = [c for c in parts if not has_subquery(c)]
        with_subqueries = [c for c in parts if has_subquery(c)]
        later = next((k for k in joins[n + 1:] if (k.side or "").upper() in ("RIGHT", "FULL")), None)
        kind = (j.side or j.kind or "INNER").upper()
        if kind == "LEFT" and later is None:
            _right_filtered(j, with_subqueries, _left_names(sel, n), ctx)
        elif kind == "INNER" and later is None:
            moved += with_subqueries
        else:
            raise UnsupportedError("A subquery in the ON of a %s is not supported"
                                   % ("join followed by a %s JOIN" % later.side.upper() if later is not None else
                                      "%s JOIN" % kind), *ctx.pos(_first_subquery(on)),
                                   hint="an INNER JOIN's ON or the WHERE can hold it")
        j.set("on", _and(kept) if kept else exp.true())
    if moved:
        where = sel.args.get("where")
        parts = ([where.this] if where is not None else []) + moved
        sel.set("where", exp.Where(this=_and([exp.Paren(this=c) if isinstance(c, exp.Or) else c for c in parts])))
    return sel


def _right_filtered(join, conditions, left_names, ctx):
    """LEFT JOIN `join`'s right table replaced by itself filtered on `conditions`, which must not name the left."""
    right = join.this
    name = right.alias_or_name
    if not isinstance(right, (exp.Table, exp.Subquery)) or right.args.get("version") is not None or not name:
        raise UnsupportedError("A subquery in the ON of a LEFT JOIN is supported where a table or a named subquery "
                               "is joined", *ctx.pos(_first_subquery(conditions[0])))
    for c in conditions:
        inside = {t.alias_or_name for t in c.find_all(exp.Table)}     # (the subqueries' own tables)
        for col in c.find_all(exp.Column):
            if col.table and col.table in left_names - inside:
                raise UnsupportedError("A subquery in the ON of a LEFT JOIN is supported where the condition names "
                                       "the joined table's columns only, not '%s'" % col.sql(), *ctx.pos(col),
                                       hint="an INNER JOIN's ON or the WHERE can hold it")
    body = exp.Select(expressions=[exp.Star()]).from_(right.copy())
    body.set("where", exp.Where(this=_and(conditions)))
    join.set("this", exp.Subquery(this=body, alias=exp.TableAlias(this=exp.to_identifier(name, quoted=True))))


def _left_names(sel, n):
    """The table names and aliases of the FROM items before join `n`."""
    items = [sel.args["from_"].this] + [j.this for j in sel.args["joins"][:n]]
    return {t.alias_or_name for t in items}


def _first_subquery(tree):
    return next(n for n in tree.walk() if isinstance(n, exp.Subquery) or is_predicate(n))
