"""Errors as values: a message a user can act on, a position in the SQL when there is one, a hint.

A message may quote what the user typed: `render()` shows control characters as escapes (a quoted ESC or
NUL never reaches the terminal as itself) and shortens a run of more than 200 characters without a space
(a 5,000-digit number) to its start and its length."""

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_LONG_RUN = re.compile(r"[^\s]{201,}")


class DynsqlError(Exception):
    """Any error dynsql reports to the user as `[ERROR] ...`."""

    def __init__(self, message, line=None, column=None, hint=None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.hint = hint

    def render(self):
        text = printable(self.message)
        if self.line is not None:
            where = "line %d" % self.line
            if self.column is not None:
                where += ", column %d" % self.column
            text = "%s (at %s)" % (text, where)
        if self.hint:
            text += "\nHint: " + printable(self.hint)
        return text

    def __str__(self):
        return self.render()


def printable(text):
    """`text` safe to print: control and bidirectional-override characters escaped, long runs shortened."""
    text = _CONTROL.sub(lambda m: "\\x%02x" % ord(m.group()) if ord(m.group()) < 0x100
                        else "\\u%04x" % ord(m.group()), str(text))
    return _LONG_RUN.sub(lambda m: "%s... (%d characters)" % (m.group()[:100], len(m.group())), text)


class SqlError(DynsqlError):
    """The SQL text is at fault: syntax, an unknown name, a type mismatch, a rule Flink enforces."""


class UnsupportedError(SqlError):
    """Valid Flink SQL that dynsql (or Flink) does not support."""


class RuntimeFailure(DynsqlError):
    """The query was valid but failed while running (bad data, Spark failure)."""


class ConfigError(DynsqlError):
    """A bad option: a SET key or value, a WITH option, a command-line flag."""
