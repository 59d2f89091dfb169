"""Spark's and Python workers' failures -> dynsql errors a user can act on (no stack trace)."""

import re

from planner.errors import DynsqlError, RuntimeFailure, SqlError

_CLASS = re.compile(r"\[([A-Z_.]+)\]\s*(.*)", re.S)
_VALUE_FAILURE = re.compile(r"\[(CAST_INVALID_INPUT|CAST_OVERFLOW[A-Z_.]*|NUMERIC_VALUE_OUT_OF_RANGE[A-Z_.]*|"
                            r"ARITHMETIC_OVERFLOW|DIVIDE_BY_ZERO|REMAINDER_BY_ZERO)\]\s*(.*)")
_PYTHON_WORKER = re.compile(r"\s*(\[[A-Z_.]+\]\s*)?An exception was thrown from the Python worker")


def from_spark(e, sql_line=None, sql_column=None):
    """Any exception raised by Spark or our workers -> a DynsqlError (kept as the `cause`)."""
    if isinstance(e, DynsqlError):
        return e
    text = str(e)
    # a Python worker's own error (bad data in a source file, a matcher error...)
    m = re.search(r"ModuleNotFoundError: (No module named '[^']+')", text)
    if m:        # a Python worker (on a cluster, or a Spark Connect server) lacks a package
        err = RuntimeFailure("A Spark Python worker failed: %s" % m.group(1),
                             hint="the executors' Python ('spark.pyspark.python') needs pyspark, pandas, pyarrow "
                                  "and protobuf; dynsql's own packages are shipped to it")
        err.cause = e
        return err
    m = re.search(r"planner\.errors\.\w+: (.+)(?:\r?\nHint: (.+))?", text)
    if m:        # a dynsql error raised in a worker (a MATCH_RECOGNIZE skip that would loop, ...): its own words
        err = RuntimeFailure(m.group(1).strip(), hint=m.group(2).strip() if m.group(2) else None)
        err.cause = e
        return err
    m = re.search(r"\[USER_RAISED_EXCEPTION\]\s*(.+?)(?:\s+SQLSTATE: \w+|\n|$)", text)
    if m:        # a RAISE_ERROR of dynsql's Spark SQL (ELEMENT of more than one element, a scalar subquery's
                 # second row, ...): its own words
        err = RuntimeFailure(m.group(1).strip())
        err.cause = e
        return err
    for kind in ("FormatError", "BadValue", "FileNotFoundError", "ValueError"):
        m = re.search(r"%s: (.+)" % kind, text)
        if m:
            msg = m.group(1).strip().splitlines()[0]
            err = RuntimeFailure(msg if kind != "FileNotFoundError" else msg)
            err.cause = e
            return err
    if _PYTHON_WORKER.match(text):
        # any other failure in a worker's Python (a dynsql bug): the exception it ended with, not Spark's headline
        lines = [ln for ln in text.splitlines() if re.match(r"[A-Za-z_][\w.]*: ", ln)]
        err = RuntimeFailure("A Spark Python worker failed: %s" % (lines[-1].strip() if lines else "no message"))
        err.cause = e
        return err
    m = _VALUE_FAILURE.search(text)
    if m:        # a value Spark could not convert or compute, wherever it is (a streaming batch's error wraps it)
        err = _value_failure(m.group(1), re.sub(r"\s*SQLSTATE: \w+\.?", "", m.group(2).split("\n")[0]))
        err.cause = e
        return err
    m = re.search(r"Checksum error: (?:file:)?(\S+?)(?: at \d+)? exp:", text)
    if m:           # Hadoop's ChecksumException: a checkpoint (or other) file torn or changed on disk
        err = RuntimeFailure("The file %s is damaged: its content does not match its checksum" % m.group(1),
                             hint="a job cannot resume from a damaged checkpoint: start it again from an earlier "
                                  "savepoint ('execution.savepoint.path'), or afresh")
        err.cause = e
        return err
    if _RUNNER_LOST.search(text + "".join(_stack_traces(e))):
        err = RuntimeFailure(SOURCE_RUNNER_DIED)
        err.cause = e
        return err
    inner = _inner_error(text)
    if inner is not None:       # a Spark error class inside Spark's wrapper: read as if it came alone
        err = from_spark(Exception(inner), sql_line, sql_column)
        err.cause = e
        return err
    cause = wrapped_cause(text + _causes_text(e))
    if cause is not None:       # Spark's wrapper ("terminated with exception", "Python Proxy"): what is inside
        err = RuntimeFailure(cause, hint=_checkpoint_hint(text))
        err.cause = e
        return err
    m = _BAD_REGEX.search(text)
    if m:           # java.util.regex's PatternSyntaxException: a pattern given by a column's value (a literal one
                    # is refused by the planner, naming its function)
        err = RuntimeFailure("The regular expression '%s' is not valid: %s near index %s" % (
            m.group(3), m.group(1), m.group(2)), hint="it is a value given as STR_TO_MAP's or SPLIT's delimiter or "
                                                      "a REGEXP function's pattern; a special character is written "
                                                      "with a backslash before it, as '\\('")
        err.cause = e
        return err
    m = _CLASS.search(text)
    if m:
        cls, msg = m.group(1), m.group(2).strip()
        msg = msg.split("\n")[0]
        msg = re.sub(r"\s*SQLSTATE: \w+\.?", "", msg)
        if cls.startswith("UNRESOLVED_COLUMN"):
            name = re.search(r"name `?([^`\s]+)`? cannot be resolved", msg)
            sugg = re.search(r"one of the following\? \[(.*?)\]", msg)
            hint = ("columns in scope: " + sugg.group(1).replace("`", "")) if sugg else None
            err = SqlError("Column '%s' not found in any table" % (name.group(1) if name else "?"),
                           sql_line, sql_column, hint)
        elif cls.startswith("UNRESOLVED_ROUTINE"):
            err = SqlError("No match found for function %s" % msg, sql_line, sql_column)
        elif cls.startswith(("DATATYPE_MISMATCH", "INVALID_")) or "TYPE" in cls:
            err = SqlError(_clean(msg), sql_line, sql_column)
        elif cls.startswith(("MISSING_AGGREGATION", "GROUP_BY")) or "AGGREGAT" in cls:
            err = SqlError(_clean(msg), sql_line, sql_column)
        else:
            err = RuntimeFailure("%s" % _clean(msg))
    else:
        first = text.strip().splitlines()[0] if text.strip() else type(e).__name__
        err = RuntimeFailure(first[:500])
    err.cause = e
    return err


_BAD_REGEX = re.compile(r"^(?:java\.util\.regex\.PatternSyntaxException: )?([A-Z][\w ']+?) near index (\d+)\r?\n(.*)",
                        re.M)
_CAST_HINT = "TRY_CAST gives NULL for a value that does not fit"
_SPARK_TYPE = re.compile(r'"?(DECIMAL|Decimal)\((\d+),\s*(\d+)\)"?')


def _value_failure(cls, msg):
    """A value Spark could not convert or compute (its ANSI errors), in the words dynsql's own CAST uses
    (runtime/match_recognize/functions.py): the value and the type it does not fit."""
    def flink_type(text):
        text = text.strip('"')
        m = _SPARK_TYPE.fullmatch(text)
        return "DECIMAL(%s, %s)" % (m.group(2), m.group(3)) if m else text.upper()
    if cls.startswith("DIVIDE_BY_ZERO"):
        return RuntimeFailure("Division by zero", hint="guard the divisor: CASE WHEN d <> 0 THEN n / d END")
    if cls.startswith("REMAINDER_BY_ZERO"):
        return RuntimeFailure("Division by zero", hint="guard the divisor: CASE WHEN d <> 0 THEN MOD(n, d) END")
    m = re.match(r"The value (.+?) of the type \"[^\"]+\" cannot be cast to (\"[^\"]+\")", msg)
    if m and cls.startswith("CAST_INVALID_INPUT"):
        target = flink_type(m.group(2))
        return RuntimeFailure("Cannot cast %s to %s: it is not a valid %s value" % (m.group(1), target,
                              target.split("(")[0]), hint=_CAST_HINT)
    if m:
        return RuntimeFailure("Cannot cast %s to %s: the value is out of its range" % (m.group(1),
                              flink_type(m.group(2))), hint=_CAST_HINT)
    m = re.match(r"(.+?) cannot be represented as (Decimal\(\d+,\s*\d+\))", msg)
    if m:
        return RuntimeFailure("Cannot cast %s to %s: the value is out of its range" % (m.group(1),
                              flink_type(m.group(2))), hint=_CAST_HINT)
    return RuntimeFailure("An arithmetic result does not fit its type: %s" % re.split(r"\. ", _clean(msg))[0])


def _clean(msg):
    msg = re.sub(r"\s*;\s*line \d+ pos \d+", "", msg)
    msg = re.sub(r"'__[a-z]+_\d+'", "", msg)
    return msg.strip()


# Spark's words around a failure that say nothing of its cause
_WRAPPERS = ("STREAM_FAILED", "FOREACH_BATCH_USER_FUNCTION_ERROR", "An exception was raised by the Python Proxy",
             "Task failed while writing rows", "(no cause message)", "Job aborted due to stage failure",
             "Python worker exited unexpectedly", "EOFException occurred while reading the port number",
             "Python worker failed to connect back", "waiting for the Python worker to connect back")
_JAVA_CAUSE = re.compile(r"^Caused by: ([\w.$]+)(?:: (.*))?$", re.M)
_CHECKPOINT_FILE = re.compile(r"(?:file:)?(/[^\s'\"]*?/(?:offsets|commits|sources|state|metadata)(?:/[^\s'\",:]*)?)")


_WRAPPER_CLASSES = ("STREAM_FAILED", "FOREACH_BATCH_USER_FUNCTION_ERROR", "TASK_WRITE_FAILED")


def _inner_error(text):
    """The text from the first Spark error class that is not a wrapper's, when `text` starts with a wrapper's."""
    first = _CLASS.match(text.strip())
    if first is None or not first.group(1).startswith(_WRAPPER_CLASSES):
        return None
    for m in re.finditer(r"\[([A-Z_.]+)\]", text):
        if not m.group(1).startswith(_WRAPPER_CLASSES):
            return text[m.start():]
    return None


def _causes_text(e, depth=0):
    """The messages of a captured Spark exception's causes (Spark's `(no cause message)` says only that the
    cause is elsewhere: in the Java exception's cause chain)."""
    cause = getattr(e, "_cause", None) or getattr(e, "__cause__", None)
    if cause is None or depth > 20:
        return ""
    return "\nCaused by: %s: %s%s" % (type(cause).__name__, str(cause).strip(), _causes_text(cause, depth + 1))


SOURCE_RUNNER_DIED = ("The Python process that plans the micro-batches of a streaming source (Spark's source runner) "
                      "died (killed, or out of memory): the query stopped; its checkpoint keeps what was committed")
# the driver reading its streaming source runner's answer found the runner gone (Spark says only "EOFException")
_RUNNER_LOST = re.compile(r"java\.(?:io\.EOFException|net\.SocketException)[^\n]*\n(?:\s*at [^\n]*\n){0,4}?"
                          r"\s*at org\.apache\.spark\.sql\.execution\.python\.streaming\.PythonStreamingSourceRunner\.")


def _stack_traces(e, depth=0):
    """The Java stack traces PySpark keeps with a captured Spark exception and its causes (not in their text)."""
    if e is None or depth > 20:
        return []
    trace = getattr(e, "_stackTrace", None)
    return ([trace] if isinstance(trace, str) else []) + _stack_traces(
        getattr(e, "_cause", None) or getattr(e, "__cause__", None), depth + 1)


def wrapped_cause(text):
    """The root cause inside Spark's wrapper text, in a line a person can act on, or None when `text` is no
    wrapper: a Python exception raised in a foreachBatch or a worker (its last line), else the deepest Java
    "Caused by", with the cases a user meets most named plainly (a full disk, a Python worker that died)."""
    if not any(w in text for w in _WRAPPERS):
        return None
    if "No space left on device" in text:
        where = re.search(r"No space left on device(?::\s*'?([^'\n]+)'?)?", text)
        return "No space left on device" + (" (writing %s)" % where.group(1).strip() if where.group(1) else "")
    if "Python worker exited unexpectedly" in text or "reading the port number from pyspark.daemon" in text:
        return ("A Spark Python worker died while it ran the query (killed, or out of memory): "
                "the query stopped; its checkpoint keeps what was committed")
    if "Python worker to connect back" in text or "Python worker failed to connect back" in text:
        return ("A Python process Spark started did not connect back within Spark's fixed 10 s (the machine too "
                "busy, or the Python that 'spark.pyspark.python' names cannot start): the query stopped; run it "
                "again")
    python = _python_exception(text)
    if python is not None:
        return python
    java = list(_JAVA_CAUSE.finditer(text))
    if java:
        name, message = java[-1].group(1).rsplit(".", 1)[-1], (java[-1].group(2) or "").strip()
        return "%s%s" % (name, ": " + message if message else "")
    return None


def _python_exception(text):
    """The exception line ending the last Python traceback in `text` ("OSError: ..."), named without its module,
    or None."""
    at = text.rfind("Traceback (most recent call last):")
    if at < 0:
        return None
    for line in text[at:].splitlines()[1:]:
        m = re.match(r"([A-Za-z_][\w.]*)(?:: (.*))?$", line)
        if m and not line.startswith((" ", "\t")):
            message = re.sub(r"\s*SQLSTATE: \w+", "", m.group(2) or "").strip()
            return m.group(1).rsplit(".", 1)[-1] + (": " + message if message else "")
    return None


def _checkpoint_hint(text):
    """Where a failure names a file of a checkpoint (its offsets, commits, state): that file, as a hint."""
    m = _CHECKPOINT_FILE.search(text)
    return "it concerns the checkpoint file %s" % m.group(1) if m else None