"""Text and JSON values -> typed Python values for a Flink column type, as Flink's formats read them.

A value that does not fit its type raises `BadValue`; the format decides whether that fails the query
or (with 'csv.ignore-parse-errors' / 'json.ignore-parse-errors') turns the field into NULL."""

import datetime as dt
import math
import re
from decimal import Context, Decimal, InvalidOperation, ROUND_HALF_UP

_WIDE = Context(prec=80)

from planner.expr.types import parse_type


class BadValue(ValueError):
    pass


def shown(value, width=60):
    """A value quoted for an error message, on one line and cut to `width` characters (a field may be 10 MB)."""
    text = value if isinstance(value, str) else str(value)
    text = text.encode("unicode_escape", "backslashreplace").decode("ascii") if not text.isprintable() else text
    if len(text) > width:
        return "'%s...' (%d characters)" % (text[:width], len(value) if isinstance(value, str) else len(text))
    return "'%s'" % text


_TS = re.compile(r"^(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?)?(Z)?$")
_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$")
_INT_RANGES = {"TINYINT": 2 ** 7, "SMALLINT": 2 ** 15, "INT": 2 ** 31, "BIGINT": 2 ** 63}


def converter(flink_type_text):
    """A function text-or-JSON-value -> Python value for the given Flink type (None stays None)."""
    return _converter(parse_type(flink_type_text))


def _converter(t):
    n = t.name
    if n in ("CHAR", "VARCHAR"):
        return lambda v: v if isinstance(v, str) else _json_text(v)
    if n in _INT_RANGES:
        bound = _INT_RANGES[n]

        def to_int(v):
            if isinstance(v, bool):
                raise BadValue("%r is not a number" % v)
            if isinstance(v, int):
                i = v
            else:
                s = str(v).strip()
                if not re.fullmatch(r"[+-]?\d+", s):
                    raise BadValue("%s is not a valid %s" % (shown(v), n))
                i = int(s)
            if not -bound <= i < bound:
                raise BadValue("%s is out of range for %s" % (i, n))
            return i
        return to_int
    if n in ("FLOAT", "DOUBLE"):
        def to_float(v):
            if isinstance(v, bool):
                raise BadValue("%r is not a number" % v)
            if isinstance(v, (int, float)):
                return float(v)
            s = str(v).strip()
            try:
                return float(s)
            except ValueError:
                raise BadValue("%s is not a valid %s" % (shown(v), n))
        return to_float
    if n == "DECIMAL":
        p, s = t.params
        quantum = Decimal(1).scaleb(-s)

        def to_decimal(v):
            try:
                d = Decimal(str(v).strip()) if not isinstance(v, float) else Decimal(repr(v))
            except InvalidOperation:
                raise BadValue("%s is not a valid DECIMAL(%d, %d)" % (shown(v), p, s))
            if not d.is_finite():
                raise BadValue("%s is not a valid DECIMAL" % shown(v))
            d = d.quantize(quantum, rounding=ROUND_HALF_UP, context=_WIDE)     # 38 digits: past the default 28
            if len(d.as_tuple().digits) > p and d != 0:
                return None  # Flink: a value that does not fit the precision becomes NULL
            return d
        return to_decimal
    if n == "BOOLEAN":
        def to_bool(v):
            if isinstance(v, bool):
                return v
            return str(v).strip().lower() == "true"   # Flink (Boolean.parseBoolean): any other text is false
        return to_bool
    if n == "DATE":
        def to_date(v):
            m = _TS.match(str(v).strip())
            if not m or m.group(4) is not None:
                raise BadValue("%s is not a valid DATE (yyyy-MM-dd)" % shown(v))
            try:
                return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            except ValueError as e:
                raise BadValue("%s is not a valid DATE: %s" % (shown(v), e))
        return to_date
    if n == "TIME":
        precision = t.params[0] if t.params else 0
        return lambda v: time_text(v, precision)
    if n in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        precision = t.params[0] if t.params else 6

        def to_ts(v):
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return dt.datetime(1970, 1, 1) + dt.timedelta(milliseconds=v)
            return parse_timestamp(str(v), precision)
        return to_ts
    if n in ("BINARY", "VARBINARY"):
        return lambda v: v if isinstance(v, bytes) else str(v).encode("utf-8")
    if n == "ARRAY":
        elem = _converter(t.children[0])

        def to_array(v):
            items = v if isinstance(v, list) else str(v).split(";") if str(v) else []
            return [None if x is None else elem(x) for x in items]
        return to_array
    if n == "MAP":
        kc, vc = _converter(t.children[0]), _converter(t.children[1])
        return lambda v: {kc(k): (None if x is None else vc(x)) for k, x in dict(v).items()}
    if n == "ROW":
        fields = [(fn, _converter(ft)) for fn, ft in t.children]

        def to_row(v):
            if isinstance(v, dict):
                return tuple(None if v.get(fn) is None else c(v.get(fn)) for fn, c in fields)
            return tuple(None if x is None else c(x) for (fn, c), x in zip(fields, v))
        return to_row
    raise BadValue("type %s cannot be read from a file" % t.text())


_FAST_TS = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d{1,6})?)?$")


def parse_timestamp(text, precision=6):
    if _FAST_TS.match(text):
        try:
            v = dt.datetime.fromisoformat(text)   # the common shape, parsed in C
        except ValueError as e:                   # 2024-13-01 00:00:00
            raise BadValue("%s is not a valid TIMESTAMP: %s" % (shown(text), e))
        if precision < 6 and v.microsecond:
            keep = 10 ** (6 - precision)
            v = v.replace(microsecond=v.microsecond // keep * keep)
        return v
    m = _TS.match(text.strip())
    if not m:
        raise BadValue("%s is not a valid TIMESTAMP (yyyy-MM-dd HH:mm:ss[.SSS])" % shown(text))
    y, mo, d, h, mi, s, frac = m.group(1, 2, 3, 4, 5, 6, 7)
    micros = int((frac or "0")[:6].ljust(6, "0"))
    keep = 10 ** (6 - min(precision, 6))
    micros = micros // keep * keep
    try:
        return dt.datetime(int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0), micros)
    except ValueError as e:
        raise BadValue("%s is not a valid TIMESTAMP: %s" % (shown(text), e))


def time_text(v, precision=0):
    """TIME value -> canonical 'HH:MM:SS[.fff|.ffffff]' text (our representation of TIME)."""
    if isinstance(v, dt.time):
        h, mi, s, micros = v.hour, v.minute, v.second, v.microsecond
    else:
        m = _TIME.match(str(v).strip())
        if not m:
            raise BadValue("%s is not a valid TIME (HH:mm:ss[.SSS])" % shown(v))
        h, mi, s = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
        micros = int((m.group(4) or "0")[:6].ljust(6, "0"))
        if h > 23 or mi > 59 or s > 59:
            raise BadValue("%s is not a valid TIME" % shown(v))
    keep = 10 ** (6 - min(precision, 6))
    micros = micros // keep * keep
    base = "%02d:%02d:%02d" % (h, mi, s)
    if micros == 0:
        return base
    if micros % 1000 == 0:
        return base + ".%03d" % (micros // 1000)
    return base + ".%06d" % micros


def _json_text(v):
    import json
    if isinstance(v, (dict, list)):
        return json.dumps(v, separators=(",", ":"))
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and math.isfinite(v) and v == int(v) and abs(v) < 1e16:
        return repr(v)
    return str(v)
