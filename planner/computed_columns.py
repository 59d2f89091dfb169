"""The type CREATE TABLE gives a computed column (`c AS expr`), as DESCRIBE and SHOW CREATE TABLE show it:
Flink's result type of the expression over the table's physical columns, for the shapes computed columns
take (arithmetic, CAST, time and string functions). Unknown shapes give ''. A query reads a computed
column as the binder types its expression (planner/bind/types.py), not from here."""

import re

import sqlglot
from sqlglot import exp

from .expr.types import base_name

_INT_PRECISION = {"TINYINT": 3, "SMALLINT": 5, "INT": 10, "BIGINT": 19}
_STRING_FUNCS = {"UPPER", "LOWER", "CONCAT", "CONCAT_WS", "SUBSTRING", "SUBSTR", "TRIM", "LTRIM", "RTRIM",
                 "REPLACE", "DATE_FORMAT", "REGEXP_REPLACE", "REGEXP_EXTRACT", "INITCAP", "LPAD", "RPAD", "MD5",
                 "SPLIT_INDEX", "JSON_VALUE", "FROM_UNIXTIME"}


def _decimal(t):
    b = base_name(t)
    if b == "DECIMAL":
        m = re.search(r"\((\d+),\s*(\d+)\)", t)
        return (int(m.group(1)), int(m.group(2))) if m else (10, 0)
    if b in _INT_PRECISION:
        return (_INT_PRECISION[b], 0)
    return None


def _numeric_result(op, a, b):
    ba, bb = base_name(a), base_name(b)
    if "DOUBLE" in (ba, bb) or "FLOAT" in (ba, bb):
        return "DOUBLE" if "DOUBLE" in (ba, bb) else "FLOAT"
    da, db = _decimal(a), _decimal(b)
    if da is None or db is None:
        return ""
    if ba in _INT_PRECISION and bb in _INT_PRECISION:
        wider = max((ba, bb), key=lambda n: _INT_PRECISION[n])
        return wider
    (p1, s1), (p2, s2) = da, db
    if op == "mul":
        p, s = p1 + p2 + 1, s1 + s2
    elif op == "div":
        s = max(6, s1 + p2 + 1)
        p = p1 - s1 + s2 + s
    else:
        s = max(s1, s2)
        p = max(p1 - s1, p2 - s2) + s + 1
    return "DECIMAL(%d, %d)" % (min(p, 38), min(s, 38))


def computed_column_type(expr_text, column_types):
    """Flink SQL expression text + {column: Flink type} -> Flink type text, or ''."""
    from .dialect import Flink
    try:
        e = sqlglot.parse_one(expr_text, read=Flink)
    except Exception:
        return ""
    return _infer(e, column_types)


def _infer(e, types):
    if isinstance(e, exp.Paren):
        return _infer(e.this, types)
    if isinstance(e, exp.Column):
        return types.get(e.name, "").replace(" NOT NULL", "")
    if isinstance(e, exp.Literal):
        if e.is_string:
            return "CHAR(%d)" % len(e.name)
        return "INT" if re.fullmatch(r"\d+", e.name) else "DECIMAL(%d, %d)" % (
            len(e.name.replace(".", "").lstrip("-")), len(e.name.split(".")[1]) if "." in e.name else 0)
    if isinstance(e, exp.Cast):
        return _cast_text(e)
    if isinstance(e, (exp.Add, exp.Sub)):
        left, right = _infer(e.this, types), _infer(e.expression, types)
        if base_name(left) in ("TIMESTAMP", "TIMESTAMP_LTZ", "DATE") and isinstance(e.expression, exp.Interval):
            return left
        return _numeric_result("add", left, right)
    if isinstance(e, exp.Mul):
        return _numeric_result("mul", _infer(e.this, types), _infer(e.expression, types))
    if isinstance(e, exp.Div):
        return _numeric_result("div", _infer(e.this, types), _infer(e.expression, types))
    name = (e.name if isinstance(e, exp.Anonymous) else e.key).upper()
    if isinstance(e, (exp.Min, exp.Max)) or name in ("FIRST_VALUE", "LAST_VALUE"):
        inner = e.this if not isinstance(e, exp.Anonymous) else (e.expressions[0] if e.expressions else None)
        return _infer(inner, types) if inner is not None else ""
    if isinstance(e, exp.Count):
        return "BIGINT NOT NULL"
    if name in ("TUMBLE_START", "TUMBLE_END", "HOP_START", "HOP_END", "SESSION_START", "SESSION_END"):
        return "TIMESTAMP(3) NOT NULL"
    if name in ("TUMBLE_ROWTIME", "HOP_ROWTIME", "SESSION_ROWTIME"):
        return "TIMESTAMP(3) NOT NULL *ROWTIME*"
    if name == "TIMESTAMPADD" and isinstance(e, exp.Anonymous) and len(e.expressions) == 3:
        return _infer(e.expressions[2], types)
    if isinstance(e, exp.TimestampAdd):
        return _infer(e.expression, types) or _infer(e.this, types)
    if name == "TO_TIMESTAMP_LTZ":
        return "TIMESTAMP_LTZ(3)"
    if name in ("TO_TIMESTAMP", "STRTOTIME", "STR_TO_TIME"):
        return "TIMESTAMP(3)"
    if name in ("PROCTIME", "NOW", "CURRENTTIMESTAMP", "CURRENT_TIMESTAMP"):
        return "TIMESTAMP_LTZ(3)"
    if name in ("TO_DATE", "CURRENTDATE", "CURRENT_DATE", "TSORDSTODATE", "STRTODATE"):
        return "DATE"
    if name in _STRING_FUNCS or isinstance(e, (exp.Upper, exp.Lower, exp.Concat, exp.Substring, exp.Trim, exp.DPipe)):
        return "STRING"
    if name in ("CHAR_LENGTH", "LENGTH", "CHARACTER_LENGTH", "POSITION", "LOCATE", "STRPOSITION"):
        return "INT"
    if isinstance(e, exp.Predicate) or isinstance(e, (exp.And, exp.Or, exp.Not)):
        return "BOOLEAN"
    return ""


def _cast_text(e):
    from .dialect import Flink
    from .expr.types import parse_type
    text = e.to.sql(dialect=Flink).upper().replace("TEXT", "STRING")
    try:
        return parse_type(text).text()
    except Exception:
        return ""
