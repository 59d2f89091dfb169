"""Imports dynsql's planner from this checkout before pytest puts tests/ first on sys.path. pytest imports
tests/planner's test modules as `planner.test_*`; with tests/planner as the package `planner`, the editable
install's finder loaded planner's own modules from the checkout dynsql was installed from (another worktree
or /work/main), not from this one. Here `planner` is this checkout's package, and tests/planner is a second
directory of it, where pytest finds the planner tests."""

import os

import planner

_TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests", "planner")
if _TESTS not in planner.__path__:
    planner.__path__.append(_TESTS)
