"""UNNEST in FROM -> an Unnest node over the FROM items before it (a lateral join: the collection may read
their columns): `CROSS JOIN UNNEST(..)`, the comma form `FROM t, UNNEST(t.arr)`, `[INNER] JOIN UNNEST(..) ON
TRUE` (or a condition on the elements), `LEFT JOIN UNNEST(..) ON TRUE`, `WITH ORDINALITY`, and `FROM UNNEST(..)` alone (over
one empty row). Column names: the alias list `AS t(a, b)`, else Calcite's (`EXPR$0`; a ROW's fields; `KEY`,
`VALUE`; `ORDINALITY`). Flink's refusals with its messages."""

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..plan.calc import Calc
from ..expr.bound import Expr
from ..expr.signatures import calcite
from ..expr.translate import finish
from ..plan.fields import Field, unique_names
from ..plan.scan import Values
from ..plan.unnest import ARRAY, MAP, Unnest, collection_kind, element_types
from .expressions import ExpressionBinder
from .scope import Scope, ScopeEntry


def bind_unnest_join(binder, left, lscope, j):
    """`left <join> UNNEST(..)` -> (node, scope)."""
    ctx = binder.ctx
    side = (j.args.get("side") or "").upper()
    kind = (j.args.get("kind") or "").upper()
    on = j.args.get("on")
    if side in ("RIGHT", "FULL") or kind in ("SEMI", "ANTI"):
        raise UnsupportedError("%s JOIN UNNEST is not supported: an UNNEST joins only as CROSS, INNER or LEFT JOIN"
                               % (side or kind), *ctx.pos(j))
    if j.args.get("using"):
        raise SqlError("JOIN UNNEST cannot have a USING clause", *ctx.pos(j))
    join_type = "LEFT" if side == "LEFT" else "INNER"
    if join_type == "LEFT" and on is None:
        raise SqlError("LEFT JOIN UNNEST needs an ON condition: ON TRUE", *ctx.pos(j))
    node, scope = bind_unnest(binder, left, lscope, j.this, join_type)
    if on is None or _is_true(on):
        return node, scope
    # [INNER] JOIN UNNEST(..) ON <condition on the elements>: the element rows it keeps, as Flink's filter on the
    # Correlate; Flink fails on a condition naming the outer row ("unexpected correlate variable $cor0")
    condition = ExpressionBinder(ctx, scope).bind(on)
    outer = sorted(set(condition.refs) - {f.name for f in node.added})
    if outer:
        raise UnsupportedError("JOIN UNNEST's ON condition may name the unnested columns only, not %s (Flink fails "
                               "on it: unexpected correlate variable in the plan)" % ", ".join(outer), *ctx.pos(on),
                               hint="filter on the other columns in WHERE")
    if join_type == "LEFT":
        node.collection = _kept_elements(node, condition, ctx, on)
        return node, scope
    return Calc(node, [(Expr.of_field(f), f.name) for f in node.fields], condition, position=ctx.pos(on)), scope


def _kept_elements(node, condition, ctx, on):
    """LEFT JOIN UNNEST(c) ON <condition on the elements>: Flink keeps the elements (a MAP's entries) the condition
    holds for, and a row of NULLs when none does; the collection unnested is `FILTER(arr, e -> condition)`
    (`MAP_FILTER(m, (k, v) -> condition)`). WITH ORDINALITY (an element's place is before the filter) and an
    ARRAY of ROWs are refused: Flink 2.3 failed on the one ("Error while applying rule ProjectToCalcRule")."""
    if node.kind not in (ARRAY, MAP) or node.ordinality:
        raise UnsupportedError("LEFT JOIN UNNEST of %s with a condition other than ON TRUE is not supported"
                               % ("an ARRAY WITH ORDINALITY" if node.ordinality else "an ARRAY of ROWs"),
                               *ctx.pos(on), hint="filter the unnested rows in WHERE")
    ctype = node.collection.type
    names = ("_ue",) if node.kind == ARRAY else ("_uk", "_uv")
    variables = {f.name: Field(name, t) for f, name, t in zip(node.added, names, ctype.children)}
    body = condition.tree.copy()
    for col in body.find_all(exp.Column):
        if "field" in col.meta and col.meta["field"].name in variables:
            col.meta["field"] = variables[col.meta["field"].name]
    kept = exp.Anonymous(this="FILTER" if node.kind == ARRAY else "MAP_FILTER", expressions=[
        node.collection.tree.copy(), exp.Lambda(this=body, expressions=[exp.to_identifier(n) for n in names])])
    kept.meta["spark"] = True
    kept.meta["result_type"] = ctype
    return finish(kept, ctx)


def bind_unnest_alone(binder, rel):
    """`FROM UNNEST(..)` as the first FROM item: over one empty row."""
    ctx = binder.ctx
    return bind_unnest(binder, Values([[]], [], position=ctx.pos(rel)), Scope([]), rel, "INNER")


def bind_unnest(binder, left, lscope, rel, join_type):
    ctx = binder.ctx
    args = list(rel.expressions)
    if len(args) != 1:
        raise UnsupportedError("UNNEST of %d collections is not supported: unnest one collection per UNNEST"
                               % len(args), *ctx.pos(rel),
                               hint="CROSS JOIN UNNEST(a) AS x(a1) CROSS JOIN UNNEST(b) AS y(b1)")
    collection = ExpressionBinder(ctx, lscope).bind(args[0])
    kind = collection_kind(collection.type)
    if kind is None:
        if collection.type is None:
            raise SqlError("UNNEST needs an ARRAY, MULTISET or MAP; the type of %s is not known"
                           % collection.text, *ctx.pos(args[0]))
        raise SqlError("Cannot apply 'UNNEST' to arguments of type 'UNNEST(<%s>)'. Supported form(s): "
                       "'UNNEST(<MULTISET>)'" % calcite(collection.type), *ctx.pos(rel))
    offset = rel.args.get("offset")
    ordinality = bool(offset)
    defaults = [n for n, _ in element_types(collection.type, ordinality)]
    alias = rel.args.get("alias")
    qualifier = alias.name if alias is not None and alias.name else None
    names = [c.name for c in alias.columns] if alias is not None and alias.columns else []
    if isinstance(offset, exp.Expression) and not isinstance(offset, exp.Boolean):
        names.append(offset.name)           # sqlglot keeps the alias list's last name (the ordinality's) apart
    if not names:
        names = defaults
    if len(names) != len(defaults):
        raise SqlError("List of column aliases must have same degree as table; table has %d columns "
                       "(%s), whereas alias list has %d columns" % (
                           len(defaults), ", ".join("'%s'" % n for n in defaults), len(names)), *ctx.pos(rel))
    out_names = unique_names(names, taken=left.field_names)
    node = Unnest(left, collection, kind, join_type, out_names, ordinality, position=ctx.pos(rel))
    entries = list(lscope.entries) + [ScopeEntry(qualifier, n, f) for n, f in zip(names, node.added)]
    return node, Scope(entries)


def _is_true(on):
    return isinstance(on, exp.Boolean) and on.this is True


