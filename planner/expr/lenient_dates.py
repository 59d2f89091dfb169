"""TO_DATE(text, pattern) as Flink 2.3 reads it: DateTimeUtils.parseDate(String, String) parses with a
java.text.SimpleDateFormat, lenient, in UTC, and takes the day of the instant it gives. So a field past its range
rolls over (02/30/2024 is 2024-03-01, 13/01/2024 is 2025-01-01, month 0 the December before, an hour 25 the next
day), and the pattern reads the start of the text (what follows is ignored: '01/15/2024x' is 2024-01-15).

How SimpleDateFormat reads a numeric field: blanks and tabs before it are skipped; then a number, a '-' sign
allowed, as many digits as come, but only `count` characters where the next pattern field is a number too
(abutting fields: 'yyyyMMdd'); a year of 'y'/'yy' that reads exactly two digits lies within 80 years before and 20
after now ('24' is 2024), any other year is taken as it is ('24' with 'yyyy' is the year 24). Other pattern
characters must be in the text as they are. The fields give a date as the lenient GregorianCalendar computes it:
the month's overflow moves the year, the day counts from the month's first day, the time of day's overflow moves
the day; before the Gregorian cutover (1582-10-15) the date is a Julian calendar date (01/05/0024 is 0024-01-03).

Patterns of y, M/MM, d, H, m, s and S and literal text are computed so, in Spark SQL; any other letter (a month's
name, AM/PM, a zone, ...) and a pattern that is not a literal go to Spark's TRY_TO_DATE as before. A text the
pattern does not read is NULL: Flink gives the date of Long.MIN_VALUE milliseconds, computed with int overflow
(+1705471-09-27), which no DATE of dynsql (nor Python's) holds; dates past 9999-12-31 are NULL for that reason."""

import re

from sqlglot import exp

from .date_patterns import _fields as pattern_fields
from .spark_template import spark_template

_FIELDS = {"y": "year", "M": "month", "d": "day", "H": "hour", "m": "minute", "s": "second", "S": "milli"}
_DEFAULTS = {"year": "1970", "month": "1", "day": "1", "hour": "0", "minute": "0", "second": "0", "milli": "0"}
_CUTOVER = -141427            # 1582-10-15, the first Gregorian day (days from 1970-01-01)
_EPOCH_JULIAN = 2440588


def lenient_to_date(text, pattern):
    """The Spark tree of TO_DATE(`text`, `pattern`), or None where the pattern is not one computed here."""
    if not isinstance(pattern, exp.Literal) or not pattern.is_string:
        return None
    tokens = pattern_fields(pattern.this)
    if not tokens or any(letter is not None and (letter not in _FIELDS or letter == "M" and len(run) > 2)
                         for letter, run in tokens):
        return None
    regex, groups = _regex(tokens)
    values = dict(_DEFAULTS)
    for group, (letter, run) in enumerate(groups, start=1):
        read = "regexp_extract({0}, {1}, %d)" % group
        number = "CAST(pmod(CAST(%s AS BIGINT) + 2147483648, 4294967296) - 2147483648 AS BIGINT)" % read
        if letter == "y" and len(run) <= 2:              # two digits: within 80 years before now, 20 after
            number = ("CASE WHEN %s rlike '^[0-9][0-9]$' THEN %s + (year(current_date()) - 80) div 100 * 100 + "
                      "IF(%s < pmod(year(current_date()) - 80, 100), 100, 0) ELSE %s END" % (read, number, number,
                                                                                             number))
        values[_FIELDS[letter]] = "(%s)" % number
    return spark_template(_date_text(values), [text, exp.Literal.string(regex)])


def _regex(tokens):
    """A Java regex reading the text's start as SimpleDateFormat does, with a group for each numeric field; and
    the fields in group order."""
    parts, groups = ["^"], []
    for i, (letter, run) in enumerate(tokens):
        if letter is None:
            parts.append("".join(_literal_char(ch) for ch in run))
            continue
        abutting = i + 1 < len(tokens) and tokens[i + 1][0] is not None
        # possessive quantifiers: DecimalFormat takes every digit it can and never gives one back
        if abutting:                 # only `count` characters: the sign counts among them
            n = len(run)
            number = "[0-9]" if n == 1 else "-[0-9]{1,%d}+|[0-9]{1,%d}+" % (n - 1, n)
            parts.append("(?=[\\s\\S]{%d})[ \\t]*+(%s)" % (n, number))
        else:
            parts.append("[ \\t]*+(-?+[0-9]{1,18}+)")
        groups.append((letter, run))
    return "".join(parts), groups


def _literal_char(ch):
    return re.escape(ch) if not ch.isalnum() else ch


def _fdiv(a, b):
    return "((%s) - pmod(%s, %d)) div %d" % (a, a, b, b)


def _date_text(v):
    """Spark SQL of the lenient GregorianCalendar's day for the fields `v` (SQL texts), NULL when the text does
    not read ({0} against the regex {1}) or the day is outside 0001-01-01 .. 9999-12-31. Each step binds its
    values once (TRANSFORM of a one-element array): the month's overflow into the year, the day's offset (its
    day of the month and the time of day's whole days), the Gregorian and the Julian day; the Julian one before
    the cutover (the year as read, GregorianCalendar.computeTime)."""
    time = "((({hour} * 60 + {minute}) * 60 + {second}) * 1000 + {milli})".format(**v)
    steps = [
        "named_struct('y', {year}, 'mo', {month} - 1, 'd', {day}, 't', %s)".format(**v) % time,
        "named_struct('raw', _f.y, 'y', _f.y + %s, 'm', pmod(_f.mo, 12) + 1, 'off', _f.d - 1 + %s)"
        % (_fdiv("_f.mo", 12), _fdiv("_f.t", 86400000)),
        "named_struct('raw', _f.raw, 'yy', _f.y + 4800 - (14 - _f.m) div 12, "
        "'mm', _f.m + 12 * ((14 - _f.m) div 12) - 3, 'off', _f.off)",
        "named_struct('raw', _f.raw, 'yy', _f.yy, 'c', (153 * _f.mm + 2) div 5 + 365 * _f.yy + %s + _f.off - %d)"
        % (_fdiv("_f.yy", 4), _EPOCH_JULIAN - 1),
        "IF(_f.raw >= 1582 AND _f.c - %s + %s - 32045 >= %d, _f.c - %s + %s - 32045, _f.c - 32083)"
        % (_fdiv("_f.yy", 100), _fdiv("_f.yy", 400), _CUTOVER, _fdiv("_f.yy", 100), _fdiv("_f.yy", 400)),
        "IF(_f BETWEEN -719162 AND 2932896, date_from_unix_date(CAST(_f AS INT)), CAST(NULL AS DATE))",
    ]
    text = "ARRAY(%s)" % steps[0]
    for step in steps[1:]:
        text = "TRANSFORM(%s, _f -> %s)" % (text, step)
    return "CASE WHEN NOT ({0} rlike {1}) THEN CAST(NULL AS DATE) ELSE %s[0] END" % text
