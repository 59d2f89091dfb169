"""The shell's loop with the real Client (Spark never started: DDL, SHOW, DESCRIBE, SET, HELP and
errors do not need it), typed through prompt_toolkit's pipe input."""

import io

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from repl.client import Client
from repl.shell import HELP_TEXT, Shell, finished_stream, history_path
from runtime.results import Column, TableResult


@pytest.fixture(autouse=True)
def history_file(tmp_path, monkeypatch):
    path = tmp_path / "history"
    monkeypatch.setenv("DYNSQL_HISTORY", str(path))
    return path


def run(keys, client=None, setup_script=None):
    client = client or Client()
    out = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        shell = Shell(client, input=pipe, output=DummyOutput(), out=out)
        code = shell.run(setup_script=setup_script)
    return code, out.getvalue(), shell


def test_statements_errors_and_help(history_file):
    code, out, shell = run(
        "CREATE TABLE clicks (`user` STRING, url STRING) WITH ('connector' = 'datagen');\r"
        "SHOW\rTABLES;\r"
        "SELEC x;\r"
        "SET 'sql-client.verbose' = 'maybe';\r"
        "help\r"
        "\x04")
    assert code == 0
    assert "[INFO] Execute statement succeeded." in out
    assert "| clicks" in out
    assert "[ERROR] Unknown statement starting with 'SELEC'" in out
    assert "[ERROR] Invalid value 'maybe' for 'sql-client.verbose'" in out
    assert HELP_TEXT in out
    assert out.rstrip().endswith("Goodbye!")
    # the completion snapshot follows the catalog
    assert shell.snapshot.tables["clicks"] == ("user", "url")
    # the two-line statement is one history entry
    assert "\n+SHOW\n+TABLES;\n" in history_file.read_text()


def test_an_error_stops_the_rest_of_the_line():
    _, out, _ = run("SELEC 1; SHOW TABLES;\rQUIT\r")
    assert "[ERROR]" in out and "table name" not in out and "Empty set" not in out


def test_ctrl_c_clears_the_line_and_exit_leaves():
    _, out, _ = run("SHOW TABLES\x03exit;\r")
    assert out.strip() == "Goodbye!"


def test_the_set_up_script_runs_after_the_prompt_and_statements_wait_for_it():
    client = Client()
    _, out, shell = run("SHOW TABLES;\r\x04", client=client, setup_script=(
        "CREATE TABLE clicks (`user` STRING, url STRING) WITH ('connector' = 'datagen');\n"
        "CREATE VIEW users AS SELECT DISTINCT `user` FROM clicks;"))
    assert "| clicks" in out and "| users" in out and "[ERROR]" not in out
    assert client.planner_loaded
    assert shell.snapshot.tables["clicks"] == ("user", "url")
    assert "TUMBLE_START" in shell.functions          # loaded with the planner, for completion


def test_a_failing_set_up_statement_is_reported_once_and_the_shell_goes_on():
    _, out, _ = run("SHOW TABLES;\rSHOW TABLES;\r\x04", setup_script=(
        "CREATE TABLE a (x INT) WITH ('connector' = 'datagen');\n"
        "CREATE TABLE b (x INTEGR) WITH ('connector' = 'datagen');\n"
        "CREATE TABLE c (x INT) WITH ('connector' = 'datagen');"))
    assert out.count("[ERROR] The set-up script failed") == 1
    assert "INTEGR" in out
    assert out.count("| a ") == 2 and "| c " not in out     # it stopped at the failing statement
    assert out.rstrip().endswith("Goodbye!")


def test_history_path_from_the_environment(history_file):
    assert history_path() == str(history_file)


def test_a_batch_result_becomes_a_finished_stream_for_the_views():
    stream = finished_stream(TableResult([Column("a", "INT"), Column("b", "STRING")], [(1, "x"), (2, "y")],
                                         is_query=True))
    assert [c.name for c in stream.columns] == ["a", "b"]
    batch = stream.poll(0)
    assert batch.changes == [("+I", (1, "x")), ("+I", (2, "y"))]
    stream.poll(0)
    assert stream.finished
