"""Parsing: Flink SQL text -> a sqlglot tree (the Flink dialect), syntax errors with the user's line and column."""

import sqlglot
from sqlglot.errors import ParseError, TokenError

from .dialect import Flink
from .errors import SqlError


def parse_sql(text, line=1, column=1):
    """Flink SQL text -> sqlglot tree, syntax errors with the user's line and column."""
    try:
        trees = sqlglot.parse(text, read=Flink)
    except ParseError as e:
        err = e.errors[0] if e.errors else {}
        el, ec = err.get("line"), err.get("col")
        if el is not None:
            ec = max((ec or 1) - len(err.get("highlight") or "") + 1, 1)
            al, ac = (line + el - 1, (column + ec - 1) if el == 1 else ec)
        else:
            al, ac = line, column
        near = err.get("highlight") or ""
        desc = err.get("description") or str(e).splitlines()[0]
        raise SqlError("SQL parse failed. %s%s" % (desc, (" near '%s'" % near) if near else ""), al, ac)
    except TokenError as e:
        raise SqlError("SQL parse failed. %s" % e, line, column)
    trees = [t for t in trees if t is not None]
    if len(trees) != 1:
        raise SqlError("Expected one statement", line, column)
    return trees[0]
