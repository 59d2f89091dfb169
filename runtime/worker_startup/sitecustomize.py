"""Runs first in every Python process that Spark starts from this machine's JVM. runtime/session.py puts this
folder on their PYTHONPATH.

Spark puts its `pyspark.zip` at the head of those processes' path. Python caches no bytecode for what it imports
from a zip, so every new process compiles pyspark (and py4j, from its own zip) anew: about 0.35 s. A streaming
query's Python source runner is a new process, so the cost comes before every query's first batch.

When the zip is the one inside a pip-installed pyspark (`<site>/pyspark/python/lib/pyspark.zip`), the installed
package is the same code, and its bytecode is cached. This hook drops the zip from the path, so that `import
pyspark` finds that package; likewise py4j's zip when the installed py4j has the zip's version. It then runs the
sitecustomize module that this one shadows, if there is one."""

import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _installed_beside(zip_path, path):
    """True when `zip_path` is the pyspark.zip of a pyspark package that `path` (the zip left out) imports."""
    if os.path.basename(zip_path) != "pyspark.zip":
        return False
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(zip_path))))
    if os.path.basename(package) != "pyspark":
        return False
    spec = importlib.machinery.PathFinder.find_spec("pyspark", path)
    return spec is not None and spec.origin == os.path.join(package, "__init__.py")


def _installed_py4j(zip_path, path):
    """True when `zip_path` is py4j-VERSION-src.zip and `path` (the zip left out) imports a py4j of VERSION."""
    name = os.path.basename(zip_path)
    if not (name.startswith("py4j-") and name.endswith("-src.zip")):
        return False
    spec = importlib.machinery.PathFinder.find_spec("py4j", path)
    if spec is None or not spec.origin:
        return False
    try:
        with open(os.path.join(os.path.dirname(spec.origin), "version.py")) as f:
            return "'%s'" % name[len("py4j-"):-len("-src.zip")] in f.read().replace('"', "'")
    except OSError:
        return False


def _prefer_installed_packages():
    for entry in [p for p in sys.path if p.endswith(".zip")]:
        rest = [p for p in sys.path if p != entry]
        if _installed_beside(entry, rest) or _installed_py4j(entry, rest):
            sys.path[:] = rest


def _run_shadowed_sitecustomize():
    path = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


def _preload_for_workers():
    """In the daemon that forks Spark's Python task workers (`python -m pyspark.daemon pyspark.worker`): import
    once what the workers import (pyspark's worker and its Arrow paths, pandas, pyarrow, dynsql's operators), so
    that every worker it forks starts with them loaded. A new worker otherwise spends about 0.35 s importing them,
    before the first task of each query shape and again whenever Spark has closed its idle workers (after a
    minute). Not in the daemon of other workers (a Python data source's lookup, creation, read planning): they
    need none of it, and they start one after another while the session's first query is planned."""
    argv = list(getattr(sys, "orig_argv", ()))
    m = argv.index("-m") if "-m" in argv else None
    if m is None or argv[m + 1:m + 3] not in (["pyspark.daemon"], ["pyspark.daemon", "pyspark.worker"]):
        return
    import importlib
    for name in ("pyarrow", "pandas", "pyspark.worker", "pyspark.sql.pandas.serializers", "pyspark.sql.conversion",
                 "pyspark.sql.streaming.stateful_processor_util", "runtime.connectors.split_reader",
                 "runtime.match_recognize.stream", "runtime.operators.temporal_join"):
        try:
            importlib.import_module(name)
        except Exception:       # the worker will import what it needs (or fail and say why)
            pass


def _run_in_a_fork():
    """A stream runner or transformWithState driver worker is forked from dynsql's fork server, which has
    imported what they import (worker_forks.py), where the session started one; the process returns here
    only when there is none to ask."""
    if os.environ.get("DYNSQL_WORKER_FORKS"):
        from worker_forks import run_in_a_fork
        run_in_a_fork()


_run_in_a_fork()
_prefer_installed_packages()
_run_shadowed_sitecustomize()
_preload_for_workers()
