"""Python user-defined functions in an INSERT INTO job: the job's own process re-plans the session's SET
'python.files' and CREATE FUNCTION statements, imports the module (tests/python_udfs/sample_udfs.py) and runs
the functions on its own SparkSession. (The functions in streaming and batch queries, their errors:
tests/sql/python_functions.sqltest.)"""

import json
import os

import pytest

from planner.errors import DynsqlError

SAMPLE_UDFS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python_udfs", "sample_udfs.py")


@pytest.mark.slow       # 22 s here: `make test-slow` (make test within 25 min on a slow CI machine)
def test_a_job_runs_python_functions_and_a_wrong_result_type_names_the_value(client, tmp_path):
    (tmp_path / "lines.csv").write_text("1,hello big world\n2,\n3,spark\n")
    for statement in (
            "SET 'python.files' = '%s'" % SAMPLE_UDFS,
            "CREATE TABLE lines (n BIGINT, text STRING) WITH ('connector' = 'filesystem', 'path' = '%s', "
            "'format' = 'csv')" % (tmp_path / "lines.csv"),
            "CREATE TABLE words (n BIGINT, word STRING, loud STRING) WITH ('connector' = 'filesystem', "
            "'path' = '%s', 'format' = 'json')" % (tmp_path / "out"),
            "CREATE FUNCTION add AS 'sample_udfs.add' LANGUAGE PYTHON",
            "CREATE TEMPORARY FUNCTION shout AS 'sample_udfs.shout' LANGUAGE PYTHON",
            "CREATE TEMPORARY SYSTEM FUNCTION split_words AS 'sample_udfs.split_words' LANGUAGE PYTHON",
            "CREATE FUNCTION wrong_result AS 'sample_udfs.wrong_result' LANGUAGE PYTHON",
            "SET 'table.dml-sync' = 'true'"):
        client.execute(statement)
    client.execute("INSERT INTO words SELECT add(n, length), word, shout(word) "
                   "FROM lines, LATERAL TABLE(split_words(text)) WHERE length > 3")
    written = sorted((json.loads(line) for f in (tmp_path / "out").iterdir() if not f.name.startswith(".")
                     for line in f.read_text().splitlines()), key=lambda r: r["word"])
    assert written == [{"n": 6, "word": "hello", "loud": "HELLO!"}, {"n": 8, "word": "spark", "loud": "SPARK!"},
                       {"n": 6, "word": "world", "loud": "WORLD!"}]
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    with pytest.raises(DynsqlError) as error:
        client.execute("SELECT wrong_result(text) FROM lines WHERE n = 3")
    message = error.value.render()
    assert message.startswith("Python function 'wrong_result' returned 'not a number' for input ('spark'), which is "
                              "not its declared type ("), message
    assert "Traceback" not in message and "\n" not in message
