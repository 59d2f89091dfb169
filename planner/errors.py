"""Errors as values: a message a user can act on, a position in the SQL when there is one, a hint."""


class DynsqlError(Exception):
    """Any error dynsql reports to the user as `[ERROR] ...`."""

    def __init__(self, message, line=None, column=None, hint=None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.hint = hint

    def render(self):
        text = self.message
        if self.line is not None:
            where = "line %d" % self.line
            if self.column is not None:
                where += ", column %d" % self.column
            text = "%s (at %s)" % (text, where)
        if self.hint:
            text += "\nHint: " + self.hint
        return text

    def __str__(self):
        return self.render()


class SqlError(DynsqlError):
    """The SQL text is at fault: syntax, an unknown name, a type mismatch, a rule Flink enforces."""


class UnsupportedError(SqlError):
    """Valid Flink SQL that dynsql (or Flink) does not support."""


class RuntimeFailure(DynsqlError):
    """The query was valid but failed while running (bad data, Spark failure)."""


class ConfigError(DynsqlError):
    """A bad option: a SET key or value, a WITH option, a command-line flag."""
