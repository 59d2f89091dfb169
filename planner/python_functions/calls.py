"""Binding calls to Python functions.

`python_function_call(node, ctx)` is the binder's one hook into function lookup (bind/expressions.py): a call
whose name is a function of the catalog becomes a call Spark runs under the name the runtime registers it by
(`PythonFunction.spark_name`), typed with the declared result type (`meta["result_type"]`, which
bind/types.py reads); its arguments are checked against the declared input types (and cast to them where
Flink casts implicitly). The functions a query calls are collected in `ctx.python_functions`, which the query
plan carries to the runtime.

`bind_lateral_table` binds `LATERAL TABLE(f(..))` in FROM: a table function's call gives an ARRAY of ROWs (its
rows for one input row), unnested as `CROSS JOIN UNNEST` / `LEFT JOIN UNNEST .. ON TRUE` are (bind/unnest.py)."""

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..expr.functions.registry import FLINK_FUNCTIONS
from ..expr.types import parse_type
from . import in_catalog

_NUMERIC = {"TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL", "FLOAT", "DOUBLE"}
_TEXT = {"CHAR", "VARCHAR"}


def python_function_call(node, ctx):
    """`node` (its arguments resolved) -> the call of the Python function it names, or `node` itself."""
    if not isinstance(node, exp.Anonymous) or "python_function" in node.meta or "python_aggregate" in node.meta:
        return node         # (an aggregate function's call: the SELECT binder's, aggregate_calls.py)
    fn = in_catalog.find(ctx.catalog, node.name)
    if fn is None or (not fn.system and node.name.upper() in FLINK_FUNCTIONS):
        return node         # not a user's function; or a catalog function a built-in hides (Flink's order)
    position = ctx.pos(node)
    if fn.kind == "aggregate":
        raise SqlError("Aggregate function %s is not allowed here" % fn.name.upper(), *position,
                       hint="aggregates belong in the SELECT list or HAVING of a query that groups")
    if fn.kind == "table" and not node.meta.get("lateral_table"):
        raise SqlError("Table function '%s' can only be called in FROM: LATERAL TABLE(%s(...))" % (fn.name, fn.name),
                       *position)
    if fn.kind != "table" and node.meta.get("lateral_table"):
        raise SqlError("'%s' is a scalar function, not a table function: LATERAL TABLE needs a table function"
                       % fn.name, *position, hint="declare it with @udtf(result_types=[...])")
    if not node.expressions:
        raise UnsupportedError("Python function '%s' is called without arguments: dynsql runs Python functions on "
                               "Arrow batches of their arguments, so a call needs at least one" % fn.name, *position)
    args = _checked_arguments(fn, list(node.expressions), position)
    call = exp.Anonymous(this=fn.spark_name, expressions=args)
    call.meta.update(spark=True, result_type=parse_type(fn.result_type), python_function=fn, position=position)
    ctx.python_functions[fn.key] = fn
    return call


def _checked_arguments(fn, args, position):
    if fn.input_types is None:
        return args
    from ..expr.translate import cast_to, typer
    if len(args) != len(fn.input_types):
        raise SqlError("Invalid number of arguments to function '%s'. Was expecting %d argument%s, got %d"
                       % (fn.name, len(fn.input_types), "" if len(fn.input_types) == 1 else "s", len(args)), *position)
    typeof = typer({})
    actual = [typeof(a) for a in args]
    declared = [parse_type(t) for t in fn.input_types]
    if not all(_implicitly_castable(a, d) for a, d in zip(actual, declared)):
        raise SqlError("Invalid function call:\n%s(%s)\nPython function '%s' (%s) takes (%s)"
                       % (fn.name, ", ".join(_text(a) for a in actual), fn.name, fn.identifier,
                          ", ".join(d.text() for d in declared)), *position)
    return [a if t is None or _same(t, d) else cast_to(a, d) for a, t, d in zip(args, actual, declared)]


def _text(ftype):
    return ftype.text() if ftype is not None else "?"


def _same(a, b):
    return a.text(with_null=False) == b.text(with_null=False)


def _implicitly_castable(actual, declared):
    if actual is None or actual.name == "NULL":
        return True
    if actual.name in _NUMERIC and declared.name in _NUMERIC:
        return True
    if actual.name in _TEXT and declared.name in _TEXT:
        return True
    if actual.name in ("TIMESTAMP", "TIMESTAMP_LTZ", "DATE") and declared.name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return True
    return actual.name == declared.name


def bind_lateral_table(binder, lateral, left=None, lscope=None, join=None):
    """`LATERAL TABLE(f(..)) [AS t(a, b)]` in FROM: alone (left None), or joined to the FROM items before it."""
    ctx = binder.ctx
    call = lateral.this
    if not (isinstance(call, exp.Anonymous) and call.name.upper() == "TABLE" and len(call.expressions) == 1
            and isinstance(call.expressions[0], exp.Anonymous)):
        raise UnsupportedError("LATERAL is supported as LATERAL TABLE(<table function>(...)) only", *ctx.pos(lateral))
    function_call = call.expressions[0].copy()
    if in_catalog.find(ctx.catalog, function_call.name) is None:
        raise SqlError("No table function '%s' found" % function_call.name, *ctx.pos(call.expressions[0]),
                       hint="CREATE FUNCTION %s AS 'module.function' LANGUAGE PYTHON (declared with @udtf)"
                       % function_call.name)
    function_call.meta["lateral_table"] = True
    unnest = exp.Unnest(expressions=[function_call], alias=lateral.args.get("alias"))
    unnest.meta["position"] = ctx.pos(lateral)
    from ..bind import unnest as unnesting
    if left is None:
        return unnesting.bind_unnest_alone(binder, unnest)
    as_unnest = join.copy()
    as_unnest.set("this", unnest)
    return unnesting.bind_unnest_join(binder, left, lscope, as_unnest)
