"""Flink's reserved words as names (planner/reserved_words.py) and SIMILAR TO's translation (planner/bind/similar_to.py),
without Spark: the refusals Flink 2.3's parser gives (checked on Flink), and the words that stay keywords."""

import re

import pytest

from planner.expr.similar_to import similar_regex
from planner.ddl import parse_create_table
from planner.errors import SqlError
from planner.parse import parse_sql


@pytest.mark.parametrize("sql, word, column", [
    ("SELECT value FROM t", "value", 8),
    ("SELECT t.year FROM t", "year", 10),
    ("SELECT a AS max FROM t", "max", 13),
    ("SELECT a FROM t AS value", "value", 20),
    ("WITH value AS (SELECT a FROM t) SELECT * FROM value", "value", 6),
    ("SELECT a FROM t GROUP BY a, time", "time", 29),
])
def test_a_reserved_word_as_a_name_is_a_parse_error(sql, word, column):
    with pytest.raises(SqlError) as e:
        parse_sql(sql)
    assert 'Encountered "%s"' % word in e.value.message and "reserved word" in e.value.message
    assert (e.value.line, e.value.column) == (1, column)
    assert "`%s`" % word in e.value.hint


@pytest.mark.parametrize("sql", [
    "SELECT t.`value`, `year` AS `time` FROM t",
    "SELECT YEAR(ts), MAX(a), COUNT(*), user, CURRENT_TIMESTAMP, LOCALTIMESTAMP FROM t",
    "SELECT TIMESTAMPADD(DAY, 1, ts), TIMESTAMPDIFF(SECOND, ts, ts), EXTRACT(YEAR FROM ts), FLOOR(ts TO HOUR) FROM t",
    "SELECT CAST(a AS STRING), INTERVAL '1' SECOND FROM t ORDER BY a LIMIT 1",
    "SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE))",
    "SELECT a AS data, a AS name, a AS `key` FROM t",
])
def test_keywords_and_quoted_names_parse(sql):
    parse_sql(sql)


def test_create_table_columns():
    with pytest.raises(SqlError) as e:
        parse_create_table("CREATE TABLE x (a INT,\n  timestamp TIMESTAMP(3)) WITH ('connector' = 'datagen')")
    assert "TIMESTAMP is a reserved word" in e.value.message and (e.value.line, e.value.column) == (2, 3)
    parse_create_table("CREATE TABLE x (a INT, `timestamp` TIMESTAMP(3)) WITH ('connector' = 'datagen')")


@pytest.mark.parametrize("pattern, escape, matches, misses", [
    ("a(b|x|_)b", None, ["abb", "axb", "a_b", "a.b"], ["ab", "axxb"]),
    ("a[a-c]+", None, ["abc", "aa"], ["a", "abd"]),
    ("a%", None, ["a", "a.b%"], ["ba"]),
    ("a.b$", None, ["a.b$"], ["axb", "a.b"]),
    ("a!_b", "!", ["a_b"], ["axb"]),
    ("a{2}b?", None, ["aa", "aab"], ["a", "aaa"]),
])
def test_similar_to_as_a_java_regex(pattern, escape, matches, misses):
    regex = similar_regex(pattern, escape)
    for s in matches:
        assert re.search(regex, s), (pattern, s, regex)
    for s in misses:
        assert not re.search(regex, s), (pattern, s, regex)
