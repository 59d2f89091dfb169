"""Statement splitting: text -> statements, each with its text and where it starts in the input.

A `;` inside a string ('it''s'), a quoted name (`a;b`, "a;b") or a comment (-- and /* */) does not end a
statement, nor one inside Flink's `EXECUTE STATEMENT SET BEGIN ... END` block (its INSERTs are one
statement, ended by the `;` after END); an unclosed quote or block comment takes the rest of the input.
One regular expression reads the lexemes that matter (plain text in runs), so splitting is linear and
fast: it runs on every Enter (`is_complete`) and on pasted scripts of any size. It does not parse
statements."""

import re
from dataclasses import dataclass

SHELL_COMMANDS = ("HELP", "CLEAR", "QUIT", "EXIT")

_LEXEMES = re.compile(r"""
    (?P<text>[^'`";/-]+)
  | (?P<quoted>'(?:[^']|'')*'|`(?:[^`]|``)*`|"(?:[^"]|"")*")
  | (?P<comment>--[^\n]*|/\*.*?\*/)
  | (?P<unclosed>['`"]|/\*)
  | (?P<end>;)
  | (?P<other>[/-])
""", re.S | re.X)


@dataclass(frozen=True)
class Statement:
    text: str        # the statement without its closing `;`, stripped
    line: int        # 1-based line of its first character in the input
    column: int      # 1-based column of its first character
    complete: bool = True  # ended with `;` (False: the input ended first)


def split(text):
    """All statements in `text`; a trailing statement without `;` is returned with complete=False."""
    out = _Statements(text)
    start = None
    for m in _LEXEMES.finditer(text):
        kind = m.lastgroup
        if kind == "end":
            if start is not None and _inside_block(text, start, m.start()):
                continue
            _emit(out, text, start, m.start(), True)
            start = None
            continue
        if kind == "comment":
            continue
        if kind == "unclosed":
            if start is None and not m.group().startswith("/"):
                start = m.start()
            break                        # the rest of the input belongs to the open quote or comment
        if start is None:
            lexeme = m.group()
            stripped = len(lexeme) - len(lexeme.lstrip())
            if stripped < len(lexeme):
                start = m.start() + stripped
    _emit(out, text, start, len(text), False)
    return out.statements


class _Statements:
    """The statements found so far, and the line where the last one started (lines are counted once)."""

    def __init__(self, text):
        self.text = text
        self.statements = []
        self.offset, self.line = 0, 1

    def line_at(self, offset):
        self.line += self.text.count("\n", self.offset, offset)
        self.offset = offset
        return self.line


_BLOCK_START = re.compile(r"\s*EXECUTE\s+STATEMENT\s+SET\s+BEGIN\b", re.I)
_BLOCK_END = re.compile(r"\bEND\s*$", re.I)


def _inside_block(text, start, end):
    """True while text[start:end] is an `EXECUTE STATEMENT SET BEGIN ...` block whose END has not come yet."""
    if not _BLOCK_START.match(text, start):
        return False
    return not _BLOCK_END.search(re.sub(r"--[^\n]*|/\*.*?\*/", "", text[start:end], flags=re.S).rstrip())


def _emit(out, text, start, end, complete):
    if start is None:
        return
    stmt_text = text[start:end].strip()
    if not stmt_text:
        return
    line = out.line_at(start)
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    out.statements.append(Statement(stmt_text, line, column, complete))


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
