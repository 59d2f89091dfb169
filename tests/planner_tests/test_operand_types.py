"""Operand types as Flink 2.3 takes and refuses them, planner only: each query of operand_types_on_flink.txt (its
answer recorded on Flink 2.3) must be planned where Flink plans it, and refused where Flink refuses it, in
Flink's words and at Flink's column where the file gives one (planner/expr/signatures.py, operand_checks.py,
casts_allowed.py)."""

import os

import pytest

from planner.errors import DynsqlError
from planner.planner import Planner

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = ("CREATE TABLE t (i INT, s STRING, d DOUBLE, dc DECIMAL(10, 2), b BOOLEAN, dt DATE, ts TIMESTAMP(3), "
         "f FLOAT, bi BIGINT) WITH ('connector' = 'filesystem', 'path' = '/tmp/t.csv', 'format' = 'csv')")


def read_cases():
    """[(sql, kind, column or None, Flink's text)] with kind in accepted, error, refused."""
    cases, current = [], None
    with open(os.path.join(HERE, "operand_types_on_flink.txt"), encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line.startswith("#") and current is None:
                continue
            if line.startswith("== "):
                current = [line[3:], None, None, []]
                cases.append(current)
            elif current is not None and current[1] is None:
                head, _, text = line.partition(": ")
                kind, _, column = head.partition(" at ")
                current[1], current[2] = kind, int(column) if column else None
                current[3] = [text] if text else []
            elif current is not None:
                current[3].append(line)
    return [(sql, kind, column, "\n".join(text).rstrip("\n")) for sql, kind, column, text in cases]


CASES = read_cases()


@pytest.fixture(scope="module")
def planner():
    p = Planner()
    p.plan(TABLE)
    return p


def test_the_file_holds_every_kind():
    kinds = [kind for _, kind, _, _ in CASES]
    assert len(CASES) > 250 and {"accepted", "error", "refused"} <= set(kinds)


@pytest.mark.parametrize("sql,kind,column,flink", CASES, ids=[c[0][7:60] for c in CASES])
def test_operands_as_flink_takes_them(planner, sql, kind, column, flink):
    try:
        planner.plan(sql)
    except DynsqlError as err:
        assert kind != "accepted", "Flink 2.3 plans %s; dynsql refused it: %s" % (sql, err.render())
        if kind == "error":
            assert err.message == flink
            if column is not None:
                assert (err.line, err.column) == (1, column)
        return
    assert kind == "accepted", "Flink 2.3 refuses %s:\n%s" % (sql, flink)
