"""Declaring a Python function for `CREATE FUNCTION f AS 'module.fn' LANGUAGE PYTHON`, as PyFlink's
decorators do (`pyflink.table.udf`), with Flink SQL type names as text:

    from dynsql.udf import udf, udtf

    @udf(result_type='BIGINT', input_types=['BIGINT', 'BIGINT'])
    def add(a, b):                       # func_type='general' (the default): called with one row's values
        return a + b

    @udf(result_type='DOUBLE', func_type='pandas')
    def celsius(f):                      # func_type='pandas': called with a pandas.Series per Arrow batch
        return (f - 32) / 1.8

    @udtf(result_types=['STRING', 'INT'])
    def split_words(s):                  # a table function: yields its rows (LATERAL TABLE(split_words(s)))
        for w in s.split():
            yield w, len(w)

Rows travel to and from the function in Arrow batches on Spark's executors either way. The decorator
returns the function itself (still callable in plain Python, e.g. in a unit test) with its declaration
attached as `__dynsql_udf__`. This module has no dependencies: the planner reads the declaration, the
runtime runs the function."""

from dataclasses import dataclass

FUNC_TYPES = ("general", "pandas")


@dataclass(frozen=True)
class Declaration:
    kind: str                  # "scalar" | "table"
    result_types: tuple        # Flink type texts: one for a scalar function, the columns of a table function
    input_types: tuple = None  # Flink type texts of the arguments (None: any, as Spark passes them)
    func_type: str = "general"
    result_names: tuple = None  # a table function's column names (None: f0, f1, ... as PyFlink names them)


def _types(value, what):
    if value is None:
        return None
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise TypeError("%s: Flink SQL type names as text, e.g. 'BIGINT' or ['STRING', 'INT']" % what)


def _declare(f, declaration):
    if not callable(f):
        raise TypeError("@%s decorates a function" % ("udf" if declaration.kind == "scalar" else "udtf"))
    f.__dynsql_udf__ = declaration
    return f


def udf(f=None, result_type=None, input_types=None, func_type="general"):
    """A scalar function: one value a row. `result_type`: its Flink type ('BIGINT', 'DECIMAL(10, 2)', ...)."""
    if result_type is None or not isinstance(result_type, str):
        raise TypeError("@udf needs result_type, a Flink SQL type name as text, e.g. result_type='BIGINT'")
    if func_type not in FUNC_TYPES:
        raise TypeError("@udf func_type is 'general' or 'pandas', not %r" % (func_type,))
    declaration = Declaration("scalar", (result_type,), _types(input_types, "input_types"), func_type)
    if f is None:
        return lambda g: _declare(g, declaration)
    return _declare(f, declaration)


def udtf(f=None, result_types=None, input_types=None, result_names=None):
    """A table function: yields rows (a tuple a row, or a value when it has one column)."""
    types = _types(result_types, "result_types")
    if not types:
        raise TypeError("@udtf needs result_types, e.g. result_types=['STRING', 'INT']")
    names = tuple(result_names) if result_names is not None else None
    if names is not None and len(names) != len(types):
        raise TypeError("@udtf result_names: one name per result type")
    declaration = Declaration("table", types, _types(input_types, "input_types"), "general", names)
    if f is None:
        return lambda g: _declare(g, declaration)
    return _declare(f, declaration)
