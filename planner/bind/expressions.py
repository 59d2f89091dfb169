"""Binding expressions: names resolved against a scope, Flink types inferred, Flink's functions mapped to
Spark SQL with Flink's semantics. `ExpressionBinder.bind(node)` -> `plan.expr.Expr`.

Two steps, so the SELECT binder can match GROUP BY keys and aggregate calls in between:
`resolve(node)` copies the tree with every column replaced by a reference to the input field holding it
(`field_ref`: a column carrying its Field in `meta["field"]`, under `Dot`s for nested ROW fields);
`finish(resolved)` infers the type and writes the Spark SQL. An aggregate or window call is refused by
`resolve`: the SELECT binder takes them out first."""

import re

from sqlglot import exp

from ..dialect import Flink
from ..errors import SqlError, UnsupportedError
from ..functions_collections import canonical_call
from ..functions import is_aggregate_name, is_mapped_call, map_anonymous, map_parsed
from ..literals import number_type
from ..plan.expr import Expr
from ..python_functions.calls import python_function_call
from ..types import parse_type
from . import arithmetic, casts
from . import types as typing
from .bottom_up import rewrite_bottom_up
from .operand_checks import check_operands
from .overlaps import rewrite_overlaps
from .similar_to import similar_to_regexp
from .time_zones import localize, tag as tag_time_zone

_INTEGRAL = {"TINYINT", "SMALLINT", "INT", "BIGINT"}
_UNIT_FIRST = {"TIMESTAMPADD", "TIMESTAMPDIFF"}     # functions whose first argument is a time unit
_NIL_FUNCTIONS = {"LOCALTIMESTAMP", "CURRENT_TIMESTAMP", "CURRENT_DATE", "LOCALTIME", "CURRENT_TIME"}


def is_aggregate_call(node):
    if isinstance(node, exp.Filter):
        return is_aggregate_call(node.this)
    if isinstance(node, (exp.IgnoreNulls, exp.RespectNulls)):      # ARRAY_AGG(x IGNORE NULLS)
        return is_aggregate_call(node.this)
    if isinstance(node, exp.AggFunc):
        return not isinstance(node, (exp.Grouping, exp.GroupingId))    # computed from the grouping (grouping_sets.py)
    return isinstance(node, exp.Anonymous) and is_aggregate_name(node.name)


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


def cast_to(tree, flink_type):
    """`CAST(tree AS flink_type)` as a resolved tree (the target type already known)."""
    from ..types import to_spark   # noqa: F401  (types only)
    cast = exp.Cast(this=tree, to=exp.DataType.build(_spark_type_name(flink_type), dialect="spark"))
    cast.meta["flink_type"] = flink_type
    return cast


def _spark_type_name(ft):
    from .binder import spark_type_sql
    return spark_type_sql(ft)


def referenced_fields(resolved):
    return tuple(dict.fromkeys(n.meta["field"].name for n in resolved.find_all(exp.Column) if "field" in n.meta))


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
            if len(parts) == 1 and parts[0].upper() in _NIL_FUNCTIONS and isinstance(node, exp.Column) \
                    and not node.this.quoted and not any(e.name == parts[0] for e in self.scope.entries):
                return node     # LOCALTIMESTAMP, CURRENT_DATE, ...: a function, mapped by to_spark
            position = self.ctx.pos(node)
            entry, path = self.scope.resolve(parts, position)
            return field_ref(entry.field, path, position)
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
            return call
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


def finish(resolved, ctx=None):
    """A resolved tree -> Expr: its Flink type, the fields it reads, and its Spark SQL, written when the runtime
    asks for it. A tree with calls to map is mapped now (its Spark tree kept): a call Spark cannot run is
    refused here, at its place in the statement."""
    types = {}
    typeof = typer(types)
    ftype = typeof(resolved)
    if ctx is not None:
        check_operands(resolved, typeof, ctx.pos)
    spark = to_spark(resolved, ctx) if any(is_mapped_call(n) for n in resolved.walk()) else None
    return bound(resolved, ftype, spark, types)


def bound(resolved, ftype, spark=None, types=None):
    """The Expr of a resolved tree of type `ftype`; `spark`: its Spark tree (None: made from the tree when the
    SQL is asked for); `types`: the memo of `typer` its nodes' types are in."""
    field = resolved.meta["field"].name if isinstance(resolved, exp.Column) and "field" in resolved.meta else None
    literal, is_literal = None, False
    lit = resolved.this if isinstance(resolved, exp.Neg) else resolved
    if isinstance(lit, exp.Literal):
        is_literal = True
        literal = lit.name if lit.is_string else _number(lit.name, isinstance(resolved, exp.Neg))
    return Expr(spark=spark, type=ftype, refs=referenced_fields(resolved), field=field,
                literal=literal, is_literal=is_literal, tree=resolved, types=types)


def typer(types):
    """`typeof(node)`: a resolved node's Flink type, each node's inferred once and kept in `types`
    (id -> (node, type): the node kept alive, so that no other node takes its id while the memo lives)."""
    def typeof(n):
        hit = types.get(id(n))
        if hit is None or hit[0] is not n:          # (a copied memo's ids are its original nodes')
            hit = types[id(n)] = (n, typing.infer(n, typeof))
        return hit[1]
    return typeof


# ---------------------------------------------------------------------- Flink -> Spark
def to_spark(node, ctx=None):
    """A resolved Flink tree -> the same computation as a Spark SQL tree (Flink's semantics kept): a copy,
    rewritten; the types the rewrite asks for are inferred on the copy (arithmetic and subscripts only)."""
    types = {}
    typeof = typer(types)

    def integral(e):
        ft = typeof(e)
        return ft is not None and ft.name in _INTEGRAL

    def is_float(e):
        ft = typeof(e)
        return ft is not None and ft.name == "FLOAT"

    def rewrite(n):
        if isinstance(n, exp.Column) and "field" in n.meta:
            return exp.Column(this=exp.to_identifier(n.meta["field"].name, quoted=True))
        if isinstance(n, exp.Dot) and isinstance(n.expression, exp.Identifier) and not n.expression.quoted:
            n.expression.set("quoted", True)     # `EXPR$0` (in place: a replaced node's children are not visited)
            return n
        typed = _typeof_argument(n)
        if typed is not None and typeof(typed) is not None:     # TYPEOF(x): Flink's type of x, as Flink names it
            return exp.Literal.string(typeof(typed).text())
        try:
            local = localize(n, typeof)         # what the session time zone changes (time_zones.py)
        except SqlError as err:
            if err.line is None and ctx is not None:
                err.line, err.column = ctx.pos(n)
            raise
        if local is not None:
            return local
        flink_arithmetic = arithmetic.rewrite(n, typeof, lambda c: c)
        if flink_arithmetic is not None:       # Java's wrap-around, DECIMAL overflow as NULL (arithmetic.py);
                                               # its arguments are in Spark's form already (bottom-up)
            return flink_arithmetic
        if isinstance(n, (exp.Add, exp.Sub, exp.Mul, exp.Div)) and is_float(n) and not isinstance(n.parent, exp.Cast):
            return exp.Cast(this=n.copy(), to=exp.DataType.build("FLOAT"))    # Spark widens FLOAT to DOUBLE
        if isinstance(n, exp.Anonymous) and not n.meta.get("spark"):
            if n.name.upper() == "ROW":
                return exp.Anonymous(this="named_struct", expressions=[
                    x for i, a in enumerate(n.expressions) for x in (exp.Literal.string("EXPR$%d" % i), a)])
            try:
                return map_anonymous(n)
            except SqlError as err:
                if err.line is None and ctx is not None:
                    err.line, err.column = ctx.pos(n)
                raise
        if not isinstance(n, exp.Anonymous) and is_mapped_call(n):      # (SIMILAR TO is no Func)
            try:
                mapped = map_parsed(n)
            except SqlError as err:
                if err.line is None and ctx is not None:
                    err.line, err.column = ctx.pos(n)
                raise
            if mapped is not n:
                return mapped
        if isinstance(n, exp.Div) and integral(n.this) and integral(n.expression):
            return exp.IntDiv(this=n.this, expression=n.expression)
        if isinstance(n, (exp.Cast, exp.TryCast)):
            flink_cast = casts.rewrite(n, typeof(n.this), n.meta.get("flink_type"), lambda c: c)
            return flink_cast if flink_cast is not None else _spark_cast(n)     # Java's narrowing (casts.py)
        if isinstance(n, exp.TimestampDiff):
            unit, start, end = n.this, n.expression, n.args.get("unit")
            call = exp.Anonymous(this="TIMESTAMPDIFF", expressions=[exp.var(unit.name.upper()), start, end])
            call.meta["spark"] = True
            return call
        if isinstance(n, exp.Bracket):
            base = typeof(n.this)
            if base is not None and base.name in ("ARRAY", "MAP"):   # Flink: 1-based, NULL when missing
                call = exp.Anonymous(this="TRY_ELEMENT_AT", expressions=[n.this, n.expressions[0]])
                call.meta["spark"] = True
                return call
        if isinstance(n, exp.Column) and not n.table and not n.this.quoted and n.name.upper() in _NIL_FUNCTIONS:
            name = n.name.upper()
            if name == "CURRENT_DATE":
                return exp.CurrentDate()
            if name in ("LOCALTIME", "CURRENT_TIME"):
                return exp.Anonymous(this="DATE_FORMAT", expressions=[exp.CurrentTimestamp(),
                                                                      exp.Literal.string("HH:mm:ss")])
            return exp.CurrentTimestamp()
        if isinstance(n, exp.Floor) and n.args.get("to") is not None:
            return exp.Anonymous(this="DATE_TRUNC", expressions=[exp.Literal.string(n.args["to"].name.upper()), n.this])
        if isinstance(n, exp.Ceil) and n.args.get("to") is not None:
            unit = n.args["to"].name.upper()
            trunc = exp.Anonymous(this="DATE_TRUNC", expressions=[exp.Literal.string(unit), n.this])
            return exp.If(this=exp.EQ(this=trunc.copy(), expression=n.this.copy()), true=trunc.copy(),
                          false=exp.Add(this=trunc, expression=exp.Interval(this=exp.Literal.string("1"),
                                                                            unit=exp.var(unit))))
        return n

    return rewrite_bottom_up(node.copy(), rewrite, types, typeof)


def _typeof_argument(n):
    """The argument of a TYPEOF call, or None."""
    if isinstance(n, exp.Typeof):
        return n.this
    if isinstance(n, exp.Anonymous) and n.name.upper() == "TYPEOF" and len(n.expressions) == 1:
        return n.expressions[0]
    return None


def cast_type(node, ctx):
    """The Flink type a CAST names (checked: Flink's limits), or raise a SqlError at the CAST."""
    text = node.to.sql(dialect=Flink).upper().replace("TEXT", "STRING")
    text = re.sub(r"^TIMESTAMPLTZ", "TIMESTAMP_LTZ", text)
    try:
        return parse_type(text)
    except SqlError as e:
        raise SqlError(e.message, *ctx.pos(node), hint=e.hint)


def _spark_cast(node):
    """Flink CAST targets -> Spark: VARCHAR(n)/CHAR(n) are STRING; TIMESTAMP(p) truncates to p digits."""
    to = node.to
    name = to.this.name.upper() if hasattr(to.this, "name") else str(to.this).upper()
    if name in ("VARCHAR", "CHAR", "NCHAR", "NVARCHAR", "TEXT"):
        node.set("to", exp.DataType.build("STRING"))
        return node
    if name in ("TIMESTAMP", "TIMESTAMPLTZ", "TIMESTAMP_LTZ", "TIMESTAMPTZ"):
        flink = node.meta.get("flink_type")
        p = flink.params[0] if flink is not None and flink.params else 6
        node.set("to", exp.DataType.build("TIMESTAMP"))
        if p < 6:
            unit = "SECOND" if p == 0 else "MILLISECOND" if p <= 3 else "MICROSECOND"
            return exp.Anonymous(this="DATE_TRUNC", expressions=[exp.Literal.string(unit), node])
        return node
    return node


def _number(text, negative):
    if re.fullmatch(r"\d+", text):
        v = int(text.lstrip("0") or "0")          # at most 19 digits once the binder checked its range
    elif re.fullmatch(r"\d*\.?\d*(e[+-]?\d+)?", text, re.I):
        v = float(text)
    else:
        return None
    return -v if negative else v


def _call_name(node):
    return node.name if isinstance(node, exp.Anonymous) else node.key


def explain_text(resolved):
    """How EXPLAIN shows a bound expression: the SQL with columns named by their input fields."""
    def plain(n):
        if isinstance(n, exp.Column) and "field" in n.meta:
            return exp.Column(this=exp.to_identifier(n.meta["field"].name, quoted=False))
        if isinstance(n, exp.Dot) and isinstance(n.expression, exp.Identifier):
            return exp.Dot(this=n.this, expression=exp.to_identifier(n.expression.name, quoted=False))
        if isinstance(n, exp.Anonymous) and "python_function" in n.meta:      # by the name the user called
            return exp.Anonymous(this=n.meta["python_function"].name,
                                 expressions=[e.transform(plain) for e in n.expressions])
        return n
    return resolved.transform(plain, copy=True).sql(dialect=Flink)
