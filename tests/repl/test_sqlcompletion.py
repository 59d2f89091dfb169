"""suggest_type: what may come at the cursor, from the text alone."""

import pytest

from repl.sqlcompletion import (Column, Function, Keyword, SetKey, SetValue, Table, TableRef,
                                suggest_type)


def suggest(full, cursor_marker="|"):
    """`full` with `|` where the cursor is."""
    before, _, after = full.partition(cursor_marker)
    return suggest_type(before + after, before)


def kinds(suggestions):
    return [type(s) for s in suggestions]


def test_start_of_input_suggests_statement_keywords():
    assert suggest("|") == (Keyword(None),)
    assert suggest("sel|") == (Keyword(None),)
    assert suggest("SELECT 1; sh|") == (Keyword(None),)


def test_after_from_and_join_suggests_tables():
    assert suggest("SELECT * FROM |") == (Table(),)
    assert suggest("SELECT * FROM ord|") == (Table(),)
    assert suggest("SELECT * FROM a JOIN |") == (Table(),)
    assert suggest("SELECT * FROM a, |") == (Table(),)
    assert suggest("INSERT INTO |") == (Table(),)
    assert suggest("DESCRIBE |") == (Table(),)
    assert suggest("DROP TABLE |") == (Table(),)
    assert suggest("SHOW CREATE TABLE |") == (Table(),)


def test_select_list_suggests_columns_of_the_tables_named_later():
    s = suggest("SELECT | FROM orders o JOIN rates r ON o.currency = r.currency")
    column = s[0]
    assert isinstance(column, Column)
    assert column.tables == (TableRef("orders", "o"), TableRef("rates", "r"))
    assert kinds(s) == [Column, Function, Keyword]


def test_qualified_name_suggests_only_that_tables_columns():
    s = suggest("SELECT o.| FROM orders AS o, rates r")
    assert s == (Column(tables=(TableRef("orders", "o"),), qualifier="o"),)
    s = suggest("SELECT r.cur| FROM orders AS o, rates r")
    assert s[0].tables == (TableRef("rates", "r"),)


def test_temporal_join_alias_after_for_system_time_as_of():
    s = suggest("SELECT * FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON r.|")
    assert s == (Column(tables=(TableRef("rates", "r"),), qualifier="r"),)


@pytest.mark.parametrize("text", [
    "SELECT * FROM t WHERE |",
    "SELECT * FROM t WHERE a = 1 AND |",
    "SELECT a FROM t GROUP BY |",
    "SELECT a FROM t ORDER BY a, |",
    "SELECT upper(|) FROM t",
    "SELECT * FROM t WHERE a > |",
    "SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY |",
    "SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY s ORDER BY r MEASURES |",
    "SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY s ORDER BY r PATTERN (A) DEFINE A AS |",
])
def test_expression_positions_suggest_columns_and_functions(text):
    s = suggest(text)
    assert kinds(s)[:2] == [Column, Function]


def test_window_tvf():
    assert suggest("SELECT * FROM TABLE(|") == (Function(),)
    s = suggest("SELECT * FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(|")
    assert s == (Column(tables=(TableRef("clicks"),)),)
    s = suggest("SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), "
                "INTERVAL '1' MINUTE)) GROUP BY |")
    assert s[0].window_columns and s[0].tables == (TableRef("clicks"),)


def test_after_a_name_suggests_keywords():
    assert suggest("SELECT a |") == (Keyword("A"),)
    assert suggest("SELECT * FROM t |") == (Keyword("T"),)


def test_alias_position_suggests_nothing():
    assert suggest("SELECT a AS | FROM t") == ()


def test_create_view_as_expects_a_query():
    assert suggest("CREATE VIEW v AS |") == (Keyword("AS"),)


def test_set_keys_and_values():
    assert suggest("SET |") == (SetKey(),)
    assert suggest("SET 'sql-cl|") == (SetKey(quoted=True),)
    assert suggest("RESET |") == (SetKey(),)
    key = "sql-client.execution.result-mode"
    assert suggest("SET '%s' = |" % key) == (SetValue(key),)
    assert suggest("SET '%s' = 'ta|" % key) == (SetValue(key, quoted=True),)


def test_nothing_inside_strings_and_comments():
    assert suggest("SELECT 'abc|") == ()
    assert suggest("SELECT 1 -- comment |") == ()
    assert suggest("SELECT /* open |") == ()


def test_only_the_statement_under_the_cursor_counts():
    s = suggest("SELECT * FROM a; SELECT | FROM b; SELECT * FROM c")
    assert s[0].tables == (TableRef("b"),)


def test_semicolon_in_string_does_not_split():
    s = suggest("SELECT ';', | FROM b")
    assert s[0].tables == (TableRef("b"),)


def test_backtick_names():
    s = suggest("SELECT `o`.| FROM `my orders` AS `o`")
    assert s == (Column(tables=(TableRef("my orders", "o"),), qualifier="o"),)
