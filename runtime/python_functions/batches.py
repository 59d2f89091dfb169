"""Running one Python function over Arrow batches on an executor.

`batch_function(definition, result_arrow_type)` -> a function of pyarrow arrays (one a argument) returning a
pyarrow array: what Spark's `arrow_udf` calls with each batch of rows. A 'general' function is called with
one row's values (Python values, None for NULL), as PyFlink calls it; a 'pandas' function once a batch with
pandas Series; a table function's rows (what it yields for one input row) become one ARRAY of ROWs.

An error inside the function, or a result of the wrong type, is a RuntimeFailure naming the function and the
row's input (runtime/errors.py passes its words on): never a worker's trace. The module is imported in the
worker on first use, so a worker that cannot import it says so, naming the function."""

import importlib

from planner.errors import RuntimeFailure

_SHOWN = 200


def batch_function(fn, result_type):
    """fn: a PythonFunction's fields as a dict (picklable without the planner's classes)."""
    name, identifier, kind, func_type = fn["name"], "%s.%s" % (fn["module"], fn["function"]), fn["kind"], \
        fn["func_type"]
    columns = list(fn["result_names"] or ["f%d" % i for i in range(len(fn["result_types"]))])
    state = {}

    def user_function():
        f = state.get("f")
        if f is None:
            try:
                module = importlib.import_module(fn["module"])
            except Exception as e:
                raise RuntimeFailure("Python function '%s': the Spark worker cannot import module '%s' (%s: %s)"
                                     % (name, fn["module"], type(e).__name__, e)) from None
            f = state["f"] = getattr(module, fn["function"])
        return f

    def failed(inputs, e):
        return RuntimeFailure("Python function '%s' (%s) failed on input %s: %s: %s"
                              % (name, identifier, _row_text(inputs), type(e).__name__, _one_line(e)))

    def general(*arrays):
        f = user_function()
        rows = zip(*[a.to_pylist() for a in arrays]) if arrays else [()] * _length(arrays)
        out = []
        for row in rows:
            try:
                value = f(*row)
                if kind == "table":
                    value = [] if value is None else [_row(r, columns) for r in value]
            except RuntimeFailure:
                raise
            except Exception as e:
                raise failed(row, e) from None
            out.append(value)
        return _to_arrow(out, result_type, arrays, name)

    def pandas(*arrays):
        import pyarrow as pa
        f = user_function()
        series = [a.to_pandas() for a in arrays]
        try:
            result = f(*series)
            if len(result) != len(arrays[0] if arrays else []):
                raise ValueError("returned %d values for %d rows" % (len(result), len(arrays[0])))
        except Exception as e:
            raise failed(_first_failing_row(f, series), e) from None
        try:
            return pa.Array.from_pandas(result, type=result_type)
        except Exception:
            return _to_arrow(list(result), result_type, arrays, name)

    return pandas if func_type == "pandas" else general


def _length(arrays):
    return len(arrays[0]) if arrays else 0


def _row(value, columns):
    if not isinstance(value, (tuple, list)):
        value = (value,)
    if len(value) != len(columns):
        raise ValueError("a row of %d values for the %d columns %s" % (len(value), len(columns), ", ".join(columns)))
    return dict(zip(columns, value))


def _to_arrow(values, result_type, arrays, name):
    import pyarrow as pa
    try:
        return pa.array(values, type=result_type)
    except Exception:
        pass
    inputs = list(zip(*[a.to_pylist() for a in arrays])) if arrays else [()] * len(values)
    for value, row in zip(values, inputs):
        try:
            pa.array([value], type=result_type)
        except Exception as e:
            raise RuntimeFailure("Python function '%s' returned %s for input %s, which is not its declared type "
                                 "(%s)" % (name, _value_text(value), _row_text(row), _one_line(e))) from None
    raise RuntimeFailure("Python function '%s' returned values of another type than it declares" % name)


def _first_failing_row(f, series):
    """The first row whose own call fails (a pandas function's error names a row, as a general one's)."""
    n = len(series[0]) if series else 0
    for i in range(n):
        try:
            f(*[s.iloc[i:i + 1].reset_index(drop=True) for s in series])
        except Exception:
            return tuple(s.iloc[i] for s in series)
    return tuple("..." for _ in series)


def _value_text(v):
    if hasattr(v, "item") and callable(v.item):     # a numpy scalar (a pandas function's input): its Python value
        v = v.item()
    text = repr(v)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def _row_text(row):
    return "(%s)" % ", ".join("NULL" if v is None or v != v else _value_text(v) for v in row)


def _one_line(e):
    text = str(e).strip().splitlines()
    return text[0] if text else "(no message)"
