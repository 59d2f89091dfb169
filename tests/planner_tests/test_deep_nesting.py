"""Statements nested 1,000 levels deep plan, with work linear in their depth, and deeper than planner/parse.py's
MAX_NESTING is its "nested too deeply" error, never a hang.

Long conditions plan with work linear in their length: a condition is bound and typed once; what a rule or the
binder takes out of it (a Top-N's rank bound, a join's keys and its conjuncts from WHERE, a filter merged into
the Calc below) leaves the rest as it is, not walked again, and its Spark SQL is written when the runtime
asks for it: the same text as before.

The work is counted in Python calls (`calls_to_plan`), the same on any machine and at any load; the seconds it
takes are figures, printed by bench/planner_bench.py (the fuzzer's goal: 2 s of CPU a statement).
"""

import threading

import pytest

from planner.errors import SqlError
from planner.plan.calc import Calc
from planner.plan.join import Join
from planner.plan.rank import Rank
from planner.planner import Planner

LEVELS = 1000
CONJUNCTS = 1000       # (bench/planner_bench.py plans 4,000)


@pytest.fixture(scope="module")
def planner():
    p = Planner()
    p.plan("CREATE TABLE Ticker (symbol STRING, price BIGINT) WITH ('connector' = 'datagen')")
    return p


def nested(head, inner, tail, levels=LEVELS):
    return head + "(SELECT * FROM " * levels + inner + tail * levels


SHAPES = [
    lambda n: nested("SELECT * FROM ", "Ticker", ")", n),                          # positions asked at every level
    lambda n: nested("SELECT * FROM ", "Ticker", " WHERE price > 1)", n),          # a Calc merged per level
    lambda n: ("SELECT symbol FROM " + "(SELECT symbol, MAX(price) AS price FROM " * n + "Ticker" +
               " GROUP BY symbol)" * n),
    lambda n: "EXPLAIN " + nested("SELECT * FROM ", "Ticker", ")", n),
]


@pytest.mark.parametrize("shape", SHAPES, ids=["select", "filter", "aggregate", "explain"])
def test_a_thousand_levels_plan_with_work_linear_in_the_depth(planner, shape):
    assert planner.plan(shape(LEVELS))
    calls_to_plan(planner, shape(20))          # what the first one alone does (templates parsed, ...)
    assert calls_to_plan(planner, shape(150)) < 3.6 * calls_to_plan(planner, shape(50))


def test_deeper_than_the_limit_is_refused_with_its_place(planner):
    with pytest.raises(SqlError) as info:
        planner.plan(nested("SELECT * FROM ", "Ticker", ")", levels=2100))
    assert "nested too deeply" in info.value.message and info.value.line == 1 and info.value.column > 1


def test_merged_conditions_are_the_conjunction_of_every_level(planner):
    root = planner.plan(nested("SELECT * FROM ", "Ticker", " WHERE price > 1)", levels=50)).query.root
    while getattr(root, "condition", None) is None:
        root = root.inputs[0]
    assert root.condition.sql == " AND ".join(["`price` > 1"] * 50)
    assert root.condition.type.text() == "BOOLEAN" and root.condition.refs == ("price",)


# ---------------------------------------------------------------------- long conditions
def planned(planner, text):
    """A 1,000-conjunct condition's plan (quadratic work would take minutes: test_a_long_condition_is_planned_once
    below checks the growth)."""
    return planner.plan(text).query.root


def nodes(root):
    out = [root]
    while out[-1].inputs:
        out.append(out[-1].inputs[0])
    return out


def chain(template, n=CONJUNCTS):
    return " AND ".join(template % k for k in range(n))


def test_a_top_n_keeps_the_rest_of_a_long_filter(planner):
    root = planned(planner, "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY symbol ORDER BY price DESC) "
                            "AS rn FROM Ticker) WHERE %s AND rn <= 3 AND (price < 0 OR price > 9)"
                   % chain("price > %d"))
    calc, rank = nodes(root)[1:3]
    assert isinstance(rank, Rank) and rank.rank_end == 3
    assert calc.condition.sql == chain("`price` > %d") + " AND (`price` < 0 OR `price` > 9)"
    assert calc.condition.type.text() == "BOOLEAN" and calc.condition.refs == ("price",)


def test_a_long_where_over_a_join_becomes_its_condition_once(planner):
    root = planned(planner, "SELECT * FROM Ticker a, Ticker b WHERE a.symbol = b.symbol AND b.price < 5 AND %s"
                   % chain("a.price > b.price + %d", CONJUNCTS // 2))
    calc, join = nodes(root)[1:3]
    assert isinstance(join, Join) and (join.left_keys, join.right_keys) == (["symbol"], ["symbol"])
    # one conjunct's Spark SQL (a BIGINT + that wraps as Java's, planner/bind/arithmetic.py), for each k
    one = nodes(planner.plan("SELECT * FROM Ticker a, Ticker b WHERE a.symbol = b.symbol AND a.price > b.price + 7777")
                .query.root)[1].condition.sql
    assert "`price0`" in one and "7777" in one
    # (`b.price + 0` is `b.price`: Flink's optimizer folds it, planner/expr/calcite_folds.py)
    assert join.condition.sql == " AND ".join("`price` > `price0`" if k == 0 else one.replace("7777", str(k))
                                              for k in range(CONJUNCTS // 2))
    assert isinstance(calc, Calc) and calc.condition.sql == "`price0` < 5"


def test_a_long_filter_merged_into_the_calc_below(planner):
    root = planned(planner, "SELECT * FROM (SELECT symbol, price FROM Ticker WHERE price < 100) WHERE %s"
                   % chain("(price > %d OR symbol = 'a')"))
    calc = nodes(root)[1]
    assert isinstance(calc, Calc) and not isinstance(calc.input, Calc)
    assert calc.condition.sql == "`price` < 100 AND " + chain("(`price` > %d OR `symbol` = 'a')")
    assert calc.condition.refs == ("price", "symbol")


def calls_to_plan(planner, text, written=False):
    """How many Python calls planning `text` makes (in the planner's threads): its work, whatever the load;
    `written`: and writing the Spark SQL of its first Calc's first column."""
    count = [0]

    def profile(frame, event, arg):
        if event == "call":
            count[0] += 1
    threading.setprofile(profile)
    try:
        root = planner.plan(text).query.root
        while written and not isinstance(root, Calc):
            root = root.inputs[0]
        assert not written or root.projections[0][0].sql
    finally:
        threading.setprofile(None)
    return count[0]


def plain_filter(template):
    return lambda n: "SELECT * FROM Ticker WHERE " + chain(template, n)


@pytest.mark.parametrize("shape,alone", [
    (lambda n: "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY symbol ORDER BY price DESC) AS rn "
               "FROM Ticker) WHERE rn <= 3 AND " + chain("price > %d", n), plain_filter("price > %d")),
    (lambda n: "SELECT * FROM (SELECT price, symbol FROM Ticker) WHERE " + chain("(price > %d OR symbol = 'a')", n),
     plain_filter("(price > %d OR symbol = 'a')")),
    (lambda n: "SELECT * FROM Ticker a, Ticker b WHERE a.symbol = b.symbol AND " + chain("a.price > b.price + %d", n),
     lambda n: "SELECT * FROM Ticker a, Ticker b WHERE a.symbol = b.symbol OR " + chain("a.price > b.price + %d", n)),
])
def test_a_long_condition_is_planned_once(planner, shape, alone):
    """The work a conjunct adds is what binding it in one filter costs: a rule that finished the rest of the
    condition again made it 1.5 times as much, a join's condition rebuilt for each WHERE conjunct n times."""
    added = calls_to_plan(planner, shape(400)) - calls_to_plan(planner, shape(100))
    once = calls_to_plan(planner, alone(400)) - calls_to_plan(planner, alone(100))
    assert added < 1.2 * once


# ---------------------------------------------------------------------- nested arithmetic (make fuzz hung here)
NESTED_CALLS = 30


@pytest.mark.parametrize("inner,outer", [
    ("price", "ABS(%s)"),                                    # BIGINT: MIN_VALUE stays MIN_VALUE
    ("CAST(price AS INT)", "ABS(%s)"),                       # INT: computed in BIGINT, its low 32 bits kept
    ("price", "-(%s + 1)"),                                  # BIGINT + that wraps, and negation
    ("price", "(%s) / 2"),                                   # BIGINT division (MIN_VALUE / -1)
    ("CAST(price AS DECIMAL(10, 2))", "TRUNCATE(%s, 1)"),    # a function template that reads its argument twice
])
def test_thirty_nested_arithmetic_calls_are_written_in_text_linear_in_the_depth(planner, inner, outer):
    """Flink's arithmetic on Spark reads an operand more than once (`if(x < 0, -x, x)`); each operand is written
    once all the same (planner/expr/operands_once.py), so the Spark SQL grows linearly with the depth, not
    exponentially (30 levels of ABS were 3^30 copies of the column)."""
    def query(levels):
        e = inner
        for _ in range(levels):
            e = outer % e
        return "SELECT %s FROM Ticker" % e

    def spark_sql(levels):
        return planner.plan(query(levels)).query.root.inputs[0].projections[0][0].sql

    deep = spark_sql(NESTED_CALLS)
    assert len(deep) < 2 * NESTED_CALLS * len(spark_sql(2))


# ---------------------------------------------------------------------- make fuzz at 100,000: its last hangs
@pytest.mark.parametrize("inner", ["price", "CAST(price AS INT)"])
def test_a_chain_of_signs_is_written_in_time_linear_in_its_length(planner, inner):
    """`- - - ... x` (make fuzz: ~1,000 signs): each sign's operand went into its Spark template as a copy, and the
    lambda variables below were counted again, at every level (planner/expr/operands_once.py): quadratic (1,000
    signs: minutes). BIGINT's -x reads x twice (bound once in a lambda), INT's once."""
    def signs(n):
        return "SELECT %s%s FROM Ticker" % ("- " * n, inner)
    calls_to_plan(planner, signs(80), written=True)   # what the first one alone does (templates parsed, ...)
    assert calls_to_plan(planner, signs(240), True) < 3.6 * calls_to_plan(planner, signs(80), True)
    assert planner.plan(signs(1000)).query.root.inputs[0].projections[0][0].sql


def test_with_union_all_with_binds_in_time_linear_in_its_length(planner):
    """`WITH .. SELECT .. UNION ALL WITH .. SELECT ..` (make fuzz: 300 of them, 36,590 characters, hung): each
    WITH copied the rest of the statement to bind it without its CTEs, and the copies (new nodes) missed the
    positions already found: quadratic and more (100 of them: 2.4 s)."""
    planner.plan("CREATE TABLE p (id INT, n INT) WITH ('connector' = 'datagen')")
    unit = "WITH big AS (SELECT id, n FROM p WHERE n >= 10)\nSELECT a.id, b.id AS id2 FROM big a JOIN big b ON a.n = b.n * 2"

    def unions(n):
        return " UNION ALL ".join([unit] * n)
    calls_to_plan(planner, unions(2))
    assert calls_to_plan(planner, unions(60)) < 3.6 * calls_to_plan(planner, unions(20))
    root = planner.plan(unions(300)).query.root
    joins, todo = 0, [root]
    while todo:
        node = todo.pop()
        joins += isinstance(node, Join)
        todo.extend(node.inputs)
    assert joins == 300
