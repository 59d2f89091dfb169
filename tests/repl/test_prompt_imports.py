"""The shell draws its prompt with nothing of the runtime loaded: `dynsql --demo` is launched in a pseudo-terminal,
as a user launches it, with the one step after the first render (Spark's start, the planner and the demo tables, in
the background: Shell.warm_up) replaced by a note of the modules loaded by then. None of Spark, py4j, numpy,
pandas, pyarrow, sqlglot or sqlparse may be among them, nor any of runtime/ but the module naming the Spark log,
nor the planner beyond its settings, nor completion's cursor analysis. (bench/prompt_bench.py times the same launch.)"""

import json
import os
import sys

import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEAVY = ("pyspark", "py4j", "numpy", "pandas", "pyarrow", "sqlglot", "sqlparse")
RUNTIME_AT_START = {"runtime", "runtime.spark_log", "runtime.private_files"}     # the log's path, printed at start
PLANNER_AT_START = {"planner", "planner.settings", "planner.errors", "planner.splitter"}   # SET keys, Enter's check

LAUNCH = """
import json, sys
from repl import shell

def note_modules(self):
    with open(sys.argv[1], "w") as f:
        json.dump(sorted(sys.modules), f)
    self.warmed_up = True

shell.Shell.warm_up = note_modules
from repl.cli import main
sys.exit(main(["--demo"]))
"""


def test_the_prompt_is_drawn_without_spark_the_planner_or_the_runtime(tmp_path):
    noted = tmp_path / "modules.json"
    env = dict(os.environ, PYTHONPATH=ROOT, DYNSQL_HISTORY=str(tmp_path / "history"), PROMPT_TOOLKIT_NO_CPR="1",
               TERM="xterm-256color", DYNSQL_LOG_DIR=str(tmp_path / "logs"))
    child = pexpect.spawn(sys.executable, ["-c", LAUNCH, str(noted)], env=env, cwd=str(tmp_path), encoding="utf-8",
                          dimensions=(30, 120), timeout=60)
    try:
        child.expect("Spark log: ")
        child.expect("Flink SQL>")
        before_prompt = child.before
        child.sendcontrol("d")
        child.expect("Goodbye!")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert "Traceback" not in before_prompt
    loaded = json.loads(noted.read_text())
    assert "prompt_toolkit" in loaded and "repl.shell" in loaded          # it did run the shell's start
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY]
    runtime = [m for m in loaded if m.split(".")[0] == "runtime" and m not in RUNTIME_AT_START]
    planner = [m for m in loaded if m.split(".")[0] == "planner" and m not in PLANNER_AT_START]
    assert (heavy, runtime, planner) == ([], [], [])
    assert "repl.sqlcompletion" not in loaded        # the cursor analysis: at the first completion
