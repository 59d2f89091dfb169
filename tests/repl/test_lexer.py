"""FlinkSqlLexer: the token types the shell colours."""

from pygments.token import Comment, Keyword, Name, Number, Operator, String

from repl.lexer import FlinkSqlLexer


def tokens(sql):
    return [(t, v) for t, v in FlinkSqlLexer().get_tokens(sql) if v.strip()]


def kinds(sql):
    return {v: t for t, v in tokens(sql)}


def test_plain_keywords_names_numbers_and_operators():
    k = kinds("SELECT price * 2.5, qty FROM orders WHERE qty >= 10")
    assert k["SELECT"] is Keyword and k["FROM"] is Keyword and k["WHERE"] is Keyword
    assert k["price"] is Name and k["orders"] is Name
    assert k["2.5"] is Number.Float and k["10"] is Number.Integer
    assert k["*"] is Operator and k[">="] is Operator


def test_keywords_are_case_insensitive():
    assert kinds("select x from t")["select"] is Keyword


def test_strings_with_doubled_quote_and_semicolon():
    toks = tokens("SELECT 'it''s; fine'")
    assert (String.Escape, "''") in toks
    assert all(t in String for t, v in toks[1:])


def test_backtick_identifiers():
    toks = tokens("SELECT `order time`, `a``b` FROM t")
    assert (Name.Quoted, "order time") in toks
    assert (Name.Quoted, "a") in toks and (Name.Quoted, "``") in toks


def test_comments():
    toks = tokens("SELECT 1 -- the answer; really\n/* a ; b\n c */ FROM t")
    assert (Comment.Single, "-- the answer; really") in toks
    assert any(t is Comment.Multiline and " a ; b" in v for t, v in toks)
    assert (Keyword, "FROM") in toks


def test_function_calls():
    assert kinds("SELECT upper(name), COUNT(*) FROM t")["upper"] is Name.Function


def test_match_recognize_vocabulary():
    sql = """SELECT * FROM Ticker MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY rowtime
        MEASURES FIRST(A.rowtime) AS start_t, MATCH_ROWTIME() AS mt, CLASSIFIER() AS c
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B+? C{2,}) WITHIN INTERVAL '1' HOUR
        SUBSET S = (A, B)
        DEFINE B AS B.price < PREV(B.price)
    ) AS T"""
    k = kinds(sql)
    for word in ("MATCH_RECOGNIZE", "MEASURES", "FIRST", "MATCH_ROWTIME", "CLASSIFIER", "PATTERN",
                 "WITHIN", "SUBSET", "DEFINE", "PREV", "ONE ROW PER MATCH",
                 "AFTER MATCH SKIP PAST LAST ROW"):
        assert k[word] is Keyword.Streaming, word
    assert k["+"] is Operator and k["?"] is Operator and k["{"] is Operator


def test_time_and_window_vocabulary():
    sql = """CREATE TABLE clicks (user_name STRING, ts TIMESTAMP(3), pt AS PROCTIME(),
                WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
                PRIMARY KEY (user_name) NOT ENFORCED) WITH ('connector' = 'datagen');
             SELECT * FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE));
             SELECT * FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '5' MINUTE));
             SELECT * FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '1' HOUR));
             SELECT * FROM TABLE(SESSION(TABLE clicks PARTITION BY user_name, DESCRIPTOR(ts), INTERVAL '1' MINUTE));
             SELECT * FROM orders o JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.c = r.c"""
    k = kinds(sql)
    for word in ("WATERMARK", "PROCTIME", "TUMBLE", "HOP", "CUMULATE", "SESSION", "DESCRIPTOR",
                 "FOR SYSTEM_TIME AS OF", "PRIMARY KEY (user_name) NOT ENFORCED"):
        assert k[word] is Keyword.Streaming, word
    assert k["STRING"] is Keyword.Type and k["TIMESTAMP"] is Keyword.Type


def test_the_whole_text_is_covered():
    sql = "SELECT a, 'x' AS b, X'0aff' FROM t WHERE c <> 1 /* c */ -- d\n;"
    assert "".join(v for _, v in FlinkSqlLexer().get_tokens(sql)).rstrip("\n") == sql
