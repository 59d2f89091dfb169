"""Statements nested 1,000 levels deep plan in time linear in their depth (the fuzzer's bound: 2 s of CPU),
and deeper than planner/parse.py's MAX_NESTING is its "nested too deeply" error, never a hang."""

import time

import pytest

from planner.errors import SqlError
from planner.planner import Planner

LEVELS = 1000


@pytest.fixture(scope="module")
def planner():
    p = Planner()
    p.plan("CREATE TABLE Ticker (symbol STRING, price BIGINT) WITH ('connector' = 'datagen')")
    return p


def nested(head, inner, tail, levels=LEVELS):
    return head + "(SELECT * FROM " * levels + inner + tail * levels


@pytest.mark.parametrize("shape", [
    nested("SELECT * FROM ", "Ticker", ")"),                                  # positions asked at every level
    nested("SELECT * FROM ", "Ticker", " WHERE price > 1)"),                  # a Calc merged per level
    "SELECT symbol FROM " + "(SELECT symbol, MAX(price) AS price FROM " * LEVELS + "Ticker" +
    " GROUP BY symbol)" * LEVELS,
    "EXPLAIN " + nested("SELECT * FROM ", "Ticker", ")"),
])
def test_a_thousand_levels_plan_in_time(planner, shape):
    started = time.process_time()
    planner.plan(shape)
    assert time.process_time() - started < 2.0


def test_deeper_than_the_limit_is_refused_with_its_place(planner):
    started = time.process_time()
    with pytest.raises(SqlError) as info:
        planner.plan(nested("SELECT * FROM ", "Ticker", ")", levels=2100))
    assert time.process_time() - started < 2.0
    assert "nested too deeply" in info.value.message and info.value.line == 1 and info.value.column > 1


def test_merged_conditions_are_the_conjunction_of_every_level(planner):
    root = planner.plan(nested("SELECT * FROM ", "Ticker", " WHERE price > 1)", levels=50)).query.root
    while getattr(root, "condition", None) is None:
        root = root.inputs[0]
    assert root.condition.sql == " AND ".join(["`price` > 1"] * 50)
    assert root.condition.type.text() == "BOOLEAN" and root.condition.refs == ("price",)
