"""The physical choices, without Spark: tests/plans/physical/*.sql, each DDL (and SET) statements and one query,
then `-- physical:` and the Execution Plan EXPLAIN prints for it (runtime/physical: how the query runs, each
node's choice and the statistics behind it). `${DATA}` is tests/plans/physical/data, small files whose sizes the
statistics read. `python tests/planner_tests/test_physical_plans.py FILE` prints what a file plans to."""

import glob
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PHYSICAL_DIR = os.path.join(os.path.dirname(HERE), "plans", "physical")
DATA = os.path.join(PHYSICAL_DIR, "data")
FILES = sorted(glob.glob(os.path.join(PHYSICAL_DIR, "*.sql")))


def physical_plan_of(sql):
    """The Execution Plan lines of the file's last statement (the others applied first)."""
    from planner.planner import Planner
    from planner.settings import parse_size_bytes
    from runtime.physical import EngineFacts, plan_physical
    from runtime.physical.explain import explain_physical
    planner = Planner()
    statements = planner.split(sql.replace("${DATA}", DATA))
    for s in statements[:-1]:
        planner.plan(s)
    query = planner.plan(statements[-1]).query
    broadcast = planner.settings.get("spark.sql.autoBroadcastJoinThreshold")
    facts = EngineFacts(broadcast_bytes=-1 if broadcast == "-1" else parse_size_bytes(broadcast or "10mb"))
    return explain_physical(plan_physical(query, query.batch, planner.settings, facts))


def read_case(path):
    with open(path, encoding="utf-8") as f:
        sql, _, expected = f.read().partition("-- physical:")
    return sql, [ln[3:] for ln in expected.splitlines() if ln.startswith("-- ")]


def test_there_are_physical_plan_files():
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(p)[:-4] for p in FILES])
def test_physical_plan(path):
    sql, expected = read_case(path)
    assert expected, "%s has no '-- physical:' lines" % path
    lines = physical_plan_of(sql)
    assert lines == expected, "expected:\n%s\nplanned:\n%s" % ("\n".join(expected), "\n".join(lines))


def test_a_temporal_join_reads_a_versioned_view_without_its_deduplicate():
    """The join keeps each key's latest version itself: the view's Deduplicate never runs, so no physical tree
    (EXPLAIN's Execution Plan) holds it, whatever the path."""
    joins = [p for p in FILES if os.path.basename(p).startswith("temporal_join")]
    assert len(joins) >= 5
    for path in joins:
        lines = physical_plan_of(read_case(path)[0])
        assert any("TemporalJoin" in ln for ln in lines)
        assert not any(ln.lstrip(" :+-").startswith("Deduplicate") for ln in lines), "\n".join(lines)


def test_a_probe_file_read_in_pieces_is_a_choice_the_settings_turn_off():
    """temporal_join_probe_in_pieces.sql reads its probe file in pieces; forced onto the general path, with the
    one pass off, or with no piece size, the same query runs on micro-batches."""
    sql, expected = read_case(os.path.join(PHYSICAL_DIR, "temporal_join_probe_in_pieces.sql"))
    assert "4 pieces of 16 B read in parallel" in expected[0]
    for setting, why in (("'dynsql.physical.force' = 'general'", "dynsql.physical.force = general"),
                         ("'dynsql.one-pass.enabled' = 'false'", "dynsql.one-pass.enabled = false"),
                         ("'dynsql.one-pass.piece-size' = '0'", "153 B in all > dynsql.one-pass.max-input-size")):
        lines = physical_plan_of(sql.replace("\nSELECT ", "\nSET %s;\nSELECT " % setting, 1))
        assert lines[0].startswith("micro-batches (" + why), lines[0]
        assert not any("in pieces" in ln for ln in lines)


def test_a_grouped_aggregate_in_pieces_takes_a_multiple_of_the_cores():
    """Three pieces on two cores would leave one core idle while the third is read: four of them."""
    from planner.planner import Planner
    from runtime.physical import EngineFacts, plan_physical
    planner = Planner()
    sql, _ = read_case(os.path.join(PHYSICAL_DIR, "group_aggregate_in_pieces.sql"))
    statements = planner.split(sql.replace("${DATA}", DATA).replace("'40 b'", "'50 b'"))
    for s in statements[:-1]:
        planner.plan(s)
    query = planner.plan(statements[-1]).query
    pieces = [plan_physical(query, False, planner.settings, EngineFacts(cores=cores)).root.inputs[0].pieces
              for cores in (1, 2)]
    assert pieces == [(3, 43), (4, 32)]


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
    for p in sys.argv[1:]:
        sql, _ = read_case(p)
        print("-- physical:")
        print("\n".join("-- " + ln for ln in physical_plan_of(sql)))
