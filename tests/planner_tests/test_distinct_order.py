"""Which batch aggregates Flink 2.3 plans so that its DISTINCT calls get their values sorted (LISTAGG(DISTINCT)
joins them so), without Spark: runtime/operators/distinct_order.py follows FlinkAggregateExpandDistinctAggregatesRule
and BatchPhysicalHashAggRule. The plans named are those of Flink's EXPLAIN for these queries (or their calls one
by one); tests/sql/aggregate_functions_batch holds rows of both orders."""

import pytest

DDL = ("CREATE TABLE ls (g INT, s STRING, t STRING, n DECIMAL(20, 2), ts TIMESTAMP(6), t3 TIMESTAMP(3)) "
       "WITH ('connector' = 'datagen')")


def calls_of(query):
    from planner.plan.aggregate import GroupAggregate
    from planner.planner import Planner
    planner = Planner()
    planner.plan(planner.split(DDL + ";")[0])
    root = planner.plan(planner.split(query + ";")[0]).query.root
    return next(n for n in root.walk() if isinstance(n, GroupAggregate)).calls


@pytest.mark.parametrize("query, is_sorted", [
    # an Expand under a sort aggregate: a call beside whose buffer is not of fixed length
    ("SELECT g, LISTAGG(DISTINCT s), LISTAGG(s) FROM ls GROUP BY g", True),
    ("SELECT g, LISTAGG(DISTINCT s), FIRST_VALUE(s) FROM ls GROUP BY g", True),
    ("SELECT g, LISTAGG(DISTINCT s), MAX(t) FROM ls GROUP BY g", True),
    ("SELECT g, LISTAGG(DISTINCT s), MIN(ts) FROM ls GROUP BY g", True),
    ("SELECT g, LISTAGG(DISTINCT s), STDDEV_POP(g) FROM ls GROUP BY g", True),
    ("SELECT LISTAGG(DISTINCT s), LISTAGG(s) FROM ls", True),
    # an Expand under a hash aggregate: buffers of fixed length (every DECIMAL, a TIMESTAMP(3))
    ("SELECT g, LISTAGG(DISTINCT s), COUNT(*) FROM ls GROUP BY g", False),
    ("SELECT g, LISTAGG(DISTINCT s), SUM(g), SUM(n), MAX(t3) FROM ls GROUP BY g", False),
    ("SELECT g, LISTAGG(DISTINCT s), AVG(n), COUNT(t) FILTER (WHERE g > 1) FROM ls GROUP BY g", False),
    ("SELECT g, LISTAGG(DISTINCT s), COUNT(DISTINCT t) FROM ls GROUP BY g", False),
    # one set of DISTINCT arguments, MIN / MAX of them beside: a hash aggregate of the (g, s) pairs
    ("SELECT g, LISTAGG(DISTINCT s), COUNT(DISTINCT s), MAX(s) FROM ls GROUP BY g", False),
    ("SELECT g, LISTAGG(s) FROM ls GROUP BY g", False),
])
def test_flinks_batch_plan_sorts_distinct_values(query, is_sorted):
    from runtime.operators.distinct_order import distinct_values_sorted
    assert distinct_values_sorted(calls_of(query)) is is_sorted
