"""The job statements as the planner reads them (no Spark): EXECUTE STATEMENT SET (one statement to the
splitter, its INSERTs planned with their positions), EXECUTE INSERT, INSERT INTO t (columns), INSERT
OVERWRITE in streaming mode, STOP JOB [WITH SAVEPOINT], and the job settings."""

import pytest

from planner import plans
from planner.errors import DynsqlError
from planner.planner import Planner
from planner.splitter import split


@pytest.fixture
def planner():
    p = Planner()
    p.plan("CREATE TABLE src (a INT, b STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3')")
    p.plan("CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'blackhole')")
    return p


def test_a_statement_set_is_one_statement_and_one_plan(planner):
    text = """SET 'a.b' = 'c';
EXECUTE STATEMENT SET
BEGIN
  INSERT INTO t SELECT a, ';' FROM src; -- a comment; with semicolons
  INSERT INTO t (b, a) SELECT b, a FROM src;
END;
SELECT 1;"""
    stmts = split(text)
    assert [s.text.split()[0] for s in stmts] == ["SET", "EXECUTE", "SELECT"]
    plan = planner.plan(stmts[1])
    assert isinstance(plan, plans.StatementSetRun) and len(plan.inserts) == 2
    assert plan.inserts[1].target_columns == ["b", "a"]
    assert not split("EXECUTE STATEMENT SET BEGIN INSERT INTO t SELECT a, b FROM src;")[0].complete


def test_statement_set_errors_name_the_statement_and_its_position(planner):
    with pytest.raises(DynsqlError) as e:
        planner.plan("EXECUTE STATEMENT SET BEGIN SELECT 1; END")
    assert "INSERT INTO statements only" in e.value.message and (e.value.line, e.value.column) == (1, 29)
    with pytest.raises(DynsqlError, match="at least one INSERT"):
        planner.plan("EXECUTE STATEMENT SET BEGIN END")
    with pytest.raises(DynsqlError) as e:
        planner.plan("EXECUTE STATEMENT SET BEGIN\n  INSERT INTO nope SELECT a, b FROM src;\nEND")
    assert e.value.line == 2


def test_insert_forms(planner):
    assert isinstance(planner.plan("EXECUTE INSERT INTO t SELECT a, b FROM src"), plans.InsertRun)
    assert planner.plan("INSERT INTO t (SELECT a, b FROM src)").target_columns is None
    with pytest.raises(DynsqlError, match="Unknown target column 'q'"):
        planner.plan("INSERT INTO t (q) SELECT a FROM src")
    with pytest.raises(DynsqlError, match="Streaming mode not support overwrite"):
        planner.plan("INSERT OVERWRITE t SELECT a, b FROM src")
    planner.plan("SET 'execution.runtime-mode' = 'batch'")
    assert planner.plan("INSERT OVERWRITE t SELECT a, b FROM src").overwrite


def test_stop_job_and_job_settings(planner):
    assert planner.plan("STOP JOB 'ab12' WITH SAVEPOINT") == plans.StopJob("ab12", savepoint=True, drain=False)
    assert planner.plan("STOP JOB 'ab12'") == plans.StopJob("ab12")
    with pytest.raises(DynsqlError, match="WITH SAVEPOINT"):
        planner.plan("STOP JOB ab12")
    planner.plan("SET 'table.dml-sync' = 'TRUE'")
    planner.plan("SET 'execution.savepoint.path' = '/tmp/x'")
    planner.plan("SET 'dynsql.jobs.dir' = '~/jobs'")
    s = planner.settings
    assert s.dml_sync and s.savepoint_path == "/tmp/x" and s.jobs_dir.endswith("/jobs") and "~" not in s.jobs_dir
    with pytest.raises(DynsqlError):
        planner.plan("SET 'table.dml-sync' = 'maybe'")


def test_a_filesystem_sink_refuses_an_updating_query_with_or_without_a_column_list(planner):
    from runtime.sinks import check_insert
    planner.plan("CREATE TABLE counts (b STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = '/tmp/counts', "
                 "'format' = 'csv')")
    refusal = ("Table sink 'default_catalog.default_database.counts' doesn't support consuming update changes which "
               "is produced by node GroupAggregate(groupBy=[b], select=[b, COUNT(*) AS EXPR$1])")
    with pytest.raises(DynsqlError) as e:
        planner.plan("INSERT INTO counts SELECT b, COUNT(*) FROM src GROUP BY b")
    assert e.value.message == refusal
    with pytest.raises(DynsqlError) as e:           # with a column list the sink's check says it, before a job starts
        check_insert(planner.plan("INSERT INTO counts (b, n) SELECT b, COUNT(*) FROM src GROUP BY b"))
    assert e.value.message == refusal and e.value.hint == "a filesystem sink takes insert-only queries"
    check_insert(planner.plan("INSERT INTO counts (b, n) SELECT b, a FROM src"))
