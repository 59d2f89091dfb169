"""Parsing MATCH_RECOGNIZE bodies (positions in errors, the full pattern grammar) and validation: what
Flink refuses is refused with the rule named, and accepted with extensions on."""

import pytest

from planner.errors import SqlError, UnsupportedError
from planner.match_recognize import output_columns, parse_match_recognize, validate
from planner.match_recognize.pattern import can_match_empty
from planner.match_recognize.spec import pattern_to_text

COLUMNS = [("sym", "STRING"), ("ts", "TIMESTAMP(3)"), ("id", "BIGINT"), ("price", "BIGINT"),
           ("amount", "DECIMAL(10, 2)"), ("ratio", "DOUBLE")]


def body(pattern="A B", define="A AS price > 1", measures="A.price AS p", extra="", after="", rows="",
         order="ts"):
    return ("PARTITION BY sym ORDER BY %s MEASURES %s %s %s PATTERN (%s) %s DEFINE %s"
            % (order, measures, rows, after, pattern, extra, define))


def check(text, extensions=False):
    return validate(parse_match_recognize(text), COLUMNS, "ts", extensions=extensions)


@pytest.mark.parametrize("pattern, text", [
    ("A B* C", "A B* C"), ("A{2,} B+? C{,3}", "A{2,} B+? C{,3}"), ("(A | B C)+ D", "(A | B C)+ D"),
    ("PERMUTE(A, B C)", "PERMUTE(A, B C)"), ("^ A {- B -} C $", "^ A {- B -} C $"), ("A{3}", "A{3}"),
])
def test_pattern_grammar(pattern, text):
    spec = parse_match_recognize(body(pattern))
    assert pattern_to_text(spec.pattern) == text


def test_error_positions_are_the_users():
    with pytest.raises(SqlError) as e:
        parse_match_recognize("PARTITION BY sym\n  ORDER BY ts\n  PATTERN (A B{3,1})\n  DEFINE A AS price > 1",
                              line=10, column=7)
    assert e.value.line == 12 and "upper bound" in e.value.message
    with pytest.raises(SqlError) as e:
        parse_match_recognize("ORDER BY ts PATTERN (A) DEFINE A AS price >", line=3, column=5)
    assert e.value.line == 3 and e.value.column == 5 + len("ORDER BY ts PATTERN (A) DEFINE A AS ")


@pytest.mark.parametrize("text, message", [
    (body("(A B | C) D", "A AS price > 1"), "branching patterns"),
    (body("A (B C)+ D", "A AS price > 1"), "Group patterns are not supported yet"),
    (body("PERMUTE(A, B) C", "A AS price > 1"), "PERMUTE"),
    (body("A {- B -} C", "A AS price > 1"), "'{-' '-}'"),
    (body("^ A B", "A AS price > 1"), "Anchors"),
    (body("A B?? C", "A AS price > 1"), "Reluctant optional variables are not supported yet."),
    (body("A*", "A AS price > 1"), "Patterns that can produce empty matches are not supported"),
    (body("A B{2,3}", "A AS price > 1"), "Greedy quantifiers are not allowed as the last element"),
    (body("A B", rows="ALL ROWS PER MATCH"), "All rows per match mode is not supported yet."),
    (body("A B", "A AS price > PREV(price)"), "physical offsets"),
    (body("A B", measures="CLASSIFIER() AS c"), "CLASSIFIER"),
    (body("A B", measures="MATCH_NUMBER() AS n"), "MATCH_NUMBER"),
    (body("A B A", "A AS price > 1"), "Pattern variables must be unique"),
])
def test_flink_refusals_and_extensions(text, message):
    with pytest.raises(UnsupportedError) as e:
        check(text)
    assert message in e.value.message
    assert "dynsql.match-recognize.extensions" in (e.value.hint or "")
    check(text, extensions=True)      # the standard's form is accepted with extensions on


@pytest.mark.parametrize("text, message", [
    (body("A B", measures="COUNT(DISTINCT A.price) AS c"), "DISTINCT"),
    (body("A B", measures="SUM(A.price * B.price) AS c"), "single pattern variable"),
    (body("A B", measures="LAST(A.price * B.price) AS c"), "single pattern variable"),
    (body("A B", "A AS X.price > 1"), "Unknown pattern variable 'X'"),
    (body("A B", "A AS A.nope > 1"), "Column 'nope' not found"),
    (body("A B", "C AS price > 1"), "not a variable of the PATTERN"),
    (body("A B", order="price"), "rowtime or proctime for order by as the first one"),
    (body("A B", order="ts DESC"), "ascending on time"),
    (body("A B", after="AFTER MATCH SKIP TO LAST X"), "unknown pattern variable"),
    (body("A B", "A AS FINAL LAST(A.price) > 1"), "FINAL cannot be used in DEFINE"),
])
def test_always_refused(text, message):
    for ext in (False, True):
        with pytest.raises(SqlError) as e:
            check(text, extensions=ext)
        assert message in e.value.message


def test_subset_as_flink_runs_it():
    """Flink 2.3 accepts SUBSET but reads no rows for it; with extensions a subset is its variables' rows."""
    text = body("A B C", "B AS price < 10", measures="AVG(U.price) AS a", extra="SUBSET U = (A, B), V = (U, C)")
    assert [s.variables for s in check(text).subsets] == [[], []]
    assert [s.variables for s in check(text, extensions=True).subsets] == [["A", "B"], ["A", "B", "C"]]


@pytest.mark.parametrize("extra, define, after, message, at", [
    ("SUBSET U = (A, X)", "A AS price > 1", "", "Unknown pattern 'X'", "X)"),
    ("SUBSET A = (A, B)", "A AS price > 1", "", "Pattern variable 'A' has already been defined", "A = "),
    ("SUBSET U = (A), U = (B)", "A AS price > 1", "", "Pattern variable 'U' has already been defined", "U = (B"),
    ("SUBSET U = (A, B)", "B AS price < LAST(U.price)", "", "Table 'U' not found", "U.price"),
    ("SUBSET U = (A, B)", "A AS price > 1", "AFTER MATCH SKIP TO LAST U",
     "The pattern name specified in AfterMatchSkipStrategy can not be found in the given Pattern", "AFTER"),
])
def test_subset_refusals(extra, define, after, message, at):
    """Flink's messages, at the name they are about (the column of `at` in the text)."""
    text = "PARTITION BY sym ORDER BY ts MEASURES A.price AS p %s PATTERN (A B) %s DEFINE %s" % (after, extra, define)
    with pytest.raises(SqlError) as e:
        validate(parse_match_recognize(text), COLUMNS, "ts")
    assert message in e.value.message
    assert (e.value.line, e.value.column) == (1, text.index(at) + 1)


def test_curly_upto_accepted_in_flink_mode():
    spec = check(body("A B{,2} C", "A AS price > 1"))
    assert spec.semantics == "flink"


def test_semantics_choice():
    assert check(body("A B+ C")).semantics == "flink"
    assert check(body("A (B | C) D"), extensions=True).semantics == "standard"
    assert check(body("A B*"), extensions=True).semantics == "standard"


def test_can_match_empty():
    def empty(p):
        return can_match_empty(parse_match_recognize(body(p)).pattern)
    assert empty("A*") and empty("A? B*") and empty("A{0,} B{0,} C*") and empty("(A | B*)")
    assert not empty("A B*") and not empty("(A B)+") and not empty("PERMUTE(A, B?)")


def test_output_types():
    spec = check(body("A B+ C", measures=(
        "AVG(A.price) AS ap, AVG(A.ratio) AS ar, SUM(B.amount) AS sa, COUNT(B.price) AS cb, "
        "MATCH_ROWTIME() AS mt, FIRST(B.ts) AS fb, A.price * 2 AS d, A.price / 2.5 AS q, "
        "CAST(A.price AS DOUBLE) AS c, CASE WHEN A.price > 1 THEN 'x' ELSE 'yy' END AS s")))
    assert output_columns(spec, COLUMNS) == [
        ("sym", "STRING"), ("ap", "BIGINT"), ("ar", "DOUBLE"), ("sa", "DECIMAL(38, 2)"),
        ("cb", "BIGINT NOT NULL"), ("mt", "TIMESTAMP(3) NOT NULL *ROWTIME*"), ("fb", "TIMESTAMP(3) *ROWTIME*"),
        ("d", "BIGINT"), ("q", "DECIMAL(26, 6)"), ("c", "DOUBLE"), ("s", "VARCHAR(2) NOT NULL")]
