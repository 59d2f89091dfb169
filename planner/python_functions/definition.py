"""A Python function's definition: a small serializable record (name, module, function, kind, types) that a
catalog keeps and a runtime registers, and `load_definition`, which imports the module to read the function's
declaration (dynsql/udf.py) and checks it: a wrong module, function or type is an error at CREATE FUNCTION."""

import importlib
import sys
from dataclasses import asdict, dataclass

from ..errors import SqlError
from ..expr.types import parse_type


@dataclass(frozen=True)
class PythonFunction:
    name: str                  # as the user wrote it; calls match it case-insensitively (Flink's rule)
    module: str
    function: str
    kind: str                  # "scalar" | "table" | "aggregate"
    result_types: tuple        # Flink type texts (a scalar function: one)
    input_types: tuple = None  # Flink type texts, or None: any argument types
    func_type: str = "general" # "general": a call a row (an aggregate: an accumulator a group); "pandas": a call a
                               # batch of pandas.Series (an aggregate: a group's values)
    result_names: tuple = None # a table function's column names
    temporary: bool = False
    system: bool = False
    accumulator_type: str = None   # an aggregate function's accumulator, as declared (Flink type text)
    merges: bool = None        # a general aggregate function whose class defines merge() (Flink calls it in
                               # streaming HOP and SESSION group windows: aggregate_calls.check_placement); None
                               # in a record stored before dynsql read it: `defines_merge` then looks again

    @property
    def key(self):
        return self.name.lower()

    @property
    def identifier(self):
        return "%s.%s" % (self.module, self.function)

    @property
    def spark_name(self):
        """The name the runtime registers the function under in Spark (never one of Spark's own)."""
        return "dynsql_py_" + self.key

    @property
    def result_type(self):
        """Its result as one Flink type: a table function's is ARRAY<ROW<...>> (its rows, one array a call)."""
        if self.kind in ("scalar", "aggregate"):
            return self.result_types[0]
        return "ARRAY<ROW<%s>>" % ", ".join("`%s` %s" % (n, t) for n, t in zip(self.column_names, self.result_types))

    @property
    def column_names(self):
        return list(self.result_names or ["f%d" % i for i in range(len(self.result_types))])

    def to_dict(self):
        return asdict(self)

    @classmethod
    def from_dict(cls, d):
        d = dict(d)
        for k in ("result_types", "input_types", "result_names"):
            if d.get(k) is not None:
                d[k] = tuple(d[k])
        return cls(**d)


def add_search_path(paths):
    """Put the folders / zips of 'python.files' on this process's module path (the runtime ships them to
    the executors)."""
    import os
    for p in paths:
        entry = p if p.endswith((".zip", ".egg", ".whl")) or os.path.isdir(p) else os.path.dirname(p)
        if entry and entry not in sys.path:
            sys.path.insert(0, entry)


_LOADED = {}     # module name -> modification time of its file when it was imported (or reloaded)


def _fresh(module):
    """The module, imported again when its file changed since (a user edits it, then creates the function again)."""
    import os
    path = getattr(module, "__file__", None)
    try:
        mtime = os.stat(path).st_mtime if path else None
    except OSError:
        return module
    seen = _LOADED.setdefault(module.__name__, mtime)
    if mtime is not None and seen != mtime:
        module = importlib.reload(module)
        _LOADED[module.__name__] = mtime
    return module


def load_definition(name, identifier, temporary=False, system=False, line=None, column=None):
    """Import `identifier` ('module.function') and read its declaration -> PythonFunction; a SqlError naming
    what is wrong otherwise."""
    module_name, _, function_name = identifier.rpartition(".")
    if not module_name or not function_name:
        raise SqlError("Python function '%s': expected 'module.function' (e.g. 'my_udfs.add')" % identifier,
                       line, column)
    try:
        importlib.invalidate_caches()
        module = _fresh(importlib.import_module(module_name))
    except ModuleNotFoundError as e:
        raise SqlError("Python function '%s': module '%s' not found (%s)" % (identifier, module_name, e), line, column,
                       hint="put the module on PYTHONPATH, or name its file in SET 'python.files' = '/path/to/%s.py'"
                       % module_name.split(".")[-1])
    except Exception as e:
        raise SqlError("Python function '%s': importing module '%s' failed: %s: %s"
                       % (identifier, module_name, type(e).__name__, e), line, column)
    fn = getattr(module, function_name, None)
    if fn is None:
        raise SqlError("Python function '%s': module '%s' has no function '%s'" % (identifier, module_name,
                                                                                  function_name), line, column)
    declaration = getattr(fn, "__dynsql_udf__", None)
    if declaration is None:
        raise SqlError("Python function '%s' is not declared as a user-defined function" % identifier, line, column,
                       hint="decorate it: from dynsql.udf import udf; @udf(result_type='BIGINT') (an aggregate "
                       "function: my_agg = udaf(MyAggregate(), result_type='BIGINT'))")
    for text in tuple(declaration.result_types) + tuple(declaration.input_types or ()):
        try:
            parse_type(text)
        except SqlError as e:
            raise SqlError("Python function '%s' declares a wrong type: %s" % (identifier, e.message), line, column)
    return PythonFunction(name=name, module=module_name, function=function_name, kind=declaration.kind,
                          result_types=tuple(declaration.result_types),
                          input_types=tuple(declaration.input_types) if declaration.input_types is not None else None,
                          func_type=declaration.func_type,
                          result_names=tuple(declaration.result_names) if declaration.result_names else None,
                          temporary=temporary, system=system,
                          accumulator_type=getattr(declaration, "accumulator_type", None),
                          merges=declaration.kind == "aggregate" and _defines_merge(fn))


def defines_merge(fn):
    """Whether PythonFunction `fn`'s AggregateFunction defines merge(): as recorded at CREATE FUNCTION, else read
    from its module (on the session's python.files path)."""
    if fn.merges is not None:
        return fn.merges
    try:
        return _defines_merge(getattr(importlib.import_module(fn.module), fn.function))
    except Exception:
        return False


def _defines_merge(aggregate):
    """Whether an AggregateFunction instance's class (not dynsql.udf's base class, whose merge() raises, as
    PyFlink's does) defines merge()."""
    for cls in type(aggregate).__mro__:
        if "merge" in vars(cls):
            return not (cls.__name__ == "AggregateFunction" and cls.__module__ == "dynsql.udf")
    return False
