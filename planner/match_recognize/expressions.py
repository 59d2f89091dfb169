"""MEASURES and DEFINE expressions: text -> sqlglot tree, plus the questions validation and the runtime ask.

`RUNNING f(...)` / `FINAL f(...)` are not sqlglot syntax: they are rewritten to `__RUNNING(f(...))` /
`__FINAL(f(...))` before parsing. Navigation (FIRST, LAST, PREV, NEXT), CLASSIFIER(), MATCH_NUMBER(),
MATCH_ROWTIME(), MATCH_PROCTIME() stay ordinary function calls in the tree. A subquery or a `TABLE t`
argument is refused where it stands: the expressions read the columns of pattern variables."""

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError

from planner.match_recognize.tokens import tokenize

from planner.dialect import Flink as FlinkDialect
from planner.dialect import TableArgument
from planner.reserved_words import check_reserved_identifiers


SEMANTICS_MARKERS = ("__RUNNING", "__FINAL")
NAVIGATION = ("FIRST", "LAST", "PREV", "NEXT")
AGGREGATES = (exp.Sum, exp.Count, exp.Avg, exp.Min, exp.Max)
AGGREGATE_NAMES = {exp.Sum: "SUM", exp.Count: "COUNT", exp.Avg: "AVG", exp.Min: "MIN", exp.Max: "MAX"}


def rewrite_semantics(text, positions_for_errors):
    """'RUNNING LAST(A.x)' -> '__RUNNING(LAST(A.x))' (and FINAL); other text unchanged."""
    toks = tokenize(text, positions_for_errors)
    inserts = []   # (offset, text) pairs
    for k, t in enumerate(toks):
        if t.is_word("RUNNING", "FINAL") and k + 2 < len(toks) and toks[k + 1].kind in ("WORD", "QWORD") \
                and toks[k + 2].kind == "OP" and toks[k + 2].text == "(":
            depth = 0
            close = None
            for u in toks[k + 2:]:
                if u.kind == "OP" and u.text == "(":
                    depth += 1
                elif u.kind == "OP" and u.text == ")":
                    depth -= 1
                    if depth == 0:
                        close = u
                        break
            if close is None:
                continue
            inserts.append((t.start, t.end, "__%s(" % t.text.upper()))
            inserts.append((close.end, close.end, ")"))
    if not inserts:
        return text
    out, last = [], 0
    for start, end, repl in sorted(inserts, key=lambda x: (x[0], x[1])):
        out.append(text[last:start])
        out.append(repl)
        last = end
    out.append(text[last:])
    return "".join(out)


def parse_expression(text, positions, offset):
    """Parse one expression (starting at `offset` of the clause text); SqlError with the user's position."""
    try:
        rewritten = rewrite_semantics(text, positions)
        tree = sqlglot.parse_one(rewritten, read=FlinkDialect)
    except ParseError as e:
        detail = str(e).split("\n")[0]
        raise positions.error("Cannot parse expression '%s': %s" % (text.strip(), detail), offset)
    except Exception as e:  # sqlglot raises a few other errors on odd input
        raise positions.error("Cannot parse expression '%s': %s" % (text.strip(), e), offset)
    if tree is None:
        raise positions.error("Empty expression", offset)
    if rewritten == text:
        check_reserved_identifiers(tree, text, positions.line, positions.column)
    query = next(tree.find_all(exp.Query, exp.Values), None)
    if query is not None:
        raise positions.error("Subqueries are not supported in MEASURES or DEFINE", _word_offset(
            text, positions, "SELECT", "VALUES", "WITH", "TABLE", default=offset))
    table = next(tree.find_all(TableArgument), None)
    if table is not None:
        raise _table_argument_error(table, text, positions, offset)
    return tree


def _table_argument_error(table, text, positions, offset):
    """`FIRST(TABLE price)`: `TABLE t` is an argument of a table function only; MEASURES and DEFINE read the
    columns of pattern variables. The error points at the TABLE keyword."""
    at = _word_offset(text, positions, "TABLE", default=offset)
    name = func_name(table.parent)
    if name in NAVIGATION:
        return positions.error("The argument of %s must be a column of a pattern variable (such as %s(A.price)), "
                               "not a table" % (name, name), at)
    return positions.error("A table cannot be an argument in MEASURES or DEFINE: expressions there read the "
                           "columns of pattern variables (such as A.price)", at)


def _word_offset(text, positions, *words, default):
    """Offset of the first keyword among `words` in `text` (not a qualified name's part: `A.table`)."""
    toks = tokenize(text, positions)
    return next((t.start for k, t in enumerate(toks) if t.is_word(*words) and not (k and toks[k - 1].text == ".")),
                default)


def func_name(node):
    """Upper-case name of a function call node (Anonymous or typed), else None."""
    if isinstance(node, exp.Anonymous):
        return str(node.this).upper()
    if isinstance(node, exp.First):
        return "FIRST"
    if isinstance(node, exp.Last):
        return "LAST"
    if isinstance(node, exp.Func):
        return node.sql_name().upper() if hasattr(node, "sql_name") else type(node).__name__.upper()
    return None


def call_args(node):
    """Positional arguments of a call node, whatever sqlglot class it is."""
    if isinstance(node, exp.Anonymous):
        return list(node.expressions)
    args = []
    if node.args.get("this") is not None:
        args.append(node.this)
    if node.args.get("expression") is not None:
        args.append(node.args["expression"])
    args.extend(node.args.get("expressions") or [])
    return args


def is_aggregate(node):
    return isinstance(node, AGGREGATES)


def column_refs(node):
    """All Column nodes under node (not descending into nothing special)."""
    return list(node.find_all(exp.Column))


def qualifier(col):
    """'A' for A.price, None for price."""
    t = col.args.get("table")
    return t.name if t is not None else None
