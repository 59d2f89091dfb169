"""The planner's packages import one way: the expression layer (planner/expr) depends on none of the plan,
the binder, the rules or MATCH_RECOGNIZE; the plan's nodes (planner/plan) on neither the binder nor the rules;
the rules (planner/rules) not on the binder. (There was a circle plan <-> bind <-> rules: an Expr wrote its
Spark SQL with the binder's code, the rules took conditions apart with it, the binder applied rules.)

Every import is read, those inside functions too, so that a lazy import cannot hide a circle."""

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FORBIDDEN = {
    "planner.expr": ("planner.plan", "planner.bind", "planner.rules", "planner.match_recognize", "planner.planner",
                     "planner.query_plan", "planner.infer"),
    "planner.plan": ("planner.bind", "planner.rules"),
    "planner.rules": ("planner.bind",),
}


def modules_of(package):
    folder = os.path.join(ROOT, *package.split("."))
    for dirpath, _, files in os.walk(folder):
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                name = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                yield (name[:-len(".__init__")] if name.endswith(".__init__") else name), path


def import_statements(module, path):
    """(line, absolute module name, imported names) for each import in `path` (relative imports resolved)."""
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


def imported(module, path):
    """The absolute names of the modules `path` imports (and of the names it imports from them)."""
    for _, target, names in import_statements(module, path):
        yield target
        yield from (target + "." + name for name in names)


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_package_imports_no_layer_above_it(package):
    wrong = []
    for module, path in modules_of(package):
        for target in imported(module, path):
            if any(target == f or target.startswith(f + ".") for f in FORBIDDEN[package]):
                wrong.append("%s imports %s" % (module, target))
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    """A lazy import counts: the check finds the old circle (plan.expr imported bind.expressions in a method)."""
    path = tmp_path / "expr.py"
    path.write_text("def sql():\n    from ..bind.expressions import to_spark\n")
    assert "planner.bind.expressions" in set(imported("planner.plan.expr", str(path)))
