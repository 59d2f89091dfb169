"""Catalogs, statement sets, CREATE TABLE AS and SET as the planner answers them (no Spark): what a persistent
catalog writes and reads back (tables, views, functions), which statements a job process must replay, the
interactive statement set, and what SET says of each kind of key."""

import json
import os

import pytest

from planner import plans
from planner.catalog import FunctionDef
from planner.errors import DynsqlError
from planner.planner import Planner
from planner.settings import Settings
from repl.views.table_view import MaterializedTable


def test_a_persistent_catalog_keeps_tables_views_and_functions(tmp_path):
    folder = tmp_path / "cat"
    p = Planner()
    create = "CREATE CATALOG mine WITH ('type' = 'dynsql', 'path' = '%s')" % folder
    assert p.plan(create).replay                    # a job re-creates the catalog: it reads the folder
    made = p.plan("CREATE TABLE mine.`default`.t (a INT, pw STRING) WITH ('connector' = 'datagen')")
    assert not made.replay                          # the folder has it: a job must not create it again
    p.plan("CREATE VIEW mine.`default`.v AS SELECT a + 1 AS b FROM mine.`default`.t")
    p.catalog.add_function(FunctionDef("plus_one", "udfs.plus_one"), path="mine.default.plus_one")
    p.catalog.add_function(FunctionDef("scratch", "udfs.x", temporary=True), path="mine.default.scratch")
    assert p.plan("USE CATALOG mine").replay
    assert sorted(os.listdir(folder / "default")) == ["plus_one.function.json", "t.table.json", "v.view.json"]
    assert json.loads((folder / "default" / "plus_one.function.json").read_text())["identifier"] == "udfs.plus_one"

    again = Planner()
    again.plan(create)
    again.plan("USE CATALOG mine")
    assert again.plan("SHOW TABLES").rows == [("t",), ("v",)]
    assert [f.name for f in again.catalog.functions().values()] == ["plus_one"]
    assert again.catalog.get_function("mine.default.plus_one").identifier == "udfs.plus_one"
    assert again.plan("SHOW USER FUNCTIONS").rows == [("plus_one",)]
    assert [f.name for f in again.plan("SELECT b FROM v").query.fields] == ["b"]
    again.catalog.drop_function("plus_one")
    again.plan("DROP TABLE IF EXISTS nothing")
    assert not again.plan("ALTER TABLE t RENAME TO t2").replay
    assert sorted(os.listdir(folder / "default")) == ["t2.table.json", "v.view.json"]
    with pytest.raises(DynsqlError, match="Function mine.default.plus_one does not exist."):
        again.catalog.drop_function("plus_one")


def test_the_statement_set_typed_statement_by_statement():
    p = Planner()
    p.plan("CREATE TABLE src (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')")
    p.plan("CREATE TABLE out1 (a INT) WITH ('connector' = 'blackhole')")
    with pytest.raises(DynsqlError, match='No Statement Set to submit, "END;" command should be used after'):
        p.plan("END")
    begin = p.plan("BEGIN STATEMENT SET")
    assert begin.text == "[INFO] Begin a statement set." and not begin.replay
    added = p.plan("INSERT INTO out1 SELECT a FROM src")
    assert added.text == "[INFO] Add SQL update statement to the statement set." and not added.replay
    with pytest.raises(DynsqlError, match="Only INSERT statement is allowed in Statement Set."):
        p.plan("SELECT 1")
    p.plan("INSERT INTO out1 SELECT a * 2 FROM src")
    job = p.plan("END")
    assert isinstance(job, plans.StatementSetRun) and len(job.inserts) == 2
    assert p.plan("BEGIN STATEMENT SET") and p.plan("END").text == \
        "[INFO] No statement in the statement set, skip submit."


def test_create_table_as_makes_the_table_and_its_insert():
    p = Planner()
    p.plan("CREATE TABLE src (a INT NOT NULL, b STRING) WITH ('connector' = 'datagen')")
    run = p.plan("CREATE TABLE copy WITH ('connector' = 'blackhole') AS SELECT a, UPPER(b) AS ub FROM src")
    assert isinstance(run, plans.InsertRun) and run.target.name == "copy"
    assert run.text == "INSERT INTO `default_catalog`.`default_database`.`copy` SELECT a, UPPER(b) AS ub FROM src"
    assert [(r[0], r[1]) for r in p.plan("DESCRIBE copy").rows] == [("a", "INT"), ("ub", "STRING")]
    job_side = Planner()            # a job process: the table's DDL, then the INSERT
    job_side.plan("CREATE TABLE src (a INT NOT NULL, b STRING) WITH ('connector' = 'datagen')")
    job_side.plan(run.table_ddl)
    assert isinstance(job_side.plan(run.text), plans.InsertRun)
    with pytest.raises(DynsqlError, match="Table \\(or view\\) default_database.copy already exists"):
        p.plan("CREATE TABLE copy WITH ('connector' = 'blackhole') AS SELECT a FROM src")


@pytest.mark.parametrize("key, value, outcome", [
    ("pipeline.name", "nightly", None),                                  # honoured: the job's name
    ("sql-client.execution.max-table-result.rows", "100", None),          # honoured: the table view keeps 100
    ("sql-client.display.max-column-width", "12", None),                  # Flink's old name of the width
    ("table.exec.mini-batch.enabled", "true", "[WARNING] 'table.exec.mini-batch.enabled' is a Flink option that "
                                              "has no effect in dynsql: a streaming query already runs as Spark "
                                              "micro-batches."),
    ("table.optimizer.join-reorder-enabled", "true", "Spark's optimizer plans the query"),
    ("parallelism.default", "4", "Spark's parallelism is its cores and spark.sql.shuffle.partitions"),
    ("table.exec.state.tll", "1 h", "Unknown configuration key 'table.exec.state.tll'"),
    ("table.bogus", "1", "Unknown configuration key 'table.bogus'"),
    ("sql-client.execution.max-table-result.rows", "0", "a positive whole number"),
])
def test_every_set_key_is_honoured_warned_about_or_refused(key, value, outcome):
    p = Planner()
    statement = "SET '%s' = '%s'" % (key, value)
    if outcome is not None and not outcome.startswith("["):
        if "Unknown" in outcome or "positive" in outcome:
            with pytest.raises(DynsqlError) as refused:
                p.plan(statement)
            assert outcome in refused.value.message
            if key == "table.exec.state.tll":
                assert "did you mean 'table.exec.state.ttl'" in refused.value.hint
            return
    text = p.plan(statement).text
    assert text.endswith("[INFO] Execute statement succeeded.")
    if outcome is None:
        assert "WARNING" not in text and p.settings.get(key) == value
    else:
        assert text.startswith("[WARNING]") and outcome in text


def test_the_old_width_key_sets_the_width():
    s = Settings()
    s.set("sql-client.display.max-column-width", "12")
    assert s.get("table.display.max-column-width") == "12"


def test_the_table_view_keeps_at_most_max_rows_dropping_the_oldest():
    table = MaterializedTable(max_rows=2).apply_all([("+I", (1,)), ("+I", (2,)), ("+I", (3,)), ("-U", (3,)),
                                                      ("+U", (30,)), ("+I", (4,))])
    assert table.rows == [(30,), (4,)] and table.dropped_rows == 2


def test_a_views_names_resolve_where_it_was_made(tmp_path):
    p = Planner()
    p.plan("CREATE CATALOG mine WITH ('type' = 'dynsql', 'path' = '%s')" % (tmp_path / "cat"))
    p.plan("USE CATALOG mine")
    p.plan("CREATE TABLE fruit (id INT) WITH ('connector' = 'datagen')")
    p.plan("CREATE VIEW ids AS SELECT id FROM fruit")
    p.plan("USE CATALOG default_catalog")
    p.plan("CREATE TABLE fruit (other STRING) WITH ('connector' = 'datagen')")     # same name, other table
    assert [f.name for f in p.plan("SELECT * FROM mine.`default`.ids").query.fields] == ["id"]
    assert p.catalog.current_catalog == "default_catalog"
