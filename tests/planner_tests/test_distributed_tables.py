"""CREATE TABLE ... DISTRIBUTED BY / INTO (Flink 2.x's bucketing) as Flink 2.3 takes it, through the planner (no
Spark): the clause is kept and shown by SHOW CREATE TABLE in Flink's words, LIKE carries it over (EXCLUDING
DISTRIBUTION drops it; EXCLUDING ALL does not, as in Flink 2.3), and a write into such a table, INSERT INTO or CREATE
TABLE AS SELECT, is refused with Flink's message: none of Flink's sinks, nor dynsql's, bucket rows.
Every expected text was recorded on Flink 2.3 (PyFlink's TableEnvironment). tests/sql/distributed_tables.sqltest
reads such a table's rows."""

import pytest

from planner.errors import SqlError
from planner.planner import Planner

WITH = "WITH ('connector' = 'filesystem', 'path' = '/data/%s.csv', 'format' = 'csv')"


@pytest.fixture
def planner():
    p = Planner()
    p.plan("CREATE TABLE src (k INT, v STRING) " + WITH % "src")
    p.plan("CREATE TABLE t (k INT, v STRING) DISTRIBUTED BY HASH(k) INTO 4 BUCKETS " + WITH % "t")
    return p


def show(planner, name):
    return planner.plan("SHOW CREATE TABLE " + name).rows[0][0]


@pytest.mark.parametrize("clause,shown", [
    ("DISTRIBUTED BY HASH(k) INTO 4 BUCKETS", "DISTRIBUTED BY HASH(`k`) INTO 4 BUCKETS"),
    ("DISTRIBUTED BY (k)", "DISTRIBUTED BY (`k`)"),
    ("DISTRIBUTED BY RANGE(k) INTO 3 BUCKETS", "DISTRIBUTED BY RANGE(`k`) INTO 3 BUCKETS"),
    ("DISTRIBUTED INTO 3 BUCKETS", "DISTRIBUTED INTO 3 BUCKETS"),
    ("DISTRIBUTED BY HASH(k) INTO 4 BUCKETS PARTITIONED BY (v)", "DISTRIBUTED BY HASH(`k`) INTO 4 BUCKETS\n"
                                                                 "PARTITIONED BY (`v`)"),
])
def test_the_clause_is_kept_and_shown_as_flink_shows_it(clause, shown):
    p = Planner()
    p.plan("CREATE TABLE d (k INT, v STRING) COMMENT 'c' %s %s" % (clause, WITH % "d"))
    text = show(p, "d")
    assert ")\n" + shown + " WITH (" in text
    again = Planner()               # SHOW CREATE TABLE's text creates the same table
    again.plan(text)
    assert show(again, "d") == text


@pytest.mark.parametrize("statement,fragment", [
    ("CREATE TABLE d (k INT, v STRING) DISTRIBUTED BY HASH(x) INTO 4 BUCKETS " + WITH % "d",
     "Invalid bucket key 'x'. A bucket key for a distribution must reference a physical column in the schema. "
     "Available columns are: [k, v]"),
    ("CREATE TABLE d (k INT, v STRING, c AS k + 1) DISTRIBUTED BY HASH(c) INTO 3 BUCKETS " + WITH % "d",
     "Invalid bucket key 'c'. A bucket key for a distribution must reference a physical column in the schema. "
     "Available columns are: [k, v]"),
    ("CREATE TABLE d (k INT, v STRING) DISTRIBUTED INTO 0 BUCKETS " + WITH % "d",
     "Invalid bucket count '0'. The number of buckets for a distributed table must be at least 1."),
    ("CREATE TABLE d (k INT, v STRING) PARTITIONED BY (v) DISTRIBUTED BY HASH(k) INTO 4 BUCKETS " + WITH % "d",
     "Unexpected 'DISTRIBUTED' after the table definition"),
    ("CREATE TABLE d (k INT) DISTRIBUTED HASH(k) " + WITH % "d", "Expected BY or INTO after DISTRIBUTED"),
    ("CREATE TABLE d (k INT) DISTRIBUTED INTO 4 " + WITH % "d", "Expected BUCKETS after INTO 4"),
    ("CREATE TABLE l (x INT) DISTRIBUTED BY HASH(x) INTO 2 BUCKETS LIKE t",
     "The base table already has a distribution defined. You might want to specify EXCLUDING DISTRIBUTION."),
    ("CREATE TABLE l (x INT) DISTRIBUTED BY HASH(x) INTO 2 BUCKETS LIKE t (OVERWRITING DISTRIBUTION)",
     "Illegal merging strategy 'OVERWRITING' for 'DISTRIBUTION' option."),
    ("INSERT INTO t SELECT * FROM src",
     "Table 'default_catalog.default_database.t' is distributed into buckets, but the underlying DynamicTableSink "
     "doesn't implement the SupportsBucketing interface."),
    ("CREATE TABLE t2 DISTRIBUTED BY HASH(k) INTO 2 BUCKETS " + WITH % "t2" + " AS SELECT * FROM src",
     "Table 'default_catalog.default_database.t2' is distributed into buckets, but the underlying DynamicTableSink "
     "doesn't implement the SupportsBucketing interface."),
])
def test_what_flink_refuses_is_refused_in_its_words(planner, statement, fragment):
    with pytest.raises(SqlError) as e:
        planner.plan(statement)
    assert fragment in e.value.message


def test_a_refused_ctas_makes_no_table(planner):
    with pytest.raises(SqlError):
        planner.plan("CREATE TABLE t2 DISTRIBUTED INTO 2 BUCKETS " + WITH % "t2" + " AS SELECT * FROM src")
    with pytest.raises(SqlError, match="t2"):
        planner.plan("SHOW CREATE TABLE t2")


def test_like_carries_the_distribution_over(planner):
    planner.plan("CREATE TABLE l1 (x INT) LIKE t")
    assert "DISTRIBUTED BY HASH(`k`) INTO 4 BUCKETS" in show(planner, "l1")
    planner.plan("CREATE TABLE l2 (x INT) DISTRIBUTED BY HASH(x) INTO 2 BUCKETS LIKE t (EXCLUDING DISTRIBUTION)")
    assert "DISTRIBUTED BY HASH(`x`) INTO 2 BUCKETS" in show(planner, "l2")
    planner.plan("CREATE TABLE l3 WITH ('connector' = 'blackhole') LIKE t (EXCLUDING ALL)")
    assert "DISTRIBUTED BY HASH(`k`) INTO 4 BUCKETS" in show(planner, "l3")
    planner.plan("CREATE TABLE l4 WITH ('connector' = 'blackhole') LIKE t (EXCLUDING ALL EXCLUDING DISTRIBUTION)")
    assert "DISTRIBUTED" not in show(planner, "l4")
