"""Flink's date-time format patterns (Java's DateTimeFormatter, as DATE_FORMAT and FROM_UNIXTIME read them) on
Spark's DATE_FORMAT, whose patterns are the same letters except those Spark refuses since 3.0.

`format_call(x, pattern)` is the Spark expression formatting the TIMESTAMP `x` with the Flink pattern `pattern`
(a string literal; any other pattern goes to Spark as it is). The letters Spark refuses are computed:
- `u` (Java's year, as `y`) is written as `y`;
- `Y` (week-based year), `w` (week of that year) and `W` (week of the month), in Java's default locale
  (en-US: weeks from Sunday, a week in the year that holds its Saturday), and `e` / `c` (day of the week,
  Sunday 1; three or more letters the day's name, as `E`) are computed from the date's fields;
the other letters and quoted text go to Spark's DATE_FORMAT in pieces, joined with CONCAT. Flink fails at run
time on a zone letter (`z`, `Z`, `X`, `x`, `O`, `V`: a TIMESTAMP has no zone); dynsql refuses it when planning."""

from sqlglot import exp

from ..errors import SqlError

_ZONE_LETTERS = set("zZXxOVv")
_COMPUTED = set("YwWec")


def _call(name, *args):
    node = exp.Anonymous(this=name, expressions=list(args))
    node.meta["spark"] = True
    return node


def _lit(v):
    return exp.Literal.number(v) if isinstance(v, int) else exp.Literal.string(v)


def _fields(pattern):
    """[(letter or None, text)]: runs of one pattern letter, and literal text (quotes resolved)."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "'":
            j, text = i + 1, ""
            while j < n:
                if pattern[j] == "'":
                    if j + 1 < n and pattern[j + 1] == "'":
                        text, j = text + "'", j + 2
                        continue
                    break
                text, j = text + pattern[j], j + 1
            out.append((None, text if j > i + 1 else "'"))
            i = j + 1
        elif ch.isalpha():
            j = i
            while j < n and pattern[j] == ch:
                j += 1
            out.append((ch, pattern[i:j]))
            i = j
        else:
            out.append((None, ch))
            i += 1
    return out


def _quoted(text):
    return "'%s'" % text.replace("'", "''") if text else ""


def _padded(number, width):
    text = exp.Cast(this=number, to=exp.DataType.build("STRING"))
    return text if width <= 1 else _call("LPAD", text, _lit(width), _lit("0"))


def _computed(x, letter, run):
    """The text of a field Spark refuses."""
    width = len(run)
    day_of_week = _call("DAYOFWEEK", x.copy())                 # Sunday 1 .. Saturday 7
    saturday = _call("DATE_ADD", _call("TO_DATE", x.copy()), exp.Sub(this=_lit(7), expression=day_of_week))
    if letter in "ec":
        if width >= 3:
            return _call("DATE_FORMAT", x.copy(), _lit("EEEE" if width >= 4 else "EEE"))
        return _padded(day_of_week.copy(), width)
    if letter == "Y":
        year = _call("YEAR", saturday)
        if width == 2:
            return _padded(_call("PMOD", year, _lit(100)), 2)
        return _padded(year, width)
    if letter == "w":
        week = exp.Add(this=exp.IntDiv(this=exp.Paren(this=exp.Sub(this=_call("DAYOFYEAR", saturday), expression=_lit(1))),
                                       expression=_lit(7)), expression=_lit(1))
        return _padded(week, width)
    # W: week of the month, weeks from Sunday, the first one the week holding the 1st
    first = _call("DAYOFWEEK", _call("TRUNC", x.copy(), _lit("MM")))
    offset = exp.Add(this=exp.Sub(this=_call("DAYOFMONTH", x.copy()), expression=_lit(1)),
                     expression=exp.Sub(this=first, expression=_lit(1)))
    return _padded(exp.Add(this=exp.IntDiv(this=exp.Paren(this=offset), expression=_lit(7)), expression=_lit(1)),
                   width)


def format_call(x, pattern):
    """Spark's formatting of the TIMESTAMP `x` with the Flink pattern `pattern` (an expression)."""
    if not (isinstance(pattern, exp.Literal) and pattern.is_string):
        return _call("DATE_FORMAT", x, pattern)
    fields = _fields(pattern.name)
    zone = next((run for letter, run in fields if letter in _ZONE_LETTERS), None)
    if zone is not None:
        raise SqlError("The date format pattern '%s' asks for a time zone ('%s'), which a TIMESTAMP has not"
                       % (pattern.name, zone), hint="Flink fails such a query when it runs: Unsupported field")
    if not any(letter in _COMPUTED or letter == "u" for letter, _ in fields):
        return _call("DATE_FORMAT", x, pattern)
    parts, spark_pattern = [], ""
    for letter, run in fields:
        if letter in _COMPUTED:
            if spark_pattern:
                parts.append(_call("DATE_FORMAT", x.copy(), _lit(spark_pattern)))
                spark_pattern = ""
            parts.append(_computed(x, letter, run))
        elif letter is None:
            spark_pattern += _quoted(run) if run.isalpha() or "'" in run else run
        else:
            spark_pattern += "y" * len(run) if letter == "u" else run
    if spark_pattern:
        parts.append(_call("DATE_FORMAT", x.copy(), _lit(spark_pattern)))
    return parts[0] if len(parts) == 1 else _call("CONCAT", *parts)
