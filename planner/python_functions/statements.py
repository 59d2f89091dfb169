"""CREATE [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS] f AS 'module.fn' LANGUAGE PYTHON, DROP [TEMPORARY
[SYSTEM]] FUNCTION [IF EXISTS] f, and the names SHOW [USER] FUNCTIONS lists, with Flink's refusals.

The definitions live in the catalog (in_catalog.py). A temporary system function is found before the built-in
functions; a catalog function (with or without TEMPORARY) after them, as Flink resolves calls."""

import re

from ..errors import SqlError, UnsupportedError
from . import in_catalog
from .definition import add_search_path, load_definition

_NAME = r"(`(?:[^`]|``)+`|[\w.]+)"
_CREATE = re.compile(r"\s*CREATE\s+(TEMPORARY\s+)?(SYSTEM\s+)?FUNCTION\s+(IF\s+NOT\s+EXISTS\s+)?" + _NAME +
                     r"\s+AS\s+('(?:[^']|'')*')\s*(?:LANGUAGE\s+(\w+)\s*)?(USING\s+JAR\b.*)?$", re.I | re.S)
_DROP = re.compile(r"\s*DROP\s+(TEMPORARY\s+)?(SYSTEM\s+)?FUNCTION\s+(IF\s+EXISTS\s+)?" + _NAME + r"\s*$", re.I)


def is_create_function(text):
    return re.match(r"\s*CREATE\s+(TEMPORARY\s+)?(SYSTEM\s+)?FUNCTION\b", text, re.I) is not None


def is_drop_function(text):
    return re.match(r"\s*DROP\s+(TEMPORARY\s+)?(SYSTEM\s+)?FUNCTION\b", text, re.I) is not None


def _name(text):
    text = text.strip()
    if text.startswith("`"):
        return text[1:-1].replace("``", "`")
    return text.split(".")[-1]


def _described(temporary, system, name):
    if system:
        return "Temporary system function %s" % name
    if temporary:
        return "Temporary catalog function `default_catalog`.`default_database`.`%s`" % name
    return "Function default_database.%s" % name


def create_function(catalog, settings, text, line, column):
    """Apply a CREATE FUNCTION statement to the catalog (the module is imported now: a wrong name or
    declaration is an error here)."""
    m = _CREATE.match(text)
    if not m:
        raise SqlError("Expected CREATE [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS] <name> AS 'module.function' "
                       "LANGUAGE PYTHON", line, column)
    temporary, system, if_not_exists = bool(m.group(1)), bool(m.group(2)), bool(m.group(3))
    if system and not temporary:
        raise SqlError("CREATE SYSTEM FUNCTION is not supported, system functions can only be registered as "
                       "temporary function, you can use CREATE TEMPORARY SYSTEM FUNCTION instead.", line, column)
    language = (m.group(6) or "JAVA").upper()
    if language != "PYTHON":
        raise UnsupportedError("CREATE FUNCTION ... LANGUAGE %s is not supported by dynsql: it runs Python functions "
                               "only" % language, line, column,
                               hint="CREATE FUNCTION f AS 'module.function' LANGUAGE PYTHON")
    if m.group(7):
        raise UnsupportedError("CREATE FUNCTION ... USING JAR is not supported by dynsql", line, column)
    if system and "." in m.group(4).strip("`"):
        raise SqlError("Temporary system function '%s' cannot have a catalog or database name" % m.group(4),
                       line, column)
    name = _name(m.group(4))
    identifier = m.group(5)[1:-1].replace("''", "'").strip()
    existing = in_catalog.find(catalog, name)
    if existing is not None:
        if if_not_exists:
            return False
        if system:
            message = ("Could not register temporary system function. A function named '%s' does already exist."
                       % name)
        elif temporary:
            message = "%s is already defined" % _described(True, False, name)
        else:
            message = "%s already exists in Catalog default_catalog." % _described(False, False, name)
        raise SqlError(message, line, column, hint="DROP FUNCTION %s first" % name)
    files = [p.strip() for p in (settings.get("python.files") or "").split(",") if p.strip()] \
        if settings is not None else []
    add_search_path(files)
    in_catalog.put(catalog, load_definition(name, identifier, temporary, system, line, column))
    return True


def drop_function(catalog, text, line, column):
    m = _DROP.match(text)
    if not m:
        raise SqlError("Expected DROP [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] <name>", line, column)
    temporary, system, if_exists = bool(m.group(1)), bool(m.group(2)), bool(m.group(3))
    name = _name(m.group(4))
    existing = in_catalog.find(catalog, name)
    if existing is None or existing.temporary != temporary or existing.system != system:
        if if_exists:
            return False
        hint = None
        if existing is not None:
            hint = "'%s' is a %s function: DROP %sFUNCTION %s" % (
                name, "temporary system" if existing.system else "temporary" if existing.temporary else "catalog",
                "TEMPORARY SYSTEM " if existing.system else "TEMPORARY " if existing.temporary else "", name)
        raise SqlError("%s doesn't exist" % _described(temporary, system, name) if temporary else
                       "%s does not exist in Catalog default_catalog." % _described(False, False, name),
                       line, column, hint=hint)
    in_catalog.remove(catalog, existing)
    return True


def user_function_names(catalog):
    """The names SHOW USER FUNCTIONS lists (SHOW FUNCTIONS: these and the built-in ones)."""
    return in_catalog.names(catalog)


def is_describe_function(text):
    return re.match(r"\s*DESC(?:RIBE)?\s+FUNCTION\b", text, re.I) is not None


def describe_function(catalog, text, line, column):
    """DESCRIBE FUNCTION [EXTENDED] f -> (columns, rows), the rows Flink shows for a function."""
    m = re.match(r"\s*DESC(?:RIBE)?\s+FUNCTION\s+(EXTENDED\s+)?" + _NAME + r"\s*$", text, re.I)
    if not m:
        raise SqlError("Expected DESCRIBE FUNCTION [EXTENDED] <name>", line, column)
    name = _name(m.group(2))
    fn = in_catalog.find(catalog, name)
    if fn is None:
        raise SqlError("Function '%s' does not exist" % name, line, column, hint="SHOW USER FUNCTIONS lists them")
    rows = [("is system function", str(fn.system).lower()), ("is temporary", str(fn.temporary).lower()),
            ("class name", fn.identifier), ("function language", "PYTHON"), ("resource uris", "[]")]
    if m.group(1):
        signature = "%s(%s)" % (fn.name, ", ".join(fn.input_types) if fn.input_types is not None else "*")
        rows += [("kind", fn.kind.upper()), ("requirements", "[]"),
                 ("is deterministic", "true"), ("supports constant folding", "false"),
                 ("signature", "%s -> %s" % (signature, fn.result_type))]
    return [("info name", "STRING"), ("info value", "STRING")], rows
