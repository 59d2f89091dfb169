"""Subqueries in a join's ON (`FROM orders o JOIN items i ON o.id = i.oid AND i.c > (SELECT MIN(c) FROM items)`):

- an inner join's conjunct holding a subquery moves to the block's WHERE (the same rows), where subqueries.py
  joins it, unless a RIGHT or FULL join follows (it would filter out the rows that join keeps);
- a LEFT JOIN's conjunct holding a subquery that names only the joined (right) table filters that table before
  the join, `LEFT JOIN (SELECT * FROM items i WHERE i.c > (..)) AS i ON o.id = i.oid` (the same rows: a right
  row that fails it meets no left row);
- elsewhere (a LEFT JOIN's conjunct naming its left side, RIGHT and FULL joins, an inner join before a RIGHT or
  FULL one) each subquery of the conjunct names the columns of one FROM item at most, and is computed as a
  column of that item, as Calcite's SubQueryRemoveRule.matchJoin computes it on the join's input whose fields
  it reads: `LEFT JOIN items i ON o.id = i.oid AND i.c > (SELECT MAX(c) FROM items j WHERE j.oid = o.id)` ->
  `FROM (SELECT *, (SELECT MAX(c) ..) AS $j1 FROM orders o) AS o LEFT JOIN items i ON o.id = i.oid AND i.c >
  o.$j1`. The added columns are hidden from `*` (`hidden_columns`). A subquery naming both sides of the join is
  refused in words, as Calcite leaves it (and Flink fails on it).

IN, NOT IN and NOT EXISTS there are refused in words (Flink 2.3's planner fails on them with a
NullPointerException), and so is an EXISTS correlated with the right side of a RIGHT or FULL join."""

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..expr.conditions import conjuncts
from .subqueries import _and, has_subquery, is_predicate
from .subquery_counts import _above

HIDDEN = "$j"          # the prefix of the columns computed for subqueries of an ON (fresh names: `$j1`, ...)


def hidden_columns(scope):
    """`scope` without the columns this module added to FROM items (a `SELECT *` does not show them)."""
    from .scope import Scope
    return Scope([e for e in scope.entries if not _is_hidden(e.name)])


def _is_hidden(name):
    return name.startswith(HIDDEN) and name[len(HIDDEN):].isdigit()


def on_conditions_moved(sb, sel):
    """`sel` (a copy where changed) with the ON conjuncts that hold subqueries moved as the module says (`sb`: the
    SelectBinder of the block)."""
    if not any(has_subquery(j.args.get("on")) for j in sel.args.get("joins") or []):
        return sel
    sel = sel.copy()
    moved = []
    joins = sel.args["joins"]
    holders = [sel.args["from_"]] + list(joins)        # holder n's `this` is FROM item n
    columns = {}                                        # FROM item index -> [(subquery tree, column name)]
    for n, j in enumerate(joins):
        on = j.args.get("on")
        if not has_subquery(on):
            continue
        kind = _kind(j)
        later = any((k.side or "").upper() in ("RIGHT", "FULL") for k in joins[n + 1:])
        parts = conjuncts(on)
        kept = []
        for c in parts:
            if not has_subquery(c):
                kept.append(c)
                continue
            _refuse_as_flink(c, kind, holders, n, sb)
            if kind == "INNER" and not later:
                moved.append(c)
                continue
            if kind == "LEFT" and _named_items(sb, c, holders[:n + 2]) <= {n + 1} \
                    and _filterable(holders[n + 1].this):
                _right_filtered(j, [c])
                continue
            kept.append(_as_columns(sb, c, holders, n, columns))
        j.set("on", _and(kept) if kept else exp.true())
    for i, added in columns.items():
        _add_columns(holders[i], added)
    if moved:
        where = sel.args.get("where")
        parts = ([where.this] if where is not None else []) + moved
        sel.set("where", exp.Where(this=_and([exp.Paren(this=c) if isinstance(c, exp.Or) else c for c in parts])))
    return sel


def _refuse_as_flink(c, kind, holders, n, sb):
    """The shapes Flink 2.3 fails to plan (a NullPointerException or an ArrayIndexOutOfBoundsException in its
    planner) or plans giving other rows than SQL's, refused in words: IN and NOT IN; NOT EXISTS (a row that meets
    it left unmatched); EXISTS in a RIGHT or FULL join's ON (the right rows it fails dropped); EXISTS naming the
    joined (right) table."""
    ctx = sb.ctx
    for node in _outermost(c):
        if not is_predicate(node):
            continue
        if isinstance(node, exp.In):
            raise UnsupportedError("IN with a subquery in a join's ON is not supported (Flink 2.3 fails to plan it "
                                   "too)", *ctx.pos(node), hint="move it to the WHERE, or join the subquery in FROM")
        if isinstance(node.parent, exp.Not):
            raise UnsupportedError("NOT EXISTS in a join's ON is not supported (Flink 2.3 fails to plan it or gives "
                                   "wrong rows)", *ctx.pos(node), hint="move it to the WHERE")
        if kind in ("RIGHT", "FULL"):
            raise UnsupportedError("EXISTS in the ON of a %s JOIN is not supported (Flink 2.3 drops the rows of the "
                                   "right side it fails)" % kind, *ctx.pos(node), hint="move it to the WHERE")
        if n + 1 in _named_items(sb, node, holders[:n + 2]):
            raise UnsupportedError("EXISTS naming the joined table '%s' in a join's ON is not supported (Flink 2.3 "
                                   "fails to plan it too)" % holders[n + 1].this.alias_or_name, *ctx.pos(node),
                                   hint="move it to the WHERE")


def _as_columns(sb, c, holders, n, columns):
    """Conjunct `c` of join `n`'s ON with each of its subqueries replaced by a column computed on the FROM item
    whose columns it names (the join's own item where it names none), recorded in `columns`."""
    ctx = sb.ctx
    c = c.copy()
    null_supplied = _null_supplied(holders, n)
    for node in _outermost(c):
        named = _named_items(sb, node, holders[:n + 2])
        if len(named) > 1:
            names = [holders[i].this.alias_or_name for i in sorted(named)]
            raise UnsupportedError("A subquery in the ON of a join that names both '%s' and '%s' is not supported "
                                   "(Flink 2.3 does not plan it either)" % (names[0], names[1]), *ctx.pos(node),
                                   hint="name the columns of one side of the join in each subquery")
        if n + 1 in named:
            raise UnsupportedError("A subquery naming the joined table '%s' in the ON of a %s JOIN is not supported "
                                   "(Flink 2.3 fails to plan it too)" % (holders[n + 1].this.alias_or_name,
                                                                         _kind(holders[n + 1])),
                                   *ctx.pos(node), hint="name the columns of the left side of the join only")
        i = named.pop() if named else n + 1
        item = holders[i].this
        if not _filterable(item) or i in null_supplied:
            raise UnsupportedError("A subquery in a join's ON is supported where it names a table or a named "
                                   "subquery that no earlier outer join pads with NULLs", *ctx.pos(node))
        name = ctx.fresh(HIDDEN)
        columns.setdefault(i, []).append((node.copy(), name))
        ref = exp.column(name, table=item.alias_or_name, quoted=True)
        if node is c:
            c = ref
        else:
            node.replace(ref)
    return c


def _kind(join):
    return (join.side or join.kind or "INNER").upper()


def _add_columns(holder, added):
    """FROM item `holder.this` replaced by `(SELECT *, <subquery> AS $jN, .. FROM item) AS name`."""
    item = holder.this
    name = item.alias_or_name
    body = exp.Select(expressions=[exp.Star()] + [exp.Alias(this=t, alias=exp.to_identifier(n, quoted=True))
                                                    for t, n in added]).from_(item.copy())
    holder.set("this", exp.Subquery(this=body, alias=exp.TableAlias(this=exp.to_identifier(name, quoted=True))))


def _null_supplied(holders, n):
    """The indexes of the FROM items an outer join before join `n` pads with NULLs."""
    out = set()
    for m, j in enumerate(holders[1:n + 1]):
        side = (j.side or "").upper()
        if side in ("LEFT", "FULL"):
            out.add(m + 1)
        if side in ("RIGHT", "FULL"):
            out.update(range(m + 1))
    return out


def _filterable(item):
    return isinstance(item, (exp.Table, exp.Subquery)) and item.args.get("version") is None \
        and bool(item.alias_or_name) and not (isinstance(item, exp.Table) and isinstance(item.this, exp.Func))


def _right_filtered(join, conditions):
    """LEFT JOIN `join`'s right table replaced by itself filtered on `conditions` (which name no other item)."""
    right = join.this
    name = right.alias_or_name
    body = exp.Select(expressions=[exp.Star()]).from_(right.copy())
    body.set("where", exp.Where(this=_and(conditions)))
    join.set("this", exp.Subquery(this=body, alias=exp.TableAlias(this=exp.to_identifier(name, quoted=True))))


def _named_items(sb, tree, holders):
    """The indexes of the FROM items (of `holders`) whose columns `tree` names, outside its subqueries' own tables:
    a qualified column by its qualifier, an unqualified one outside any subquery by the item that has it."""
    names = [h.this.alias_or_name for h in holders]
    inside = {t.alias_or_name for t in tree.find_all(exp.Table)}
    out = set()
    for col in tree.find_all(exp.Column):
        if isinstance(col.this, exp.Star):
            continue
        if col.table:
            if col.table in names and col.table not in inside:
                out.add(names.index(col.table))
            continue
        if any(isinstance(p, (exp.Select, exp.Subquery)) for p in _above(col, tree)):
            continue            # (the subquery's own column, as SQL resolves it first)
        out.update(i for i, h in enumerate(holders) if col.name in _column_names(sb, h.this))
    return out


def _column_names(sb, item):
    from .relations import bind_relation
    try:
        _, scope = bind_relation(sb.binder, item.copy())
    except SqlError:
        return set()
    return {e.name for e in scope.entries}


def _outermost(tree):
    """The subqueries of `tree` (IN and EXISTS predicates, scalar subqueries) not inside another one."""
    out, stack = [], [tree]
    while stack:
        n = stack.pop()
        if is_predicate(n) or isinstance(n, exp.Subquery):
            out.append(n)
            continue
        stack.extend(n.iter_expressions())
    return out
