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

PROMPT = "Flink SQL>"      # the trailing space is drawn as a cursor move, not a character
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
    shell.expect(PROMPT, timeout=30)
    prompt_after = time.time() - started
    assert prompt_after < 10, "the prompt took %.1f s" % prompt_after

    shell.send("SET 'sql-client.execution.result-mode' = 'tableau';\r")
    shell.expect(PROMPT)
    assert "[ERROR]" not in plain(shell.before)

    shell.send("SELECT 1 AS a,\r")                     # Enter without `;`: a new line, not a run
    shell.send("'x' AS b;\r")
    found = shell.expect([r"Received a total of 1 row|1 row in set", r"\[ERROR\][^\n]*"], timeout=240)
    assert found == 0, plain(shell.after)
    screen = plain(shell.before)
    assert re.search(r"\|\s*a\s*\|\s*b\s*\|", screen), screen
    assert re.search(r"\|\s*1\s*\|\s*x\s*\|", screen), screen

    shell.expect(PROMPT)
    shell.send("QUIT;\r")
    shell.expect(pexpect.EOF, timeout=60)
    shell.close()
    assert shell.exitstatus == 0
    # one history entry of two lines: the first Enter did not submit
    assert "\n+SELECT 1 AS a,\n+'x' AS b;\n" in (tmp_path / "history").read_text()


def test_bad_statement_then_the_session_is_still_usable(shell):
    shell.expect(PROMPT, timeout=30)
    shell.send("SELEC nonsense;\r")
    shell.expect(r"\[ERROR\][^\n]*")
    shell.expect(PROMPT)
    shell.send("SET 'sql-client.verbose' = 'maybe';\r")
    shell.expect(r"\[ERROR\][^\n]*")
    shell.expect(PROMPT)
    shell.send("help\r")
    shell.expect("Shell commands")
    shell.expect(PROMPT)
    shell.sendcontrol("d")
    shell.expect(pexpect.EOF, timeout=60)
