"""MEASURES and DEFINE expressions: text -> sqlglot tree, plus the questions validation and the runtime ask.

`RUNNING f(...)` / `FINAL f(...)` are not sqlglot syntax: they are rewritten to `__RUNNING(f(...))` /
`__FINAL(f(...))` before parsing. Navigation (FIRST, LAST, PREV, NEXT), CLASSIFIER(), MATCH_NUMBER(),
MATCH_ROWTIME(), MATCH_PROCTIME() stay ordinary function calls in the tree."""

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError

from planner.match_recognize.tokens import tokenize

try:  # the lead's dialect module
    from planner.dialect import Flink as FlinkDialect
except ImportError:  # pragma: no cover - only before planner/dialect.py exists
    from sqlglot import tokens as _tokens
    from sqlglot.dialects.dialect import Dialect

    class FlinkDialect(Dialect):
        class Tokenizer(_tokens.Tokenizer):
            IDENTIFIERS = ["`"]


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
    return tree


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
