"""The conformance contract itself: ../shared/conformance/run.py drives the real `dynsql` CLI (one process
per case) and compares its output with Flink's. tests/test_conformance_cases.py runs every case in this
process; here one case proves the CLI contract (`make conformance` runs them all through the CLI)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT.parent / "shared" / "conformance" / "run.py"
DYNSQL = Path(sys.executable).with_name("dynsql")
COMMAND = str(DYNSQL) if DYNSQL.exists() else "%s -m repl.cli" % sys.executable

# one case through the CLI: every value type in Flink's text form
CASE_GLOBS = ["misc_*"]


@pytest.mark.skipif(not RUN.exists(), reason="../shared/conformance is not beside the repository "
                                             "(CI clones main with shared/ next to it)")
@pytest.mark.parametrize("pattern", CASE_GLOBS)
def test_conformance_cases_pass(pattern):
    proc = subprocess.run([sys.executable, str(RUN), "--dynsql", COMMAND, "--glob", pattern, "-v"],
                          capture_output=True, text=True, timeout=1200, cwd=str(ROOT))
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert last.startswith("conformance:") and " 0 failed" in last and not last.startswith("conformance: 0 passed")
