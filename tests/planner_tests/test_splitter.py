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


def test_flink_quoting_a_backslash_escapes_nothing():
    assert texts("SELECT '\\'; SELECT 1;") == ["SELECT '\\'", "SELECT 1"]
    assert texts('SELECT "a;b" FROM t; SELECT 2;') == ['SELECT "a;b" FROM t', "SELECT 2"]


def test_an_unclosed_quote_or_comment_takes_the_rest():
    stmts = split("SELECT 1; SELECT 'abc; SELECT 2;")
    assert [(s.text, s.complete) for s in stmts] == [("SELECT 1", True), ("SELECT 'abc; SELECT 2;", False)]
    assert texts("/* only a comment; SELECT 1;") == []
    assert not is_complete("SELECT `a;")


def test_many_statements_keep_their_lines_and_a_huge_one_splits():
    text = "".join("SELECT %d;\n" % i for i in range(20000))
    stmts = split(text)
    assert len(stmts) == 20000 and (stmts[-1].line, stmts[-1].column) == (20000, 1)
    huge = "SELECT a FROM t WHERE " + " AND ".join("a > %d" % i for i in range(80000)) + ";"
    assert [s.text for s in split(huge)] == [huge[:-1]]
