"""The streaming operator's logic (MatchProcessor on transformWithStateInPandas) without Spark: every mr_* case
replayed as micro-batches of 1, 2, 3 and 5 rows, each key's rows handed over as pandas frames the way Spark's
worker builds them (fake_state.py), must give Flink's rows, whatever the batch boundaries."""

import json

import pytest

from planner.match_recognize import parse_match_recognize, validate
from runtime.match_recognize.output_schema import spark_schema
from runtime.match_recognize.rows import is_late, to_micros
from runtime.match_recognize.stream import MatchProcessor
from tests.match_recognize.cases import Case, as_multiset, case_dirs
from tests.match_recognize.fake_state import as_row, replay


def processor_for(spec, columns):
    return MatchProcessor(spec, columns, [f.name for f in spark_schema(spec).fields] + ["__seq"])


def input_row(names, values, rowtime, seq, wm):
    """A row as the translator hands it over: the input columns, __t, __seq and Flink's lateness __late."""
    row = dict(zip(names, values))
    return as_row(list(names) + ["__t", "__seq", "__late"],
                  tuple(values) + (to_micros(row[rowtime]), seq, is_late(row[rowtime], wm)))


def results(out):
    return [tuple(r)[:-1] for r in out]          # without the output __seq

CASES = [c for c in (Case(p) for p in case_dirs()) if c.expected is not None]


@pytest.mark.parametrize("size", [1, 2, 3, 5])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_replay(case, size):
    spec = validate(parse_match_recognize(case.body), case.columns, case.rowtime)
    processor = processor_for(spec, case.columns)
    rows = case.rows()
    wms = case.watermarks(rows)
    names = [n for n, _ in case.columns]
    rs = [input_row(names, r, case.rowtime, i, w) for i, (r, w) in enumerate(zip(rows, wms))]
    batches = [rs[i:i + size] for i in range(0, len(rs), size)]
    out = replay(processor, batches, lambda r: r[case.rowtime],
                 case.delay_ms)
    assert as_multiset(results(out)) == sorted(json.dumps(e["row"]) for e in case.expected)


def test_end_of_input_flushes_open_standard_matches():
    """A greedy last element (the standard, extensions on) is only decided at the end of the partition:
    the end-of-input watermark must reach keys that got no row in the last batches (their timer)."""
    from tests.match_recognize.test_standard_features import COLUMNS, table
    body = ("PARTITION BY sym ORDER BY ts MEASURES COUNT(B.*) AS nb, LAST(id) AS last_id ONE ROW PER MATCH "
            "AFTER MATCH SKIP PAST LAST ROW PATTERN (A B*) DEFINE A AS price = 1, B AS price = 2")
    spec = validate(parse_match_recognize(body), COLUMNS, "ts", extensions=True)
    processor = processor_for(spec, COLUMNS)
    names = [n for n, _ in COLUMNS]
    rows = table([1, 2, 2], "S1") + table([1, 2], "S2")
    rs = [input_row(names, r, "ts", i, None) for i, r in enumerate(rows)]
    out = replay(processor, [rs[:3], rs[3:]], lambda r: r["ts"], 1000)
    assert sorted(results(out)) == [("S1", 2, 2), ("S2", 1, 1)]


def test_anchor_start_after_the_buffer_was_trimmed():
    """'^ A' matches only the partition's first row, even after earlier rows left the streaming buffer."""
    from tests.match_recognize.test_standard_features import COLUMNS, T0
    import datetime as dt
    body = ("PARTITION BY sym ORDER BY ts MEASURES A.id AS a ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW "
            "PATTERN (^ A) DEFINE A AS price > 0")
    spec = validate(parse_match_recognize(body), COLUMNS, "ts", extensions=True)
    processor = processor_for(spec, COLUMNS)
    names = [n for n, _ in COLUMNS]
    rs = [input_row(names, ("S", T0 + dt.timedelta(seconds=i), i, 5), "ts", i, None) for i in range(6)]
    out = replay(processor, [rs[k:k + 2] for k in range(0, 6, 2)], lambda r: r["ts"], 0)
    assert results(out) == [("S", 0)]


def test_bigint_values_and_keys_stay_exact_beside_nulls():
    """Spark's pandas conversion turns a BIGINT column with a NULL into floats: a key or a value beyond 2**53
    must still come out exact, and a NULL stay NULL (stream_columns.py sends them NULL-free with NULL bits)."""
    from tests.match_recognize.test_standard_features import COLUMNS, T0
    import datetime as dt
    big = 2 ** 60 + 1
    body = ("PARTITION BY price ORDER BY ts MEASURES A.id AS a ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW "
            "PATTERN (A) DEFINE A AS id IS NULL OR id > 0")
    spec = validate(parse_match_recognize(body), COLUMNS, "ts")
    processor = processor_for(spec, COLUMNS)
    names = [n for n, _ in COLUMNS]
    values = [("S", T0 + dt.timedelta(seconds=i), i_d, p)
              for i, (i_d, p) in enumerate([(big, None), (None, big), (big + 2, big), (3, None)])]
    rs = [input_row(names, v, "ts", i, None) for i, v in enumerate(values)]
    out = replay(processor, [rs], lambda r: r["ts"], 0)
    assert sorted(results(out), key=repr) == sorted([(None, big), (big, None), (big, big + 2), (None, 3)], key=repr)
