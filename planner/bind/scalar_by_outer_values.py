"""A correlated scalar subquery that grouping by its own columns cannot plan: one correlated by a condition other
than an equality of its column and the outer query's (`i.id < o.id`, `b.lo <= o.amount AND o.amount < b.hi`),
or one that does not aggregate. Planned as Flink's decorrelator does (a value generator):

    D     = the distinct values of the outer columns the conditions read   (a GroupAggregate without calls)
    R     = the subquery's FROM JOIN D ON its correlated conditions (the outer columns read from D),
            aggregated per D row (an aggregate: GROUP BY D's columns; no aggregate: SINGLE_VALUE per D row,
            which fails when a row of D meets more than one row)
    outer = outer LEFT JOIN R ON outer's columns = D's columns

An outer row that meets no inner row gets NULL (a COUNT: 0, added by the caller). D is computed from a copy of
the outer plan, so that no plan node has two parents. A NULL outer value meets no row of R (the join back is on
equalities): right for the conditions that are not true for a NULL (comparisons); a condition that may hold for
a NULL (IS NULL, OR, COALESCE, ...) over a nullable outer column is refused."""

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


def join_by_outer_values(sb, node, scope, sub, query, kept, pulled, aggregates, message):
    """Scalar subquery `sub` (SELECT `query` whose WHERE is `kept` AND `pulled`, the conjuncts naming outer
    columns) joined to `node`. `aggregates`: whether the query aggregates (else SINGLE_VALUE, failing with
    `message`). -> (join, value field)."""
    from .subqueries import _and, _columns, _side
    from .relations import bind_from
    ctx = sb.ctx
    for arg in REFUSED_CLAUSES:
        if query.args.get(arg) is not None:
            raise UnsupportedError("A correlated subquery with %s is not supported yet" % arg.upper(),
                                   *ctx.pos(query))
    _, inner = bind_from(sb.binder, query)
    d_qualifier = ctx.fresh("$d")
    outer_names = {}                    # outer field name -> its name in D
    conditions = []
    for c in pulled:
        c = c.copy()
        for col in _columns(c):
            if _side(col, inner, scope) != "outer":
                continue
            e = ExpressionBinder(ctx, scope).bind(col.copy())
            if (e.type is None or e.type.nullable) and _may_hold_for_null(c):
                raise UnsupportedError(
                    "A scalar subquery correlated by a condition that can hold when the outer query's '%s' is NULL "
                    "(IS NULL, IS [NOT] DISTINCT FROM, OR, COALESCE, CASE, IF) is not supported yet"
                    % col.sql(), *ctx.pos(col))
            name = outer_names.setdefault(e.field, ctx.fresh("$o"))
            col.replace(exp.column(name, table=d_qualifier, quoted=True))
        conditions.append(c)
    values = _distinct_values(copy.deepcopy(node), outer_names, ctx.pos(sub))
    table = exp.Table(this=exp.to_identifier(d_qualifier, quoted=True))
    table.meta["bound"] = (values, Scope([ScopeEntry(d_qualifier, f.name, f) for f in values.fields]))
    keys = {d: ctx.fresh("$c") for d in outer_names.values()}
    query = query.copy()
    query.set("where", exp.Where(this=_and(kept)) if kept else None)
    query.set("joins", list(query.args.get("joins") or []) + [exp.Join(this=table, on=_and(conditions))])
    query.set("expressions", [query.expressions[0]] +
              [exp.alias_(exp.column(d, table=d_qualifier, quoted=True), c, quoted=True) for d, c in keys.items()])
    if aggregates:
        query.set("group", exp.Group(expressions=[exp.column(d, table=d_qualifier, quoted=True) for d in keys]))
    right, _ = sb.binder.bind_query(query)
    if len(right.fields) != 1 + len(keys):
        raise SqlError("A scalar subquery must return one column, not %d" % (len(right.fields) - len(keys)),
                       *ctx.pos(sub))
    value = right.fields[0]
    if not aggregates:
        name = ctx.fresh("$f")
        right = GroupAggregate(right, list(keys.values()), [AggCall(
            "SINGLE_VALUE", (value.name,), name=name, type=typing.nullable(value.type, True) if value.type else None,
            options=(message,))], position=ctx.pos(sub))
        value = right.field(name)
    join = Join(node, right, "LEFT", list(outer_names), list(keys.values()), position=ctx.pos(sub))
    return join, join.field(join.output_name(1, value.name))


def _distinct_values(node, outer_names, position):
    calc = Calc(node, [(Expr.of_field(node.field(f)), d) for f, d in outer_names.items()], position=position)
    return GroupAggregate(calc, list(outer_names.values()), [], position=position)


def _may_hold_for_null(condition):
    """Whether `condition` may be true where a column it reads is NULL (the outer rows with a NULL are joined back
    on equalities, which no NULL meets): it tests for NULL, or has an OR, a COALESCE, a CASE or an IF."""
    return any(isinstance(n, (exp.Is, exp.NullSafeEQ, exp.NullSafeNEQ, exp.Or, exp.Coalesce, exp.Case, exp.If))
               for n in condition.walk())
