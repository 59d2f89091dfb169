"""How an error reads in the shell and on stderr: `[ERROR] message (at line L, column C)` and a hint;
Python and Java stack traces only when 'sql-client.verbose' is on."""

import traceback

from planner.errors import DynsqlError


def error_text(e, verbose=False, statement=None):
    if isinstance(e, DynsqlError):
        text = "[ERROR] " + e.render()
        cause = getattr(e, "cause", None)
    else:
        first = str(e).strip().splitlines()
        text = "[ERROR] %s: %s" % (type(e).__name__, first[0] if first else "")
        cause = e
    if verbose:
        target = cause or e
        text += "\n" + "".join(traceback.format_exception(type(target), target, target.__traceback__))
    return text
