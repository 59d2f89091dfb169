"""What a catalog holds: tables (with their schema, watermark, primary key and connector options), views and
functions, as definitions; and the session's catalogs (`Catalog`): which catalog and database are current and
what a name (`t`, `db.t`, `cat.db.t`) refers to. Names are case-sensitive, as in Flink.

The catalogs themselves (in memory, on disk, Spark's warehouse) are in planner/catalog_store.py and
planner/spark_warehouse.py; this module only resolves names across them."""

from contextlib import contextmanager
from dataclasses import dataclass, field

from .errors import SqlError

CATALOG = "default_catalog"
DATABASE = "default_database"
SPARK_CATALOG = "spark_catalog"


@dataclass
class ColumnDef:
    name: str
    type: str                 # Flink type text, upper case, e.g. "DECIMAL(10, 2)", "STRING NOT NULL"
    nullable: bool = True
    computed: str = None      # `c AS expr`: the expression's Flink SQL text
    metadata: str = None      # `c TYPE METADATA [FROM 'key']`: the metadata key
    comment: str = None

    @property
    def is_physical(self):
        return self.computed is None and self.metadata is None

    @property
    def is_proctime(self):
        return self.computed is not None and self.computed.strip().upper().replace(" ", "") == "PROCTIME()"


@dataclass
class WatermarkSpec:
    column: str               # the rowtime attribute
    expression: str           # Flink SQL text, e.g. "ts - INTERVAL '5' SECOND"
    delay_ms: int = 0         # for `col - INTERVAL ...` and `col`; None when the expression is another shape


@dataclass
class TableDef:
    name: str
    columns: list
    options: dict
    watermark: WatermarkSpec = None
    primary_key: list = field(default_factory=list)
    comment: str = None
    ddl: str = ""
    partition_keys: list = field(default_factory=list)   # PARTITIONED BY: folders key=value, not in the files
    distribution: dict = None         # DISTRIBUTED BY / INTO (ddl.py): kept and shown; a write to it is refused
    legacy_connector: bool = False    # declared with Flink's legacy 'connector.type' keys: a lookup source

    def column(self, name):
        for c in self.columns:
            if c.name == name:
                return c
        return None

    @property
    def physical_columns(self):
        return [c for c in self.columns if c.is_physical]

    @property
    def rowtime(self):
        return self.watermark.column if self.watermark else None


@dataclass
class ViewDef:
    name: str
    query: str                # the view's Flink SQL text
    columns: list = field(default_factory=list)   # [(name, type)], filled in by the planner
    temporary: bool = False
    ddl: str = ""
    context: list = field(default_factory=list)    # [catalog, database] current where it was made: its names' home


@dataclass
class FunctionDef:
    """A user function as CREATE FUNCTION declares it: `identifier` is what AS names (e.g. 'module.fn' for
    LANGUAGE PYTHON); `extras` holds what the function's kind needs beyond that (kept as given, stored as JSON in
    a persistent catalog)."""
    name: str
    identifier: str
    language: str = "PYTHON"
    temporary: bool = False
    extras: dict = field(default_factory=dict)



class Catalog:
    """The session's catalogs: `default_catalog` (in memory) and those CREATE CATALOG added, the current catalog
    and database (USE CATALOG / USE), and the lookup of a table, view or function by its 1-, 2- or 3-part name."""

    def __init__(self, warehouse=None):
        """warehouse: the Spark warehouse folder `spark_catalog` reads (default: ./spark-warehouse, Spark's)."""
        from .catalog_store import InMemoryCatalog
        from .spark_warehouse import WarehouseCatalog
        self.catalogs = {CATALOG: InMemoryCatalog(CATALOG, {"type": "generic_in_memory"}, DATABASE),
                         SPARK_CATALOG: WarehouseCatalog(SPARK_CATALOG, {"type": "spark", "warehouse": warehouse})}
        self.current_catalog = CATALOG
        self.current_database = DATABASE
        self.system_functions = {}     # temporary system functions, found from every database (python_functions)
        # () -> the FileCatalogStore CREATE / DROP CATALOG write to (planner/catalog_registrations.py), or None
        self.registrations = no_catalog_store

    # --- the current database's tables and views (what SHOW TABLES lists)
    @property
    def current(self):
        return self.catalogs[self.current_catalog].database(self.current_database)

    @property
    def tables(self):
        return self.current.tables

    @property
    def views(self):
        return self.current.views

    @contextmanager
    def resolving_in(self, context):
        """Names resolve as if `context` ([catalog, database]) were current: a view's query, where it was made."""
        saved = self.current_catalog, self.current_database
        if context and context[0] in self.catalogs:
            self.current_catalog, self.current_database = context
        try:
            yield
        finally:
            self.current_catalog, self.current_database = saved

    def disk_writes(self):
        """{catalog: how many changes it has written to disk so far} (0 for a catalog in memory)."""
        return {name: getattr(store, "writes", 0) for name, store in self.catalogs.items()}

    def wrote_since(self, before):
        """True when a catalog that was there at `before` (a disk_writes()) has written a change since."""
        return any(name in before and getattr(store, "writes", 0) != before[name]
                   for name, store in self.catalogs.items())

    # --- catalogs and databases
    def catalog(self, name):
        if name not in self.catalogs:
            raise SqlError("A catalog with name [%s] does not exist." % name,
                           hint="SHOW CATALOGS lists them: " + ", ".join(sorted(self.catalogs)))
        return self.catalogs[name]

    def add_catalog(self, store, if_not_exists=False):
        """Register a catalog; the catalog store (when the session has one) keeps its name and options."""
        if store.name in self.catalogs:
            if if_not_exists:
                return False
            raise SqlError("Catalog %s already exists." % store.name)
        kept = self.registrations()
        if kept is not None:
            try:
                kept.store(store.name, store.options)
            except OSError as e:
                raise SqlError("Could not store catalog %s in %s: %s" % (store.name, kept.path, e.strerror or e),
                               hint="'table.catalog-store.file.path' names the folder; 'table.catalog-store.kind' "
                                    "= 'generic_in_memory' keeps catalogs for this session only")
        self.catalogs[store.name] = store
        return True

    def drop_catalog(self, name, if_exists=False):
        if name not in self.catalogs:
            if if_exists:
                return False
            raise SqlError("Catalog %s does not exist." % name)
        if name == self.current_catalog:
            raise SqlError("Cannot drop a catalog which is currently in use.", hint="USE CATALOG another one first")
        kept = self.registrations()
        if kept is not None:
            kept.remove(name)
        del self.catalogs[name]
        return True

    def use_catalog(self, name):
        store = self.catalog(name)
        self.current_catalog = name
        self.current_database = store.default_database

    def database_path(self, name):
        """`db` or `cat.db` -> (catalog object, database name), both checked to exist? No: only the catalog."""
        parts = split_name(name)
        if len(parts) == 1:
            return self.catalog(self.current_catalog), parts[0]
        if len(parts) == 2:
            return self.catalog(parts[0]), parts[1]
        raise SqlError("A database is named `db` or `catalog.db`, not '%s'" % name)

    def use_database(self, name):
        store, db = self.database_path(name)
        store.database(db)       # raises when there is none
        self.current_catalog, self.current_database = store.name, db

    # --- objects by name
    def resolve(self, name):
        """`t`, `db.t` or `cat.db.t` -> (catalog object, database name, object name); the catalog must exist."""
        parts = split_name(name)
        if len(parts) == 1:
            return self.catalogs[self.current_catalog], self.current_database, parts[0]
        if len(parts) == 2:
            return self.catalogs[self.current_catalog], parts[0], parts[1]
        if len(parts) == 3:
            return self.catalog(parts[0]), parts[1], parts[2]
        raise SqlError("'%s' is not a table name: at most catalog.database.table" % name)

    def full_name(self, name):
        store, db, short = self.resolve(name)
        return "%s.%s.%s" % (store.name, db, short)

    def get(self, name):
        try:
            store, db, short = self.resolve(name)
        except SqlError:
            return None
        if not store.has_database(db):
            return None
        return store.database(db).get(short)

    def require(self, name, line=None, column=None):
        """The table or view `name`, or Flink's 'Object ... not found' naming the first part that is not there."""
        obj = self.get(name)
        if obj is not None:
            return obj
        parts = split_name(name)
        if len(parts) == 3 and parts[0] not in self.catalogs:
            raise SqlError("Object '%s' not found" % parts[0], line, column,
                           hint="catalogs: " + ", ".join(sorted(self.catalogs)))
        store, db, short = self.resolve(name)
        if not store.has_database(db):
            raise SqlError("Object '%s' not found within '%s'" % (db, store.name), line, column,
                           hint="its databases: " + ", ".join(store.list_databases()))
        names = store.database(db).names()
        close = [n for n in names if n.lower() == short.lower()]
        hint = ("names are case-sensitive: did you mean `%s`?" % close[0]) if close else \
            ("known tables and views in %s.%s: %s" % (store.name, db, ", ".join(names))) if names else \
            "no tables in %s.%s yet: CREATE TABLE first (or start with --demo)" % (store.name, db)
        where = "" if len(parts) == 1 else " within '%s.%s'" % (store.name, db)
        raise SqlError("Object '%s' not found%s" % (short, where), line, column, hint)

    def names(self):
        """The current database's tables and views, then every other database's as qualified names."""
        out = list(self.current.names())
        for cat_name, store in sorted(self.catalogs.items()):
            for db in store.list_databases():
                if (cat_name, db) == (self.current_catalog, self.current_database):
                    continue
                if not store.loaded_database(db):
                    continue
                try:
                    names = store.database(db).names()
                except SqlError:       # a Spark table dynsql cannot read: named when it is queried, not here
                    continue
                out += ["%s.%s.%s" % (cat_name, db, n) for n in names]
        return out

    def columns_of(self, name):
        obj = self.get(name)
        if obj is None:
            return []
        if isinstance(obj, TableDef):
            return [c.name for c in obj.columns]
        return [c for c, _ in obj.columns]

    # --- changes
    def _database_of(self, name):
        store, db, short = self.resolve(name)
        return store, store.database(db), short

    def add_table(self, table, if_not_exists=False, path=None, temporary=False):
        """`path`: the name as written (`t`, `db.t`, `cat.db.t`); `table.name` becomes its last part."""
        store, database, short = self._database_of(path or table.name)
        table.name = short
        if short in database.tables or short in database.views:
            if if_not_exists:
                return False
            raise SqlError("Table (or view) %s.%s already exists in Catalog %s." % (database.name, short, store.name),
                           hint="use CREATE TABLE IF NOT EXISTS, or DROP TABLE first")
        store.put(database.name, "table", table, temporary)
        return True

    def add_view(self, view, if_not_exists=False, or_replace=False, path=None):
        store, database, short = self._database_of(path or view.name)
        view.name = short
        view.context = view.context or [self.current_catalog, self.current_database]
        if short in database.tables or (short in database.views and not or_replace):
            if if_not_exists:
                return False
            raise SqlError("View '%s' already exists in %s.%s" % (short, store.name, database.name))
        store.put(database.name, "view", view, view.temporary)
        return True

    def replace_table(self, name, table):
        """ALTER TABLE: `table` takes the place of the table `name` (a RENAME TO has changed table.name)."""
        store, database, short = self._database_of(name)
        if table.name != short and (table.name in database.tables or table.name in database.views):
            raise SqlError("Table '%s' already exists in %s.%s" % (table.name, store.name, database.name))
        temporary = short in database.temporary
        store.remove(database.name, "table", short)
        store.put(database.name, "table", table, temporary)

    def drop(self, kind, name, if_exists=False):
        store, db, short = self.resolve(name)
        database = store.database(db) if store.has_database(db) else None
        held = {"TABLE": database.tables, "VIEW": database.views}[kind] if database else {}
        if short not in held:
            if if_exists:
                return False
            other = (database.views if kind == "TABLE" else database.tables) if database else {}
            hint = ("'%s' is a %s: use DROP %s" % (short, "view" if kind == "TABLE" else "table",
                                                   "VIEW" if kind == "TABLE" else "TABLE")) if short in other else None
            raise SqlError("%s with identifier '%s.%s.%s' does not exist." % (kind.title(), store.name, db, short),
                           hint=hint)
        store.remove(db, kind.lower(), short)
        return True

    # --- functions (CREATE FUNCTION): stored with their catalog; a persistent catalog keeps them on disk
    def add_function(self, function, if_not_exists=False, path=None):
        """Registers `function` (a FunctionDef) under `path` (`f`, `db.f`, `cat.db.f`; default its name) in that
        database; a persistent catalog writes it to disk unless it is temporary. -> False when it existed and
        `if_not_exists`."""
        store, database, short = self._database_of(path or function.name)
        function.name = short
        if short in database.functions:
            if if_not_exists:
                return False
            raise SqlError("Function %s.%s.%s already exists." % (store.name, database.name, short))
        store.put(database.name, "function", function, function.temporary)
        return True

    def get_function(self, name):
        """The FunctionDef named `name` (1-, 2- or 3-part), or None."""
        try:
            store, db, short = self.resolve(name)
        except SqlError:
            return None
        return store.database(db).functions.get(short) if store.has_database(db) else None

    def drop_function(self, name, if_exists=False):
        store, db, short = self.resolve(name)
        if not store.has_database(db) or short not in store.database(db).functions:
            if if_exists:
                return False
            raise SqlError("Function %s.%s.%s does not exist." % (store.name, db, short))
        store.remove(db, "function", short)
        return True

    def functions(self):
        """The current database's user functions: {name: FunctionDef}."""
        return dict(self.current.functions)


def split_name(name):
    """'a.`b.c`.d' -> ['a', 'b.c', 'd'] (backticks quote a part; `` is a backtick)."""
    parts, cur, i, quoted = [], "", 0, False
    while i < len(name):
        ch = name[i]
        if ch == "`":
            if quoted and name[i + 1:i + 2] == "`":
                cur += "`"
                i += 2
                continue
            quoted = not quoted
        elif ch == "." and not quoted:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    parts.append(cur.strip())
    if any(p == "" for p in parts):
        raise SqlError("'%s' is not a valid name" % name)
    return parts


def _strip_path(name):
    """`default_catalog.default_database.t` and `default_database.t` name `t` (the default database's)."""
    parts = split_name(name)
    if len(parts) == 3 and parts[0] == CATALOG and parts[1] == DATABASE:
        return parts[2]
    if len(parts) == 2 and parts[0] == DATABASE:
        return parts[1]
    return ".".join(parts)


def no_catalog_store():
    """The catalog store of a planner outside a client: none (a module's function, so a planner pickles)."""
    return None
