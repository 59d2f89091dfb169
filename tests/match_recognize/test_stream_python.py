"""The streaming operator's logic (MatchProcessor) without Spark: every mr_* case replayed as micro-batches
of 1, 2, 3 and 5 rows must give Flink's rows, whatever the batch boundaries."""

import json

import pytest

from planner.match_recognize import parse_match_recognize, validate
from runtime.match_recognize.output_schema import spark_schema
from runtime.match_recognize.stream import MatchProcessor
from tests.match_recognize.cases import Case, as_multiset, case_dirs
from tests.match_recognize.fake_state import as_row, replay

CASES = [c for c in (Case(p) for p in case_dirs()) if c.expected is not None]


@pytest.mark.parametrize("size", [1, 2, 3, 5])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_replay(case, size):
    spec = validate(parse_match_recognize(case.body), case.columns, case.rowtime)
    processor = MatchProcessor(spec, case.columns, spark_schema(spec, case.columns))
    rows = case.rows()
    wms = case.watermarks(rows)
    names = [n for n, _ in case.columns] + ["__seq", "__wm"]
    rs = [as_row(names, tuple(r) + (i, w)) for i, (r, w) in enumerate(zip(rows, wms))]
    batches = [rs[i:i + size] for i in range(0, len(rs), size)]
    pidx = spec.partition_by
    out = replay(processor, batches, lambda r: tuple(r[p] for p in pidx), lambda r: r[case.rowtime],
                 case.delay_ms)
    assert as_multiset([tuple(r) for r in out]) == sorted(json.dumps(e["row"]) for e in case.expected)
