"""A LATERAL derived table that moving its correlated conditions to the join cannot plan (lateral_derived.py), planned
per distinct outer value, as Calcite's decorrelator plans a LogicalCorrelate (RelDecorrelator's value generator, run
by Flink 2.3's FlinkDecorrelateProgram):

    D = the distinct values of the outer columns the derived table names      (a GroupAggregate without calls)
    R = the derived table with D joined to its FROM on its correlated conjuncts, every outer column read from D and
        D's columns added to its select list (and to its GROUP BY where it aggregates: one group per outer value)
    the FROM items before it [LEFT] JOIN R ON their columns = D's columns AND the join's ON

The shapes it plans: an outer column outside the WHERE (the select list, an aggregate's argument), a correlation
other than an equality beside an aggregate or DISTINCT, a LEFT JOIN LATERAL that aggregates without GROUP BY. An
outer row without inner rows meets no group of R: no row in a comma / INNER join, NULLs in a LEFT join, Flink's
rows, but for Calcite's count-bug rewrite (RelDecorrelator.AdjustProjectForCountAggregateRule), which Flink applies
to a LEFT JOIN LATERAL ON TRUE whose derived table is one column over an aggregate without GROUP BY or HAVING: that
column over no rows (COUNT(*) -> 0, COUNT(*) + 1 -> 1). Here R gives the column's aggregate calls and the column is
computed over the join, a COUNT's NULL read as 0 (empty_group_value.py). A NULL outer value meets no row of R (the
join back is on `=`, as the decorrelator's). Refused as Flink refuses them: an outer column outside an aggregate call
of a derived table that aggregates (not grouped), a one-column count-bug rewrite that is never NULL (Flink fails to
plan it)."""

import copy

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..expr.bound import Expr
from ..plan.calc import Calc
from ..plan.join import Join
from .empty_group_value import EmptyGroupValue, _split
from .expressions import ExpressionBinder, column_parts, field_ref
from .scalar_by_outer_values import distinct_values, nested_outer_columns, user_items
from .scope import Scope, ScopeEntry


class _Sb:
    """What the helpers of a SELECT's binding read off it (empty_group_value's, derived_correlation's): the binder
    and its context."""

    def __init__(self, binder):
        self.binder, self.ctx = binder, binder.ctx


def bind_by_outer_values(binder, derived, left, lscope, join, correlated, kept, aggregates):
    """LATERAL derived table `derived` (a Subquery holding a copy of the user's SELECT, with an alias), whose WHERE
    is `kept` AND `correlated` (the conjuncts naming the outer row), joined to (left, lscope) as `join` says (its
    side, its ON) -> (node, scope)."""
    from .relations import _bind_item, add_on_condition, bind_from, joined_scope
    from .subqueries import _and, _columns, _side
    ctx = binder.ctx
    query = derived.this
    alias = derived.alias_or_name
    _, inner = bind_from(binder, query)     # (an outer table in its FROM: refused by lateral_derived.py)
    nested = nested_outer_columns(query, inner, lscope)
    grouped = [c for e in (query.args["group"].expressions if query.args.get("group") is not None else [])
               for c in _columns(e) if _side(c, inner, lscope, ctx) == "outer"]
    for col, what in [(c, "A subquery inside the LATERAL derived table refers to") for c in nested] + \
            [(c, "The LATERAL derived table groups by") for c in grouped]:
        raise UnsupportedError("%s '%s' of the FROM items before it: not supported"
                               % (what, ".".join(column_parts(col) or [col.sql()])), *ctx.pos(col))
    d_qualifier = ctx.fresh("$d")
    outer_names = {}                    # outer field name -> its name in D

    def read_from_d(tree):              # a copy of `tree` with its outer columns read from D
        tree = tree.copy()
        for col in _columns(tree):
            if _side(col, inner, lscope, ctx) != "outer":
                continue
            field = ExpressionBinder(ctx, lscope).bind(col.copy()).field
            ref = exp.column(outer_names.setdefault(field, ctx.fresh("$o")), table=d_qualifier, quoted=True)
            if col is tree:
                return ref
            col.replace(ref)
        return tree
    side = (join.args.get("side") or "").upper()
    items = [e.copy() for e in user_items(query, inner)]
    having = query.args.get("having")
    if aggregates:
        _refuse_ungrouped_outer(ctx, items + ([having.this] if having is not None else []), inner, lscope)
    on = join.args.get("on")
    calls, value = [], None
    if side == "LEFT" and aggregates and query.args.get("group") is None and having is None and len(items) == 1 \
            and (on is None or isinstance(on, exp.Boolean) and on.this):    # computed over the join, below
        item = items[0].this if isinstance(items[0], exp.Alias) else items[0]
        value = EmptyGroupValue(exp.Paren(this=_split(_Sb(binder), item, calls)), calls)
    conditions = [read_from_d(c) for c in correlated]
    query.set("where", exp.Where(this=_and([read_from_d(c) for c in kept])) if kept else None)
    if having is not None:
        query.set("having", exp.Having(this=read_from_d(having.this)))
    query.set("expressions", [read_from_d(e) for e in items])
    calls = [(name, read_from_d(call)) for name, call in calls]
    d_rows = distinct_values(copy.deepcopy(left), outer_names, ctx.pos(query))
    table = exp.Table(this=exp.to_identifier(d_qualifier, quoted=True))
    table.meta["bound"] = (d_rows, Scope([ScopeEntry(d_qualifier, f.name, f) for f in d_rows.fields]))
    query.set("joins", list(query.args.get("joins") or []) +
              [exp.Join(this=table, on=_and(conditions) if conditions else exp.true())])
    keys = {d: ctx.fresh("$c") for d in outer_names.values()}
    query.set("expressions", query.expressions + [exp.alias_(exp.column(d, table=d_qualifier, quoted=True), c,
                                                             quoted=True) for d, c in keys.items()])
    if aggregates:
        group = list(query.args["group"].expressions) if query.args.get("group") is not None else []
        query.set("group", exp.Group(expressions=group + [exp.column(d, table=d_qualifier, quoted=True)
                                                          for d in keys]))
    alias_columns = derived.args["alias"].columns
    if alias_columns:
        derived.args["alias"].set("columns", list(alias_columns) + [exp.to_identifier(c, quoted=True)
                                                                    for c in keys.values()])
    right, rscope = _bind_item(binder, derived)     # (its errors, as the user wrote it; its columns' names)
    shown = Scope([e for e in rscope.entries if e.name not in keys.values()])
    right_keys = [next(e.field.name for e in rscope.entries if e.name == c) for c in keys.values()]
    if value is not None:
        reading = query.copy()      # its aggregate calls and D's columns, grouped by D's
        reading.set("expressions", [exp.alias_(c, n, quoted=True) for n, c in calls] + query.expressions[-len(keys):])
        calls_node, _ = binder.bind_query(reading)
        node = Join(left, calls_node, "LEFT", list(outer_names), [f.name for f in calls_node.fields[len(calls):]],
                    position=ctx.pos(join))
        return _computed(ctx, node, lscope, shown, value, len(calls), alias, items[0])
    node = Join(left, right, side or "INNER", list(outer_names), right_keys, position=ctx.pos(join))
    scope = joined_scope(node, lscope, shown)
    if on is not None:
        add_on_condition(ctx, node, scope, on)
    return node, scope


def _computed(ctx, join, lscope, shown, value, width, alias, item):
    """The LEFT join of the outer rows and R's `width` aggregate calls, with the derived table's one column (`value`:
    an EmptyGroupValue over the calls; `item`: its select item) computed over it -> (node, scope: the outer rows'
    columns, then the derived table's as `shown` names it)."""
    left = [ScopeEntry(e.qualifier, e.name, join.field(join.output_name(0, e.field.name))) for e in lscope.entries]
    fields = [join.field(join.output_name(1, f.name)) for f in join.right.fields[:width]]
    raw = value.template.copy()         # (the calls as the LEFT join gives them: NULL without inner rows)
    for col in [c for c in raw.find_all(exp.Column) if c.meta.get("empty_group")]:
        col.replace(field_ref(fields[[n for n, _ in value.calls].index(col.name)]))
    kind = ExpressionBinder(ctx, Scope(left)).bind(raw).type
    if kind is not None and not kind.nullable:
        # Flink 2.3 fails to plan it: Calcite's count-bug rewrite (RelDecorrelator's
        # AdjustProjectForCountAggregateRule) makes the column NOT NULL, "Cannot add expression of different type"
        raise UnsupportedError("LEFT JOIN LATERAL with a derived table whose one column is an expression over its "
                               "aggregates that is never NULL is not supported (Flink 2.3 fails to plan it)",
                               *ctx.pos(item), hint="a scalar subquery in the select list gives its value")
    name = ctx.fresh("$f")
    calc = Calc(join, [(Expr.of_field(f), f.name) for f in join.fields] + [(value.bind(ctx, Scope(left), fields), name)],
                position=join.position)
    entries = [ScopeEntry(e.qualifier, e.name, calc.field(e.field.name)) for e in left]
    entries += [ScopeEntry(alias, shown.entries[0].name, calc.field(name))]
    return calc, Scope(entries)


def _refuse_ungrouped_outer(ctx, trees, inner, lscope):
    """An outer column outside an aggregate call in the select list or HAVING of a derived table that aggregates:
    Flink 2.3's validator (Calcite's AggChecker) refuses it as not grouped, as here."""
    from .expressions import is_aggregate_call
    from .subqueries import _columns, _side
    for tree in trees:
        for col in _columns(tree):
            p = col.parent
            while p is not None and p is not tree and not is_aggregate_call(p):
                p = p.parent
            if (p is None or p is tree and not is_aggregate_call(p)) and _side(col, inner, lscope, ctx) == "outer":
                raise SqlError("Expression '%s' is not being grouped" % ".".join(column_parts(col) or [col.sql()]),
                               *ctx.pos(col))
