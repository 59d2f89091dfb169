"""Flink's JSON functions that read JSON text (IS JSON, JSON_EXISTS, JSON_VALUE, JSON_QUERY) as vectorized Python
kernels (pandas UDFs), registered on the session under `dynsql_*` names that planner/functions_json.py's Spark SQL
calls. Spark's GET_JSON_OBJECT and friends differ from Flink's (Calcite's JsonFunctions over Jackson and Jayway
JsonPath) in path modes, empty / error behaviours and output text, so these follow Flink's:

- the text is read as Jackson reads it: decimals kept as written (`1.50` stays `1.50`, `1e2` is `1E+2`, Java's
  BigDecimal text), content after the first value ignored, NaN refused;
- a path is `[lax | strict] $...` (strict when no mode is given): `.name`, `['name']`, `[n]`, `[*]`, `.*`; in strict
  mode a missing member is an error, in lax mode it is empty;
- output JSON is Jackson's compact form (`{"a":1,"b":[1,2]}`), strings escaped as Jackson escapes them.
Planning (argument checks, types, which kernel) is the planner's; this module only computes values."""

import json
import re
from decimal import Decimal

_MODE = re.compile(r"^\s*(strict|lax)\s+(.+)$", re.I | re.S)
_NAME = re.compile(r"\.([^.\[\]\s]+)")
_QUOTED = re.compile(r"\[\s*'((?:[^'\\]|\\.)*)'\s*\]|\[\s*\"((?:[^\"\\]|\\.)*)\"\s*\]")
_INDEX = re.compile(r"\[\s*(-?\d+)\s*\]")
_STAR = re.compile(r"\[\s*\*\s*\]|\.\*")


class JsonError(Exception):
    """Bad JSON text or a path that does not apply: the function's ON ERROR behaviour decides."""


def JsonFunctionFailed(message):
    """ERROR ON EMPTY / ERROR ON ERROR, a RETURNING type the value is not: the query fails, as Flink's job does
    (raised in a worker, it reaches the user in its own words: runtime.errors.from_spark)."""
    from planner.errors import RuntimeFailure
    return RuntimeFailure(message)


def _no_constant(name):
    raise JsonError("not JSON: " + name)


_DECODER = json.JSONDecoder(parse_float=Decimal, parse_constant=_no_constant)


def read_json(text):
    """JSON text -> Python value (dict, list, str, int, Decimal, bool, None); JsonError when it is not JSON."""
    try:
        s = text.lstrip()
        value, _ = _DECODER.raw_decode(s)
        return value
    except (ValueError, JsonError) as e:
        raise JsonError(str(e))


def write_json(value):
    """Python value -> Jackson's compact JSON text."""
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + write_json(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(write_json(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


_PATHS = {}


def compile_path(spec):
    """'[lax|strict] $.a[0]' -> (strict, [steps]); a step is ('name', k), ('index', i) or ('star',)."""
    hit = _PATHS.get(spec)
    if hit is not None:
        return hit
    m = _MODE.match(spec)
    strict, body = (m.group(1).lower() == "strict", m.group(2)) if m else (True, spec)
    body = body.strip()
    if not body.startswith("$"):
        raise JsonError("Illegal jsonpath spec: " + spec)
    steps, i = [], 1
    while i < len(body):
        for pattern, kind in ((_STAR, "star"), (_QUOTED, "quoted"), (_INDEX, "index"), (_NAME, "name")):
            m = pattern.match(body, i)
            if m:
                break
        else:
            raise JsonError("Illegal jsonpath spec: " + spec)
        if kind == "star":
            steps.append(("star",))
        elif kind == "quoted":
            steps.append(("name", m.group(1) if m.group(1) is not None else m.group(2)))
        elif kind == "index":
            steps.append(("index", int(m.group(1))))
        else:
            steps.append(("name", m.group(1)))
        i = m.end()
    hit = _PATHS[spec] = (strict, steps)
    return hit


_MISSING = object()


def evaluate(doc, spec):
    """The value `spec` selects in `doc` (a list of them once the path has a wildcard); None when nothing is
    selected in lax mode; JsonError in strict mode."""
    strict, steps = compile_path(spec)
    definite = not any(s[0] == "star" for s in steps)
    current = [doc]
    for step in steps:
        nxt = []
        for v in current:
            if step[0] == "star":
                if isinstance(v, dict):
                    nxt.extend(v.values())
                elif isinstance(v, list):
                    nxt.extend(v)
                elif definite or strict:
                    raise JsonError("wildcard over a scalar")
                continue
            if step[0] == "name":
                if isinstance(v, dict) and step[1] in v:
                    nxt.append(v[step[1]])
                    continue
            elif isinstance(v, list):
                i = step[1] if step[1] >= 0 else len(v) + step[1]
                if 0 <= i < len(v):
                    nxt.append(v[i])
                    continue
            if definite:
                if strict:
                    raise JsonError("No results for path")
                return None
        current = nxt
    if definite:
        return current[0]
    return current


def _context(text, path):
    """(value, error): the path's value in the JSON text, or the JsonError that stands for it."""
    try:
        strict, _ = compile_path(path)
        try:
            doc = read_json(text)
        except JsonError:
            if strict:
                raise
            return None, None          # lax mode: text that is not JSON selects nothing (Calcite's LAX)
        return evaluate(doc, path), None
    except JsonError as e:
        return None, e
    except RecursionError as e:
        return None, JsonError(str(e))


def is_json(text, kind):
    if text is None:
        return False
    try:
        v = read_json(text)
    except JsonError:
        return False
    kind = kind.upper()
    if kind == "SCALAR":
        return not isinstance(v, (dict, list))
    if kind == "ARRAY":
        return isinstance(v, list)
    if kind == "OBJECT":
        return isinstance(v, dict)
    return True


def json_exists(text, path, on_error):
    if text is None or path is None:
        return None
    v, error = _context(text, path)
    if error is not None:
        if on_error == "ERROR":
            raise JsonFunctionFailed("JSON_EXISTS: %s" % error)
        return {"TRUE": True, "FALSE": False}.get(on_error)
    return v is not None


def _scalar_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _returning(v, kind):
    """A scalar JSON value as the text of a RETURNING type. Flink returns the value Jackson read only when it is
    already of that type (an INT for INT, a boolean for BOOLEAN; decimals are read as BigDecimal, so never for
    DOUBLE), and its job fails otherwise, whatever ON ERROR says."""
    if kind in ("STRING", "VARCHAR", "CHAR"):
        return _scalar_text(v)
    if kind == "BOOLEAN" and isinstance(v, bool):
        return "true" if v else "false"
    if kind == "INT" and isinstance(v, int) and not isinstance(v, bool) and -2 ** 31 <= v < 2 ** 31:
        return str(v)
    raise JsonFunctionFailed("JSON_VALUE cannot return the JSON value %s as %s" % (write_json(v), kind))


def json_value(text, path, on_empty, empty_default, on_error, error_default, kind):
    if text is None or path is None:
        return None
    v, error = _context(text, path)

    def behave(mode, default, why):
        if mode == "ERROR":
            raise JsonFunctionFailed("JSON_VALUE: %s" % why)
        return default if mode == "DEFAULT" else None
    if error is not None:
        return behave(on_error, error_default, error)
    if v is None:
        return behave(on_empty, empty_default, "no value at the path " + path)
    if isinstance(v, (dict, list)):
        return behave(on_error, error_default, "the value at the path %s is not a scalar" % path)
    return _returning(v, kind)


_EMPTY = {"NULL": None, "EMPTY ARRAY": "[]", "EMPTY OBJECT": "{}"}


def json_query(text, path, wrapper, on_empty, on_error):
    if text is None or path is None:
        return None
    v, error = _context(text, path)

    def behave(mode, why):
        if mode == "ERROR":
            raise JsonFunctionFailed("JSON_QUERY: %s" % why)
        return _EMPTY.get(mode)
    if error is not None:
        return behave(on_error, error)
    if v is None:
        return behave(on_empty, "no value at the path " + path)
    if not isinstance(v, (dict, list)) and wrapper == "WITHOUT":
        return behave(on_error, "the value at the path %s is not an array or an object" % path)
    if wrapper == "UNCONDITIONAL" or wrapper == "CONDITIONAL" and not isinstance(v, list):
        v = [v]             # CONDITIONAL wraps all but an array
    return write_json(v)


# ---------------------------------------------------------------------- pandas UDFs on the session
def _rows(fn, *series):
    import pandas as pd
    values = [s.tolist() for s in series]
    out = [fn(*[None if _isnull(x) else x for x in row]) for row in zip(*values)]
    return pd.Series(out, dtype=object)


def _isnull(x):
    return x is None or (isinstance(x, float) and x != x)


def register_udfs(spark):
    """Register the kernels on `spark` (once per session)."""
    from pyspark.sql.functions import pandas_udf

    @pandas_udf("boolean")
    def dynsql_is_json(text, kind):
        return _rows(is_json, text, kind).astype(bool)

    @pandas_udf("boolean")
    def dynsql_json_exists(text, path, on_error):
        return _rows(json_exists, text, path, on_error)

    @pandas_udf("string")
    def dynsql_json_value(text, path, on_empty, empty_default, on_error, error_default, kind):
        return _rows(json_value, text, path, on_empty, empty_default, on_error, error_default, kind)

    @pandas_udf("string")
    def dynsql_json_query(text, path, wrapper, on_empty, on_error):
        return _rows(json_query, text, path, wrapper, on_empty, on_error)

    for name, fn in (("dynsql_is_json", dynsql_is_json), ("dynsql_json_exists", dynsql_json_exists),
                     ("dynsql_json_value", dynsql_json_value), ("dynsql_json_query", dynsql_json_query)):
        spark.udf.register(name, fn)
