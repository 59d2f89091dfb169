"""Binding expressions: names resolved against a scope; typing and writing them for Spark is the expression
layer's (planner/expr/translate.py). `ExpressionBinder.bind(node)` -> `Expr`.

Two steps, so the SELECT binder can match GROUP BY keys and aggregate calls in between:
`resolve(node)` copies the tree with every column replaced by a reference to the input field holding it
(`field_ref`: a column carrying its Field in `meta["field"]`, under `Dot`s for nested ROW fields);
`finish(resolved)` infers the type and writes the Spark SQL. An aggregate or window call is refused by
`resolve`: the SELECT binder takes them out first."""

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..expr.functions.collections import canonical_call
from ..expr.functions.registry import is_aggregate_name
from ..literals import number_type
from ..expr.similar_to import similar_to_regexp
from ..expr.time_zones import tag as tag_time_zone
from ..expr.translate import NIL_FUNCTIONS, cast_type, finish
from ..python_functions.calls import python_function_call
from ..expr.overlaps import rewrite_overlaps

_UNIT_FIRST = {"TIMESTAMPADD", "TIMESTAMPDIFF"}     # functions whose first argument is a time unit


def is_aggregate_call(node):
    if isinstance(node, exp.Filter):
        return is_aggregate_call(node.this)
    if isinstance(node, (exp.IgnoreNulls, exp.RespectNulls)):      # ARRAY_AGG(x IGNORE NULLS)
        return is_aggregate_call(node.this)
    if isinstance(node, exp.AggFunc):
        return not isinstance(node, (exp.Grouping, exp.GroupingId))    # computed from the grouping (grouping_sets.py)
    return isinstance(node, exp.Anonymous) and (is_aggregate_name(node.name) or "python_aggregate" in node.meta)


def column_parts(node):
    """The dotted name of a column reference (`t.bid.price` -> ['t', 'bid', 'price']), or None."""
    if isinstance(node, exp.Column):
        if isinstance(node.this, exp.Star):
            return None
        parts = [p.name for p in (node.args.get("catalog"), node.args.get("db"), node.args.get("table"))
                 if p is not None and p.name]
        return parts + [node.name]
    if isinstance(node, exp.Dot) and isinstance(node.expression, exp.Identifier):
        base = column_parts(node.this)
        return base + [node.expression.name] if base is not None else None
    return None


def field_ref(f, path=(), position=None):
    """A resolved reference to input field `f` (and a nested ROW path under it)."""
    ref = exp.Column(this=exp.to_identifier(f.name, quoted=True))
    ref.meta["field"] = f
    if position is not None:
        ref.meta["position"] = position
    for p in path:
        ref = exp.Dot(this=ref, expression=exp.to_identifier(p, quoted=True))
    return ref


class ExpressionBinder:
    """`allow_calls`: resolve inside aggregate and OVER calls instead of refusing them (the SELECT binder
    resolves a whole select item first, then swaps those calls for the fields that compute them)."""

    def __init__(self, ctx, scope, allow_calls=False):
        self.ctx = ctx
        self.scope = scope
        self.allow_calls = allow_calls

    def bind(self, node):
        return finish(self.resolve(node), self.ctx)

    def resolve(self, node):
        """A copy of `node` whose columns reference input fields."""
        return tag_time_zone(self._resolve(node.copy()), self.ctx)

    def _resolve(self, node):
        if isinstance(node, exp.Column) and "field" in node.meta:
            return node         # resolved already: a scalar subquery's field (planner/bind/subqueries.py)
        parts = column_parts(node)
        if parts is not None:
            if len(parts) == 1 and parts[0].upper() in NIL_FUNCTIONS and isinstance(node, exp.Column) \
                    and not node.this.quoted and not any(e.name == parts[0] for e in self.scope.entries):
                return node     # LOCALTIMESTAMP, CURRENT_DATE, ...: a function, mapped by to_spark
            position = self.ctx.pos(node)
            entry, path = self.scope.resolve(parts, position)
            return _marked_as(node, field_ref(entry.field, path, position))
        if isinstance(node, exp.Column) and isinstance(node.this, exp.Star):
            raise SqlError("'*' is not allowed here", *self.ctx.pos(node))
        if is_aggregate_call(node) and not self.allow_calls:
            name = node.this.key if isinstance(node, exp.Filter) else _call_name(node)
            raise SqlError("Aggregate function %s is not allowed here" % name.upper(), *self.ctx.pos(node),
                           hint="aggregates belong in the SELECT list or HAVING of a query that groups")
        if isinstance(node, exp.Window) and not self.allow_calls:
            raise SqlError("OVER windows are not allowed here", *self.ctx.pos(node),
                           hint="window functions belong in the SELECT list")
        if isinstance(node, (exp.Subquery, exp.Exists)) or isinstance(node, exp.In) and node.args.get("query"):
            raise UnsupportedError("A subquery is supported in WHERE and in the select list of a query only",
                                   *self.ctx.pos(node), hint="join the subquery in FROM instead")
        if isinstance(node, exp.Star):
            return node
        if isinstance(node, exp.Literal) and not node.is_string:
            try:
                number_type(node.name)                       # "Numeric literal '...' out of range"
            except SqlError as error:
                error.line, error.column = self.ctx.pos(node)
                raise
            return node
        node = canonical_call(node)          # sqlglot's typed ARRAY_* / MAP_* calls -> Flink's named calls
        if _is_map_constructor(node, self.scope):      # MAP['k', v, ...]: Spark's MAP('k', v, ...)
            call = exp.Anonymous(this="MAP", expressions=[self._resolve(e) for e in node.expressions])
            call.meta["spark"] = True
            return _marked_as(node, call)
        if isinstance(node, exp.Anonymous) and node.name.upper() in _UNIT_FIRST and node.expressions \
                and isinstance(node.expressions[0], exp.Column) and not node.expressions[0].table:
            node.expressions[0].replace(exp.var(node.expressions[0].name.upper()))    # TIMESTAMPADD(DAY, ...)
        if isinstance(node, exp.SimilarTo) or isinstance(node, exp.Escape) and isinstance(node.this, exp.SimilarTo):
            node = similar_to_regexp(node, self.ctx.pos(node))                           # s SIMILAR TO '...'
        if isinstance(node, exp.Overlaps):
            node = rewrite_overlaps(node, self.ctx.pos(node))                          # (s, e) OVERLAPS (s, e)
        if isinstance(node, exp.TimestampDiff) and isinstance(node.this, exp.Column) and not node.this.table:
            node.set("this", exp.var(node.this.name.upper()))                           # TIMESTAMPDIFF(DAY, ...)
        for key, value in list(node.args.items()):
            if isinstance(value, exp.Expression):
                resolved = self._resolve(value)
                if resolved is not value:
                    node.set(key, resolved)
            elif isinstance(value, list):
                resolved = [self._resolve(v) if isinstance(v, exp.Expression) else v for v in value]
                if any(r is not v for r, v in zip(resolved, value)):
                    node.set(key, resolved)
        if isinstance(node, (exp.Cast, exp.TryCast)):
            node.meta["flink_type"] = cast_type(node, self.ctx)
            _check_variant_cast(node, self.ctx)
        return python_function_call(node, self.ctx)     # a user's function (CREATE FUNCTION): its typed call


def refuse_bare_null(node, ctx):
    """A NULL the user wrote where nothing gives it a type (a select item, a VALUES cell, a GROUP BY key, an
    aggregate's argument): Flink's "Illegal use of 'NULL'" at it (CAST(NULL AS type) says which)."""
    if isinstance(node, exp.Null) and "start" in node.meta:
        raise SqlError("Illegal use of 'NULL'", *ctx.start(node), hint="give it a type: CAST(NULL AS INT)")


def _marked_as(written, resolved):
    """`resolved` with the parser's marks of the node it stands for (where its text opens, a `+` before it)."""
    for key in ("open", "unary_plus"):
        if key in written.meta:
            resolved.meta[key] = written.meta[key]
    return resolved


def _check_variant_cast(node, ctx):
    """Flink casts a VARIANT (PARSE_JSON, TRY_PARSE_JSON) to no other type: its words."""
    inner = node.this
    variant = isinstance(inner, exp.ParseJSON) or isinstance(inner, exp.Anonymous) and \
        inner.name.upper() in ("PARSE_JSON", "TRY_PARSE_JSON")
    target = node.meta["flink_type"]
    if variant and target.name != "VARIANT":
        name = "VARCHAR(2147483647)" if target.text(False) == "STRING" else target.text(False)
        raise SqlError("Cast function cannot convert value of type VARIANT to type %s" % name, *ctx.pos(node))


def _is_map_constructor(node, scope):
    """`MAP[k, v, ...]`, which sqlglot reads as a subscript of a column named MAP."""
    base = node.this if isinstance(node, exp.Bracket) else None
    return isinstance(base, exp.Column) and not base.table and not base.this.quoted and \
        base.name.upper() == "MAP" and not any(e.name.upper() == "MAP" for e in scope.entries)


def _call_name(node):
    return node.name if isinstance(node, exp.Anonymous) else node.key

