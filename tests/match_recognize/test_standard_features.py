"""Section 2 of issue 4: the SQL standard's MATCH_RECOGNIZE features Flink refuses, enabled with
'dynsql.match-recognize.extensions'. No engine here produces these rows: each expected result is worked
out by hand from the standard's rules (as Trino documents them) and explained next to the test."""

import datetime as dt

import pytest

from planner.errors import RuntimeFailure
from planner.match_recognize import output_columns, parse_match_recognize, validate
from runtime.match_recognize.matcher import CompiledMatch
from runtime.match_recognize.rows import match_rows

COLUMNS = [("sym", "STRING"), ("ts", "TIMESTAMP(3)"), ("id", "BIGINT"), ("price", "BIGINT")]
T0 = dt.datetime(2024, 1, 1)


def table(prices, sym="S"):
    return [(sym, T0 + dt.timedelta(seconds=i), i, p) for i, p in enumerate(prices)]


def run(body, rows, extensions=True):
    spec = validate(parse_match_recognize(body), COLUMNS, "ts", extensions=extensions)
    out, _ = match_rows(CompiledMatch(spec, [n for n, _ in COLUMNS]), [n for n, _ in COLUMNS], rows)
    return spec, out


def one_row(measures, pattern, define, rows, skip="AFTER MATCH SKIP PAST LAST ROW", extra=""):
    body = "PARTITION BY sym ORDER BY ts MEASURES %s ONE ROW PER MATCH %s PATTERN (%s) %s DEFINE %s" % (
        measures, skip, pattern, extra, define)
    return run(body, rows)[1]


def test_alternation_prefers_the_left_branch():
    # row 9 satisfies B (>5) and C (>3): the left branch B is preferred; row 4 only satisfies C
    out = one_row("COUNT(B.*) AS nb, COUNT(C.*) AS nc", "A (B | C) D",
                  "A AS price = 1, B AS price > 5, C AS price > 3, D AS price = 0", table([1, 9, 0, 1, 4, 0]))
    assert out == [("S", 1, 0), ("S", 0, 1)]


def test_quantified_group():
    # (A B)+ C over 1 2 1 2 3: two iterations of the group, then C
    out = one_row("COUNT(A.*) AS na, FIRST(id) AS first_id, LAST(id) AS last_id", "(A B)+ C",
                  "A AS price = 1, B AS price = 2, C AS price = 3", table([1, 2, 1, 2, 3]))
    assert out == [("S", 2, 0, 4)]
    # (A B){2} C over 1 2 1 2 1 2 3: from row 0 the 5th row is not C; the match starts at row 2
    out = one_row("FIRST(id) AS first_id, MATCH_NUMBER() AS mn", "(A B){2} C",
                  "A AS price = 1, B AS price = 2, C AS price = 3", table([1, 2, 1, 2, 1, 2, 3]))
    assert out == [("S", 2, 1)]


def test_permute():
    # PERMUTE(A, B) = A B | B A; rows 1 2 3 match A B C, rows 2 1 3 match B A C
    out = one_row("A.id AS a, B.id AS b", "PERMUTE(A, B) C",
                  "A AS price = 1, B AS price = 2, C AS price = 3", table([1, 2, 3, 2, 1, 3]))
    assert out == [("S", 0, 1), ("S", 4, 3)]
    # both orders possible: the lexicographically first permutation (A B) is preferred
    out = one_row("A.id AS a, B.id AS b", "PERMUTE(A, B) C",
                  "A AS price >= 1, B AS price >= 1, C AS price = 3", table([5, 5, 3]))
    assert out == [("S", 0, 1)]


def test_reluctant_optional():
    rows = table([1, 2, 2])
    define = "A AS price = 1, B AS price = 2, C AS price >= 2, D AS price = 99"
    # the standard: greedy B? takes row 1 and C is row 2 (the never-matching '| D' makes the pattern one
    # Flink refuses, so the standard's preference rules apply); reluctant B?? skips B and C is row 1
    assert one_row("B.id AS b, C.id AS c", "A B? C | D", define, rows) == [("S", 1, 2)]
    assert one_row("B.id AS b, C.id AS c", "A B?? C | D", define, rows) == [("S", None, 1)]


def test_flink_patterns_keep_flink_semantics_with_extensions():
    # A B? C is a pattern Flink runs: with extensions on it still gives Flink's rows (the first path to
    # complete wins: C takes row 1), as the conformance case mr_nav_default_variable expects
    rows = table([1, 2, 2])
    define = "A AS price = 1, B AS price = 2, C AS price >= 2"
    assert one_row("B.id AS b, C.id AS c", "A B? C", define, rows) == [("S", None, 1)]


def test_greedy_last_element():
    # A B* may end the pattern: greedy B* takes every 2 after the 1
    out = one_row("COUNT(B.*) AS nb, LAST(id) AS last_id", "A B*", "A AS price = 1, B AS price = 2",
                  table([1, 2, 2, 5]))
    assert out == [("S", 2, 2)]


def test_anchors():
    rows = table([3, 4, 5], "S1") + table([6, 7], "S2")
    # ^ A: only the partition's first row can start the match
    assert sorted(one_row("A.id AS a", "^ A", "A AS price > 0", rows)) == [("S1", 0), ("S2", 0)]
    # A $: only the partition's last row can end it
    assert sorted(one_row("A.id AS a", "A $", "A AS price > 0", rows)) == [("S1", 2), ("S2", 1)]


def test_exclusion_in_all_rows_per_match():
    # {- B+ -}: B rows belong to the match but are not output
    body = ("PARTITION BY sym ORDER BY ts MEASURES CLASSIFIER() AS cls, MATCH_NUMBER() AS mn "
            "ALL ROWS PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (A {- B+ -} C) "
            "DEFINE A AS price = 1, B AS price = 2, C AS price = 3")
    spec, out = run(body, table([1, 2, 2, 3]))
    # ALL ROWS: partition columns, ORDER BY columns, measures, then the remaining input columns
    assert [n for n, _ in output_columns(spec, COLUMNS)] == ["sym", "ts", "cls", "mn", "id", "price"]
    assert out == [("S", T0, "A", 1, 0, 1), ("S", T0 + dt.timedelta(seconds=3), "C", 1, 3, 3)]


def test_running_and_final_semantics():
    body = ("PARTITION BY sym ORDER BY ts MEASURES RUNNING COUNT(*) AS run_cnt, FINAL COUNT(*) AS fin_cnt, "
            "RUNNING LAST(price) AS run_last, FINAL LAST(price) AS fin_last, CLASSIFIER() AS cls "
            "ALL ROWS PER MATCH PATTERN (A B+ C) DEFINE A AS price = 1, B AS price = 2, C AS price = 3")
    _, out = run(body, table([1, 2, 2, 3]))
    assert [r[2:7] for r in out] == [(1, 4, 1, 3, "A"), (2, 4, 2, 3, "B"), (3, 4, 2, 3, "B"), (4, 4, 3, 3, "C")]


def _all_rows(option, pattern, prices):
    body = ("PARTITION BY sym ORDER BY ts MEASURES CLASSIFIER() AS cls, MATCH_NUMBER() AS mn "
            "ALL ROWS PER MATCH %s AFTER MATCH SKIP PAST LAST ROW PATTERN (%s) DEFINE A AS price > 5"
            % (option, pattern))
    return [(r[4], r[2], r[3]) for r in run(body, table(prices))[1]]   # (id, cls, mn)


def test_empty_matches():
    # A* over 9 1 7: row 0 matches A (match 1), at row 1 A* matches empty (match 2), row 2 matches (match 3)
    assert _all_rows("SHOW EMPTY MATCHES", "A*", [9, 1, 7]) == [(0, "A", 1), (1, None, 2), (2, "A", 3)]
    # OMIT EMPTY MATCHES drops the empty match's row; it still counts as match 2
    assert _all_rows("OMIT EMPTY MATCHES", "A*", [9, 1, 7]) == [(0, "A", 1), (2, "A", 3)]
    # ONE ROW PER MATCH outputs empty matches too: COUNT(*) = 0
    out = one_row("COUNT(*) AS c, MATCH_NUMBER() AS mn", "A*", "A AS price > 5", table([9, 1, 7]))
    assert out == [("S", 1, 1), ("S", 0, 2), ("S", 1, 3)]


def test_with_unmatched_rows():
    # A+ over 9 1 7: row 1 is in no match and is output with NULL measures
    assert _all_rows("WITH UNMATCHED ROWS", "A+", [9, 1, 7]) == [(0, "A", 1), (1, None, None), (2, "A", 2)]


def test_subset():
    out = one_row("LAST(U.price) AS lu, COUNT(U.*) AS cu, FIRST(U.id) AS fu, SUM(U.price) AS su, U.id AS ui",
                  "A B+ C", "A AS price = 1, B AS price = 2, C AS price = 3", table([1, 2, 2, 3]),
                  extra="SUBSET U = (B, C)")
    assert out == [("S", 3, 3, 1, 7, 3)]


def test_prev_next_v_shape():
    # Trino's V-shape: 10 8 6 9 12 7 11 -> A=10, B=8,6, C=9, D=12 (12 > 10 is not C); 7 ends D+
    measures = ("A.price AS start_price, LAST(B.price) AS bottom, LAST(U.price) AS top, "
                "NEXT(price) AS after_price, PREV(A.price) AS before_start, PREV(price, 2) AS two_back")
    out = one_row(measures, "A B+ C+ D+",
                  "B AS price < PREV(price), C AS price > PREV(price) AND price <= A.price, "
                  "D AS price > PREV(price)", table([10, 8, 6, 9, 12, 7, 11]), extra="SUBSET U = (C, D)")
    # NEXT(price): the row after the match's last row (7); PREV(A.price): before row 0 -> NULL;
    # PREV(price, 2): two rows before the last row (6)
    assert out == [("S", 10, 6, 12, 7, None, 6)]


def test_classifier_and_match_number_in_define():
    # B must come in an odd-numbered match: matches 1 and 3 use B, match 2 cannot
    out = one_row("MATCH_NUMBER() AS mn, COUNT(B.*) AS nb", "A B? | C",
                  "A AS price = 1, B AS price = 2 AND MOD(MATCH_NUMBER(), 2) = 1 AND CLASSIFIER() = 'B', "
                  "C AS price = 99",
                  table([1, 2, 1, 2, 1, 2]), skip="AFTER MATCH SKIP PAST LAST ROW")
    # match 1: rows 0-1 (B allowed); match 2 starts at row 2: B not allowed -> A only;
    # row 3 (price 2) cannot start A; match 3 at row 4 takes B at row 5
    assert out == [("S", 1, 1), ("S", 2, 0), ("S", 3, 1)]


def test_skip_errors_in_standard_mode():
    body = ("PARTITION BY sym ORDER BY ts MEASURES A.id AS a ONE ROW PER MATCH AFTER MATCH SKIP TO FIRST A "
            "PATTERN (A | B) DEFINE A AS price = 1, B AS price = 2")
    with pytest.raises(RuntimeFailure, match="first element"):
        run(body, table([1, 2]))
    body = ("PARTITION BY sym ORDER BY ts MEASURES A.id AS a ONE ROW PER MATCH AFTER MATCH SKIP TO LAST B "
            "PATTERN (A B? C) DEFINE A AS price = 1, B AS price = 2, C AS price = 3")
    with pytest.raises(RuntimeFailure, match="Could not skip to B"):
        run(body, table([1, 3]), extensions=False)
