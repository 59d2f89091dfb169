"""Statement splitting: a `;` inside a string, a quoted identifier or a comment does not end a statement."""

from planner.splitter import is_complete, split


def texts(sql):
    return [s.text for s in split(sql)]


def test_semicolon_in_a_string():
    assert texts("select ';' ;") == ["select ';'"]


def test_semicolon_in_a_block_comment():
    assert texts("select /*;*/ 1;") == ["select /*;*/ 1"]


def test_semicolon_in_a_line_comment():
    assert texts("select -- ;\n1;") == ["select -- ;\n1"]


def test_semicolon_in_a_quoted_identifier_and_escaped_quote():
    assert texts("select `a;b` from t; select 'it''s;' ;") == ["select `a;b` from t", "select 'it''s;'"]


def test_several_statements_with_positions():
    stmts = split("SET 'a.b' = 'c';\n  SELECT 1;\n\nSELECT\n  2;")
    assert [(s.text, s.line, s.column) for s in stmts] == [
        ("SET 'a.b' = 'c'", 1, 1), ("SELECT 1", 2, 3), ("SELECT\n  2", 4, 1)]
    assert all(s.complete for s in stmts)


def test_trailing_statement_without_semicolon_is_incomplete():
    stmts = split("SELECT 1; SELECT 2")
    assert [s.complete for s in stmts] == [True, False]


def test_empty_statements_and_comments_only():
    assert texts(";;  -- nothing\n;") == []


def test_is_complete():
    assert is_complete("SELECT 1;")
    assert is_complete("quit")
    assert not is_complete("SELECT ';")
    assert not is_complete("SELECT 1")
    assert not is_complete("SELECT /* ; */ 1")
    assert not is_complete("")
