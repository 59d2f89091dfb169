"""Every mr_* conformance case through the planner (parse, validate, types) and the pure-Python matcher:
refusals must be refused, the rest must give Flink 2.3's rows and column types."""

import pytest

from planner.errors import SqlError
from planner.match_recognize import output_columns, parse_match_recognize, validate
from runtime.match_recognize.matcher import CompiledMatch
from runtime.match_recognize.rows import match_rows
from planner.errors import RuntimeFailure
from tests.match_recognize.cases import Case, as_multiset, case_dirs

CASES = [Case(p) for p in case_dirs()]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case):
    spec = parse_match_recognize(case.body, case.line, case.column)
    if case.error is not None and "phase: plan" in case.error:
        with pytest.raises(SqlError):
            validate(spec, case.columns, case.rowtime)
        return
    validate(spec, case.columns, case.rowtime)
    compiled = CompiledMatch(spec, [n for n, _ in case.columns])
    rows = case.rows()
    if case.error is not None:      # Flink fails at run time
        with pytest.raises(RuntimeFailure) as e:
            match_rows(compiled, [n for n, _ in case.columns], rows, wm=case.watermarks(rows))
        assert "Could not skip" in str(e.value)
        return
    assert output_columns(spec, case.columns) == case.expected_columns
    out, late = match_rows(compiled, [n for n, _ in case.columns], rows, wm=case.watermarks(rows))
    assert as_multiset(out) == sorted(__import__("json").dumps(e["row"]) for e in case.expected)
