"""Where Python functions live: a catalog function (TEMPORARY or not) in the current catalog and database, kept
there as a FunctionDef whose extras hold the definition's record (a persistent catalog writes it to disk); a
temporary system function in the session's `system_functions`, found from every database. Names match
case-insensitively, as Flink resolves function calls."""

from ..catalog import FunctionDef
from .definition import PythonFunction

LANGUAGE = "PYTHON"


def find(catalog, name):
    """The PythonFunction called `name` (a temporary system function first), or None."""
    key = name.lower()
    if key in catalog.system_functions:
        return catalog.system_functions[key]
    for short, function in catalog.functions().items():
        if short.lower() == key and function.language == LANGUAGE and "python" in function.extras:
            return PythonFunction.from_dict(function.extras["python"])
    return None


def put(catalog, definition):
    if definition.system:
        catalog.system_functions[definition.key] = definition
        return
    catalog.add_function(FunctionDef(definition.name, definition.identifier, LANGUAGE, definition.temporary,
                                     {"python": definition.to_dict()}))


def remove(catalog, definition):
    if definition.system:
        del catalog.system_functions[definition.key]
        return
    catalog.drop_function(definition.name)


def names(catalog):
    """The user functions' names: temporary system functions and the current database's functions."""
    return sorted({f.name for f in catalog.system_functions.values()} | set(catalog.functions()))
