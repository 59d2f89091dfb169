"""Cell text as Flink's SQL client prints it (tableau): the differences found so far are xfail, for
repl/render.py's owner."""

import datetime as dt

import pytest

from repl.render import format_value, json_value


def test_null_numbers_strings():
    assert format_value(None, "INT") == "<NULL>"
    assert format_value(42, "INT") == "42"
    assert format_value("héllo", "STRING") == "héllo"
    assert json_value(dt.datetime(2024, 1, 1, 12, 0, 0, 123000), "TIMESTAMP(3)") == "2024-01-01 12:00:00.123"


def test_boolean_as_flink_prints_it():
    assert (format_value(True, "BOOLEAN"), format_value(False, "BOOLEAN")) == ("TRUE", "FALSE")


def test_timestamp_precision_as_flink_prints_it():
    assert format_value(dt.datetime(2024, 1, 1, 12), "TIMESTAMP(3)") == "2024-01-01 12:00:00.000"


def test_large_double_as_flink_prints_it():
    assert format_value(4.5e9, "DOUBLE") == "4.5E9"
