"""CREATE / DROP / SHOW of Python functions and the binding of their calls, in the planner alone (no Spark):
what each statement does to the catalog, the plan a call makes, and every refusal with its words and place.
(Running them: tests/sql/python_functions.sqltest, tests/test_python_functions.py.)"""

import os

import pytest

from planner.errors import DynsqlError
from planner.planner import Planner
from planner.python_functions import in_catalog
from planner.python_functions.definition import PythonFunction

SAMPLE_UDFS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python_udfs",
                           "sample_udfs.py")


@pytest.fixture
def planner():
    p = Planner()
    for statement in ("SET 'python.files' = '%s'" % SAMPLE_UDFS,
                      "CREATE TABLE t (a BIGINT, s STRING, i INT) WITH ('connector' = 'datagen')",
                      "CREATE FUNCTION add AS 'sample_udfs.add' LANGUAGE PYTHON",
                      "CREATE TEMPORARY FUNCTION split_words AS 'sample_udfs.split_words' LANGUAGE PYTHON",
                      "CREATE TEMPORARY SYSTEM FUNCTION Shout AS 'sample_udfs.shout' LANGUAGE PYTHON"):
        p.plan(statement)
    return p


def error_of(planner, statement):
    with pytest.raises(DynsqlError) as e:
        planner.plan(statement)
    return e.value.render()


def test_calls_are_typed_cast_to_the_declared_inputs_and_explained_by_their_names(planner):
    plan = planner.plan("EXPLAIN CHANGELOG_MODE SELECT ADD(a, i) AS x, shout(s) FROM t, "
                        "LATERAL TABLE(split_words(s)) AS w(word, n) WHERE add(a, 1) > 3")
    query = plan.query
    assert [f.type_text() for f in query.fields] == ["BIGINT", "STRING"]
    assert sorted(f.name for f in query.python_functions) == ["Shout", "add", "split_words"]
    assert query.explain() == [
        "Sink(table=[*anonymous_collect*], fields=[x, EXPR$1], changelogMode=[I])",
        "+- Calc(select=[ADD(a, CAST(i AS BIGINT)) AS x, SHOUT(s) AS EXPR$1], where=[ADD(a, CAST(1 AS BIGINT)) > 3], "
        "changelogMode=[I])",
        "   +- Correlate(invocation=[$UNNEST_ROWS$1(SPLIT_WORDS(s))], correlate=[table($UNNEST_ROWS$1("
        "SPLIT_WORDS(s)))], select=[a, s, i, word, n], joinType=[INNER], changelogMode=[I])",
        "      +- TableSourceScan(table=[[default_catalog, default_database, t]], fields=[a, s, i], changelogMode=[I])"]


def test_show_drop_and_if_not_exists(planner):
    assert planner.plan("SHOW USER FUNCTIONS").rows == [("Shout",), ("add",), ("split_words",)]
    names = [r[0] for r in planner.plan("SHOW FUNCTIONS").rows]
    assert "add" in names and "UPPER" in names
    planner.plan("CREATE FUNCTION IF NOT EXISTS add AS 'sample_udfs.shout' LANGUAGE PYTHON")
    assert in_catalog.find(planner.catalog, "add").function == "add"
    planner.plan("DROP TEMPORARY FUNCTION split_words")
    planner.plan("DROP TEMPORARY FUNCTION IF EXISTS split_words")
    assert planner.plan("SHOW USER FUNCTIONS").rows == [("Shout",), ("add",)]
    assert "No table function 'split_words' found" in error_of(planner,
                                                               "SELECT * FROM t, LATERAL TABLE(split_words(s))")


def test_describe_function(planner):
    assert planner.plan("DESCRIBE FUNCTION add").rows == [
        ("is system function", "false"), ("is temporary", "false"), ("class name", "sample_udfs.add"),
        ("function language", "PYTHON"), ("resource uris", "[]")]
    assert planner.plan("DESC FUNCTION EXTENDED split_words").rows[5:] == [
        ("kind", "TABLE"), ("requirements", "[]"), ("is deterministic", "true"), ("supports constant folding", "false"),
        ("signature", "split_words(*) -> ARRAY<ROW<`word` STRING, `length` INT>>")]
    assert "Function 'nope' does not exist" in error_of(planner, "DESCRIBE FUNCTION nope")


def test_a_definition_is_a_record_that_round_trips(planner):
    fn = in_catalog.find(planner.catalog, "split_words")
    assert PythonFunction.from_dict(fn.to_dict()) == fn
    assert fn.to_dict() == {"name": "split_words", "module": "sample_udfs", "function": "split_words",
                            "kind": "table", "result_types": ("STRING", "INT"), "input_types": None,
                            "func_type": "general", "result_names": ("word", "length"), "temporary": True,
                            "system": False, "accumulator_type": None, "merges": False}


def test_a_module_edited_since_is_imported_again_at_create(tmp_path):
    module = tmp_path / "edited_udfs.py"
    module.write_text("from dynsql.udf import udf\n@udf(result_type='INT')\ndef f(x):\n    return x\n")
    p = Planner()
    p.plan("SET 'python.files' = '%s'" % module)
    p.plan("CREATE FUNCTION f AS 'edited_udfs.f' LANGUAGE PYTHON")
    assert in_catalog.find(p.catalog, "f").result_types == ("INT",)
    module.write_text("from dynsql.udf import udf\n@udf(result_type='STRING')\ndef f(x):\n    return x\n")
    os.utime(module, (1, 1))                      # another modification time, however fast the test runs
    p.plan("DROP FUNCTION f")
    p.plan("CREATE FUNCTION f AS 'edited_udfs.f' LANGUAGE PYTHON")
    assert in_catalog.find(p.catalog, "f").result_types == ("STRING",)


@pytest.mark.parametrize("statement, message", [
    ("CREATE FUNCTION add AS 'sample_udfs.add' LANGUAGE PYTHON",
     "Function default_database.add already exists in Catalog default_catalog. (at line 1, column 1)"),
    ("CREATE TEMPORARY SYSTEM FUNCTION shout AS 'sample_udfs.shout' LANGUAGE PYTHON",
     "Could not register temporary system function. A function named 'shout' does already exist."),
    ("CREATE SYSTEM FUNCTION f AS 'sample_udfs.add' LANGUAGE PYTHON", "CREATE SYSTEM FUNCTION is not supported"),
    ("CREATE FUNCTION f AS 'sample_udfs.add'", "LANGUAGE JAVA is not supported by dynsql"),
    ("CREATE FUNCTION f AS 'add' LANGUAGE PYTHON", "expected 'module.function'"),
    ("CREATE FUNCTION f AS 'no_such_module.f' LANGUAGE PYTHON", "module 'no_such_module' not found"),
    ("CREATE FUNCTION f AS 'sample_udfs.nope' LANGUAGE PYTHON", "module 'sample_udfs' has no function 'nope'"),
    ("CREATE FUNCTION f AS 'sample_udfs.undeclared' LANGUAGE PYTHON", "is not declared as a user-defined function"),
    ("DROP FUNCTION shout", "'shout' is a temporary system function: DROP TEMPORARY SYSTEM FUNCTION shout"),
    ("DROP TEMPORARY FUNCTION nope", "Temporary catalog function `default_catalog`.`default_database`.`nope` "
                                     "doesn't exist"),
    ("SELECT add(s, a) FROM t", "Invalid function call:\nadd(STRING, BIGINT)\nPython function 'add' "
                                "(sample_udfs.add) takes (BIGINT, BIGINT) (at line 1, column 8)"),
    ("SELECT a,\n  add(a) FROM t", "Invalid number of arguments to function 'add'. Was expecting 2 arguments, got 1 "
                                   "(at line 2, column 3)"),
    ("SELECT add() FROM t", "Python function 'add' is called without arguments"),
    ("SELECT split_words(s) FROM t", "Table function 'split_words' can only be called in FROM"),
    ("SELECT * FROM t, LATERAL TABLE(add(a, a))", "'add' is a scalar function, not a table function"),
    ("SELECT * FROM t, LATERAL t", "LATERAL is supported as LATERAL TABLE(<table function>(...)) only"),
])
def test_refusals(planner, statement, message):
    assert message in error_of(planner, statement)


@pytest.fixture
def aggregating(planner):
    planner.plan("CREATE TABLE w (k STRING, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
                 "WITH ('connector' = 'datagen')")
    planner.plan("CREATE FUNCTION total AS 'sample_udfs.total' LANGUAGE PYTHON")
    planner.plan("CREATE TEMPORARY FUNCTION middle AS 'sample_udfs.middle' LANGUAGE PYTHON")
    return planner


def test_aggregate_functions_plan_as_aggregate_calls_where_flink_runs_them(aggregating):
    p = aggregating
    assert ("kind", "AGGREGATE") in p.plan("DESCRIBE FUNCTION EXTENDED total").rows
    plan = p.plan("EXPLAIN CHANGELOG_MODE SELECT k, total(i) AS t, COUNT(*) AS n FROM t, w GROUP BY k").query
    assert [f.type_text() for f in plan.fields] == ["STRING", "BIGINT", "BIGINT NOT NULL"]
    assert any("GroupAggregate(groupBy=[k], select=[k, total(CAST(i AS BIGINT))" in line or
               "select=[k, total($f" in line for line in plan.explain()), plan.explain()
    # over a window TVF a streaming Python aggregate stays an updating group aggregate (Flink 2.3's plan)
    plan = p.plan("EXPLAIN CHANGELOG_MODE SELECT window_start, total(v) FROM TABLE(TUMBLE(TABLE w, DESCRIPTOR(ts), "
                  "INTERVAL '1' MINUTE)) GROUP BY window_start, window_end").query
    assert "changelogMode=[I,UB,UA]" in plan.explain()[0] and "WindowAggregate" not in " ".join(plan.explain())
    # a pandas one: in a group window and a bounded OVER window
    p.plan("SELECT middle(v) FROM w GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)")
    p.plan("SELECT middle(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM w")
    p.plan("SET 'execution.runtime-mode' = 'batch'")
    p.plan("SELECT k, middle(v) FROM w GROUP BY k")
    p.plan("SELECT middle(v) OVER (PARTITION BY k ORDER BY ts) FROM w")


@pytest.mark.parametrize("statement, message", [
    ("SELECT k, middle(v) FROM w GROUP BY k",
     "Cannot generate a valid execution plan for the given query: the pandas aggregate function 'middle' "
     "(sample_udfs.middle) cannot run in a GROUP BY of a streaming query"),
    ("SELECT middle(v) OVER (PARTITION BY k ORDER BY ts) FROM w",
     "Python UDAF is not supported to be used in UNBOUNDED PRECEDING OVER windows."),
    ("SELECT total(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM w",
     "the general Python aggregate function 'total' (sample_udfs.total) cannot run in an OVER window"),
    ("SELECT middle(v), COUNT(*) FROM w GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)",
     "Python UDAF and Java/Scala UDAF cannot be used together (middle beside COUNT)"),
    ("SELECT k FROM w WHERE total(v) > 1", "Aggregate function TOTAL is not allowed here"),
    ("SELECT total(s) FROM t", "Python function 'total' (sample_udfs.total) takes (BIGINT)"),
    ("CREATE FUNCTION p AS 'sample_udfs.plain_aggregate' LANGUAGE PYTHON",
     "Python function 'sample_udfs.plain_aggregate' is not declared as a user-defined function"),
])
def test_aggregate_function_refusals(aggregating, statement, message):
    assert message in error_of(aggregating, statement)


def test_a_general_aggregate_function_is_refused_in_batch_as_flink_refuses_it(aggregating):
    aggregating.plan("SET 'execution.runtime-mode' = 'batch'")
    assert "non-Pandas UDAFs are not supported in batch mode currently (the general Python aggregate function " \
           "'total' (sample_udfs.total))" in error_of(aggregating, "SELECT k, total(v) FROM w GROUP BY k")


def test_whether_an_aggregate_function_merges_is_recorded_and_read_again_for_an_older_record(tmp_path):
    from planner.python_functions.definition import PythonFunction, defines_merge
    (tmp_path / "merging_udafs.py").write_text(
        "from dynsql.udf import AggregateFunction, udaf\n"
        "class Count(AggregateFunction):\n"
        "    def create_accumulator(self):\n        return [0]\n"
        "    def accumulate(self, acc, x):\n        acc[0] += 1\n"
        "    def get_value(self, acc):\n        return acc[0]\n"
        "class Merging(Count):\n"
        "    def merge(self, acc, accs):\n        acc[0] += sum(a[0] for a in accs)\n"
        "plain = udaf(Count(), result_type='BIGINT', accumulator_type='ARRAY<BIGINT>')\n"
        "merging = udaf(Merging(), result_type='BIGINT', accumulator_type='ARRAY<BIGINT>')\n")
    p = Planner()
    p.plan("SET 'python.files' = '%s'" % (tmp_path / "merging_udafs.py"))
    p.plan("CREATE FUNCTION plain AS 'merging_udafs.plain' LANGUAGE PYTHON")
    p.plan("CREATE FUNCTION merging AS 'merging_udafs.merging' LANGUAGE PYTHON")
    plain, merging = in_catalog.find(p.catalog, "plain"), in_catalog.find(p.catalog, "merging")
    assert (plain.merges, merging.merges) == (False, True)
    stored_before = [{k: v for k, v in fn.to_dict().items() if k != "merges"} for fn in (plain, merging)]
    assert [defines_merge(PythonFunction.from_dict(d)) for d in stored_before] == [False, True]
