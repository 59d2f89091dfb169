"""Numbers and intervals read from SQL, checked the way Flink checks them, with Flink's messages.

Wherever the planner reads a number or an interval out of the SQL (a type's precision, a Top-N bound, a
MATCH_RECOGNIZE quantifier, an INTERVAL literal in a watermark, a window or WITHIN), it calls one of:

- `integer_literal(literal, what, position, minimum, maximum)`: a whole number, never a float, within range;
- `positive_int(literal, what, position)`: 1 .. 2,147,483,647 (a length, a count);
- `rank_end(operator, literal, position)`: the last row of `rn <= n` / `rn < n` / `rn = n` (Top-N);
- `quantifier_bounds(low, high, position)`: the {n,m} of a pattern quantifier;
- `interval_ms(text_or_node, position)`: an INTERVAL literal -> milliseconds;
- `number_type(text, position)`: the Flink type of a numeric literal in an expression (INT, BIGINT,
  DECIMAL(p, s), DOUBLE), refusing one out of range.

A literal is its SQL text, a sqlglot Literal (or a negated one) or an int. `position` is the (line,
column) errors carry. Each refuses NaN, Infinity, fractions where a whole number is needed, and values
past their range before converting anything: a 5,000-digit literal is refused by its length, never
handed to `int()` or `float()`. This module does not find literals in a tree: its callers do."""

import re

from sqlglot import exp

from .errors import SqlError

INT_MAX = 2 ** 31 - 1
LONG_MAX = 2 ** 63 - 1
_MAX_DIGITS = 40                 # longer digit strings are out of every range without being converted

_UNIT_MS = {"SECOND": 1000, "MINUTE": 60000, "HOUR": 3600000, "DAY": 86400000, "WEEK": 7 * 86400000,
            "MILLISECOND": 1}
_SPAN_ORDER = ("DAY", "HOUR", "MINUTE", "SECOND")
_SPAN_LIMIT = {"HOUR": 24, "MINUTE": 60, "SECOND": 60}    # a field after the first stays below this
_DEFAULT_PRECISION = 2           # Flink's (Calcite's) default leading precision of an interval field
_MAX_PRECISION = 10
_MAX_FRACTION = 9                # digits after the point of a SECOND field


def _where(position):
    return tuple(position) if position else (None, None)


def _shown(text, width=40):
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def _out_of_range(text):
    """Flink's message for a numeric literal out of range: the exponent's E upper case, as Calcite's lexer
    has it (`_shown` cuts a 5,000-digit number, which Flink prints whole)."""
    text = _shown(text)
    if re.fullmatch(r"[-+]?[\d.]+e[-+]?\d+", text, re.I):
        text = text.upper()
    return "Numeric literal '%s' out of range" % text


def literal_text(literal):
    """The text of a literal as written: '12', '-3', '1.5', 'NaN'."""
    if isinstance(literal, bool):
        return str(literal).upper()
    if isinstance(literal, int):
        return str(literal)
    if isinstance(literal, exp.Neg):
        return "-" + literal_text(literal.this)
    if isinstance(literal, exp.Paren):
        return literal_text(literal.this)
    if isinstance(literal, exp.Literal):
        return literal.this if isinstance(literal.this, str) else str(literal.this)
    if isinstance(literal, exp.Expression):
        return literal.sql()
    return str(literal).strip()


def limit_count(node):
    """`LIMIT n` or `FETCH FIRST | NEXT [n] ROW | ROWS ONLY` -> the expression of its row count (FETCH without a
    count fetches one row)."""
    if isinstance(node, exp.Fetch):
        return node.args.get("count") or exp.Literal.number(1)
    return node.expression


def integer_literal(literal, what, position=None, minimum=None, maximum=LONG_MAX):
    """A whole-number literal -> int, for `what` (e.g. 'The precision of TIMESTAMP').

    Refuses a fraction, an exponent, NaN and Infinity ("... must be a whole number"), a value past
    `maximum` ("Numeric literal '...' out of range", Flink's words) and one below `minimum`."""
    text = literal_text(literal).strip()
    m = re.fullmatch(r"([+-]?)0*(\d+)", text)
    if not m:
        raise SqlError("%s must be a whole number, not '%s'" % (what, _shown(text)), *_where(position))
    sign, digits = m.group(1), m.group(2)
    if len(digits) > _MAX_DIGITS:
        raise SqlError(_out_of_range(text), *_where(position))
    value = int(digits) * (-1 if sign == "-" else 1)
    if maximum is not None and value > maximum:
        raise SqlError(_out_of_range(text), *_where(position),
                       hint="the largest allowed is %s" % format(maximum, ","))
    if minimum is not None and value < minimum:
        raise SqlError("%s must be at least %d, not %s" % (what, minimum, _shown(text)), *_where(position))
    return value


def positive_int(literal, what, position=None):
    """A whole number 1 .. 2,147,483,647 (a length, a count, a precision that must be positive)."""
    return integer_literal(literal, what, position, minimum=1, maximum=INT_MAX)


def rank_end(operator, literal, position=None):
    """The last row number a Top-N filter keeps: `rn <= n` -> n, `rn < n` -> n - 1, `rn = n` -> n.

    The bound must be a whole number (Flink reads `rn <= 1.5` as rank end 15, its unscaled value: dynsql
    refuses it instead), and the end at least 1 (Flink: "Rank end should not less than zero, but now is 0")."""
    value = integer_literal(literal, "The Top-N bound", position, maximum=LONG_MAX)
    if operator not in ("<=", "<", "="):
        raise SqlError("A Top-N filter compares the row number with <=, < or =, not %s" % operator,
                       *_where(position))
    end = value - 1 if operator == "<" else value
    if end < 1:
        raise SqlError("Rank end should not less than zero, but now is %d" % end, *_where(position))
    return end


def quantifier_bounds(low, high=None, position=None):
    """The (n, m) of a quantifier {n}, {n,}, {,m} or {n,m} (`None` for a bound not given); each at most
    2,147,483,647 (Flink: "Numeric literal '...' out of range"), and n <= m (Flink: "The to should be a number
    greater than or equal to from: n.")."""
    lo = None if low is None else integer_literal(low, "A quantifier's bound", position, minimum=0, maximum=INT_MAX)
    hi = None if high is None else integer_literal(high, "A quantifier's bound", position, minimum=0,
                                                    maximum=INT_MAX)
    if lo is not None and hi is not None and hi < lo:
        raise SqlError("The to should be a number greater than or equal to from: %d." % lo, *_where(position))
    return lo, hi


def number_type(text, position=None):
    """The type Flink gives the numeric literal `text` (unsigned, as written in an expression): 'INT' or
    'BIGINT' (a whole number), 'DECIMAL(p, s)' (digits with a point), 'DOUBLE' (an exponent).

    Flink (Calcite) refuses an exact literal whose digits, the point left out, exceed a BIGINT
    ("Numeric literal '99999999999999999999' out of range") and an approximate one past a DOUBLE; the
    length is checked before anything is converted."""
    text = str(text).strip()
    m = re.fullmatch(r"(\d*)(?:\.(\d*))?", text)
    if m and text not in ("", "."):
        whole, fraction = m.group(1), m.group(2)
        digits = (whole + (fraction or "")).lstrip("0")
        if len(digits) > _MAX_DIGITS or int(digits or "0") > LONG_MAX:
            raise SqlError(_out_of_range(text), *_where(position))
        if fraction is None:
            return "INT" if int(digits or "0") <= INT_MAX else "BIGINT"
        scale = len(fraction)
        precision = max(len(whole) + scale, 1)       # Calcite counts the leading zeros: 0.05 is DECIMAL(3, 2)
        return "DOUBLE" if precision > 38 else "DECIMAL(%d, %d)" % (precision, scale)
    try:
        value = float(text)
    except ValueError:
        return "DOUBLE"
    if value in (float("inf"), float("-inf")):
        raise SqlError(_out_of_range(text), *_where(position))
    return "DOUBLE"


# ---------------------------------------------------------------------- intervals
def interval_ms(text_or_node, position=None):
    """An INTERVAL literal -> milliseconds (a sqlglot Interval, or its text "INTERVAL '5' SECOND").

    Flink's rules and messages: the value is whole numbers in the unit's fields ('5', '-5', '1:30' HOUR TO
    MINUTE, '1 02:03:04.5' DAY TO SECOND), a fraction only in SECOND; anything else (NaN, Infinity, 1e3,
    '') is "Illegal interval literal format '...' for INTERVAL SECOND". The leading field has at most 2
    digits unless a precision is given (INTERVAL '100' SECOND(3)): "Interval field value 100 exceeds
    precision of SECOND(2) field". Units: SECOND, MINUTE, HOUR, DAY, WEEK (plural forms too), and
    dynsql's MILLISECOND."""
    node = _interval_node(text_or_node, position)
    value = node.this
    if isinstance(value, exp.Literal):
        text = value.this if isinstance(value.this, str) else str(value.this)
    else:
        text = literal_text(value)
    unit = node.args.get("unit")
    if unit is None:
        raise SqlError("INTERVAL '%s' needs a unit, e.g. INTERVAL '%s' SECOND" % (_shown(text), _shown(text)),
                       *_where(position))
    if isinstance(unit, exp.IntervalSpan):
        first, last = _unit_name(unit.this, position), _unit_name(unit.expression, position)
        precision = _unit_precision(unit.this, position)
        return _span_ms(text, first, last, precision, position)
    name = _unit_name(unit, position)
    return _single_ms(text, name, _unit_precision(unit, position), position)


def _interval_node(text_or_node, position):
    if isinstance(text_or_node, exp.Interval):
        return text_or_node
    if isinstance(text_or_node, exp.Neg) and isinstance(text_or_node.this, exp.Interval):
        node = text_or_node.this.copy()
        node.set("this", exp.Literal.string("-" + literal_text(node.this)))
        return node
    if isinstance(text_or_node, str):
        from .parse import parse_sql
        line, column = _where(position)
        node = parse_sql(text_or_node, line or 1, column or 1)
        if isinstance(node, exp.Interval):
            return node
    raise SqlError("Expected an INTERVAL literal, e.g. INTERVAL '10' SECOND", *_where(position))


def _unit_name(unit, position):
    name = (unit.name if isinstance(unit, (exp.Var, exp.Column, exp.Identifier)) else unit.key).upper()
    if name.endswith("S") and name[:-1] in _UNIT_MS:
        name = name[:-1]
    if name not in _UNIT_MS:
        raise SqlError("Unsupported interval unit %s" % _shown(name), *_where(position),
                       hint="use SECOND, MINUTE, HOUR, DAY or WEEK (or MILLISECOND)")
    return name


def _unit_precision(unit, position):
    """The leading precision written after a unit (SECOND(3)), or the default 2."""
    arg = unit.args.get("this") if not isinstance(unit, (exp.Var, exp.Column, exp.Identifier)) else None
    if arg is None:
        return _DEFAULT_PRECISION
    p = integer_literal(arg, "An interval's precision", position, minimum=1, maximum=INT_MAX)
    if p > _MAX_PRECISION:
        raise SqlError("Interval leading field precision %d out of range (1 to %d)" % (p, _MAX_PRECISION),
                       *_where(position))
    return p


def _illegal(text, unit_text, position):
    return SqlError("Illegal interval literal format '%s' for INTERVAL %s" % (_shown(text), unit_text),
                    *_where(position))


def _leading(digits, unit, precision, position):
    if unit == "MILLISECOND":               # dynsql's own unit (Flink has none): any value that fits an INT
        precision = max(precision, _MAX_PRECISION)
    if len(digits.lstrip("0")) > precision:
        shown = format(int(digits), ",") if len(digits) <= _MAX_DIGITS else _shown(digits)
        raise SqlError("Interval field value %s exceeds precision of %s(%d) field" % (shown, unit, precision),
                       *_where(position), hint="give the field a precision, e.g. INTERVAL '100' %s(3)" % unit)
    return int(digits)


def _single_ms(text, unit, precision, position):
    m = re.fullmatch(r"\s*([+-]?)(\d+)(?:\.(\d+))?\s*", text)
    if not m or (m.group(3) is not None and unit != "SECOND") or len(m.group(3) or "") > _MAX_FRACTION:
        raise _illegal(text, unit, position)
    sign = -1 if m.group(1) == "-" else 1
    whole = _leading(m.group(2), unit, precision, position)
    ms = whole * _UNIT_MS[unit]
    if m.group(3):
        ms += int(m.group(3)[:3].ljust(3, "0"))
    return sign * ms


def _span_ms(text, first, last, precision, position):
    """'1:30' HOUR TO MINUTE, '1 02:03:04.5' DAY TO SECOND, ..."""
    unit_text = "%s TO %s" % (first, last)
    if first not in _SPAN_ORDER or last not in _SPAN_ORDER or \
            _SPAN_ORDER.index(first) >= _SPAN_ORDER.index(last):
        raise SqlError("Unsupported interval INTERVAL %s" % unit_text, *_where(position),
                       hint="DAY TO HOUR | MINUTE | SECOND, HOUR TO MINUTE | SECOND, MINUTE TO SECOND")
    units = _SPAN_ORDER[_SPAN_ORDER.index(first):_SPAN_ORDER.index(last) + 1]
    m = re.fullmatch(r"\s*([+-]?)(\d+)(?:[ :](\d+))*(?:\.(\d+))?\s*", text)
    if not m:
        raise _illegal(text, unit_text, position)
    body = text.strip().lstrip("+-")
    fraction = None
    if "." in body:
        body, fraction = body.split(".", 1)
    # the separators: a space after DAY, ':' between the time fields
    expected = "".join(" " if u == "DAY" else ":" for u in units[:-1])
    parts = re.split(r"[ :]", body)
    seps = re.findall(r"[ :]", body)
    if len(parts) != len(units) or "".join(seps) != expected or (fraction is not None and last != "SECOND") \
            or len(fraction or "") > _MAX_FRACTION or any(len(p) > _MAX_DIGITS for p in parts):
        raise _illegal(text, unit_text, position)
    ms = _leading(parts[0], first, precision, position) * _UNIT_MS[first]
    for part, unit in zip(parts[1:], units[1:]):
        value = int(part)
        if value >= _SPAN_LIMIT[unit]:
            raise _illegal(text, unit_text, position)
        ms += value * _UNIT_MS[unit]
    if fraction:
        ms += int(fraction[:3].ljust(3, "0"))
    return -ms if m.group(1) == "-" else ms
