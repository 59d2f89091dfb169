"""tests/record_on_flink.py writes Flink's values as the tableau prints them. A MULTISET comes from
../shared/conformance/flink_run.py as [[element, count], ...] (sorted); an uncast MULTISET of DOUBLE crashed the
recorder (it read each pair as one DOUBLE). The JSON values below are flink_run.py's for `SELECT COLLECT(d) FROM
(VALUES (1.5e0), (2.5e0), (1.5e0)) AS t(d)` and the like on Flink 2.3."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from record_on_flink import cell  # noqa: E402


def test_a_multiset_of_doubles_is_written_as_the_tableau_prints_it():
    assert cell([[1.5, 2], [2.5, 1]], "MULTISET<DOUBLE NOT NULL> NOT NULL") == "{1.5=2, 2.5=1}"
    assert cell([[-0.0, 1], ["NaN", 2], [1e10, 1]], "MULTISET<DOUBLE>") == "{-0.0=1, NaN=2, 1.0E10=1}"


def test_a_multiset_of_strings_rows_and_arrays():
    assert cell([["a", 1], ["b", 3]], "MULTISET<STRING NOT NULL> NOT NULL") == "{a=1, b=3}"
    assert cell([[[1, "x"], 2]], "MULTISET<ROW<`a` INT, `b` STRING>>") == "{(1, x)=2}"
    assert cell([[[1, None], 1]], "MULTISET<ARRAY<INT>>") == "{[1, NULL]=1}"
    assert cell(None, "MULTISET<INT>") == "<NULL>"
