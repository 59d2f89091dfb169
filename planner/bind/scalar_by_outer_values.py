"""A correlated scalar subquery that grouping by its own columns cannot plan: one correlated by a condition other
than an equality of its column and the outer query's (`i.id < o.id`, `b.lo <= o.amount AND o.amount < b.hi`),
or one that does not aggregate. Planned as Flink's decorrelator does (a value generator):

    D     = the distinct values of the outer columns the conditions read   (a GroupAggregate without calls)
    R     = the subquery's FROM JOIN D ON its correlated conditions (the outer columns read from D),
            aggregated per D row (an aggregate: GROUP BY D's columns; no aggregate: SINGLE_VALUE per D row,
            which fails when a row of D meets more than one row)
    outer = outer LEFT JOIN R ON outer's columns = D's columns

An outer row that meets no inner row gets NULL (the value over the empty group: added by the caller). D is
computed from a copy of the outer plan, so that no plan node has two parents. A NULL outer value meets no row of
R (the join back is on equalities), even where a condition holds for a NULL (`o.x IS NULL OR ...`, COALESCE):
Flink's rows, its decorrelator joining back by `=` too."""

import copy

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..expr import inference as typing
from ..expr.bound import AggCall, Expr
from ..plan.aggregate import GroupAggregate
from ..plan.calc import Calc
from ..plan.join import Join
from .expressions import ExpressionBinder
from .scope import Scope, ScopeEntry

REFUSED_CLAUSES = ("group", "having", "limit", "offset", "distinct", "order")


def join_by_outer_values(sb, node, scope, sub, query, kept, pulled, aggregates, message, width=1, base=None):
    """Scalar subquery `sub` (SELECT `query` whose WHERE is `kept` AND `pulled`, the conjuncts naming outer
    columns) joined to `node`. `aggregates`: whether the query aggregates (else SINGLE_VALUE, failing with
    `message`); `width`: how many of its select items it gives (the value, or the aggregate calls a value over
    them reads); `base`: the block's rows before its other subqueries' joins, which D is read from when they hold
    the outer columns (the same values: a subquery's join keeps its outer rows' columns; read from `node`, each
    subquery's D held a copy of every subquery joined before, and a block of six such subqueries planned 126
    joins). -> (join, [their fields])."""
    from .subqueries import bind_inner
    ctx = sb.ctx
    for arg in REFUSED_CLAUSES:
        if query.args.get(arg) is not None:
            raise UnsupportedError("A correlated subquery with %s is not supported yet" % arg.upper(),
                                   *ctx.pos(query))
    _, inner = bind_inner(sb, query, scope)
    items = user_items(query, inner)
    if len(items) != width:
        raise SqlError("A scalar subquery must return one column, not %d" % len(items), *ctx.pos(sub))
    query, outer_names, keys, d_qualifier = with_outer_values(sb, node, scope, query, items, kept, pulled,
                                                              ctx.pos(sub), base)
    if aggregates:
        query.set("group", exp.Group(expressions=[exp.column(d, table=d_qualifier, quoted=True) for d in keys]))
    right, _ = sb.binder.bind_query(query)
    if len(right.fields) != width + len(keys):
        raise SqlError("A scalar subquery must return one column, not %d" % (len(right.fields) - len(keys)),
                       *ctx.pos(sub))
    values = right.fields[:width]
    if not aggregates:
        value = values[0]
        name = ctx.fresh("$f")
        right = GroupAggregate(right, list(keys.values()), [AggCall(
            "SINGLE_VALUE", (value.name,), name=name, type=typing.nullable(value.type, True) if value.type else None,
            options=(message,))], position=ctx.pos(sub))
        values = [right.field(name)]
    join = Join(node, right, "LEFT", list(outer_names), list(keys.values()), position=ctx.pos(sub))
    return join, [join.field(join.output_name(1, v.name)) for v in values]


def with_outer_values(sb, node, scope, query, items, kept, pulled, position, base=None, scalar=True):
    """Subquery `query` (select items `items`, WHERE `kept` AND `pulled`, the conjuncts naming outer columns) with
    D joined to its FROM on `pulled` and every outer column it names read from D; D's columns added to its select
    list. -> (the query, {outer field name: its name in D}, {name in D: its select item's name}, D's qualifier)."""
    from .subqueries import _and, _columns, _side, bind_inner
    ctx = sb.ctx
    _, inner = bind_inner(sb, query, scope)
    d_qualifier = ctx.fresh("$d")
    outer_names = {}                    # outer field name -> its name in D

    def read_from_d(tree):              # `tree` with its outer columns read from D (its subqueries' too)
        direct, nested = _columns(tree), nested_outer_columns(tree, inner, scope)
        refuse_nested_in(nested, ctx, scalar)
        for col in direct + nested:
            if any(col is d for d in direct) and _side(col, inner, scope, ctx) != "outer":
                continue
            e = ExpressionBinder(ctx, scope).bind(col.copy())
            name = outer_names.setdefault(e.field, ctx.fresh("$o"))
            ref = exp.column(name, table=d_qualifier, quoted=True)
            if col is tree:
                return ref
            col.replace(ref)
        return tree
    conditions = [read_from_d(c.copy()) for c in pulled]
    kept = [read_from_d(c.copy()) for c in kept]
    items = [read_from_d(e.copy()) for e in items]      # (an item over outer columns: a derived table's, pulled up)
    source = base if base is not None and set(outer_names) <= {f.name for f in base.fields} else node
    values = distinct_values(copy.deepcopy(source), outer_names, position)
    table = exp.Table(this=exp.to_identifier(d_qualifier, quoted=True))
    table.meta["bound"] = (values, Scope([ScopeEntry(d_qualifier, f.name, f) for f in values.fields]))
    keys = {d: ctx.fresh("$c") for d in outer_names.values()}
    query = query.copy()
    query.set("where", exp.Where(this=_and(kept)) if kept else None)
    query.set("joins", list(query.args.get("joins") or []) +
              [exp.Join(this=table, on=_and(conditions) if conditions else exp.true())])
    query.set("expressions", items +
              [exp.alias_(exp.column(d, table=d_qualifier, quoted=True), c, quoted=True) for d, c in keys.items()])
    return query, outer_names, keys, d_qualifier


def nested_outer_columns(tree, inner, outer):
    """The columns of the subqueries nested in `tree` (of a subquery whose FROM is `inner`) that name a table of
    the outer block (`outer`): a subquery naming both the subquery around it and the query two levels out. D
    holds their values too, so that they name a FROM item of the subquery around them (D), one level out."""
    from .subqueries import _columns
    direct = _columns(tree)
    out = []
    for col in tree.find_all(exp.Column):
        if any(col is d for d in direct) or not col.table or col.table not in outer.qualifiers \
                or col.table in inner.qualifiers:
            continue
        own, p = set(), col.parent
        while p is not None and p is not tree:
            if isinstance(p, exp.Select):
                own |= {t.alias_or_name for t in p.find_all(exp.Table)}
            p = p.parent
        if col.table not in own:
            out.append(col)
    return out


def refuse_nested_in(columns, ctx, scalar=False):
    """An IN subquery naming both the subquery around it and the query two levels out (`columns`: its names of
    the latter): refused, as Flink 2.3 gives FALSE for it where SQL gives TRUE; in a scalar subquery (`scalar`)
    an EXISTS too, which Flink fails to plan ("unexpected correlate variable")."""
    for col in columns:
        p = col.parent
        while p is not None and not isinstance(p, (exp.In, exp.Exists)):
            p = p.parent
        if scalar and isinstance(p, exp.Exists):
            from .expressions import column_parts
            raise UnsupportedError("The subquery refers to '%s' of a query two or more levels out: not supported"
                                   % ".".join(column_parts(col) or [col.sql()]), *ctx.pos(col),
                                   hint="correlate a subquery with the query right around it only")
        if isinstance(p, exp.In) and p.args.get("query") is not None:
            raise UnsupportedError("IN with a subquery naming both the subquery around it and the query two levels "
                                   "out is not supported (Flink 2.3 gives wrong rows for it)", *ctx.pos(p),
                                   hint="EXISTS can say it")


def user_items(query, inner):
    """The select list of `query` with `*` expanded to the columns of its FROM (`inner`): the D table joined to it
    below is no column of the user's."""
    items = []
    for e in query.expressions:
        if isinstance(e, exp.Star):
            items += [exp.column(x.name, table=x.qualifier, quoted=True) if x.qualifier is not None
                      else exp.column(x.name, quoted=True) for x in inner.entries]
        else:
            items.append(e)
    return items


def distinct_values(node, outer_names, position):
    calc = Calc(node, [(Expr.of_field(node.field(f)), d) for f, d in outer_names.items()], position=position)
    return GroupAggregate(calc, list(outer_names.values()), [], position=position)

