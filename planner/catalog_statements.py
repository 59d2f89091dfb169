"""The statements about catalogs and their contents, planned against the session's catalogs (planner/catalog.py):
CREATE / DROP CATALOG, USE CATALOG, CREATE / DROP DATABASE, USE [catalog.]database, DESCRIBE CATALOG, and SHOW
CATALOGS | CURRENT CATALOG | CURRENT DATABASE | DATABASES | TABLES | VIEWS | [USER] FUNCTIONS | COLUMNS |
CREATE TABLE | CREATE VIEW, with Flink's `FROM/IN` and `[NOT] LIKE|ILIKE 'pattern'` where Flink has them.

Each statement's effect is applied here (nothing runs on Spark); the result is a message or a listing."""

import re

from sqlglot.tokens import TokenType

from . import plans
from .catalog import TableDef, ViewDef, split_name
from .catalog_store import make_catalog
from .ddl import _Cursor, _options
from .errors import SqlError
from .expr.functions.registry import FLINK_FUNCTIONS

OK = "[INFO] Execute statement succeeded."

SHOW_HINT = ("SHOW CATALOGS | CURRENT CATALOG | CURRENT DATABASE | DATABASES | TABLES | VIEWS | FUNCTIONS | "
             "USER FUNCTIONS | COLUMNS FROM <table> | JOBS | SPARK UI | CREATE TABLE <name> | CREATE VIEW <name>")


def plan_catalog_statement(catalog, text, line, col):
    """A catalog statement -> its plan; None when `text` is not one (the planner tries its other kinds)."""
    show = re.match(r"\s*SHOW\b", text, re.I)
    if show:     # sqlglot reads SHOW as a command and the rest as one string: tokenize what follows it
        c = _Cursor(" " * show.end() + text[show.end():], line, col)
        return _show(catalog, c)
    c = _Cursor(text, line, col)
    if c.words("CREATE", "CATALOG"):
        return _create_catalog(catalog, c)
    if c.words("DROP", "CATALOG"):
        if_exists = c.words("IF", "EXISTS")
        name = c.name("a catalog name")
        _end(c)
        catalog.drop_catalog(name, if_exists)
        return plans.MessagePlan(OK)
    if c.words("CREATE", "DATABASE"):
        return _create_database(catalog, c)
    if c.words("DROP", "DATABASE"):
        if_exists = c.words("IF", "EXISTS")
        store, db = catalog.database_path(c.name("a database name"))
        cascade = bool(c.word("CASCADE"))
        if not cascade:
            c.word("RESTRICT")
        _end(c)
        if (store.name, db) == (catalog.current_catalog, catalog.current_database):
            raise SqlError("Cannot drop a database which is currently in use.", line, col,
                           hint="USE another database first")
        store.drop_database(db, if_exists, cascade)
        return plans.MessagePlan(OK)
    if c.words("USE", "CATALOG"):
        name = c.name("a catalog name")
        _end(c)
        catalog.use_catalog(name)
        return plans.MessagePlan(OK)
    if c.word("USE"):
        if c.word("MODULES"):
            raise SqlError("USE MODULES is not supported by dynsql: it has no Flink modules", line, col)
        name = c.name("a database name")
        _end(c)
        catalog.use_database(name)
        return plans.MessagePlan(OK)
    if c.words("DESCRIBE", "CATALOG") or c.words("DESC", "CATALOG"):
        c.word("EXTENDED")
        name = c.name("a catalog name")
        _end(c)
        store = catalog.catalog(name)
        return plans.ListingPlan([("info name", "STRING"), ("info value", "STRING")], store.describe())
    return None


def _end(c):
    if not c.at_end():
        raise c.error("Unexpected '%s'" % c.cur.text)


def _create_catalog(catalog, c):
    if_not_exists = c.words("IF", "NOT", "EXISTS")
    name = c.name("a catalog name")
    if "." in name:
        raise c.error("A catalog name has one part, not '%s'" % name)
    comment = c.string("a comment") if c.word("COMMENT") else None
    if not c.word("WITH"):
        raise c.error("Expected WITH ('type' = '...') after CREATE CATALOG %s" % name,
                      hint="'type' = 'generic_in_memory' | 'dynsql' (persistent, with 'path') | 'spark'")
    options = _options(c)
    _end(c)
    if if_not_exists and name in catalog.catalogs:
        return plans.MessagePlan(OK)
    try:
        store = make_catalog(name, options)
    except SqlError as e:
        raise SqlError("Unable to create catalog '%s'. %s" % (name, e.message), *c.pos(c.toks[0]), hint=e.hint)
    store.comment = comment
    catalog.add_catalog(store, if_not_exists)
    return plans.MessagePlan(OK)


def _create_database(catalog, c):
    if_not_exists = c.words("IF", "NOT", "EXISTS")
    path = c.name("a database name")
    comment = c.string("a comment") if c.word("COMMENT") else None
    if c.word("WITH"):
        _options(c)          # database properties: kept by Flink's catalogs, meaningless to dynsql's
    _end(c)
    parts = split_name(path)
    if len(parts) == 2 and parts[0] not in catalog.catalogs:
        raise SqlError("Catalog %s does not exist" % parts[0], *c.pos(c.toks[0]))
    store, db = catalog.database_path(path)
    store.create_database(db, if_not_exists, comment)
    return plans.MessagePlan(OK)


def _like_filter(c):
    """[NOT] LIKE | ILIKE 'pattern' -> a predicate on names (None: every name)."""
    negate = bool(c.word("NOT"))
    how = c.word("LIKE", "ILIKE")
    if not how:
        if negate:
            raise c.error("Expected LIKE or ILIKE after NOT")
        return None
    pattern = c.string("a LIKE pattern")
    regex = "".join(".*" if ch == "%" else "." if ch == "_" else re.escape(ch) for ch in pattern)
    compiled = re.compile(regex, re.S | (re.I if how == "ILIKE" else 0))
    return lambda name: bool(compiled.fullmatch(name)) != negate


def _listing(header, names, keep):
    return plans.ListingPlan([(header, "STRING")], [(n,) for n in names if keep is None or keep(n)])


def _show(catalog, c):
    if c.at_end():
        raise c.error("Expected what to show after SHOW", hint=SHOW_HINT)
    if c.word("CATALOGS"):
        keep = _like_filter(c)
        _end(c)
        return _listing("catalog name", sorted(catalog.catalogs), keep)
    if c.words("CURRENT", "CATALOG"):
        _end(c)
        return _listing("current catalog name", [catalog.current_catalog], None)
    if c.words("CURRENT", "DATABASE"):
        _end(c)
        return _listing("current database name", [catalog.current_database], None)
    if c.word("DATABASES"):
        store = catalog.catalog(c.name("a catalog name")) if c.word("FROM", "IN") else \
            catalog.catalog(catalog.current_catalog)
        keep = _like_filter(c)
        _end(c)
        return _listing("database name", store.list_databases(), keep)
    if c.word("TABLES", "VIEWS"):
        kind = c.toks[c.i - 1].text.upper()
        if c.word("FROM", "IN"):
            store, db = catalog.database_path(c.name("a database name"))
        else:
            store, db = catalog.catalog(catalog.current_catalog), catalog.current_database
        keep = _like_filter(c)
        _end(c)
        database = store.database(db)
        names = sorted(database.views) if kind == "VIEWS" else sorted(database.tables) + sorted(database.views)
        return _listing("view name" if kind == "VIEWS" else "table name", names, keep)
    user = bool(c.word("USER"))
    if c.word("FUNCTIONS"):
        keep = _like_filter(c)
        _end(c)
        names = sorted(set(catalog.functions()) | {f.name for f in catalog.system_functions.values()})
        if not user:
            names = sorted(n for n in FLINK_FUNCTIONS if not n.startswith("$")) + names
        return _listing("function name", names, keep)
    if user:
        raise c.error("Expected FUNCTIONS after SHOW USER")
    if c.word("COLUMNS"):
        if not c.word("FROM", "IN"):
            raise c.error("Expected FROM or IN and a table after SHOW COLUMNS")
        tok = c.cur
        obj = catalog.require(c.name("a table name"), *c.pos(tok))
        keep = _like_filter(c)
        _end(c)
        columns, rows = describe_rows(obj)
        return plans.ListingPlan(columns, [r for r in rows if keep is None or keep(r[0])])
    if c.word("CREATE"):
        kind = c.word("TABLE", "VIEW")
        if not kind:
            raise c.error("Expected TABLE or VIEW after SHOW CREATE")
        tok = c.cur
        name = c.name("a name")
        _end(c)
        obj = catalog.require(name, *c.pos(tok))
        if (kind == "VIEW") != isinstance(obj, ViewDef):
            raise SqlError("SHOW CREATE %s is only supported for %ss, but %s is a %s instead."
                           % (kind, kind.lower(), catalog.full_name(name), "view" if kind == "TABLE" else "table"),
                           *c.pos(tok))
        return plans.ListingPlan([("result", "STRING")], [(show_create(obj, catalog.full_name(name)),)])
    if c.word("JOBS"):
        _end(c)
        return plans.ShowJobs()
    raise c.error("Unsupported SHOW %s" % c.cur.text, hint=SHOW_HINT)


def describe_rows(obj):
    """DESCRIBE / SHOW COLUMNS of a table or view -> (columns, rows) in Flink's layout."""
    cols = [("name", "STRING"), ("type", "STRING"), ("null", "BOOLEAN"), ("key", "STRING"),
            ("extras", "STRING"), ("watermark", "STRING")]
    rows = []
    if isinstance(obj, TableDef):
        for c in obj.columns:
            t = c.type.replace(" NOT NULL", "")
            if c.name == obj.rowtime:
                t += " *ROWTIME*"
            elif c.is_proctime:
                t = "TIMESTAMP_LTZ(3) *PROCTIME*"
            extras = ("AS " + c.computed) if c.computed else \
                ("METADATA FROM '%s'" % c.metadata) if c.metadata else None
            key = ("PRI(%s)" % ", ".join(obj.primary_key)) if c.name in obj.primary_key else None
            wm = obj.watermark.expression if obj.watermark and obj.watermark.column == c.name else None
            rows.append((c.name, t, c.nullable and not c.is_proctime, key, extras, wm))
    else:
        for n, t in obj.columns:
            rows.append((n, t or "", True, None, None, None))
    return cols, rows


def show_create(obj, full_name, mask=True):
    """SHOW CREATE TABLE / VIEW text; `full_name` is 'catalog.database.name'. mask=False: passwords as they are
    (the DDL a job process re-creates the table from, never shown)."""
    quoted = ".".join("`%s`" % p.replace("`", "``") for p in split_name(full_name))
    if isinstance(obj, ViewDef):
        return "CREATE VIEW %s AS\n%s" % (quoted, obj.query.strip())
    lines = []
    for c in obj.columns:
        if c.computed:
            lines.append("  `%s` AS %s" % (c.name, c.computed))
        else:
            lines.append("  `%s` %s%s%s" % (c.name, c.type, (" METADATA FROM '%s'" % c.metadata) if c.metadata else "",
                                            (" COMMENT '%s'" % c.comment.replace("'", "''")) if c.comment else ""))
    if obj.watermark:
        lines.append("  WATERMARK FOR `%s` AS %s" % (obj.watermark.column, obj.watermark.expression))
    if obj.primary_key:
        lines.append("  PRIMARY KEY (%s) NOT ENFORCED" % ", ".join("`%s`" % k for k in obj.primary_key))
    from runtime.redaction import MASK, is_sensitive    # a password is never shown (a plain module: no Spark)
    opts = ",\n".join("  '%s' = '%s'" % (k, MASK if mask and is_sensitive(k) else v.replace("'", "''"))
                      for k, v in obj.options.items())
    partitioned = ("\nPARTITIONED BY (%s)" % ", ".join("`%s`" % k for k in obj.partition_keys)) \
        if obj.partition_keys else ""
    if obj.distribution:
        from .ddl import distribution_text
        partitioned = "\n" + distribution_text(obj.distribution) + partitioned
    return "CREATE TABLE %s (\n%s\n)%s WITH (\n%s\n)" % (quoted, ",\n".join(lines), partitioned, opts)
