"""Every import in the project's packages names something that exists, those inside functions too.

A lazy import of a module that was moved (`from planner.types import to_spark` after types went to
planner/expr) fails only when its function first runs: in a fresh shell, for the one query that needs it.
A stale file left in a checkout hides it from a test run; this check reads the imports instead."""

import ast
import importlib
import importlib.util
import os

from planner_tests.test_layers import ROOT, modules_of

PACKAGES = ("planner", "runtime", "repl", "dynsql")


def imports_of(module, path):
    """(line, module, names) for each import of one of the project's packages in `path`."""
    package = module if path.endswith("__init__.py") else module.rsplit(".", 1)[0]
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name, ()
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            yield node.lineno, target, tuple(a.name for a in node.names)


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
            for line, target, names in imports_of(module, path):
                if target.split(".")[0] in PACKAGES:
                    wrong += ["%s:%d imports %s" % (os.path.relpath(path, ROOT), line, m) for m in missing(target, names)]
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_a_moved_module_imported_inside_a_function():
    assert missing("planner.types", ("to_spark",)) == ["planner.types"]
    assert missing("planner.expr.types", ("to_spark", "no_such_name")) == ["planner.expr.types.no_such_name"]
