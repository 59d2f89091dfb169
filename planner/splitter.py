"""Statement splitting: text -> statements, each with its text and where it starts in the input.

A `;` inside a string, a quoted identifier or a comment does not end a statement, nor one inside Flink's
`EXECUTE STATEMENT SET BEGIN ... END` block (its INSERTs are one statement, ended by the `;` after END). Uses sqlparse's
lexer for the token boundaries; we only decide where statements end."""

import re
from dataclasses import dataclass

from sqlparse import lexer, tokens as T

SHELL_COMMANDS = ("HELP", "CLEAR", "QUIT", "EXIT")


@dataclass(frozen=True)
class Statement:
    text: str        # the statement without its closing `;`, stripped
    line: int        # 1-based line of its first character in the input
    column: int      # 1-based column of its first character
    complete: bool = True  # ended with `;` (False: the input ended first)


def _tokens(text):
    return lexer.tokenize(text)


def split(text):
    """All statements in `text`; a trailing statement without `;` is returned with complete=False."""
    out = []
    buf = []
    start = None
    pos = 0
    unterminated = False
    previous = None
    for ttype, value in _tokens(text):
        if previous == "/" and value.startswith("*"):
            unterminated = True  # `/*` that sqlparse could not close
        previous = value
        if ttype is T.Error and value in ("'", '"', "`"):
            unterminated = True  # an open quote: the rest of the input belongs to it
        elif ttype in T.Comment and value.startswith("/*") and not value.rstrip().endswith("*/"):
            unterminated = True
        if ttype is T.Punctuation and value == ";" and not unterminated and not _inside_block(buf):
            _emit(out, text, buf, start, True)
            buf, start = [], None
        else:
            if start is None and value.strip() and ttype not in T.Comment:
                start = pos
            if start is not None:
                buf.append(value)
        pos += len(value)
    _emit(out, text, buf, start, False)
    return out


_BLOCK_START = re.compile(r"\s*EXECUTE\s+STATEMENT\s+SET\s+BEGIN\b", re.I)
_BLOCK_END = re.compile(r"\bEND\s*$", re.I)


def _inside_block(buf):
    """True while `buf` is an `EXECUTE STATEMENT SET BEGIN ...` block whose END has not come yet."""
    text = "".join(buf)
    return bool(_BLOCK_START.match(text)) and not _BLOCK_END.search(_without_comments(text))


def _without_comments(text):
    return re.sub(r"--[^\n]*", "", text).rstrip()


def _emit(out, text, buf, start, complete):
    if start is None:
        return
    stmt_text = "".join(buf).strip()
    if not stmt_text:
        return
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    out.append(Statement(stmt_text, line, column, complete))


def is_complete(text):
    """True when `text` holds at least one statement and every statement in it ends with `;`, or it
    is a shell command (HELP, CLEAR, QUIT, EXIT). Used by the shell to decide what Enter does."""
    stripped = text.strip().rstrip(";").strip().upper()
    if stripped in SHELL_COMMANDS:
        return True
    stmts = split(text)
    if not stmts:
        return False
    return all(s.complete for s in stmts)
