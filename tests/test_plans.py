"""The planner's own tests: tests/plans/*.sql, each the statements of a case and what the planner must make
of its last one, without Spark (as Flink's plan test files and Arroyo's planner tests).

A file holds DDL (and SET) statements and one query; after it, either

  -- plan:                       the expected EXPLAIN CHANGELOG_MODE tree, one line per node, each line
  -- Sink(...)                   written after '-- ' (the planner's output exactly)

or

  -- error:                      fragments the planner's [ERROR] message must contain, one per line
  -- doesn't support consuming

`python tests/test_plans.py FILE` prints what the planner makes of a file (to write a new one)."""

import glob
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PLAN_DIR = os.path.join(HERE, "plans")
FILES = sorted(glob.glob(os.path.join(PLAN_DIR, "*.sql")))


def read_case(path):
    """-> (sql text, 'plan' | 'error', expected lines)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    marker = "-- plan:" if "-- plan:" in text else "-- error:"
    sql, _, expected = text.partition(marker)
    lines = [ln[3:] if ln.startswith("-- ") else ln[2:] for ln in expected.splitlines() if ln.startswith("--")]
    return sql, marker[3:-1], [ln for ln in lines if ln.strip()]


def plan_of(sql):
    """The EXPLAIN CHANGELOG_MODE lines of the last statement (the others applied first), or the error."""
    sys.path.insert(0, os.path.dirname(HERE))
    from planner.errors import DynsqlError
    from planner.planner import Planner
    planner = Planner()
    statements = planner.split(sql)
    for s in statements[:-1]:
        planner.plan(s)
    last = statements[-1]
    text = last.text
    prefix = "EXPLAIN CHANGELOG_MODE "
    try:
        plan = planner.plan(last if text.lstrip().upper().startswith("EXPLAIN") else
                            type(last)(prefix + text, last.line, last.column - len(prefix)))
    except DynsqlError as e:
        return None, e.render()
    return plan.query.explain(with_modes=True), None


def test_there_are_plan_files():
    assert len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(p)[:-4] for p in FILES])
def test_plan(path):
    sql, kind, expected = read_case(path)
    lines, error = plan_of(sql)
    if kind == "plan":
        assert error is None, "planning failed: %s" % error
        assert lines == expected, "expected:\n%s\nplanned:\n%s" % ("\n".join(expected), "\n".join(lines))
    else:
        assert error is not None, "planned, expected an error:\n%s" % "\n".join(lines)
        assert "Traceback" not in error
        for fragment in expected:
            assert fragment in error, "%r not in %r" % (fragment, error)


if __name__ == "__main__":
    for p in sys.argv[1:]:
        sql, _, _ = read_case(p)
        lines, error = plan_of(sql)
        out = error.splitlines() if error else lines
        print("-- error:" if error else "-- plan:")
        print("\n".join("-- " + ln for ln in out))
