"""Numbers read from SQL text where they size or bound something (a LIMIT, a Top-N bound, a window
frame, a precision): checked once here, with a clear message instead of a Python error for NaN,
Infinity, fractions, negative numbers or numbers too large."""

import re

from sqlglot import exp

from .errors import SqlError

MAX_INT = 2147483647


def positive_int(node, what, position, allow_zero=False, maximum=MAX_INT):
    """A literal integer (sqlglot Literal, or text) for `what` -> int, or a SqlError at `position`."""
    text = node.name if isinstance(node, exp.Expression) else str(node)
    negative = isinstance(node, exp.Neg)
    if negative:
        text = node.this.name if isinstance(node.this, exp.Literal) else node.sql()
    if isinstance(node, exp.Expression) and not isinstance(node, (exp.Literal, exp.Neg)) or \
            isinstance(node, exp.Literal) and node.is_string:
        raise SqlError("%s must be an integer literal, not %s" % (what, node.sql()), *position)
    if not re.fullmatch(r"\d+", text or ""):
        raise SqlError("%s must be an integer, not %s%s" % (what, "-" if negative else "", text), *position)
    if len(text) > 12 or int(text) > maximum:
        raise SqlError("%s is too large: %s (at most %d)" % (what, text if len(text) <= 30 else text[:27] + "...",
                                                             maximum), *position)
    value = -int(text) if negative else int(text)
    if value < 0 or (value == 0 and not allow_zero):
        raise SqlError("%s must be %s, not %d" % (what, "0 or more" if allow_zero else "positive", value), *position)
    return value
