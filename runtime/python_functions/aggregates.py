"""Python aggregate functions (`udaf`) on Spark's executors, in the operators that run dynsql's own aggregates.

- `PythonAccumulator`: one call as the keyed processors' accumulators are (runtime/operators/accumulators.py:
  `empty()`, `add(acc, row, w)`, `result(acc)`), so the streaming GROUP BY over a changelog and the streaming OVER
  run it beside COUNT or SUM, its accumulator pickled in the operator's RocksDB state. A general function's
  accumulator is the user's own (`create_accumulator`, `accumulate` for +I / +U rows, `retract` for -U / -D rows,
  `get_value`); DISTINCT keeps the distinct argument tuples with their counts and folds them into a fresh
  accumulator; a pandas function's state is the argument rows, given to it as pandas.Series.
- `collected(call)` / `finished(call)`: a call inside Spark's own aggregate (batch GROUP BY, window TVF and group
  window aggregates, streaming too, and batch OVER): Spark collects each group's argument rows (`collect_list`
  of a struct, `collect_set` for DISTINCT; FILTER as a CASE), then one scalar Arrow UDF computes every group of
  a batch from those lists on an executor: an accumulator fed the group's rows, or the pandas function called
  with the group's Series.

An exception inside the function is a RuntimeFailure naming the function, the method and the row's input (or the
group's first rows), never a worker's trace; so is a value that is not of its declared type."""

import importlib
from collections import Counter

from planner.errors import RuntimeFailure

from .batches import _one_line, _row_text, _value_text

_LOADED = {}      # module.function -> the object, in this worker


def load(fn):
    """The user's object (an AggregateFunction instance, or a pandas function) of a PythonFunction's dict, imported
    in this process on first use (and `open()`ed, as PyFlink does)."""
    identifier = "%s.%s" % (fn["module"], fn["function"])
    f = _LOADED.get(identifier)
    if f is None:
        try:
            module = importlib.import_module(fn["module"])
        except Exception as e:
            raise RuntimeFailure("Python aggregate function '%s': the Spark worker cannot import module '%s' (%s: %s)"
                                 % (fn["name"], fn["module"], type(e).__name__, e)) from None
        f = getattr(module, fn["function"])
        if fn["func_type"] != "pandas" and hasattr(f, "open"):
            _call(fn, "open", f.open, None, None)      # (PyFlink passes a FunctionContext)
        _LOADED[identifier] = f
    return f


def _call(fn, method, f, inputs, *args):
    try:
        return f(*args)
    except RuntimeFailure:
        raise
    except Exception as e:
        where = "" if inputs is None else " on input %s" % _row_text(inputs)
        raise RuntimeFailure("Python aggregate function '%s' (%s.%s) failed in %s%s: %s: %s"
                             % (fn["name"], fn["module"], fn["function"], method, where, type(e).__name__,
                                _one_line(e))) from None


def _group_text(rows):
    shown = ", ".join(_row_text(r) for r in rows[:3])
    return "the group of %d row%s %s%s" % (len(rows), "" if len(rows) == 1 else "s", shown,
                                           ", ..." if len(rows) > 3 else "")


def _plain(value):
    if hasattr(value, "item") and callable(value.item) and not isinstance(value, (list, tuple, dict)):
        try:
            return value.item()         # a numpy scalar (what pandas functions return): its Python value
        except (ValueError, TypeError):
            return value
    return value


def checked(fn, value, arrow_type, inputs_text):
    """The function's value as its declared type: a float for an integral type is truncated to an int, as PyFlink
    writes it (its docs' weighted average divides with `/` into a BIGINT: 2.5 -> 2, measured on Flink 2.3); a
    value that does not fit fails naming the function."""
    import math

    import pyarrow as pa
    value = _plain(value)
    if value is None:
        return None
    if pa.types.is_integer(arrow_type) and isinstance(value, float) and math.isfinite(value):
        value = int(value)
    elif pa.types.is_floating(arrow_type) and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    try:
        pa.array([value], type=arrow_type)
    except Exception as e:
        raise RuntimeFailure("Python aggregate function '%s' returned %s for %s, which is not its declared type "
                             "(%s)" % (fn["name"], _value_text(value), inputs_text, _one_line(e))) from None
    return value


def pandas_value(fn, f, rows, nargs):
    """A pandas aggregate function over one group's argument rows -> its value."""
    import pandas as pd
    columns = list(zip(*rows)) if rows else [()] * nargs
    series = [pd.Series(list(c)) for c in columns]
    try:
        return f(*series)
    except RuntimeFailure:
        raise
    except Exception as e:
        raise RuntimeFailure("Python aggregate function '%s' (%s.%s) failed on %s: %s: %s"
                             % (fn["name"], fn["module"], fn["function"], _group_text(rows), type(e).__name__,
                                _one_line(e))) from None


def fold(fn, f, rows):
    """A general aggregate function over rows (argument tuples) -> its value: a fresh accumulator fed each row."""
    acc = _call(fn, "create_accumulator", f.create_accumulator, None)
    for row in rows:
        _call(fn, "accumulate", f.accumulate, row, acc, *row)
    return _call(fn, "get_value", f.get_value, rows[-1] if len(rows) == 1 else None, acc)


# ---------------------------------------------------------------------- in the keyed processors' state
class PythonAccumulator:
    """A Python aggregate call as a keyed processor's accumulator (see the module)."""

    def __init__(self, fn, args, distinct, filter, arrow_type):
        self.fn = fn                    # the PythonFunction's fields (a dict: no planner class on the executors)
        self.args = tuple(args)
        self.distinct = distinct
        self.filter = filter
        self.arrow_type = arrow_type

    @property
    def pandas(self):
        return self.fn["func_type"] == "pandas"

    def empty(self):
        if self.distinct:
            return Counter()
        if self.pandas:
            return []
        f = load(self.fn)
        return _call(self.fn, "create_accumulator", f.create_accumulator, None)

    def add(self, acc, row, w):
        if self.filter is not None and row[self.filter] is not True:
            return acc
        values = tuple(row[a] for a in self.args)
        if self.distinct:
            from runtime.operators.keyed_state import add as count_in, freeze
            count_in(acc, freeze(values), w)
        elif self.pandas:
            if w > 0:
                acc.append(values)
            elif values in acc:
                acc.remove(values)
        else:
            f = load(self.fn)
            if w > 0:
                _call(self.fn, "accumulate", f.accumulate, values, acc, *values)
            else:
                _call(self.fn, "retract", f.retract, values, acc, *values)
        return acc

    def result(self, acc):
        f = load(self.fn)
        if self.distinct:
            from runtime.operators.keyed_state import thaw
            rows = [tuple(thaw(v)) for v, c in acc.items() if c > 0]
            value = pandas_value(self.fn, f, rows, len(self.args)) if self.pandas else fold(self.fn, f, rows)
        elif self.pandas:
            value = pandas_value(self.fn, f, acc, len(self.args))
        else:
            value = _call(self.fn, "get_value", f.get_value, None, acc)
        return checked(self.fn, value, self.arrow_type, "its group")


def python_accumulator(call, fn):
    """The PythonAccumulator of planner call `call` (an AggCall or a WindowCall) of PythonFunction `fn`."""
    return PythonAccumulator(fn.to_dict(), call.args, call.distinct, call.filter, arrow_type(call.type))


def arrow_type(flink_type):
    from pyspark.sql.pandas.types import to_arrow_type

    from planner.expr.types import to_spark
    return to_arrow_type(to_spark(flink_type))


# ---------------------------------------------------------------------- inside Spark's aggregate
def collected_name(call):
    return "__py_" + call.name


def collected(call):
    """The Spark aggregate collecting a group's argument rows of Python aggregate call `call` (unnamed; a window
    adds `.over(..)`)."""
    from pyspark.sql import functions as F
    row = F.struct(*[F.col("`%s`" % a.replace("`", "``")).alias("a%d" % i) for i, a in enumerate(call.args)]) \
        if call.args else F.struct(F.lit(True).alias("a"))
    if call.filter:
        row = F.when(F.col("`%s`" % call.filter.replace("`", "``")), row)
    return F.collect_set(row) if call.distinct else F.collect_list(row)


def finished(call, fn, column):
    """The call's value from `column`, the rows `collected` gathered: a scalar Arrow UDF run on the executors."""
    import warnings

    from pyspark.sql.functions import ArrowUDFType, arrow_udf

    from planner.expr.types import to_spark
    spark_type = to_spark(call.type)
    run = group_values(fn.to_dict(), len(call.args), arrow_type(call.type))
    with warnings.catch_warnings():      # "type hints are preferred"
        warnings.simplefilter("ignore", UserWarning)
        return arrow_udf(run, spark_type, ArrowUDFType.SCALAR)(column)


def group_values(fn, nargs, result_type):
    """-> a function of a pyarrow ListArray (each element a group's argument rows as structs) returning the
    groups' values (a pyarrow array of `result_type`)."""
    def run(groups):
        import pyarrow as pa
        f = load(fn)
        rows_of = groups.to_pylist()
        out = []
        for rows in rows_of:
            rows = [tuple(r.values())[:nargs] for r in (rows or [])]
            if fn["func_type"] == "pandas":
                value = pandas_value(fn, f, rows, nargs)
            else:
                value = fold(fn, f, rows)
            out.append(checked(fn, value, result_type, _group_text(rows)))
        return pa.array(out, type=result_type)
    return run
