"""Declaring a Python function for `CREATE FUNCTION f AS 'module.fn' LANGUAGE PYTHON`, as PyFlink's
decorators do (`pyflink.table.udf`), with Flink SQL type names as text:

    from dynsql.udf import AggregateFunction, udaf, udf, udtf

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

    class WeightedAvg(AggregateFunction):  # an aggregate function: an accumulator per group (PyFlink's methods)
        def create_accumulator(self):
            return [0, 0]

        def accumulate(self, acc, value, weight):
            acc[0] += value * weight
            acc[1] += weight

        def retract(self, acc, value, weight):   # an updating input's -U / -D rows
            acc[0] -= value * weight
            acc[1] -= weight

        def get_value(self, acc):
            return None if acc[1] == 0 else acc[0] // acc[1]

    weighted_avg = udaf(WeightedAvg(), result_type='BIGINT', accumulator_type='ARRAY<BIGINT>')

    @udaf(result_type='DOUBLE', func_type='pandas')
    def mean(v):                         # a pandas aggregate function: a group's values as pandas.Series -> a value
        return v.mean()

Rows travel to and from the function in Arrow batches on Spark's executors either way. The decorator
returns the function itself (still callable in plain Python, e.g. in a unit test) with its declaration
attached as `__dynsql_udf__`. This module has no dependencies: the planner reads the declaration, the
runtime runs the function."""

from dataclasses import dataclass

FUNC_TYPES = ("general", "pandas")
KINDS = ("scalar", "table", "aggregate")


@dataclass(frozen=True)
class Declaration:
    kind: str                  # "scalar" | "table" | "aggregate"
    result_types: tuple        # Flink type texts: one for a scalar function, the columns of a table function
    input_types: tuple = None  # Flink type texts of the arguments (None: any, as Spark passes them)
    func_type: str = "general"
    result_names: tuple = None  # a table function's column names (None: f0, f1, ... as PyFlink names them)
    accumulator_type: str = None  # an aggregate function's accumulator (Flink type text; informative)


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


class Row(list):
    """A mutable row of values, `Row(0, 0)`: what PyFlink's examples keep as an accumulator (pyflink.common.Row)."""

    def __init__(self, *values):
        super().__init__(values)

    def __reduce__(self):
        return (Row, tuple(self))


class AggregateFunction:
    """PyFlink's AggregateFunction: the runtime keeps one accumulator per group (`create_accumulator`), folds each
    input row in (`accumulate(acc, *args)`), takes a retracted row out (`retract`, for an updating input: its -U
    and -D rows) and reads the group's value (`get_value`). `merge` joins accumulators: Flink calls it in streaming
    HOP and SESSION group windows, so dynsql refuses a function without one there (dynsql folds a window's rows
    into one accumulator and does not call it). `get_result_type` / `get_accumulator_type` give the types when
    `udaf` is not told them. `open` and `close` are called around the function's use in a worker, as PyFlink's."""

    def open(self, function_context=None):
        pass

    def close(self):
        pass

    def create_accumulator(self):
        raise NotImplementedError("Method create_accumulator is not implemented")

    def accumulate(self, accumulator, *args):
        raise NotImplementedError("Method accumulate is not implemented")

    def retract(self, accumulator, *args):
        raise RuntimeError("Method retract is not implemented")

    def merge(self, accumulator, accumulators):
        raise RuntimeError("Method merge is not implemented")

    def get_value(self, accumulator):
        raise NotImplementedError("Method get_value is not implemented")

    def get_result_type(self):
        raise RuntimeError("Method get_result_type is not implemented")

    def get_accumulator_type(self):
        raise RuntimeError("Method get_accumulator_type is not implemented")


def udaf(f=None, result_type=None, accumulator_type=None, input_types=None, func_type="general", name=None,
         deterministic=None):
    """An aggregate function, as PyFlink's `udaf`: an AggregateFunction instance (or class) with func_type
    'general', or a function of pandas.Series returning one value with func_type='pandas'. `result_type` (and
    `accumulator_type`) default to the instance's get_result_type() / get_accumulator_type()."""
    if func_type not in FUNC_TYPES:
        raise ValueError("The func_type must be one of 'general, pandas', got %s." % (func_type,))
    if f is None:
        return lambda g: udaf(g, result_type, accumulator_type, input_types, func_type, name, deterministic)
    if func_type == "general":
        if isinstance(f, type) and issubclass(f, AggregateFunction):
            f = f()
        if not isinstance(f, AggregateFunction):
            raise TypeError("udaf(func_type='general') takes an AggregateFunction (create_accumulator, accumulate, "
                            "get_value); a function of pandas.Series is udaf(..., func_type='pandas')")
        if result_type is None:
            result_type = f.get_result_type()
        if accumulator_type is None:
            accumulator_type = f.get_accumulator_type()
        if not isinstance(accumulator_type, str):
            raise TypeError("Invalid accumulator_type: accumulator_type should be a Flink type name as text, e.g. "
                            "'ARRAY<BIGINT>', but is %r" % (accumulator_type,))
    elif not callable(f) or isinstance(f, AggregateFunction):
        raise TypeError("udaf(func_type='pandas') takes a function of pandas.Series returning one value")
    if not isinstance(result_type, str):
        raise TypeError("Invalid returnType: returnType should be a Flink type name as text, e.g. 'BIGINT', but is %r"
                        % (result_type,))
    f.__dynsql_udf__ = Declaration("aggregate", (result_type,), _types(input_types, "input_types"), func_type,
                                   accumulator_type=accumulator_type)
    return f
