"""Every import in the project's packages names something that exists, those inside functions too.

A lazy import of a module that was moved (`from planner.types import to_spark` after types went to
planner/expr) fails only when its function first runs: in a fresh shell, for the one query that needs it.
A stale file left in a checkout hides it from a test run; this check reads the imports instead."""

import importlib
import importlib.util
import os

from planner_tests.test_layers import ROOT, import_statements, modules_of

PACKAGES = ("planner", "runtime", "repl", "dynsql")


def missing(target, names):
    """What of `from target import names` does not exist (empty when all of it does)."""
    try:
        if importlib.util.find_spec(target) is None:
            return [target]
    except ModuleNotFoundError:
        return [target]
    wrong = []
    for name in names:
        if name == "*":
            continue
        try:
            if importlib.util.find_spec(target + "." + name) is not None:
                continue
        except ModuleNotFoundError:
            pass
        if not hasattr(importlib.import_module(target), name):
            wrong.append(target + "." + name)
    return wrong


def test_every_import_names_a_module_or_a_name_that_exists():
    wrong = []
    for package in PACKAGES:
        for module, path in modules_of(package):
            for line, target, names in import_statements(module, path):
                if target.split(".")[0] in PACKAGES:
                    wrong += ["%s:%d imports %s" % (os.path.relpath(path, ROOT), line, m) for m in missing(target, names)]
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_a_moved_module_imported_inside_a_function():
    assert missing("planner.types", ("to_spark",)) == ["planner.types"]
    assert missing("planner.expr.types", ("to_spark", "no_such_name")) == ["planner.expr.types.no_such_name"]
