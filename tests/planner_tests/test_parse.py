"""planner.parse: syntax errors in the SQL's terms with their place, deep nesting, linear parsing, and
Flink's limits on the types a statement writes."""

import gc
import logging
import sys

import pytest
from sqlglot import exp

from planner.errors import SqlError
from planner.parse import MAX_NESTING, deep_stack, parse_sql
from planner.planner import Planner


def error_of(sql, line=1, column=1):
    with pytest.raises(SqlError) as info:
        parse_sql(sql, line, column)
    return info.value


@pytest.mark.parametrize("sql,message,line,column", [
    ("SELECT * FROM ", 'Expected a table name (the statement ends after "FROM")', 1, 10),
    ("SELECT 1 *", 'Expected an expression after "*"', 1, 10),
    ("SELECT (1", 'Expected ")" (the statement ends after "1")', 1, 9),
    ("SELECT a FROM t WHERE", "Expected a condition after WHERE", 1, 17),
    ("SELECT CAST(a AS) FROM t", 'Expected a type after AS near ")"', 1, 17),
    ("SELECT a FROM t t2 t3 t4", 'Unexpected "t3"', 1, 20),
    ("SELECT CASE WHEN a THEN b FROM t", 'Expected END after CASE near "b"', 1, 25),
    ("SELECT ABS(1, 2) FROM t", 'Too many arguments for ABS: 2 given, at most 1 allowed near ")"', 1, 16),
    ("WITH x SELECT 1", 'Expected "(" near "SELECT"', 1, 8),
    ("SELECT SUM() FROM t", 'Missing argument of SUM near ")"', 1, 12),
    ("SELECT\n  a,\n  b +\nFROM t", 'Expected an expression after "+" near "FROM"', 4, 1),
    ("SELECT 'abc", "The string literal is not closed", 1, 8),
    ("SELECT `abc", "The quoted name is not closed", 1, 8),
    ("SELECT 1 /* x", "The comment is not closed", 1, 10),
    ("", "Expected a statement", 1, 1),
])
def test_syntax_errors_name_the_sql_and_where(sql, message, line, column):
    error = error_of(sql)
    assert error.message == "SQL parse failed. " + message
    assert (error.line, error.column) == (line, column)


def test_the_place_is_in_the_users_input():
    error = error_of("SELECT 1 +* 2", line=3, column=5)        # the statement starts at line 3, column 5
    assert (error.line, error.column) == (3, 17)
    assert error_of("SELECT\n1 +* 2", line=3, column=5).line == 4


@pytest.mark.parametrize("sql", [
    "SELECT * FROM ", "SELECT 1 +", "SELECT a FROM t ORDER BY", "(;", "SELECT a FROM t GROUP a", "SELECT )",
    "SELECT CAST(1 AS", "SELECT * FROM TABLE(TUMBLE(", "SELECT x FROM t WHERE a IN (SELECT", "INSERT",
    "SELECT a FROM t JOIN", "SELECT 1 UNION",
    "SELECT a FROM t LIMIT", "SELECT ROW_NUMBER() OVER (", "SELECT a FROM t WHERE a BETWEEN 1",
])
def test_no_message_names_sqlglot_or_python(sql):
    message = error_of(sql).render()
    for internal in ("<class", "TokenType", "<Token", "sqlglot", "exp.", "Required keyword", "'this'", "None"):
        assert internal not in message, message


# ---------------------------------------------------------------------- deep nesting
def nested(kind, depth):
    if kind == "parentheses":
        return "SELECT " + "(" * depth + "a" + ")" * depth + " FROM t"
    if kind == "function calls":
        return "SELECT " + "ABS(" * depth + "a" + ")" * depth + " FROM t"
    if kind == "CASE":
        return "SELECT " + "CASE WHEN a > 0 THEN " * depth + "a" + " END" * depth + " FROM t"
    if kind == "NOT":
        return "SELECT a FROM t WHERE " + "NOT " * depth + "a > 1"
    if kind == "subqueries":
        return "SELECT a FROM " + "(SELECT a FROM " * depth + "t" + ")" * depth
    if kind == "IN subqueries":
        return "SELECT a FROM t WHERE a IN " + "(SELECT a FROM t WHERE a IN " * depth + "(1)" + ")" * depth
    if kind == "unary minus":
        return "SELECT " + "- " * depth + "a FROM t"
    raise ValueError(kind)


KINDS = ("parentheses", "function calls", "CASE", "NOT", "subqueries", "IN subqueries", "unary minus")


@pytest.mark.parametrize("kind", KINDS)
def test_a_thousand_levels_parse(kind):
    tree = parse_sql(nested(kind, 1000))
    assert isinstance(tree, exp.Select)


@pytest.mark.parametrize("kind", KINDS)
def test_past_the_limit_is_nested_too_deeply_at_its_place(kind):
    error = error_of(nested(kind, MAX_NESTING + 1))
    assert "nested too deeply" in error.message and str(MAX_NESTING) in error.message
    assert error.line == 1 and error.column > 8


def test_the_limit_is_at_least_a_thousand_and_is_documented():
    import planner.parse
    assert MAX_NESTING >= 1000
    assert "`MAX_NESTING` levels (%s" % format(MAX_NESTING, ",") in planner.parse.__doc__


def test_operator_chains_have_no_limit():
    tree = parse_sql("SELECT a FROM t WHERE " + " AND ".join("a > %d" % i for i in range(8000)))
    assert len(list(tree.find_all(exp.GT))) == 8000
    parse_sql("SELECT " + " || ".join("a" for _ in range(8000)) + " FROM t")


def test_a_deeply_nested_query_plans_through_the_planner():
    planner = Planner()
    planner.plan("CREATE TABLE t (a INT) WITH ('connector' = 'datagen')")
    planner.plan(nested("parentheses", 1000))
    planner.plan(nested("function calls", 1000))


def test_the_deep_stack_restores_the_recursion_limit_and_passes_errors_on():
    before = sys.getrecursionlimit()
    assert deep_stack(lambda: sys.getrecursionlimit()) > before
    assert sys.getrecursionlimit() == before
    with pytest.raises(KeyError):
        deep_stack(lambda: {}["x"])
    assert deep_stack(lambda: deep_stack(lambda: 7)) == 7        # nested calls run in place


def test_the_collector_runs_less_often_only_while_a_statement_is_planned():
    before = gc.get_threshold()
    assert deep_stack(gc.get_threshold) == (max(before[0], 100_000),) + before[1:]
    assert gc.get_threshold() == before


def calls_to_parse(sql):
    """How many Python calls parsing `sql` makes: a measure of its work that no machine's load changes."""
    count = [0]

    def profile(frame, event, arg):
        if event == "call":
            count[0] += 1
    sys.setprofile(profile)
    try:
        from planner.parse import _parse
        _parse(sql, 1, 1)
    finally:
        sys.setprofile(None)
    return count[0]


@pytest.mark.parametrize("template", ["SELECT a FROM t WHERE {}", "SELECT b, COUNT(*) FROM t GROUP BY b HAVING {}"])
def test_parsing_work_is_linear_in_the_length_of_a_condition(template):
    def condition(n):
        return template.format(" AND ".join("COUNT(*) > %d" % i if "HAVING" in template else "a > %d" % i
                                            for i in range(n)))
    small, large = calls_to_parse(condition(800)), calls_to_parse(condition(8000))
    assert 9 < large / small < 11


# ---------------------------------------------------------------------- types written in a statement
def test_cast_types_get_flinks_limits():
    tree = parse_sql("SELECT CAST(a AS TIMESTAMP(99)), CAST(b AS DECIMAL(39, 2)), CAST(c AS TIME(9)), "
                     "CAST(d AS VARCHAR(0)), CAST(e AS ARRAY<DECIMAL(40, 2)>) FROM t")
    assert tree.sql() == ("SELECT CAST(a AS TIMESTAMP(9)), CAST(b AS DECIMAL(38, 2)), CAST(c AS TIME(3)), "
                          "CAST(d AS VARCHAR(0)), CAST(e AS ARRAY<DECIMAL(38, 2)>) FROM t")


@pytest.mark.parametrize("sql,message,column", [
    ("SELECT CAST(a AS DECIMAL(0)) FROM t", "Decimal precision must be between 1 and 38 (both inclusive).", 18),
    ("SELECT CAST(a AS DECIMAL(5, 6)) FROM t",
     "Decimal scale must be between 0 and the precision 5 (both inclusive).", 18),
    ("SELECT CAST(a AS TIMESTAMP(%s)) FROM t" % ("9" * 5000), "Numeric literal", 18),
    ("SELECT CAST(a AS VARCHAR(-1)) FROM t", 'Encountered "-"', 26),
    ("SELECT CAST(a AS TIMESTAMP(1.5)) FROM t", "must be a whole number, not '1.5'", 18),
])
def test_cast_types_flink_refuses(sql, message, column):
    error = error_of(sql)
    assert message in error.message and error.column == column


def test_sqlglot_warnings_stay_off_the_terminal(capsys):
    import planner.parse  # noqa: F401 -- importing the planner silences sqlglot's logger
    logging.getLogger("sqlglot").warning("INITCAP does not support custom delimiters")
    assert capsys.readouterr().err == ""
