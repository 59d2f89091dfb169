"""FROM items -> plan nodes with the scope their columns are known by: catalog tables, views (expanded to
subtrees), CTEs, subqueries, VALUES, joins (ON, USING, comma and CROSS joins), and the operators that are
written in FROM: window table functions, MATCH_RECOGNIZE, temporal joins (FOR SYSTEM_TIME AS OF)."""

from sqlglot import exp

from ..catalog import TableDef, ViewDef
from ..errors import SqlError, UnsupportedError
from ..metadata_columns import check_metadata_columns
from ..parse import parse_sql
from ..plan.join import Join
from ..plan.scan import TableScan
from .expressions import ExpressionBinder
from .scope import Scope, ScopeEntry


def table_path(table):
    parts = [p if isinstance(p, str) else p.name
             for p in (table.args.get("catalog"), table.args.get("db"), table.this) if p is not None]
    if "" in parts:           # `shop..sales`: a part left out
        raise SqlError("Encountered \".\" in the name '%s': a part of it is empty" % ".".join(parts),
                       hint="a table is named table, database.table or catalog.database.table")
    return ".".join(parts)


def bind_from(binder, select):
    """The FROM clause of `select` (with its joins) -> (node, scope)."""
    frm = select.args.get("from_")
    if frm is None:
        return None, Scope([])
    node, scope = bind_relation(binder, frm.this, select)
    for j in select.args.get("joins") or []:
        node, scope = bind_join(binder, node, scope, j, select)
    return node, scope


def bind_relation(binder, rel, select=None):
    """A FROM item (and the MATCH_RECOGNIZE applied to it) -> (node, scope)."""
    node, scope = _bind_item(binder, rel)
    match = _match_clause(rel, select)
    if match is not None:
        from . import match_recognize
        node, scope = match_recognize.bind_match_recognize(binder, node, scope, match, rel)
    return node, scope


def _match_clause(rel, select):
    """The MATCH_RECOGNIZE clause applied to FROM item `rel` (sqlglot keeps it on the SELECT), or None."""
    match = rel.args.get("match")
    if match is None and select is not None and select.args.get("from_") is not None \
            and select.args["from_"].this is rel:
        match = select.args.get("match")
    return match


def _bind_item(binder, rel):
    ctx = binder.ctx
    if isinstance(rel, exp.Table) and "bound" in rel.meta:     # a plan the binder made (scalar_by_outer_values)
        return rel.meta["bound"]
    if isinstance(rel, exp.Table):
        if isinstance(rel.this, (exp.Anonymous, exp.Func)):
            from . import table_functions
            node, scope = table_functions.bind_table_function(binder, rel)
        elif rel.args.get("version") is not None:
            raise UnsupportedError("Temporal table join only support apply FOR SYSTEM_TIME AS OF on the right table.",
                                   *ctx.pos(rel))
        else:
            node, scope = _named_relation(binder, rel)
        return node, scope
    if isinstance(rel, exp.Subquery):
        node, scope = binder.bind_query(rel.this)
        alias = rel.alias or None
        node, scope = _column_aliases(binder, node, scope, rel.args.get("alias"))
        return node, scope.with_qualifier(alias)
    if isinstance(rel, exp.Values):
        node = binder.values(rel)
        alias = rel.args.get("alias")
        qualifier = alias.name if alias is not None and alias.name else None
        return node, Scope([ScopeEntry(qualifier, f.name, f) for f in node.fields])
    if isinstance(rel, exp.Unnest):
        from . import unnest
        return unnest.bind_unnest_alone(binder, rel)
    if isinstance(rel, exp.Lateral) and isinstance(rel.this, exp.Subquery):   # nothing before it to name
        return _bind_item(binder, exp.Subquery(this=rel.this.this, alias=rel.args.get("alias")))
    if isinstance(rel, exp.Lateral):
        from ..python_functions.calls import bind_lateral_table
        return bind_lateral_table(binder, rel)
    raise UnsupportedError("%s in FROM is not supported" % type(rel).__name__, *ctx.pos(rel))


def _named_relation(binder, rel):
    """A table, view or CTE named in FROM."""
    ctx = binder.ctx
    alias = rel.alias or None
    name = table_path(rel)
    if "." not in name and name in ctx.ctes:
        cte, cte_ctx = ctx.ctes[name]
        from .binder import QueryBinder
        node, scope = QueryBinder(cte_ctx).bind_query(cte.this)
        node, scope = _column_aliases(binder, node, scope, cte.args.get("alias"))
        return node, scope.with_qualifier(alias or name)
    obj = ctx.catalog.require(name, *ctx.pos(rel))
    if isinstance(obj, ViewDef):
        return bind_view(binder, obj, alias)
    return table_scan(binder, obj, alias, rel)


def table_scan(binder, table, alias=None, rel=None):
    """A catalog table -> (TableScan, scope qualified by its alias or name)."""
    ctx = binder.ctx
    conn = table.options.get("connector")
    if conn in ("print", "blackhole"):
        raise SqlError("Table '%s' (connector '%s') is a sink: it cannot be read" % (table.name, conn),
                       *ctx.pos(rel))
    check_metadata_columns(table, *ctx.pos(rel))
    physical = [f for f in _physical_fields(table)]
    scope = Scope([ScopeEntry(table.name, f.name, f) for f in physical])
    computed = {}
    for c in table.columns:
        if c.computed is not None and not c.is_proctime:
            tree = parse_sql("SELECT " + c.computed).expressions[0]
            computed[c.name] = ExpressionBinder(ctx, scope).bind(tree)
    node = TableScan(table, computed, position=ctx.pos(rel))
    q = alias or table.name
    return node, Scope([ScopeEntry(q, f.name, f) for f in node.fields])


def _physical_fields(table):
    from ..plan.fields import Field
    from ..expr.types import parse_type
    return [Field(c.name, parse_type(c.type)) for c in table.columns if c.is_physical]


def bind_view(binder, view, alias=None):
    from .binder import QueryBinder
    ctx = binder.ctx.nested(view.query, view=view.name)
    try:
        with ctx.catalog.resolving_in(getattr(view, "context", None)):     # its names mean what they meant
            node, scope = QueryBinder(ctx).bind_query(parse_sql(view.query))
    except SqlError as e:
        e.message = "In view '%s': %s" % (view.name, e.message)
        raise
    return node, scope.with_qualifier(alias or view.name)


def _column_aliases(binder, node, scope, alias):
    """`AS t(a, b)`: the query's columns renamed."""
    cols = alias.columns if alias is not None else None
    if not cols:
        return node, scope
    if len(cols) != len(node.fields):
        raise SqlError("List of column aliases must have the same degree as the table; the table has %d columns"
                       % len(node.fields), *binder.ctx.pos(alias))
    from ..plan.calc import Calc
    from ..expr.bound import Expr
    from .binder import output_scope
    names = [c.name for c in cols]
    calc = Calc(node, [(Expr.of_field(f), n) for f, n in zip(node.fields, names)])
    return calc, output_scope(calc)


# ---------------------------------------------------------------------- joins
def bind_join(binder, left, lscope, j, select):
    ctx = binder.ctx
    side = (j.args.get("side") or "").upper()
    kind = (j.args.get("kind") or "").upper()
    right_ast = j.this
    if isinstance(right_ast, exp.Table) and right_ast.args.get("version") is not None:
        from . import temporal_join
        return temporal_join.bind_temporal_join(binder, left, lscope, j)
    if isinstance(right_ast, exp.Unnest):
        from . import unnest
        return unnest.bind_unnest_join(binder, left, lscope, j)
    if isinstance(right_ast, exp.Lateral) and isinstance(right_ast.this, exp.Subquery):
        from .lateral_derived import bind_lateral_derived
        return bind_lateral_derived(binder, right_ast, left, lscope, j, select)
    if isinstance(right_ast, exp.Lateral):
        from ..python_functions.calls import bind_lateral_table
        return bind_lateral_table(binder, right_ast, left, lscope, j)
    if kind in ("SEMI", "ANTI"):
        raise UnsupportedError("%s JOIN is not supported yet" % kind, *ctx.pos(j))
    join_type = side or "INNER"
    right, rscope = bind_relation(binder, right_ast)
    join = Join(left, right, join_type, [], [], None, position=ctx.pos(j))
    scope = joined_scope(join, lscope, rscope)
    on = j.args.get("on")
    using = j.args.get("using")
    if using:
        for ident in using:
            name = ident.name
            lhit = [e for e in lscope.entries if e.name == name]
            rhit = [e for e in rscope.entries if e.name == name]
            if not lhit or not rhit:
                raise SqlError("Column '%s' in USING clause not found in %s side of join" % (
                    name, "left" if not lhit else "right"), *ctx.pos(ident))
            join.left_keys.append(lhit[0].field.name)
            join.right_keys.append(rhit[0].field.name)
    elif on is not None:
        add_on_condition(ctx, join, scope, on)
    elif side or kind not in ("", "CROSS", "INNER"):
        raise SqlError("%s JOIN needs an ON condition" % (side or kind), *ctx.pos(j))
    from ..rules import window_join          # both sides' windows equated: a window join (keeps time attributes)
    windowed = window_join.rewrite(join)
    if windowed is not join:
        return windowed, joined_scope(windowed, lscope, rscope)
    return join, scope


def joined_scope(join, lscope, rscope):
    """The scope of a join's output: each side's entries, pointing at the join's (renamed) output fields."""
    entries = []
    for side, scope in ((0, lscope), (1, rscope)):
        node = join.inputs[side]
        for e in scope.entries:
            out = join.output_name(side, e.field.name)
            entries.append(ScopeEntry(e.qualifier, e.name, join.field(out)))
    return Scope(entries)


def add_on_condition(ctx, join, scope, on):
    """The join's ON (`on`, over `scope`: the join's output) added to its condition."""
    condition = ExpressionBinder(ctx, scope).bind(on)
    if condition.type is not None and condition.type.name not in ("BOOLEAN", "NULL"):
        raise SqlError("JOIN ON condition must be a boolean, not %s" % condition.type.text(), *ctx.pos(on))
    add_join_condition(join, condition)


def add_join_condition(join, condition):
    """Add a condition (an Expr over the join's output fields) to a join: each `left = right` conjunct of
    plain fields becomes a key pair, the rest the join's remaining condition."""
    from ..expr.conditions import conjuncts, field_equality, rebuild_and
    nleft = len(join.left.fields)
    out_names = join.field_names
    rest = list(conjuncts(join.condition.tree)) if join.condition is not None else []
    for c in conjuncts(condition.tree):
        pair = field_equality(c)
        if pair is not None:
            a, b = (out_names.index(x) for x in pair)
            if (a < nleft) != (b < nleft):
                li, ri = (a, b) if a < nleft else (b, a)
                join.left_keys.append(join.left.fields[li].name)
                join.right_keys.append(join.right.fields[ri - nleft].name)
                continue
        rest.append(c)
    join.condition = rebuild_and(rest, join.condition, condition)
