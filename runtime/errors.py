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
