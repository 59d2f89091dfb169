"""TO_TIMESTAMP(text, pattern) as Flink 2.3 reads it: DateTimeUtils.parseTimestampData(String, String) parses
with DateTimeFormatter.ofPattern(pattern) (SMART resolver) and, where that fails, falls back to reading the
trimmed text as java.sql.Timestamp.valueOf does (a text with a blank) or java.sql.Date.valueOf (one without), which
ignore the pattern and roll fields over as a lenient calendar does:

- the pattern's reading (SMART): each field within its range (month 1..12, day 1..31, hour 0..23, minute and
  second 0..59, a year of era from 1), a day past the month's end (up to 31) the month's last day (2024-02-30 is
  2024-02-29; only where the pattern has y, M and d), 24:00:00 the next day's midnight; the whole text read;
- the fallback: `yyyy-[m]m-[d]d[ h:m:s[.f]]`, a four-digit year, month 1..12, day 1..31, the time's fields any
  Java int (a sign allowed), at most nine fraction digits: the day, hour, minute and second are added to the
  month's first day, so 2024-01-01 25:00:00 is 2024-01-02 01:00:00, 23:59:61 the next day's 00:00:01, -1:00:00 the
  day before at 23:00, 2023-02-31 2023-03-03; year 0 is 1 BC, which Timestamp.toLocalDateTime gives as year 1.

Patterns of y, M/MM, d, H, m, s, S and literal text are read here as DateTimeFormatter does (MM two digits, M any
number, yy a year in 2000..2099, S..S that many fraction digits); any other pattern (a month's name, AM/PM, a day
of the year, a zone) or one that is not a literal is read by Spark's TRY_TO_TIMESTAMP (its STRICT resolver: a day
past the month's end is NULL there, not clamped), the fallback after it as in Flink. The result is TIMESTAMP(3):
a fraction's digits past milliseconds are cut. Differences left: a date before the Gregorian cutover that the
fallback rolls over a century's February 29 (Flink computes it in the Julian calendar); a pattern without y, M and
d whose day does not fit its month, where Flink fails at run time (LocalDateTime.of) and dynsql gives NULL."""

import re

from sqlglot import exp

from .date_patterns import _fields as pattern_fields
from .spark_template import spark_template

_LETTERS = {"y": "y", "M": "mo", "d": "d", "H": "h", "m": "mi", "s": "s", "S": "ns"}
_DEFAULTS = {"y": "1970", "mo": "1", "d": "1", "h": "0", "mi": "0", "s": "0", "ns": "0"}
_INT = "BETWEEN -2147483648 AND 2147483647"

# Timestamp.valueOf / Date.valueOf: Integer.parseInt of each piece between the separators ('+' allowed; a '-'
# would be taken as a separator), the time's pieces any int
_FALLBACK_REGEX = (r"^([+][0-9]{3}|[0-9]{4})-([+][0-9]|[0-9]{1,2})-([+][0-9]|[0-9]{1,2})"
                   r"(?: ([+-]?[0-9]+):([+-]?[0-9]+):([+-]?[0-9]+)(?:[.]([0-9]{1,9}))?)?$")
_JAVA_TRIM = r"^[\x00-\x20]+|[\x00-\x20]+$"         # String.trim: every character up to U+0020

_FALLBACK = (
    "TRANSFORM(ARRAY(REGEXP_REPLACE({0}, {1}, '')), _t -> CASE WHEN _t RLIKE {2} THEN TRANSFORM(ARRAY(SPLIT("
    "REGEXP_REPLACE(_t, {2}, '$1,$2,$3,$4,$5,$6,$7'), ',')), _g -> TRANSFORM(ARRAY(named_struct("
    "'y', TRY_CAST(_g[0] AS INT), 'mo', TRY_CAST(_g[1] AS INT), 'd', TRY_CAST(_g[2] AS INT), "
    "'h', IF(_g[3] = '', 0, TRY_CAST(_g[3] AS BIGINT)), 'mi', IF(_g[4] = '', 0, TRY_CAST(_g[4] AS BIGINT)), "
    "'s', IF(_g[5] = '', 0, TRY_CAST(_g[5] AS BIGINT)), 'ms', TRY_CAST(RPAD(_g[6], 3, '0') AS INT))), _f -> "
    "CASE WHEN _f.mo BETWEEN 1 AND 12 AND _f.d BETWEEN 1 AND 31 "
    "AND _f.h %(int)s AND _f.mi %(int)s AND _f.s %(int)s "        # (a text without a blank has no time: 0s)
    "AND ABS((((_f.d - 1) * 24 + _f.h) * 60 + _f.mi) * 60 + _f.s) < 400000000000 "
    "THEN MAKE_TIMESTAMP_NTZ(_f.y, _f.mo, 1, 0, 0, 0) + MAKE_DT_INTERVAL(0, 0, 0, "
    "CAST((((_f.d - 1) * 24 + _f.h) * 60 + _f.mi) * 60 + _f.s AS DECIMAL(18, 6)) + _f.ms / 1000) END)[0])[0] END)[0]"
    % {"int": _INT})


def to_timestamp_with_pattern(text, pattern):
    """The Spark tree of TO_TIMESTAMP(`text`, `pattern`)."""
    regex = _regex(pattern)
    first = ("CASE WHEN YEAR(TRY_TO_TIMESTAMP({0}, {3})) BETWEEN 1 AND 9999 THEN TRY_TO_TIMESTAMP({0}, {3}) END"
             if regex is None else _pattern_reading(pattern))
    # year 0 (1 BC) and before: Timestamp.toLocalDateTime gives the year of era
    return spark_template(
        "TRANSFORM(ARRAY(COALESCE(%s, %s)), _r -> CASE WHEN YEAR(_r) <= 0 "
        "THEN _r + MAKE_YM_INTERVAL(1 - 2 * YEAR(_r), 0) ELSE _r END)[0]" % (first, _FALLBACK),
        [text, exp.Literal.string(_JAVA_TRIM), exp.Literal.string(_FALLBACK_REGEX), pattern,
         exp.Literal.string(regex or "")])


def _tokens(pattern):
    """The pattern's fields where it is one read here, else None."""
    if not isinstance(pattern, exp.Literal) or not pattern.is_string:
        return None
    tokens = pattern_fields(pattern.this)
    if not tokens or any(letter is not None and (letter not in _LETTERS or letter in "MdHms" and len(run) > 2)
                         for letter, run in tokens):
        return None
    letters = [letter for letter, _ in tokens if letter is not None]
    return tokens if len(letters) == len(set(letters)) else None


def _regex(pattern):
    tokens = _tokens(pattern)
    if tokens is None:
        return None
    parts = ["^"]
    for letter, run in tokens:
        if letter is None:
            parts.append(re.escape(run) if not run.isalnum() else run)
        elif letter == "S":
            parts.append("([0-9]{%d})" % len(run))
        elif letter == "y":
            parts.append("([0-9]{2})" if len(run) == 2 else "([0-9]{4})" if len(run) >= 4 else
                         "([0-9]{%d,19})" % len(run))
        else:
            parts.append("([0-9]{2})" if len(run) == 2 else "([0-9]{1,19})")
    return "".join(parts) + "$"


def _pattern_reading(pattern):
    """Spark SQL of the pattern's reading ({0} the text, {4} the pattern's regex) as DateTimeFormatter's SMART
    resolver gives it, NULL where it fails; or None for a pattern not read here."""
    tokens = _tokens(pattern)
    if tokens is None:
        return None
    fields = [(letter, run) for letter, run in tokens if letter is not None]
    values = dict(_DEFAULTS)
    for i, (letter, run) in enumerate(fields):
        if letter == "S":           # nanoseconds: the digits as a fraction; milliseconds kept
            values["ns"] = "TRY_CAST(RPAD(_g[%d], 9, '0') AS INT)" % i
        else:
            values[_LETTERS[letter]] = "TRY_CAST(_g[%d] AS INT)%s" % (i, " + 2000" if letter == "y" and
                                                                     len(run) == 2 else "")
    groups = ",".join("$%d" % (i + 1) for i in range(len(fields)))
    ymd = {"y", "M", "d"} <= {letter for letter, _ in fields}
    last = "DAY(LAST_DAY(MAKE_DATE(_f.y, _f.mo, 1)))"
    fit = "_f.d BETWEEN 1 AND %s" % ("31" if ymd else last)       # SMART clamps a day only in resolveYMD
    midnight = "_f.h = 24 AND _f.mi = 0 AND _f.s = 0 AND _f.ns = 0" + ("" if ymd else " AND FALSE")
    return ("CASE WHEN {0} RLIKE {4} THEN TRANSFORM(ARRAY(SPLIT(REGEXP_REPLACE({0}, {4}, '%s'), ',')), _g -> "
            "TRANSFORM(ARRAY(named_struct(%s)), _f -> CASE WHEN _f.y BETWEEN 1 AND 9999 "
            "AND _f.mo BETWEEN 1 AND 12 AND %s AND _f.mi BETWEEN 0 AND 59 AND _f.s BETWEEN 0 AND 59 "
            "AND (_f.h BETWEEN 0 AND 23 OR %s) THEN MAKE_TIMESTAMP_NTZ(_f.y, _f.mo, LEAST(_f.d, %s), 0, 0, 0) "
            "+ MAKE_DT_INTERVAL(0, _f.h, _f.mi, CAST(_f.s + _f.ns DIV 1000000 / 1000 AS DECIMAL(18, 6))) END)[0])[0] END"
            % (groups, ", ".join("'%s', %s" % (k, v) for k, v in values.items()), fit, midnight, last))
