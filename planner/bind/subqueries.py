"""Subqueries in expressions, decorrelated into joins as Flink plans them (SubQueryRemoveRule, the decorrelator):

- a WHERE conjunct `x IN (SELECT y ...)`, `EXISTS (...)` and their NOT forms -> a semi or anti join (`SemiJoin`)
  of the block's FROM with the subquery on `x = y` and the subquery's correlated conjuncts; `NOT IN` is
  null-aware, as SQL says: `x = y OR x IS NULL OR y IS NULL` (a NULL on either side makes NOT IN unknown);
- a scalar subquery `(SELECT agg(..) FROM r ...)` in WHERE or in the select list -> a LEFT join with it (no
  keys: every row meets the single row; correlated by equalities `r.k = o.k`: the subquery grouped by `r.k`
  and joined on it), the subquery replaced by the field holding its value.

A correlated conjunct is one of the subquery's WHERE conjuncts naming a column of the outer block; it is taken
out of the subquery and becomes part of the join's condition, the subquery's own columns it reads added to its
select list. IN and EXISTS elsewhere (under OR, in the select list) are counted as scalar subqueries
(subquery_counts.py) and joined so. A correlation elsewhere (the select list, HAVING, a subquery that groups or
is a UNION) is refused."""

import re
import functools

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..plan.aggregate import GroupAggregate
from ..plan.calc import Calc
from ..expr.bound import AggCall, Expr
from ..plan.join import Join
from ..plan.semi_join import SemiJoin
from ..expr import inference as typing
from ..expr.conditions import conjuncts, field_equality
from .expressions import ExpressionBinder, column_parts
from .subquery_counts import as_counts
from .empty_group_value import empty_group_value
from .derived_correlation import hoisted
from ..expr.translate import finish
from .scope import Scope, ScopeEntry

SQ = "$sq"          # the qualifier of a subquery's columns in a join condition


def is_predicate(node):
    return isinstance(node, exp.Exists) or isinstance(node, exp.In) and node.args.get("query") is not None


def has_subquery(tree):
    return tree is not None and any(isinstance(n, exp.Subquery) or is_predicate(n) for n in tree.walk())


def bind_subqueries(sb, node, scope):
    """SelectBinder `sb`'s WHERE and select list with subqueries: the joins they need on top of `node` (the FROM),
    then a copy of the SELECT whose WHERE is gone (applied here) and whose select items read the scalar
    subqueries' fields. -> (node, scope, select) or None when the block has no subquery in those places."""
    sel = sb.select
    where = sel.args.get("where")
    aggregating = sel.args.get("group") is not None or sel.args.get("having") is not None or _aggregates(sel)
    order = sel.args.get("order")
    in_order = not aggregating and order is not None and any(has_subquery(o.this) for o in order.expressions)
    in_items = not aggregating and any(has_subquery(e) for e in sel.expressions)
    if not has_subquery(where.this if where is not None else None) and not in_items and not in_order:
        return None             # (a query that aggregates joins its select list's subqueries to its aggregate)
    ctx = sb.ctx
    sel = sel.copy()
    if where is not None:
        plain, predicates, scalar = [], [], []
        for c in conjuncts(sel.args["where"].this):
            inner = c.this if isinstance(c, exp.Not) else c
            while isinstance(inner, exp.Paren):
                inner = inner.this
            if is_predicate(inner):
                predicates.append((inner, isinstance(c, exp.Not)))
            elif has_subquery(c):
                scalar.append(c)
            else:
                plain.append(c)
        if plain:
            node = sb._where(node, scope, _and(plain))
        for pred, negated in predicates:
            node, scope = _semi_join(sb, node, scope, pred, negated)
        rest = []
        for c in scalar:
            node, scope, c = _scalars(sb, node, scope, c, in_where=True)
            rest.append(c)
        if rest:
            node = sb._where(node, scope, _and(rest))
        sel.set("where", None)
    items = []
    for i, e in enumerate(sel.expressions):
        if in_items and has_subquery(e):
            unaliased = isinstance(e, exp.Subquery)
            node, scope, e = _scalars(sb, node, scope, e)
            if unaliased:
                e = exp.alias_(e, "EXPR$%d" % i, quoted=True)
        items.append(e)
    sel.set("expressions", items)
    for o in sel.args["order"].expressions if in_order else []:      # sorted on the subquery's field
        if has_subquery(o.this):
            node, scope, e = _scalars(sb, node, scope, o.this)
            o.set("this", e)
    return node, scope, sel


def _aggregates(sel):
    """Whether the select list of `sel` calls an aggregate (not counting those of subqueries in it)."""
    from .expressions import is_aggregate_call
    stack = list(sel.expressions)
    while stack:
        n = stack.pop()
        if isinstance(n, (exp.Subquery, exp.Select, exp.Exists)):
            continue
        if is_aggregate_call(n):
            return True
        stack.extend(n.iter_expressions())
    return False


def _and(parts):
    tree = parts[0]
    for p in parts[1:]:
        tree = exp.And(this=tree, expression=p)
    return tree


def _enclosing(bind):
    """`bind(sb, node, scope, ..)` of a subquery, with `scope` (its block's) an enclosing scope meanwhile."""
    @functools.wraps(bind)
    def binding(sb, node, scope, *args):
        scopes = enclosing_scopes(sb.ctx)
        scopes.append(scope)
        try:
            return bind(sb, node, scope, *args)
        finally:
            scopes.pop()
    return binding


def enclosing_scopes(ctx):
    """The scopes of the blocks whose subqueries are being bound, outermost first (kept on the binding's context)."""
    if not hasattr(ctx, "subquery_scopes"):
        ctx.subquery_scopes = []
    return ctx.subquery_scopes


# ---------------------------------------------------------------------- IN / EXISTS
@_enclosing
def _semi_join(sb, node, scope, pred, negated):
    ctx = sb.ctx
    query = pred.this if isinstance(pred, exp.Exists) else pred.args["query"]
    query = query.this if isinstance(query, exp.Subquery) else query
    from .nested_outer_subqueries import hoist_nested      # its own subqueries naming this block only: first
    block_scope = scope
    node, scope, query = hoist_nested(sb, node, scope, query, predicates=isinstance(pred, exp.Exists))
    query = hoisted(sb, query, scope)
    by_values = _semi_by_outer_values(sb, node, scope, query, pred, negated)
    query, pulled = by_values or _decorrelate(sb, query, scope)
    right, _ = sb.binder.bind_query(query)
    conditions = []                     # condition trees over the joined scope
    null_aware = []                     # NOT IN: (left ast, right field) pairs compared null-aware
    if isinstance(pred, exp.In):
        operand = pred.this
        values = operand.expressions if isinstance(operand, exp.Tuple) else [operand]
        width = len(right.fields) - len(pulled)
        if len(values) != width:
            raise SqlError("The subquery of IN returns %d column%s, but %d value%s compared with it"
                           % (width, "" if width == 1 else "s", len(values), "" if len(values) == 1 else "s"),
                           *ctx.pos(pred))
        for v, f in zip(values, right.fields[:width]):
            pair = (v, exp.column(_right_name(f.name), table=SQ, quoted=True))
            (null_aware if negated else conditions).append(pair)
    anti = negated
    join = Join(node, right, "INNER", [], [], position=ctx.pos(pred))
    joined = _joined_scope(join, scope, right)
    binder = ExpressionBinder(ctx, joined)
    parts = [binder.bind(exp.EQ(this=a.copy(), expression=b)) for a, b in conditions]
    for a, b in null_aware:
        eq = binder.bind(exp.EQ(this=a.copy(), expression=b))
        if eq.type is not None and not eq.type.nullable:
            parts.append(eq)
            continue
        la, rb = binder.bind(a.copy()), binder.bind(b.copy())
        tree = exp.EQ(this=a.copy(), expression=b.copy())
        if la.type is None or la.type.nullable:
            tree = exp.Or(this=tree, expression=exp.Is(this=a.copy(), expression=exp.Null()))
        if rb.type is None or rb.type.nullable:
            tree = exp.Or(this=tree, expression=exp.Is(this=b.copy(), expression=exp.Null()))
        parts.append(binder.bind(exp.Paren(this=tree)))
    parts += [binder.bind(c) for c in pulled]
    names = join.field_names
    nleft = len(node.fields)
    left_keys, right_keys, rest = [], [], []
    for e in parts:
        for c in conjuncts(e.tree):
            pair = field_equality(c)
            if pair is not None:
                a, b = (names.index(x) for x in pair)
                if (a < nleft) != (b < nleft):
                    li, ri = (a, b) if a < nleft else (b, a)
                    left_keys.append(node.fields[li].name)
                    right_keys.append(right.fields[ri - nleft].name)
                    continue
            rest.append(c)
    condition = finish(_and([exp.Paren(this=c) if isinstance(c, exp.Or) else c for c in rest]), ctx) \
        if rest else None
    semi = SemiJoin(node, right, anti, left_keys, right_keys, condition, position=ctx.pos(pred))
    from ..rules import window_semi_join      # both sides' windows equated: a window semi/anti join
    semi = window_semi_join.rewrite(semi)
    return semi, _rescoped(block_scope, semi)


def _semi_by_outer_values(sb, node, scope, query, pred, negated):
    """IN / EXISTS subquery `query` whose WHERE holds a subquery naming both it and this block (`scope`), planned
    as scalar_by_outer_values.py plans a scalar one: D (the distinct outer values it reads) joined to its FROM,
    the nested subquery reading D's columns (one level out). -> (the query, the semi join's conditions pairing
    the outer columns with D's), or None for any other subquery."""
    from .scalar_by_outer_values import REFUSED_CLAUSES, nested_outer_columns, user_items, with_outer_values
    if not isinstance(query, exp.Select) or query.args.get("where") is None:
        return None
    _, inner = bind_inner(sb, query, scope)
    if not nested_outer_columns(query, inner, scope):
        return None
    if negated and isinstance(pred, exp.In):
        raise UnsupportedError("NOT IN with a subquery whose own subquery refers to the query two levels out is not "
                               "supported", *sb.ctx.pos(pred), hint="NOT EXISTS can say it")
    for arg in REFUSED_CLAUSES:
        if query.args.get(arg) is not None or _aggregates(query):
            raise UnsupportedError("A correlated subquery with %s is not supported yet"
                                   % (arg.upper() if query.args.get(arg) is not None else "an aggregate"),
                                   *sb.ctx.pos(query))
    kept, correlated = [], []
    for c in conjuncts(query.args["where"].this):
        outer = any(_side(col, inner, scope, sb.ctx) == "outer" for col in _columns(c))
        (correlated if outer else kept).append(c)
    query, outer_names, keys, _ = with_outer_values(sb, node, scope, query, user_items(query, inner), kept,
                                                    correlated, sb.ctx.pos(pred), scalar=False)
    pulled = []
    for field_name, d in outer_names.items():
        entry = next(e for e in scope.entries if e.field.name == field_name)
        pulled.append(exp.EQ(this=exp.column(entry.name, table=entry.qualifier, quoted=True),
                             expression=exp.column(_right_name(keys[d]), table=SQ, quoted=True)))
    return query, pulled


def _right_name(name):
    return "$r:" + name


def _joined_scope(join, scope, right):
    """The outer block's names and the subquery's fields (qualified by SQ), pointing at the join's row."""
    entries = [ScopeEntry(e.qualifier, e.name, join.field(join.output_name(0, e.field.name))) for e in scope.entries
               if e.field.name in join.left.field_names]
    entries += [ScopeEntry(SQ, _right_name(f.name), join.field(join.output_name(1, f.name))) for f in right.fields]
    return Scope(entries)


def _rescoped(scope, node):
    """`scope`'s entries pointing at `node`'s fields of the same names (a join's output retypes them)."""
    return Scope([ScopeEntry(e.qualifier, e.name, node.field(e.field.name)) for e in scope.entries])


def _decorrelate(sb, query, outer):
    """The subquery without its correlated WHERE conjuncts, and those conjuncts with the subquery's columns
    renamed to the select items added for them (`$sq`.`$r:$cN`)."""
    if not isinstance(query, exp.Select):
        return query, []
    where = query.args.get("where")
    if where is None:
        _check_uncorrelated(sb, query, outer)
        return query, []
    _, inner = bind_inner(sb, query, outer)
    kept, pulled, added = [], [], []
    for c in conjuncts(where.this):
        refs = [(col, _side(col, inner, outer, sb.ctx)) for col in _columns(c)]
        if not any(side == "outer" for _, side in refs):
            kept.append(c)
            continue
        c = c.copy()
        for col in _columns(c):
            if _side(col, inner, outer, sb.ctx) == "inner":
                name = sb.ctx.fresh("$c")
                added.append(exp.alias_(col.copy(), name, quoted=True))
                col.replace(exp.column(_right_name(name), table=SQ, quoted=True))
        pulled.append(c)
    if not pulled:
        _check_uncorrelated(sb, query, outer)
        return query, []
    for arg in ("group", "having", "limit", "offset", "distinct", "order"):
        if query.args.get(arg) is not None:
            raise UnsupportedError("A correlated subquery with %s is not supported yet" % arg.upper(),
                                   *sb.ctx.pos(query))
    if _aggregates(query):
        raise UnsupportedError("A correlated IN or EXISTS subquery that aggregates is not supported yet",
                               *sb.ctx.pos(query))
    query = query.copy()
    query.set("where", exp.Where(this=_and(kept)) if kept else None)
    query.set("expressions", list(query.expressions) + added)
    _check_uncorrelated(sb, query, outer)
    return query, pulled


def _check_uncorrelated(sb, query, outer):
    """A column of `query` that only the outer block has (a correlation outside WHERE's conjuncts): refused."""
    if not isinstance(query, exp.Select):
        return
    try:
        _, inner = bind_inner(sb, query, outer)
    except UnsupportedError:
        raise
    except SqlError:
        return
    for col in _columns(query):
        if _side(col, inner, outer, sb.ctx) == "outer":
            raise UnsupportedError("The subquery refers to '%s' of the outer query outside a condition of its WHERE: "
                                   "not supported" % ".".join(column_parts(col)), *sb.ctx.pos(col))


def bind_inner(sb, query, outer):
    """The FROM of subquery `query` bound -> (node, scope). A subquery in that FROM naming a table of the outer
    block (`outer`) is refused in words, where its own binding would not find the table."""
    from .relations import bind_from
    try:
        return bind_from(sb.binder, query)
    except SqlError as error:
        m = re.match(r"Table '(.*)' not found$", error.message)
        if m is None or m.group(1) not in outer.qualifiers:
            raise
        raise UnsupportedError("A subquery in the FROM of a subquery refers to table '%s' of the outer query: not "
                               "supported yet" % m.group(1), error.line, error.column,
                               hint="move the condition naming '%s' to the subquery's WHERE" % m.group(1))


def _refuse_farther_out(col, parts, inner, ctx):
    """A column of a subquery that only a block two or more levels out has: refused in words."""
    try:
        inner.resolve(parts, (None, None))
        return
    except SqlError:
        pass
    for scope in enclosing_scopes(ctx)[:-1]:
        try:
            scope.resolve(parts, (None, None))
        except SqlError:
            continue
        raise UnsupportedError("The subquery refers to '%s' of a query two or more levels out: not supported"
                               % ".".join(parts), *ctx.pos(col),
                               hint="correlate a subquery with the query right around it only")


def _columns(tree):
    """The column references of `tree`, not those of a subquery nested in it."""
    out = []
    stack = [tree]
    while stack:
        n = stack.pop()
        if n is not tree and isinstance(n, (exp.Subquery, exp.Select, exp.Exists)):
            continue
        if isinstance(n, exp.Column) and not isinstance(n.this, exp.Star) and "field" not in n.meta:
            out.append(n)
            continue
        stack.extend(n.iter_expressions())
    return out


def _side(col, inner, outer, ctx):
    """Whether column `col` of a subquery is its own ("inner") or the outer block's ("outer"). One qualified by a
    table of the outer block only that has no such column: the outer block's error (`Column 'x' not found in
    table 'o'`), at the column."""
    parts = column_parts(col)
    if parts is None:
        return "inner"
    try:
        inner.resolve(parts, (None, None))
        return "inner"
    except SqlError:
        pass
    try:
        outer.resolve(parts, (None, None))
        return "outer"
    except SqlError:
        _refuse_farther_out(col, parts, inner, ctx)
        if len(parts) >= 2 and parts[0] in outer.qualifiers and parts[0] not in inner.qualifiers:
            outer.resolve(parts, ctx.pos(col))
        if len(parts) >= 2 and parts[0] not in inner.qualifiers + outer.qualifiers:   # (hint: both's tables)
            Scope(inner.entries + outer.entries).resolve(parts, ctx.pos(col))
        return "inner"          # unknown: the subquery's own binding names the error


# ---------------------------------------------------------------------- scalar subqueries
def _scalars(sb, node, scope, tree, in_where=False):
    """Every scalar subquery in `tree` joined to `node`; -> (node, scope, tree with each replaced by its field).
    IN and EXISTS in `tree` are counted first (`as_counts`: scalar subqueries that COUNT)."""
    ctx = sb.ctx
    tree = as_counts(tree.copy(), scope, in_where, sb)
    outermost = [n for n in tree.walk() if isinstance(n, exp.Subquery)     # (found before joining any: binding
                 and not any(isinstance(p, exp.Subquery) or is_predicate(p)   # one may re-parent its insides)
                             for p in _ancestors(n, tree)) and not is_predicate(n.parent)]
    base = node     # the block's rows before any subquery's join: a subquery planned per outer value reads them
    for sub in outermost:
        from .nested_outer_subqueries import hoist_nested      # its own subqueries naming this block only: first
        node, wider, query = hoist_nested(sb, node, scope, sub.this)
        sub.set("this", query)
        node, _, field = _scalar_join(sb, node, wider, sub, base)
        scope = _rescoped(scope, node)
        ref = exp.Column(this=exp.to_identifier(field.name, quoted=True))
        ref.meta["field"] = field
        ref.meta["position"] = ctx.pos(sub)
        if sub is tree:
            tree = ref
        else:
            sub.replace(ref)
    return node, scope, tree


def _ancestors(n, root):
    p = n.parent
    while p is not None and p is not root.parent:
        yield p
        if p is root:
            return
        p = p.parent


@_enclosing
def _scalar_join(sb, node, scope, sub, base=None):
    """Scalar subquery `sub` joined to `node` (`base`: the block's rows before the joins of its other
    subqueries). -> (node, scope, its value's field)."""
    ctx = sb.ctx
    query = sub.this
    line, column = ctx.pos(sub)
    message = "A scalar subquery returned more than one row (at line %s, column %s)" % (line, column)
    query, pulled, empty = _decorrelate_scalar(sb, hoisted(sb, query, scope), scope)
    values = len(empty.calls) if empty is not None else 1      # the value, or the calls a value reads
    if isinstance(pulled, ByOuterValues):
        from .scalar_by_outer_values import join_by_outer_values
        join, fields = join_by_outer_values(sb, node, scope, sub, query, pulled.kept, pulled.correlated,
                                            pulled.aggregates, message, values, base)
        return _joined(ctx, join, _rescoped(scope, join), fields, pulled.is_count, empty)
    right, _ = sb.binder.bind_query(query)
    width = len(right.fields) - len(pulled)
    if width != values:
        raise SqlError("A scalar subquery must return one column, not %d" % width, *ctx.pos(sub))
    if not pulled and not _single_row(query):       # Flink's SINGLE_VALUE: more than one row fails at run time
        f = right.fields[0]
        name = ctx.fresh("$f")
        right = GroupAggregate(right, [], [AggCall("SINGLE_VALUE", (f.name,), name=name,
                                                   type=typing.nullable(f.type, True) if f.type else None,
                                                   options=(message,))], position=ctx.pos(sub))
    keys, computed = [], []
    for outer_ast, _ in pulled:
        e = ExpressionBinder(ctx, scope).bind(outer_ast)
        if e.field is None:
            computed.append((e, ctx.fresh("$f")))
            keys.append(computed[-1][1])
        else:
            keys.append(e.field)
    if computed:
        node = Calc(node, [(Expr.of_field(x), x.name) for x in node.fields] + computed, position=ctx.pos(sub))
    kind = "INNER" if sub.meta.get("inner_join") and not pulled else "LEFT"    # (subquery_counts.py)
    join = Join(node, right, kind, keys, [f.name for f in right.fields[values:]], position=ctx.pos(sub))
    if not join.left_keys:
        join.condition = finish(exp.true(), ctx)
    fields = [join.field(join.output_name(1, f.name)) for f in right.fields[:values]]
    return _joined(ctx, join, _rescoped(scope, join), fields, any(c[1] for c in pulled), empty)


def _joined(ctx, join, scope, fields, is_count, empty=None):
    """The LEFT join of a scalar subquery -> (node, scope, its value's field); a correlated COUNT's value
    COALESCEd to 0 (no group is a count of 0); a value over the calls in `fields` computed (empty_group_value.py)."""
    if empty is not None:
        name = ctx.fresh("$f")
        calc = Calc(join, [(Expr.of_field(x), x.name) for x in join.fields] + [(empty.bind(ctx, scope, fields), name)],
                    position=join.position)
        return calc, _rescoped(scope, calc), calc.field(name)
    field = fields[0]
    if is_count:
        calc = Calc(join, [(finish(_coalesce_zero(x), ctx) if x.name == field.name else Expr.of_field(x), x.name)
                           for x in join.fields], position=join.position)
        return calc, _rescoped(scope, calc), calc.field(field.name)
    return join, scope, field


def _coalesce_zero(f):
    ref = exp.Column(this=exp.to_identifier(f.name, quoted=True))
    ref.meta["field"] = f
    return exp.Coalesce(this=ref, expressions=[exp.Literal.number(0)])


def _single_row(query):
    """Whether the subquery returns at most one row: an aggregate without GROUP BY."""
    while isinstance(query, exp.Subquery):
        query = query.this
    if not isinstance(query, exp.Select) or query.args.get("group") is not None:
        return False
    from .expressions import is_aggregate_call
    if query.args.get("having") is not None:
        return _aggregates(query)
    return len(query.expressions) >= 1 and _aggregates(query) and not any(
        isinstance(n, exp.Window) for e in query.expressions for n in e.walk()) and \
        all(_only_aggregates(e, is_aggregate_call) for e in query.expressions)


def _only_aggregates(e, is_aggregate_call):
    if is_aggregate_call(e) or isinstance(e, exp.Literal):
        return True
    if isinstance(e, exp.Column):
        return False
    return all(_only_aggregates(c, is_aggregate_call) for c in e.iter_expressions())


def _decorrelate_scalar(sb, query, outer):
    """A correlated scalar subquery `SELECT agg FROM r WHERE r.k = o.k AND ...` -> the subquery grouped by its
    correlated columns (`SELECT agg, r.k AS $cN FROM r WHERE ... GROUP BY r.k`), [(outer expression ast,
    is a COUNT)] in the order of the added columns (a ByOuterValues for a non-equality), and its EmptyGroupValue
    (None: the value over no rows is NULL or a plain COUNT's 0)."""
    if not isinstance(query, exp.Select) or query.args.get("where") is None and not _outer_items(sb, query, outer):
        _check_uncorrelated(sb, query, outer)
        return query, [], None
    _, inner = bind_inner(sb, query, outer)
    kept, pulled, added, correlated = [], [], [], []
    from .scalar_by_outer_values import nested_outer_columns
    by_values = bool(_outer_items(sb, query, outer)        # a select item over outer columns, or a subquery
                     or nested_outer_columns(query, inner, outer))   # naming them: per outer value
    where = query.args.get("where")
    for c in conjuncts(where.this) if where is not None else []:
        sides = [_side(col, inner, outer, sb.ctx) for col in _columns(c)]
        if "outer" not in sides:
            kept.append(c)
            continue
        eq = c
        while isinstance(eq, exp.Paren):
            eq = eq.this
        ok = isinstance(eq, exp.EQ)
        if ok:
            a_sides = {_side(col, inner, outer, sb.ctx) for col in _columns(eq.this)}
            b_sides = {_side(col, inner, outer, sb.ctx) for col in _columns(eq.expression)}
            if a_sides == {"inner"} and b_sides == {"outer"}:
                inner_ast, outer_ast = eq.this, eq.expression
            elif a_sides == {"outer"} and b_sides == {"inner"}:
                inner_ast, outer_ast = eq.expression, eq.this
            else:
                ok = False
        correlated.append(c)
        if not ok:
            by_values = True
            continue
        name = sb.ctx.fresh("$c")
        added.append((inner_ast, name))
        pulled.append(outer_ast)
    if not correlated and not by_values:
        _check_uncorrelated(sb, query, outer)
        return query, [], None
    if query.args.get("group") is not None or _aggregates(query) and not _single_row(query):
        raise UnsupportedError("A correlated scalar subquery must aggregate without GROUP BY", *sb.ctx.pos(query))
    empty = empty_group_value(sb, query) if _aggregates(query) else None
    is_count = empty is None and _is_count(query)
    if empty is not None:                       # its aggregate calls, the value computed over the join
        query = query.copy()
        query.set("expressions", empty.select_items())
        query.set("having", None)
    if by_values or not _aggregates(query):     # a non-equality, or no aggregate: per distinct outer value
        return query, ByOuterValues(kept, correlated, _aggregates(query), is_count), empty
    query = query.copy()
    query.set("where", exp.Where(this=_and(kept)) if kept else None)
    query.set("expressions", list(query.expressions) + [exp.alias_(a.copy(), n, quoted=True) for a, n in added])
    query.set("group", exp.Group(expressions=[a.copy() for a, _ in added]))
    _check_uncorrelated(sb, query, outer)
    return query, [(o, is_count) for o in pulled], empty


def _outer_items(sb, query, outer):
    """The select items of subquery `query` that name a column of the outer block (`outer`)."""
    if not any(_columns(e) for e in query.expressions):
        return []
    try:
        _, inner = bind_inner(sb, query, outer)
    except UnsupportedError:
        raise
    except SqlError:
        return []
    return [e for e in query.expressions if any(_side(c, inner, outer, sb.ctx) == "outer" for c in _columns(e))]


def _is_count(query):
    """Whether the subquery's value is a COUNT (no inner row: 0; a COUNT inside an expression is an
    EmptyGroupValue's)."""
    item = query.expressions[0]
    item = item.this if isinstance(item, exp.Alias) else item
    from .expressions import is_aggregate_call
    return is_aggregate_call(item) and (item.this if isinstance(item, exp.Filter) else item).key == "count"


class ByOuterValues:
    """_decorrelate_scalar's answer for a subquery planned per distinct outer value (scalar_by_outer_values.py):
    its uncorrelated and correlated WHERE conjuncts, whether it aggregates, whether its value is a COUNT."""

    def __init__(self, kept, correlated, aggregates, is_count):
        self.kept, self.correlated, self.aggregates, self.is_count = kept, correlated, aggregates, is_count
