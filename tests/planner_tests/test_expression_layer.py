"""One expression and type layer (planner/expr): SELECT and MATCH_RECOGNIZE type an expression by the same
rules, and the function registry takes a function added at run time (`register_function`), as a
user-defined function registers itself. Planner only: the types and the Spark SQL a query gets."""

import pytest

from planner.errors import SqlError
from planner.expr.functions import register_function, unregister_function
from planner.plan.match import Match
from planner.plan.node import post_order
from planner.planner import Planner

EXPRESSIONS = ["price * price", "price / 3", "price + qty", "ROUND(price, 1)", "MOD(qty, 7)", "ABS(qty)",
               "UPPER(symbol)", "GREATEST(price, 1.5)", "CEIL(price)", "POWER(qty, 2)",
               # literals, CAST, CASE, IF, COALESCE: typed by the expression layer in MEASURES too
               "TIMESTAMP '2020-01-01 00:00:00'", "TIME '10:00:00.12'", "1.50", "CAST(qty AS DECIMAL(5, 1))",
               "CASE WHEN qty > 1 THEN price ELSE 0 END", "CASE qty WHEN 1 THEN 1.5 ELSE 2 END",
               "IF(qty > 1, 'a', 'bc')", "COALESCE(qty, 1)", "TRY_CAST(symbol AS INT)"]


@pytest.fixture(scope="module")
def planner():
    p = Planner()
    p.plan("CREATE TABLE Ticker (symbol STRING, rowtime TIMESTAMP(3), price DECIMAL(10, 2), qty INT, "
           "WATERMARK FOR rowtime AS rowtime) WITH ('connector' = 'datagen')")
    return p


def select_types(planner):
    plan = planner.plan("SELECT %s FROM Ticker" % ", ".join(EXPRESSIONS))
    return [f.type_text() for f in plan.query.root.inputs[0].fields]


def measure_types(planner):
    measures = ", ".join("%s AS m%d" % (e.replace("price", "A.price").replace("qty", "A.qty")
                                        .replace("symbol", "A.symbol"), i) for i, e in enumerate(EXPRESSIONS))
    plan = planner.plan("SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES %s "
                        "ONE ROW PER MATCH PATTERN (A) DEFINE A AS A.qty > 0) MR" % measures)
    match = next(n for n in post_order(plan.query.root) if isinstance(n, Match))
    return [f.type_text() for f in match.fields]


def test_measures_are_typed_as_select_types_them(planner):
    """DECIMAL(10, 2) * DECIMAL(10, 2) is DECIMAL(21, 4) in both (Flink's); ROUND's DECIMAL, MOD's and UPPER's
    types are the registry's rules in both (MATCH_RECOGNIZE had its own table: ROUND kept DECIMAL(10, 2))."""
    selected = select_types(planner)
    assert selected[:4] == ["DECIMAL(21, 4)", "DECIMAL(21, 13)", "DECIMAL(13, 2)", "DECIMAL(10, 1)"]
    assert selected[10:12] == ["TIMESTAMP(0) NOT NULL", "TIME(2) NOT NULL"]       # Flink 2.3's TYPEOF of them
    assert [t.replace(" NOT NULL", "") for t in measure_types(planner)] == \
        [t.replace(" NOT NULL", "") for t in selected]


def test_a_function_registered_at_run_time_is_typed_and_translated(planner):
    register_function("PLUS_TAX", "DECIMAL(12, 2)", signatures=[("DECIMAL(10, 2)",)], spark="dynsql_plus_tax")
    try:
        plan = planner.plan("SELECT PLUS_TAX(price) AS t, plus_tax(qty) AS u FROM Ticker")
        calc = plan.query.root.inputs[0]
        assert [f.type_text() for f in calc.fields] == ["DECIMAL(12, 2)", "DECIMAL(12, 2)"]
        assert [e.sql for e, _ in calc.projections] == ["DYNSQL_PLUS_TAX(`price`)", "DYNSQL_PLUS_TAX(`qty`)"]
        with pytest.raises(SqlError) as info:                     # a STRING fits no signature
            planner.plan("SELECT PLUS_TAX(symbol) FROM Ticker")
        assert "Invalid function call: PLUS_TAX(STRING)" in info.value.message
        assert "PLUS_TAX(DECIMAL(10, 2))" in info.value.hint
        with pytest.raises(SqlError, match=r"Invalid function call: PLUS_TAX\(DECIMAL\(10, 2\), DECIMAL\(10, 2\)\)"):
            planner.plan("SELECT PLUS_TAX(price, price) FROM Ticker")
    finally:
        assert unregister_function("plus_tax")
    with pytest.raises(SqlError, match="PLUS_TAX"):
        planner.plan("SELECT PLUS_TAX(price) FROM Ticker")


def test_a_translation_and_a_type_rule_given_as_functions(planner):
    from sqlglot import exp
    from planner.expr.types import parse_type
    register_function("TWICE", lambda types: parse_type(types[0].text(with_null=False)),
                      translate=lambda args: exp.Mul(this=args[0], expression=exp.Literal.number(2)))
    try:
        calc = planner.plan("SELECT TWICE(qty) FROM Ticker").query.root.inputs[0]
        assert calc.fields[0].type_text() == "INT" and calc.projections[0][0].sql == "`qty` * 2"
    finally:
        unregister_function("TWICE")


def test_a_built_in_function_cannot_be_registered_again():
    with pytest.raises(SqlError, match="UPPER is a built-in function"):
        register_function("upper", "STRING")
    assert not unregister_function("UPPER")
