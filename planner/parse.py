"""Parsing Flink SQL text into a sqlglot tree: `parse_sql(text, line, column)`.

- Syntax errors are `SqlError`s in the SQL's own terms: what was expected or what was unexpected, near
  which text, at the line and column of the user's input (the statement starts at `line`:`column`).
  They never name sqlglot's classes, tokens or internals.
- Deep nesting: sqlglot's parser recurses about 25 Python frames per level of parentheses, function
  calls, CASE or NOT. Parsing (and, through `deep_stack`, the planning of a statement) runs in a thread
  with a large stack and a raised recursion limit, so that `MAX_NESTING` levels (2,000, counted
  together: brackets, CASE ... END, and runs of prefix NOT / - / +) parse and plan. A statement nested
  deeper is refused before parsing with a "nested too deeply" error at the token past the limit.
  Operator chains (`a AND b AND ...`, `x + y + ...`) are parsed iteratively: their length is free and
  their parsing time linear.
- Types written in the SQL (`CAST(x AS DECIMAL(39, 2))`) get Flink's limits (planner.types.type_params):
  a refused one (DECIMAL(0), DECIMAL(5, 6), a precision that is not an INT) is an error at its place; a
  precision past Flink's maximum is read as Flink reads it (TIMESTAMP(99) is TIMESTAMP(9)).
- sqlglot's warnings (it logs some while generating SQL) are kept off the terminal: the planner never
  prints.

This module does not look at what the tree means (tables, columns, types): that is the planner's."""

import gc
import logging
import re
import sys
import threading

from sqlglot import exp
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokens import TokenType

from .dialect import Flink, quoted, shorten
from .errors import SqlError
from .reserved_words import check_reserved_identifiers
from .expr.types import type_params

MAX_NESTING = 2000                 # levels of nesting a statement may have (its error names the limit)
_RECURSION_LIMIT = MAX_NESTING * 60 + 20000
_STACK_BYTES = 512 * 1024 * 1024   # virtual: only the pages a deep statement touches are used
_NEAR_CHARS = 40                   # how much of the offending text an error quotes
# While a statement is planned the cyclic garbage collector runs after this many new objects instead of
# Python's 700: a long statement makes hundreds of thousands of tree nodes (each with a parent: cycles),
# and each collection walked the whole growing tree again (half the planning time of a 100,000-character
# condition). Its garbage is collected as usual once the statement is planned.
_GC_THRESHOLD = 100_000

logging.getLogger("sqlglot").addHandler(logging.NullHandler())
logging.getLogger("sqlglot").propagate = False

_DIALECT = Flink()
_OPENING = {TokenType.L_PAREN, TokenType.L_BRACKET, TokenType.L_BRACE}
_CLOSING = {TokenType.R_PAREN, TokenType.R_BRACKET, TokenType.R_BRACE}
_PREFIX = {TokenType.NOT, TokenType.DASH, TokenType.PLUS, TokenType.TILDE}
_TYPE_TOKENS = {TokenType.DECIMAL: "DECIMAL", TokenType.TIMESTAMP: "TIMESTAMP", TokenType.TIMESTAMPLTZ: "TIMESTAMP_LTZ",
                TokenType.TIME: "TIME", TokenType.VARCHAR: "VARCHAR", TokenType.CHAR: "CHAR",
                TokenType.BINARY: "BINARY", TokenType.VARBINARY: "VARBINARY"}
_CLAMPED = {exp.DataType.Type.DECIMAL: "DECIMAL", exp.DataType.Type.TIMESTAMP: "TIMESTAMP",
            exp.DataType.Type.TIMESTAMPLTZ: "TIMESTAMP_LTZ", exp.DataType.Type.TIME: "TIME"}


# ---------------------------------------------------------------------- a deep stack
_local = threading.local()
_limit_lock = threading.Lock()
_deep_calls = 0
_saved_limit = None
_saved_gc_threshold = None


def deep_stack(fn, *args, **kwargs):
    """`fn(*args, **kwargs)` in a thread with a large stack and a raised recursion limit (its result,
    or its exception re-raised here). Nested calls run in place. The recursion limit is the
    interpreter's: it is raised while at least one such call runs, then restored, and so is the garbage
    collector's first threshold (`_GC_THRESHOLD`)."""
    if getattr(_local, "deep", False):
        return fn(*args, **kwargs)
    outcome = {}

    def work():
        _local.deep = True
        try:
            outcome["value"] = fn(*args, **kwargs)
        except BaseException as error:  # handed to the caller below
            outcome["error"] = error

    _raise_limits()
    try:
        with _limit_lock:
            previous = threading.stack_size()
            try:
                threading.stack_size(_STACK_BYTES)
                worker = threading.Thread(target=work, name="dynsql-planner", daemon=True)
                worker.start()
            except (ValueError, RuntimeError, MemoryError):   # no big stacks here: plan in place
                worker = None
            finally:
                threading.stack_size(previous)
        if worker is None:
            work()
        else:
            worker.join()
    finally:
        _restore_limits()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def _raise_limits():
    global _deep_calls, _saved_limit, _saved_gc_threshold
    with _limit_lock:
        if _deep_calls == 0:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, _RECURSION_LIMIT))
            _saved_gc_threshold = gc.get_threshold()
            gc.set_threshold(max(_saved_gc_threshold[0], _GC_THRESHOLD), *_saved_gc_threshold[1:])
        _deep_calls += 1


def _restore_limits():
    global _deep_calls
    with _limit_lock:
        _deep_calls -= 1
        if _deep_calls == 0:
            gc.set_threshold(*_saved_gc_threshold)
            try:
                sys.setrecursionlimit(_saved_limit)
            except RecursionError:      # this thread is deeper than the old limit: keep the raised one
                pass


# ---------------------------------------------------------------------- parsing
def parse_sql(text, line=1, column=1):
    """Flink SQL text (one statement, or one expression) -> sqlglot tree. Raises SqlError naming the
    problem and where it is in the user's input."""
    return deep_stack(_parse, text, line, column)


def _parse(text, line, column):
    tokens = tokenize(text, line, column)
    check_nesting(tokens, text, line, column)
    typed = check_type_parameters(tokens, text, line, column)
    try:
        trees = _DIALECT.parser().parse(tokens, text)
    except ParseError as e:
        raise _syntax_error(e, text, line, column) from None
    except RecursionError:
        raise SqlError("SQL parse failed. The statement is nested too deeply for the parser", line, column,
                       hint="at most %d levels of parentheses, function calls, CASE and NOT" % MAX_NESTING) from None
    trees = [t for t in trees if t is not None]
    if not trees:
        raise SqlError("SQL parse failed. Expected a statement", line, column)
    if len(trees) != 1:
        raise SqlError("Expected one statement, found %d" % len(trees), line, column)
    check_reserved_identifiers(trees[0], text, line, column)
    return _clamp_types(trees[0]) if typed else trees[0]


def tokenize(text, line=1, column=1):
    """sqlglot tokens of `text` in the Flink dialect; an unclosed string, quoted name or comment (or
    text the tokenizer cannot read) is a SqlError at its start."""
    try:
        return _DIALECT.tokenize(text)
    except TokenError:
        pass
    unclosed = unclosed_quote(text)
    if unclosed is not None:
        what, offset = unclosed
        raise SqlError("SQL parse failed. %s is not closed" % what, *position(text, offset, line, column),
                       hint="close it, or double a quote inside it ('it''s')" if "string" in what else None)
    bad = bad_binary_literal(text)
    if bad is not None:
        raise SqlError("SQL parse failed. " + bad[0], *position(text, bad[1], line, column))
    raise SqlError("SQL parse failed. Cannot read the statement", line, column)


def unclosed_quote(text):
    """(what, offset) of the first string literal, quoted name or comment of `text` that is not
    closed, or None."""
    for opener, start, end in _quoted_parts(text):
        if end is None:
            what = {"'": "The string literal", "`": "The quoted name"}.get(opener, "The comment")
            return what, start
    return None


def bad_binary_literal(text):
    """(message, offset) of the first X'..' literal of `text` whose text is not hexits (sqlglot's tokenizer
    stops there), with the message of Flink's parser (Calcite's SqlParserUtil), or None."""
    for opener, start, end in _quoted_parts(text):
        if opener == "'" and end is not None and start > 0 and text[start - 1] in "xX" \
                and not (start > 1 and (text[start - 2].isalnum() or text[start - 2] in "_$")) \
                and not re.fullmatch(r"[0-9a-fA-F]*", text[start + 1:end - 1]):
            return "Binary literal string must contain only characters '0' - '9', 'A' - 'F'", start - 1
    return None


def _quoted_parts(text):
    """(opener, start, end) of each string literal ('), quoted name (`) and comment (--, /*) of `text` in
    order; `end` (past its closing) None where it is not closed (the last part then)."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "'`":
            j = i + 1
            while True:
                k = text.find(c, j)
                if k < 0:
                    yield c, i, None
                    return
                if text.startswith(c, k + 1):
                    j = k + 2
                    continue
                yield c, i, k + 1
                i = k + 1
                break
        elif text.startswith("--", i):
            k = text.find("\n", i)
            yield "--", i, n if k < 0 else k + 1
            i = n if k < 0 else k + 1
        elif text.startswith("/*", i):
            k = text.find("*/", i + 2)
            yield "/*", i, None if k < 0 else k + 2
            if k < 0:
                return
            i = k + 2
        else:
            i += 1


def check_nesting(tokens, text, line=1, column=1):
    """Refuse a statement nested deeper than MAX_NESTING (brackets, CASE ... END, runs of prefix NOT,
    - and +), at the token that passes the limit. Iterative: any depth is measured."""
    brackets = cases = run = 0
    for token in tokens:
        kind = token.token_type
        if kind in _OPENING:
            brackets += 1
        elif kind in _CLOSING:
            brackets = max(brackets - 1, 0)
        elif kind == TokenType.CASE:
            cases += 1
        elif kind == TokenType.END and cases:
            cases -= 1
        run = run + 1 if kind in _PREFIX else 0
        if brackets + cases + run > MAX_NESTING:
            raise SqlError("SQL parse failed. The statement is nested too deeply: more than %d levels of "
                           "parentheses, function calls, subqueries, CASE and NOT" % MAX_NESTING,
                           *position(text, token.start, line, column),
                           hint="write it with fewer levels (a WITH query or a view can name a part)")


def check_type_parameters(tokens, text, line=1, column=1):
    """The `(p)` / `(p, s)` of each type name followed by numbers (DECIMAL(0), TIMESTAMP(1.5), VARCHAR(-1))
    checked with Flink's limits, at the type's place. True when the statement has such a type."""
    typed = False
    for i, token in enumerate(tokens):
        name = _TYPE_TOKENS.get(token.token_type)
        if name is None or i + 2 >= len(tokens) or tokens[i + 1].token_type != TokenType.L_PAREN:
            continue
        params, j = [], i + 2
        while j < len(tokens) and tokens[j].token_type in (TokenType.NUMBER, TokenType.COMMA, TokenType.DASH,
                                                            TokenType.PLUS):
            j += 1
        if j >= len(tokens) or tokens[j].token_type != TokenType.R_PAREN or j == i + 2:
            continue                     # not a type's parameter list: the parser decides
        inside = tokens[i + 2:j]
        where = position(text, token.start, line, column)
        sign = next((t for t in inside if t.token_type in (TokenType.DASH, TokenType.PLUS)), None)
        if sign is not None:
            raise SqlError("SQL parse failed. Encountered %s in the parameters of %s" % (quoted(sign.text), name),
                           *position(text, sign.start, line, column))
        params = [t.text for t in inside if t.token_type == TokenType.NUMBER]
        type_params(name, params, where)
        typed = True
    return typed


def _clamp_types(tree):
    """Precisions past Flink's maximum read as Flink reads them: CAST(x AS TIMESTAMP(99)) is TIMESTAMP(9)."""
    for node in tree.find_all(exp.DataType):
        name = _CLAMPED.get(node.this)
        params = node.expressions
        if name is None or not params or not all(isinstance(p.this, exp.Literal) for p in params):
            continue
        written = [p.this.name for p in params]
        read = type_params(name, written)
        if [str(v) for v in read] != written:
            node.set("expressions", [exp.DataTypeParam(this=exp.Literal.number(v)) for v in read])
    return tree


def position(text, offset, line=1, column=1):
    """Offset in a statement -> (line, column) in the user's input, the statement starting at line:column."""
    offset = max(min(offset, len(text)), 0)
    lines = text.count("\n", 0, offset)
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line + lines, (column + col - 1) if lines == 0 else col


def near(text):
    """A piece of the SQL as an error quotes it: on one line, cut to _NEAR_CHARS characters."""
    return shorten(text, _NEAR_CHARS)


def _syntax_error(error, text, line, column):
    """A sqlglot ParseError (its description already in SQL terms: see the dialect) -> SqlError with
    the text it happened near and its place in the user's input."""
    info = error.errors[0] if error.errors else {}
    message = info.get("description") or "Syntax error"
    token = getattr(error, "token", None)
    at_end = getattr(error, "at_end", False)
    if token:
        offset, found = token.start, text[token.start:token.end + 1]
    else:
        offset, found = len(text.rstrip()), ""
    if found and quoted(found) not in message and not re.search(r"\b%s\b" % re.escape(found.upper()), message):
        message += (" (the statement ends after %s)" if at_end else " near %s") % quoted(found)
    return SqlError("SQL parse failed. " + message, *position(text, offset, line, column))
