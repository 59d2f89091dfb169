"""Flink 2.3's own answers (../shared/conformance/cases), run in this process on the shared session:
each case's SQL in, its changelog compared with Flink's by the conformance comparator."""

import pytest

from conformance_inprocess import case_names, run_case

# the areas dynsql covers; a case listed here must pass
COVERED = ("bas_*", "misc_*", "dt_*", "vt_*", "mr_*", "win_legacy_hop", "win_*_tvf", "win_tumble_offset",
           "win_late_rows_dropped", "win_topn", "win_tvf_assign_only", "win_window_left_join",
           "win_allowed_lateness", "tj_*")

CASES = case_names(*COVERED)


@pytest.mark.skipif(not CASES, reason="../shared/conformance/cases is not beside the repository")
@pytest.mark.parametrize("name", CASES)
def test_case_matches_flink(client, name):
    ok, detail = run_case(client, name)
    assert ok, detail
