"""Flink's exact arithmetic written as Spark SQL that runs under Spark's ANSI mode.

Flink computes TINYINT/SMALLINT/INT/BIGINT `+ - *`, `/`, unary minus and ABS as Java does: a result that does
not fit wraps around (`2147483647 + 1` is -2147483648, `-(-128)` of a TINYINT is -128, ABS of MIN_VALUE is
MIN_VALUE); a DECIMAL result that does not fit its type is NULL; an exact division (or MOD) by zero fails.
Spark in ANSI mode raises ARITHMETIC_OVERFLOW for the first two. dynsql keeps ANSI mode (it gives Flink's
errors for malformed CASTs and division by zero, and its type coercion) and writes each such operation so
that it cannot overflow:
- a TINYINT/SMALLINT/INT result is computed in BIGINT (where it fits) and its low 8/16/32 bits are kept
  (`shiftright(shiftleft(x, 56), 56)`: cheap, no branch);
- a BIGINT result is Spark's `try_add`/`try_subtract`/`try_multiply`, and only when that overflows (NULL),
  the exact result in DECIMAL taken modulo 2^64;
- a DECIMAL `+ - * /` is Spark's `try_` form (NULL when the result does not fit, as in Flink), a division by
  zero still fails.
`rewrite(node, typeof, sub)` is called by the binder's `to_spark` for each node; it returns the Spark tree
of an arithmetic node (its operands rewritten by `sub`), or None when Spark's own operator is Flink's."""

from functools import lru_cache

import sqlglot
from sqlglot import exp

from .operands_once import fill

INTEGRAL_BITS = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}
_INT_DIGITS = {"TINYINT": 3, "SMALLINT": 5, "INT": 10, "BIGINT": 19}
_OPS = {exp.Add: ("+", "try_add"), exp.Sub: ("-", "try_subtract"), exp.Mul: ("*", "try_multiply")}


@lru_cache(maxsize=None)
def _parsed(text):
    return sqlglot.parse_one(text, read="spark")


def template(text, **operands):
    """Spark SQL `text` with each column `_name` replaced by the tree given for `name`; an operand that `text`
    reads more than once is evaluated once (`operands_once.fill`)."""
    tree = _parsed(text).copy()
    places = [(col, col.name[1:]) for col in list(tree.find_all(exp.Column))
              if col.name.startswith("_") and col.name[1:] in operands and not col.table]
    return fill(tree, places, operands)


def _wrap_text(bigint_text, flink_name):
    shift = 64 - INTEGRAL_BITS[flink_name]
    return "CAST(shiftright(shiftleft(%s, %d), %d) AS %s)" % (bigint_text, shift, shift, flink_name)


WRAP_DECIMAL = "CAST(pmod(%s + 9223372036854775808, 18446744073709551616) - 9223372036854775808 AS BIGINT)"
_NEGATE_BIGINT = "coalesce(try_subtract(CAST(0 AS BIGINT), %s), %s)"


def wrap_integral(bigint_tree, flink_name):
    """A BIGINT tree's value wrapped into `flink_name` (TINYINT, SMALLINT, INT) as Java narrows it."""
    return template(_wrap_text("_x", flink_name), x=bigint_tree)


def negate(tree, flink_name):
    """`-x` of an integral type, MIN_VALUE staying MIN_VALUE."""
    if flink_name != "BIGINT":                 # -x fits a BIGINT: its low bits, x written once
        return template(_wrap_text("(- CAST(_x AS BIGINT))", flink_name), x=tree)
    return template(_NEGATE_BIGINT % ("_x", "_x"), x=tree)


def as_decimal(tree, ft):
    """An operand of DECIMAL arithmetic in the DECIMAL type Flink gives it (an INT is DECIMAL(10, 0), a literal
    3 too, where Spark would make it DECIMAL(1, 0)): Spark's result type, and so its scale, is then Flink's."""
    if ft is None or not (_decimal(ft) or _integral(ft)):
        return tree
    p, s = ft.params if _decimal(ft) else (_INT_DIGITS[ft.name], 0)
    return template("CAST(_x AS DECIMAL(%d, %d))" % (p, s), x=tree)


def _integral(ft):
    return ft is not None and ft.name in INTEGRAL_BITS


def _decimal(ft):
    return ft is not None and ft.name == "DECIMAL"


def _time_of_day(n, typeof, sub):
    """TIME +- INTERVAL (a TIME is Spark text 'HH:mm:ss[.f]'): the time on 1970-01-01 moved by the interval, its
    time of day in the TIME's digits (Flink wraps around midnight)."""
    a = typeof(n.this)
    time, interval = (n.this, n.expression) if a is not None and a.name == "TIME" else (n.expression, n.this)
    out = typeof(n)
    p = out.params[0] if out.params else 0
    symbol = "+" if isinstance(n, exp.Add) else "-"
    return template("date_format(to_timestamp_ntz(concat('1970-01-01 ', _t)) %s _i, 'HH:mm:ss%s')"
                    % (symbol, "." + "S" * p if p else ""), t=sub(time), i=sub(interval))


def _constant(e):
    return not any(isinstance(x, (exp.Column, exp.Rand)) for x in e.walk())


def _zero_literal(e):
    while isinstance(e, (exp.Cast, exp.Paren)):
        e = e.this
    if not isinstance(e, exp.Literal) or e.is_string:
        return False
    try:
        return float(e.this) == 0
    except ValueError:
        return False


def rewrite(n, typeof, sub):
    """The Spark tree of arithmetic node `n` with Flink's semantics, or None (Spark's operator is Flink's)."""
    if isinstance(n, (exp.Add, exp.Sub)):
        out = typeof(n)
        if out is not None and out.name == "TIME":
            return _time_of_day(n, typeof, sub)
    if isinstance(n, tuple(_OPS)):
        out, a, b = typeof(n), typeof(n.this), typeof(n.expression)
        if _integral(out) and _integral(a) and _integral(b):
            symbol, try_name = _OPS[type(n)]
            x, y = sub(n.this), sub(n.expression)
            if out.name != "BIGINT":
                return wrap_integral(template("CAST(_a AS BIGINT) %s CAST(_b AS BIGINT)" % symbol, a=x, b=y), out.name)
            exact = WRAP_DECIMAL % ("(CAST(_a AS DECIMAL(20, 0)) %s CAST(_b AS DECIMAL(20, 0)))" % symbol)
            return template("coalesce(%s(CAST(_a AS BIGINT), CAST(_b AS BIGINT)), %s)" % (try_name, exact), a=x, b=y)
        if _decimal(out):
            symbol, try_name = _OPS[type(n)]
            return template("%s(_a, _b)" % try_name, a=as_decimal(sub(n.this), a), b=as_decimal(sub(n.expression), b))
        return None
    if isinstance(n, (exp.Div, exp.IntDiv)):
        out, a, b = typeof(n), typeof(n.this), typeof(n.expression)
        if _integral(out) and _integral(a) and _integral(b):
            x, y = sub(n.this), sub(n.expression)
            if out.name != "BIGINT":          # no overflow in BIGINT (MIN_VALUE / -1 of an INT fits)
                return wrap_integral(template("CAST(_a AS BIGINT) div CAST(_b AS BIGINT)", a=x, b=y), out.name)
            return template("if(_b = -1, %s, CAST(_a AS BIGINT) div _b)" % (_NEGATE_BIGINT % ("_a", "_a")), a=x, b=y)
        if _decimal(out):                              # by zero: Spark's error ("Division by zero"), as Flink
            x, y = as_decimal(sub(n.this), a), as_decimal(sub(n.expression), b)
            return template("if(_b = 0, _a / _b, try_divide(_a, _b))", a=x, b=y)
        if out is not None and out.name in ("DOUBLE", "FLOAT"):
            if _constant(n.this) and _zero_literal(n.expression):
                from ..errors import SqlError           # Flink folds constants in BigDecimal before it runs
                raise SqlError("Division by zero (a constant divided by the literal 0: Flink computes it while "
                               "planning, and fails)", hint="guard the divisor: CASE WHEN d <> 0 THEN n / d END")
            x, y = sub(n.this), sub(n.expression)      # IEEE: x / 0 is +-Infinity or NaN in Flink
            out_sql = template("if(_b = 0, if(_a > 0, double('Infinity'), if(_a < 0, double('-Infinity'), "
                               "double('NaN'))), _a / _b)", a=x, b=y)
            return template("CAST(_x AS FLOAT)", x=out_sql) if out.name == "FLOAT" else out_sql
        return None
    if isinstance(n, exp.Mod):
        out, a, b = typeof(n), typeof(n.this), typeof(n.expression)
        if _decimal(out):
            return template("_a % _b", a=as_decimal(sub(n.this), a), b=as_decimal(sub(n.expression), b))
        return None
    if isinstance(n, exp.Neg):
        out = typeof(n)
        if _integral(out) and not isinstance(n.this, exp.Literal):     # -1 stays a literal (ROUND(x, -1))
            return negate(sub(n.this), out.name)
        return None
    if isinstance(n, exp.Abs):
        out = typeof(n)
        if _integral(out):
            if out.name != "BIGINT":             # |x| fits a BIGINT: its low bits, x written once
                return template(_wrap_text("abs(CAST(_x AS BIGINT))", out.name), x=sub(n.this))
            return template("if(_x < 0, %s, _x)" % (_NEGATE_BIGINT % ("_x", "_x")), x=sub(n.this))
        return None
    return None
