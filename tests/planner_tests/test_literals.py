"""planner.literals: numbers and intervals read from SQL, with Flink's rules and messages (Flink 2.3's
messages were taken from its SQL client), never converting a 5,000-digit literal."""

import pytest
import sqlglot

from planner.dialect import Flink
from planner.errors import SqlError
from planner.literals import integer_literal, interval_ms, positive_int, quantifier_bounds, rank_end

HUGE = "9" * 5000


def refused(fn, *args, **kwargs):
    with pytest.raises(SqlError) as info:
        fn(*args, **kwargs)
    return info.value


@pytest.mark.parametrize("text,ms", [
    ("INTERVAL '5' SECOND", 5000), ("INTERVAL '10' MINUTES", 600000), ("INTERVAL '2' HOUR", 7200000),
    ("INTERVAL '1' DAY", 86400000), ("INTERVAL '1' WEEK", 604800000), ("INTERVAL '0.5' SECOND", 500),
    ("INTERVAL '-5' SECOND", -5000), ("INTERVAL '+5' SECOND", 5000), ("INTERVAL ' 5 ' SECOND", 5000),
    ("INTERVAL '100' SECOND(3)", 100000), ("INTERVAL '1:30' HOUR TO MINUTE", 5400000),
    ("INTERVAL '1:30.5' MINUTE TO SECOND", 90500), ("INTERVAL '1 02:03:04' DAY TO SECOND", 93784000),
    ("INTERVAL '-1:30' HOUR TO MINUTE", -5400000), ("INTERVAL 5 SECOND", 5000), ("INTERVAL '500' MILLISECOND", 500),
])
def test_intervals(text, ms):
    assert interval_ms(text) == ms
    assert interval_ms(sqlglot.parse_one(text, read=Flink)) == ms


@pytest.mark.parametrize("text,message", [
    ("INTERVAL 'NaN' MINUTE", "Illegal interval literal format 'NaN' for INTERVAL MINUTE"),
    ("INTERVAL 'Infinity' MINUTE", "Illegal interval literal format 'Infinity' for INTERVAL MINUTE"),
    ("INTERVAL '1e309' SECOND", "Illegal interval literal format '1e309' for INTERVAL SECOND"),
    ("INTERVAL '1.5' MINUTE", "Illegal interval literal format '1.5' for INTERVAL MINUTE"),
    ("INTERVAL '' SECOND", "Illegal interval literal format '' for INTERVAL SECOND"),
    ("INTERVAL '1:2:3' HOUR TO MINUTE", "Illegal interval literal format '1:2:3' for INTERVAL HOUR TO MINUTE"),
    ("INTERVAL '1:60' HOUR TO MINUTE", "Illegal interval literal format '1:60' for INTERVAL HOUR TO MINUTE"),
    ("INTERVAL '1 25:00:00' DAY TO SECOND", "Illegal interval literal format '1 25:00:00' for INTERVAL DAY TO SECOND"),
    ("INTERVAL '100' SECOND", "Interval field value 100 exceeds precision of SECOND(2) field"),
    ("INTERVAL '99999' DAY", "Interval field value 99,999 exceeds precision of DAY(2) field"),
    ("INTERVAL '%s' MINUTE" % HUGE, "exceeds precision of MINUTE(2) field"),
    ("INTERVAL '-%s' SECOND" % HUGE, "exceeds precision of SECOND(2) field"),
    ("INTERVAL '1' MONTH", "Unsupported interval unit MONTH"),
    ("INTERVAL '1' FORTNIGHT", "Unsupported interval unit FORTNIGHT"),
])
def test_intervals_flink_refuses(text, message):
    error = refused(interval_ms, text, (4, 7))
    assert message in error.message
    assert (error.line, error.column) == (4, 7)


def test_an_interval_is_never_converted_whole():
    error = refused(interval_ms, "INTERVAL '%s' SECOND(10)" % HUGE)
    assert len(error.render()) < 300


@pytest.mark.parametrize("literal,value", [("12", 12), ("-3", -3), ("+4", 4), ("007", 7), (42, 42)])
def test_integer_literals(literal, value):
    assert integer_literal(literal, "x") == value


@pytest.mark.parametrize("literal,message", [
    ("1.5", "The bound must be a whole number, not '1.5'"), ("1e3", "must be a whole number, not '1e3'"),
    ("NaN", "not 'NaN'"), ("Infinity", "not 'Infinity'"), ("", "must be a whole number"),
    (HUGE, "Numeric literal '9999999999999999999999999999999999999...' out of range"),
    ("9223372036854775808", "out of range"),
])
def test_integer_literals_refused(literal, message):
    assert message in refused(integer_literal, literal, "The bound", (2, 3)).message


def test_integer_literals_from_the_tree():
    select = sqlglot.parse_one("SELECT -5, 7, 2.5", read=Flink)
    neg, seven, frac = select.expressions
    assert integer_literal(neg, "x") == -5 and integer_literal(seven, "x") == 7
    assert "not '2.5'" in refused(integer_literal, frac, "x").message


def test_positive_ints():
    assert positive_int("2147483647", "A length") == 2147483647
    assert "at least 1" in refused(positive_int, "0", "A length").message
    assert "out of range" in refused(positive_int, "2147483648", "A length").message


@pytest.mark.parametrize("op,literal,end", [("<=", "3", 3), ("<", "3", 2), ("=", "1", 1), ("<=", "3000000000", 3000000000)])
def test_rank_ends(op, literal, end):
    assert rank_end(op, literal) == end


@pytest.mark.parametrize("op,literal,message", [
    ("<=", "1.5", "The Top-N bound must be a whole number, not '1.5'"),
    ("<=", "0", "Rank end should not less than zero, but now is 0"),
    ("<", "1", "Rank end should not less than zero, but now is 0"),
    ("<=", "-1", "Rank end should not less than zero, but now is -1"),
    ("<=", HUGE, "Numeric literal"),
])
def test_rank_ends_refused(op, literal, message):
    assert message in refused(rank_end, op, literal).message


def test_quantifier_bounds():
    assert quantifier_bounds("2", "5") == (2, 5)
    assert quantifier_bounds("3") == (3, None) and quantifier_bounds(None, "4") == (None, 4)
    assert refused(quantifier_bounds, "5", "2").message == "The to should be a number greater than or equal to from: 5."
    assert "Numeric literal '3000000000' out of range" in refused(quantifier_bounds, "3000000000").message
    assert "out of range" in refused(quantifier_bounds, "1", HUGE).message


@pytest.mark.parametrize("text,flink_type", [
    ("1", "INT"), ("2147483648", "BIGINT"), ("9223372036854775807", "BIGINT"), ("0" * 5000 + "7", "INT"),
    ("1.5", "DECIMAL(2, 1)"), ("0.05", "DECIMAL(3, 2)"), ("1e3", "DOUBLE"), ("1E-400", "DOUBLE"),
])
def test_number_types(text, flink_type):
    from planner.literals import number_type
    assert number_type(text) == flink_type


@pytest.mark.parametrize("text", ["9223372036854775808", "99999999999999999999", HUGE, "1." + HUGE, "1e400"])
def test_numbers_out_of_range(text):
    from planner.literals import number_type
    error = refused(number_type, text, (5, 6))
    assert error.message.startswith("Numeric literal '") and error.message.endswith("' out of range")
    assert (error.line, error.column) == (5, 6) and len(error.render()) < 200
