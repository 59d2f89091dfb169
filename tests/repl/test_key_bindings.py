"""Enter submits complete statements only; checked on the pure function and on a real PromptSession."""

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from repl.key_bindings import is_shell_command, ready_to_submit, shell_key_bindings


@pytest.mark.parametrize("text", [
    "select ';' ;",
    "select /*;*/ 1;",
    "select -- ;\n1;",
    "SELECT 1 AS a,\n'x' AS b;",
    "select `a;b` from t;",
    "select 1; select 2;",
    "SET 'sql-client.execution.result-mode' = 'tableau';",
    "help", "HELP;", "clear", "Quit", "exit ;",
])
def test_complete(text):
    assert ready_to_submit(text)


@pytest.mark.parametrize("text", [
    "", "   ", "select 1", "select ';", "select '';' ", "select /*;", "select /* ; */ 1",
    "select -- ;", "select -- ;\n1", "select `;", "select 1; select 2", "helpme", "quit now",
])
def test_incomplete(text):
    assert not ready_to_submit(text)


def test_shell_commands():
    assert is_shell_command(" help ; ")
    assert not is_shell_command("help me")


def typed(keys):
    """What a real multi-line PromptSession with our bindings returns after `keys` are typed."""
    with create_pipe_input() as pipe:
        session = PromptSession(multiline=True, key_bindings=shell_key_bindings(),
                                input=pipe, output=DummyOutput())
        pipe.send_text(keys)
        return session.prompt()


def test_enter_on_an_incomplete_statement_starts_a_new_line():
    assert typed("SELECT 1 AS a,\r'x' AS b;\r") == "SELECT 1 AS a,\n'x' AS b;"


def test_enter_inside_a_comment_or_string_does_not_submit():
    assert typed("select -- ;\r1;\r") == "select -- ;\n1;"
    assert typed("select ';\r' ;\r") == "select ';\n' ;"


def test_enter_submits_a_shell_command_without_semicolon():
    assert typed("help\r") == "help"


def test_ctrl_c_and_ctrl_d_at_the_prompt():
    with pytest.raises(KeyboardInterrupt):
        typed("select 1\x03")
    with pytest.raises(EOFError):
        typed("\x04")
