"""Flink 2.3's own answers (../shared/conformance/cases), run in this process on the shared session:
each case's SQL in, its changelog compared with Flink's by the conformance comparator; on micro-batches, and
with the default settings (one pass where a query can be read so, runtime/one_pass.py)."""

import pytest

from conformance_inprocess import case_names, run_case

# the areas dynsql covers; a case listed here must pass
COVERED = ("bas_*", "misc_*", "dt_*", "vt_*", "mr_*", "win_legacy_hop", "win_*_tvf", "win_tumble_offset",
           "win_late_rows_dropped", "win_topn", "win_tvf_assign_only", "win_window_left_join",
           "win_allowed_lateness", "tj_*")

CASES = case_names(*COVERED)


def test_the_cases_are_there():
    """../shared/conformance/cases beside the checkout: without them the tests below would collect nothing."""
    assert len(CASES) >= 50, "found %d conformance cases" % len(CASES)


@pytest.mark.parametrize("name", CASES)
def test_case_matches_flink(client, name):
    ok, detail = run_case(client, name)
    assert ok, detail


# `slow` (make test-slow), to keep `make test` within CI's time: `make conformance` runs the same cases with the same
# default settings through the CLI
@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_case_matches_flink_with_the_default_settings(one_pass_client, name):
    """As the CLI runs them: a streaming query over one small file is read in one pass where it can be."""
    ok, detail = run_case(one_pass_client, name)
    assert ok, detail
