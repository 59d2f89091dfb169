"""Bound expressions written for Spark: a resolved Flink tree (its columns carry their input Fields) -> its
Flink type (`typer`, planner/expr/inference.py's rules) and the same computation as a Spark SQL tree with
Flink's semantics (`to_spark`: the function registry's translations, Java's arithmetic, Flink's CASTs, the
session time zone), and `finish`/`bound`: the `Expr` that carries both. The binder, the rules and
MATCH_RECOGNIZE call these; nothing here resolves names (planner/bind does)."""

import contextvars
import re

from sqlglot import exp

from ..dialect import Flink
from ..errors import SqlError
from .functions.registry import is_mapped_call, map_anonymous, map_parsed
from .bound import Expr
from .types import parse_type, spark_type_sql
from . import arithmetic, calcite_folds, casts, float_comparisons
from . import inference as typing
from .bottom_up import rewrite_bottom_up
from .operand_checks import check_operands
from .time_zones import flink_trunc, localize

_INTEGRAL = {"TINYINT", "SMALLINT", "INT", "BIGINT"}


NIL_FUNCTIONS = {"LOCALTIMESTAMP", "CURRENT_TIMESTAMP", "CURRENT_DATE", "LOCALTIME", "CURRENT_TIME"}


def cast_to(tree, flink_type):
    """`CAST(tree AS flink_type)` as a resolved tree (the target type already known)."""
    cast = exp.Cast(this=tree, to=exp.DataType.build(spark_type_sql(flink_type), dialect="spark"))
    cast.meta["flink_type"] = flink_type
    return cast


def referenced_fields(resolved):
    return tuple(dict.fromkeys(n.meta["field"].name for n in resolved.find_all(exp.Column) if "field" in n.meta))


def finish(resolved, ctx=None):
    """A resolved tree -> Expr: its Flink type, the fields it reads, and its Spark SQL, written when the runtime
    asks for it. A tree with calls to map is mapped now (its Spark tree kept): a call Spark cannot run is
    refused here, at its place in the statement."""
    types = {}
    typeof = typer(types)
    try:
        ftype = typeof(resolved)
    except SqlError as err:
        if err.line is None and ctx is not None and getattr(err, "node", None) is not None:
            err.line, err.column = _start(ctx, err.node)
        raise
    if ctx is not None:
        check_operands(resolved, typeof, lambda n: _start(ctx, n),
                       call_name=getattr(ctx, "call_name", lambda n: None))
    spark = to_spark(resolved, ctx) if any(is_mapped_call(n) for n in resolved.walk()) else None
    return bound(resolved, ftype, spark, types)


def _start(ctx, node):
    """Where Flink places an error in `node`: where its text begins (`ctx.pos` where the context has no text)."""
    return ctx.start(node) if hasattr(ctx, "start") else ctx.pos(node)


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
        if n is None:      # a call without an argument it needs (`JSON_ARRAYAGG()`): sqlglot leaves it None
            raise SqlError("Invalid number of arguments to a function: an argument it needs is missing",
                           hint="SHOW FUNCTIONS lists the functions; Flink's documentation gives their arguments")
        hit = types.get(id(n))
        if hit is None or hit[0] is not n:          # (a copied memo's ids are its original nodes')
            try:
                hit = types[id(n)] = (n, typing.infer(n, typeof))
            except SqlError as err:                 # the call it refuses, for `finish` to place the error
                if err.line is None and getattr(err, "node", None) is None:
                    err.node = n
                raise
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
        java_comparison = float_comparisons.rewrite(n, typeof)
        if java_comparison is not None:        # NaN compared as Java does (float_comparisons.py)
            return java_comparison
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
                mapped = float_comparisons.signed_zero_extreme(n, typeof, map_parsed) or map_parsed(n)
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
            if flink_cast is not None:
                return flink_cast                                   # Java's narrowing (casts.py)
            return casts.iso_t_refused(n, typeof(n.this), n.meta.get("flink_type"), _spark_cast(n))
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
        if isinstance(n, exp.Column) and not n.table and not n.this.quoted and n.name.upper() in NIL_FUNCTIONS:
            name = n.name.upper()
            if name == "CURRENT_DATE":
                return exp.CurrentDate()
            if name in ("LOCALTIME", "CURRENT_TIME"):
                return exp.Anonymous(this="DATE_FORMAT", expressions=[exp.CurrentTimestamp(),
                                                                      exp.Literal.string("HH:mm:ss")])
            return exp.CurrentTimestamp()
        if isinstance(n, exp.Floor) and n.args.get("to") is not None:
            return flink_trunc(n.args["to"].name.upper(), n.this)
        if isinstance(n, exp.Ceil) and n.args.get("to") is not None:
            unit = n.args["to"].name.upper()
            trunc = flink_trunc(unit, n.this)
            return exp.If(this=exp.EQ(this=trunc.copy(), expression=n.this.copy()), true=trunc.copy(),
                          false=exp.Add(this=trunc, expression=exp.Interval(this=exp.Literal.string("1"),
                                                                            unit=exp.var(unit))))
        return n

    active = _ACTIVE_TYPEOF.set(typeof)      # for a function's rewrite asking its argument's type (`typeof_now`)
    try:
        tree = float_comparisons.push_negations(node.copy(), typeof)
        tree = calcite_folds.simplify(tree, typeof)          # Calcite's folds that change a NaN's answer
        return rewrite_bottom_up(tree, rewrite, types, typeof)
    finally:
        _ACTIVE_TYPEOF.reset(active)


_ACTIVE_TYPEOF = contextvars.ContextVar("typeof", default=None)


def typeof_now(node):
    """The Flink type of an argument a function's rewrite is given inside `to_spark` (already in Spark's form:
    its type is the memo's, from before the rewrite), or None."""
    typeof = _ACTIVE_TYPEOF.get()
    if typeof is None:
        return None
    try:
        return typeof(node)
    except Exception:
        return None


def _typeof_argument(n):
    """The argument of a TYPEOF call, or None."""
    if isinstance(n, exp.Typeof):
        return n.this
    if isinstance(n, exp.Anonymous) and n.name.upper() == "TYPEOF" and len(n.expressions) == 1:
        return n.expressions[0]
    return None


def cast_type(node, ctx):
    """The Flink type a CAST names (checked: Flink's limits), or raise a SqlError at the CAST."""
    text = _type_text(node.to)
    if node.meta.get("typed_literal") and text in ("TIMESTAMP", "TIME") and isinstance(node.this, exp.Literal):
        # Flink types TIMESTAMP '2020-01-01 00:00:00' as TIMESTAMP(0), TIME '10:00:00.12' as TIME(2): its digits
        fraction = re.search(r"\.(\d+)\s*$", node.this.name)
        text = "%s(%d)" % (text, min(len(fraction.group(1)), 9) if fraction else 0)
    try:
        return parse_type(text)
    except SqlError as e:
        raise SqlError(e.message, *ctx.pos(node), hint=e.hint)


def _type_text(data_type):
    """A parsed type as Flink writes it (sqlglot's STRUCT as ROW, its fields' names as written)."""
    if data_type.this == exp.DType.STRUCT and data_type.expressions:
        return "ROW<%s>" % ", ".join("`%s` %s" % (f.name.replace("`", "``"), _type_text(f.args["kind"]))
                                     for f in data_type.expressions)
    if data_type.this in (exp.DType.ARRAY, exp.DType.MAP) and data_type.expressions:
        return "%s<%s>" % (data_type.this.value, ", ".join(_type_text(t) for t in data_type.expressions))
    text = data_type.sql(dialect=Flink).upper().replace("TEXT", "STRING")
    return re.sub(r"^TIMESTAMPLTZ", "TIMESTAMP_LTZ", text)


def _spark_cast(node):
    """Flink CAST targets -> Spark: VARCHAR(n)/CHAR(n) are STRING, BYTES is BINARY; TIMESTAMP(p) truncates to p
    digits."""
    to = node.to
    name = to.this.name.upper() if hasattr(to.this, "name") else str(to.this).upper()
    if name in ("VARCHAR", "CHAR", "NCHAR", "NVARCHAR", "TEXT"):
        node.set("to", exp.DataType.build("STRING"))
        return node
    flink = node.meta.get("flink_type")
    if flink is not None and flink.name == "VARBINARY" and flink.params == (2147483647,):
        node.set("to", exp.DataType.build("BINARY"))           # BYTES (Spark's BINARY holds any length)
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
