"""The real `dynsql` shell in a pseudo-terminal: type a multi-line statement, read its result."""

import os
import re
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]
DYNSQL = Path(sys.executable).with_name("dynsql")

pytestmark = pytest.mark.skipif(not (ROOT / "repl" / "cli.py").exists(),
                                reason="needs the command line (repl/cli.py)")

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")


def plain(text):
    return ANSI.sub("", text)


@pytest.fixture
def shell(tmp_path):
    env = dict(os.environ, DYNSQL_HISTORY=str(tmp_path / "history"), PROMPT_TOOLKIT_NO_CPR="1",
               TERM="xterm-256color", COLUMNS="160", LINES="40")
    command = str(DYNSQL) if DYNSQL.exists() else sys.executable
    args = [] if DYNSQL.exists() else ["-m", "repl.cli"]
    child = pexpect.spawn(command, args, cwd=str(tmp_path), env=env, encoding="utf-8",
                          dimensions=(40, 160), timeout=180)
    yield child
    if child.isalive():
        child.terminate(force=True)


def test_multi_line_statement_in_tableau_mode(shell, tmp_path):
    started = time.time()
    shell.expect("Flink SQL> ", timeout=30)
    prompt_after = time.time() - started
    assert prompt_after < 10, "the prompt took %.1f s" % prompt_after

    shell.send("SET 'sql-client.execution.result-mode' = 'tableau';\r")
    shell.expect("Flink SQL> ")
    assert "[ERROR]" not in plain(shell.before)

    shell.send("SELECT 1 AS a,\r")
    shell.expect("> ")                                  # the continuation prompt: not run yet
    shell.send("'x' AS b;\r")
    shell.expect(r"Received a total of 1 row|1 row in set", timeout=240)
    screen = plain(shell.before)
    assert re.search(r"\|\s*a\s*\|\s*b\s*\|", screen), screen
    assert re.search(r"\|\s*1\s*\|\s*x\s*\|", screen), screen

    shell.expect("Flink SQL> ")
    shell.send("QUIT;\r")
    shell.expect(pexpect.EOF, timeout=60)
    shell.close()
    assert shell.exitstatus == 0
    assert "SELECT 1 AS a," in (tmp_path / "history").read_text()


def test_bad_statement_then_the_session_is_still_usable(shell):
    shell.expect("Flink SQL> ", timeout=30)
    shell.send("SELEC nonsense;\r")
    shell.expect(r"\[ERROR\][^\n]*")
    shell.expect("Flink SQL> ")
    shell.send("SET 'sql-client.verbose' = 'maybe';\r")
    shell.expect(r"\[ERROR\][^\n]*")
    shell.expect("Flink SQL> ")
    shell.send("help\r")
    shell.expect("Shell commands")
    shell.expect("Flink SQL> ")
    shell.sendcontrol("d")
    shell.expect(pexpect.EOF, timeout=60)
