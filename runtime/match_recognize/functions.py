"""Scalar helpers the compiled MEASURES/DEFINE code calls: SQL NULL semantics, Flink's integer division,
CAST, LIKE, and the scalar functions listed in planner.match_recognize.types.SCALAR_FUNCTIONS.

Plain Python values in, plain Python values out (int, float, Decimal, str, bool, datetime, None)."""

import datetime as _dt
import math
import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from planner.errors import RuntimeFailure

from .. import java_math

DIVISION_HINT = "guard the divisor: CASE WHEN d <> 0 THEN n / d END"


def _num(a, b):
    """Make a Decimal and a float combinable (Decimal -> float)."""
    if isinstance(a, Decimal) and isinstance(b, float):
        return float(a), b
    if isinstance(b, Decimal) and isinstance(a, float):
        return a, float(b)
    return a, b


def arith(op, a, b):
    if a is None or b is None:
        return None
    a, b = _num(a, b)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return div(a, b)
    return mod(a, b)


def div(a, b):
    if a is None or b is None:
        return None
    a, b = _num(a, b)
    if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool):
        if b == 0:
            raise division_by_zero()
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    if b == 0:
        if isinstance(a, Decimal) or isinstance(b, Decimal):
            raise division_by_zero()
        return math.nan if a == 0 else math.copysign(math.inf, a)
    return a / b


def mod(a, b):
    if a is None or b is None:
        return None
    a, b = _num(a, b)
    if b == 0:
        raise division_by_zero()
    return math.fmod(a, b) if isinstance(a, float) or isinstance(b, float) else (
        abs(a) % abs(b) * (1 if a >= 0 else -1))


def division_by_zero():
    """The error of an exact division (or MOD) by zero, in the words the rest of dynsql uses for it."""
    return RuntimeFailure("Division by zero", hint=DIVISION_HINT)


def avg_final(total, count):
    """AVG as Flink computes it: integer AVG of integers (truncated), else sum / count."""
    if not count:
        return None
    if isinstance(total, int) and not isinstance(total, bool):
        return div(total, count)
    return total / count


def interval(amount, unit):
    unit = unit.upper().rstrip("S")
    n = float(amount)
    factor = {"MILLISECOND": 0.001, "SECOND": 1, "MINUTE": 60, "HOUR": 3600, "DAY": 86400}.get(unit)
    if factor is None:
        raise ValueError("Unsupported interval unit %s" % unit)
    return _dt.timedelta(seconds=n * factor)


_LIKE_CACHE = {}


def like(value, pattern, case_insensitive=False):
    if value is None or pattern is None:
        return None
    key = (pattern, case_insensitive)
    rx = _LIKE_CACHE.get(key)
    if rx is None:
        parts = []
        for ch in pattern:
            parts.append(".*" if ch == "%" else "." if ch == "_" else re.escape(ch))
        rx = re.compile("".join(parts), re.S | (re.I if case_insensitive else 0))
        _LIKE_CACHE[key] = rx
    return rx.fullmatch(value) is not None


def between(x, lo, hi):
    if x is None or lo is None or hi is None:
        return None
    return lo <= x <= hi


def coalesce(*args):
    for a in args:
        if a is not None:
            return a
    return None


def cast(value, target, safe=False):
    """CAST(value AS target) for the common Flink types (target: upper-case type text). A value the target cannot
    hold fails the query as Flink's CAST does; TRY_CAST (safe) gives NULL instead."""
    if value is None:
        return None
    try:
        return _cast(value, target)
    except _Unsupported as e:
        raise RuntimeFailure(str(e)) from None
    except (ValueError, TypeError, ArithmeticError):
        if safe:
            return None
        shown = value.isoformat(sep=" ") if isinstance(value, _dt.datetime) else value
        raise RuntimeFailure("Cannot cast %s to %s: it is not a valid %s value" % (
            "'%s'" % shown if isinstance(shown, str) else shown, target, target.split("(")[0].strip()),
            hint="TRY_CAST gives NULL for a value that does not fit") from None


class _Unsupported(ValueError):
    """A target type the matcher's CAST does not know."""


def _cast(value, target):
    t = target.upper()
    base = re.match(r"[A-Z_ ]+", t).group(0).strip()
    if base in ("TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT"):
        if isinstance(value, str):
            return int(value.strip())
        if isinstance(value, bool):
            return int(value)
        return int(value)  # truncates toward zero, like Flink
    if base in ("DOUBLE", "FLOAT", "REAL", "DOUBLE PRECISION"):
        return float(value)
    if base in ("DECIMAL", "DEC", "NUMERIC"):
        m = re.search(r"\((\d+)\s*(?:,\s*(\d+))?\)", t)
        scale = int(m.group(2) or 0) if m else 0
        return Decimal(str(value)).quantize(Decimal(1).scaleb(-scale), rounding=ROUND_HALF_UP)
    if base in ("STRING", "VARCHAR", "CHAR", "TEXT"):
        if isinstance(value, bool):
            return "TRUE" if value else "FALSE"
        if isinstance(value, _dt.datetime):
            return value.isoformat(sep=" ")
        return str(value)
    if base == "BOOLEAN":
        if isinstance(value, str):
            return value.strip().upper() == "TRUE"
        return bool(value)
    if base.startswith("TIMESTAMP"):
        if isinstance(value, str):
            return _dt.datetime.fromisoformat(value.strip())
        return value
    if base == "DATE":
        if isinstance(value, str):
            return _dt.date.fromisoformat(value.strip())
        if isinstance(value, _dt.datetime):
            return value.date()
        return value
    raise _Unsupported("CAST to %s is not supported in MATCH_RECOGNIZE" % target)


def timestampdiff(unit, a, b):
    if a is None or b is None:
        return None
    secs = (b - a).total_seconds()
    unit = unit.upper().rstrip("S")
    factor = {"SECOND": 1, "MINUTE": 60, "HOUR": 3600, "DAY": 86400, "MILLISECOND": 0.001}.get(unit)
    if factor is None:
        raise ValueError("Unsupported TIMESTAMPDIFF unit %s" % unit)
    return int(secs / factor)


def _null_guard(f):
    def g(*args):
        if any(a is None for a in args):
            return None
        return f(*args)
    return g


def _round(x, d=0):
    if isinstance(x, float):
        q = Decimal(repr(x)).quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_UP)
        return float(q)
    if isinstance(x, Decimal):
        return x.quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_UP)
    if d >= 0:
        return x
    p = 10 ** (-d)
    return int(Decimal(x / p).quantize(Decimal(1), rounding=ROUND_HALF_UP)) * p


def _substring(s, start, length=None):
    start = max(start, 1)
    return s[start - 1:] if length is None else s[start - 1:start - 1 + length]


SCALARS = {
    "ABS": _null_guard(abs),
    "CEIL": _null_guard(lambda x: math.ceil(x) if isinstance(x, float) else x.to_integral_value(rounding="ROUND_CEILING") if isinstance(x, Decimal) else x),
    "FLOOR": _null_guard(lambda x: math.floor(x) if isinstance(x, float) else x.to_integral_value(rounding="ROUND_FLOOR") if isinstance(x, Decimal) else x),
    "ROUND": _null_guard(_round),
    "MOD": mod,
    "SIGN": _null_guard(lambda x: (x > 0) - (x < 0)),
    # java.lang.Math's, as Flink's (runtime/java_math.py: Python's math differs in the last digit for some inputs)
    "POWER": _null_guard(java_math.power),
    "SQRT": _null_guard(java_math.sqrt),
    "LN": _null_guard(java_math.log),
    "LOG10": _null_guard(java_math.log10),
    "LOG": _null_guard(java_math.log_of_base),      # LOG(b, x), LOG2(x); LOG(x) is LN
    "EXP": _null_guard(java_math.exp),
    "UPPER": _null_guard(lambda s: s.upper()),
    "LOWER": _null_guard(lambda s: s.lower()),
    "CONCAT": _null_guard(lambda *a: "".join(str(x) for x in a)),
    "SUBSTRING": _null_guard(_substring),
    "TRIM": _null_guard(lambda s: s.strip(" ")),
    "CHAR_LENGTH": _null_guard(len),
    "COALESCE": coalesce,
    "NULLIF": lambda a, b: None if a is not None and b is not None and a == b else a,
    "GREATEST": _null_guard(lambda *a: max(a)),
    "LEAST": _null_guard(lambda *a: min(a)),
}
for _alias, _name in (("CEILING", "CEIL"), ("POW", "POWER"), ("SUBSTR", "SUBSTRING"),
                      ("CHARACTER_LENGTH", "CHAR_LENGTH"), ("LENGTH", "CHAR_LENGTH"), ("IFNULL", "COALESCE")):
    SCALARS[_alias] = SCALARS[_name]
