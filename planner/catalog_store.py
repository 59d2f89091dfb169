"""The catalogs CREATE CATALOG makes: Flink's `generic_in_memory` (gone at exit) and dynsql's persistent
`dynsql` catalog, a folder of JSON files that the next session (and every job process) reads back.

Why a folder of JSON and not Spark's metastore: an INSERT INTO job is a process of its own that re-reads the
catalog while the shell runs, and Spark's default metastore (embedded Derby) admits one process at a time; a
metastore table also cannot hold what a Flink table is (computed and metadata columns, the watermark, connector
options) without encoding it in table properties. The folder is plain to read and back up:

    <path>/<database>/<name>.table.json | .view.json | .function.json

one file per object (the definition's fields), folders 0700 and files 0600 (a table's options may hold a
password), each written whole to a temporary file and renamed over the old one."""

import json
import os
from dataclasses import asdict, field, dataclass
from urllib.parse import quote, unquote

from .catalog import ColumnDef, FunctionDef, TableDef, ViewDef, WatermarkSpec
from .errors import SqlError

KINDS = {"table": "tables", "view": "views", "function": "functions"}


@dataclass
class Database:
    name: str
    tables: dict = field(default_factory=dict)
    views: dict = field(default_factory=dict)
    functions: dict = field(default_factory=dict)
    temporary: set = field(default_factory=set)      # names of its temporary objects (never written to disk)
    comment: str = None

    def get(self, name):
        return self.tables.get(name) or self.views.get(name)

    def names(self):
        return sorted(set(self.tables) | set(self.views))


class InMemoryCatalog:
    """Flink's generic_in_memory catalog: databases of tables, views and functions, for this session only."""

    kind = "generic_in_memory"
    options_allowed = ("type", "default-database")

    def __init__(self, name, options, default_database="default"):
        self.name = name
        self.options = dict(options)
        self.comment = None
        self.default_database = options.get("default-database", default_database)
        self.databases = {self.default_database: Database(self.default_database)}

    def describe(self):
        return [("name", self.name), ("type", self.kind), ("comment", self.comment)]

    # --- databases
    def list_databases(self):
        return sorted(self.databases)

    def has_database(self, name):
        return name in self.databases

    def loaded_database(self, name):
        return name in self.databases

    def database(self, name):
        if name not in self.databases:
            raise SqlError("A database with name [%s] does not exist in the catalog: [%s]." % (name, self.name),
                           hint="SHOW DATABASES lists them: " + ", ".join(self.list_databases()))
        return self.databases[name]

    def create_database(self, name, if_not_exists=False, comment=None):
        if name in self.databases:
            if if_not_exists:
                return False
            raise SqlError("Database %s already exists in Catalog %s." % (name, self.name))
        self.databases[name] = Database(name, comment=comment)
        self._written_database(name)
        return True

    def drop_database(self, name, if_exists=False, cascade=False):
        if name not in self.databases:
            if if_exists:
                return False
            raise SqlError("Database %s does not exist in Catalog %s." % (name, self.name))
        db = self.databases[name]
        if (db.tables or db.views or db.functions) and not cascade:
            raise SqlError("Database %s in catalog %s is not empty." % (name, self.name),
                           hint="DROP DATABASE %s CASCADE drops it with its tables, views and functions" % name)
        del self.databases[name]
        self._removed_database(name)
        return True

    # --- objects
    def put(self, db, kind, obj, temporary=False):
        database = self.database(db)
        getattr(database, KINDS[kind])[obj.name] = obj
        if temporary:
            database.temporary.add(obj.name)
        else:
            database.temporary.discard(obj.name)
            self._written(db, kind, obj)

    def remove(self, db, kind, name):
        database = self.database(db)
        del getattr(database, KINDS[kind])[name]
        if name in database.temporary:
            database.temporary.discard(name)
        else:
            self._removed(db, kind, name)

    # --- what a persistent catalog does on a change (nothing here)
    def _written(self, db, kind, obj):
        pass

    def _removed(self, db, kind, name):
        pass

    def _written_database(self, name):
        pass

    def _removed_database(self, name):
        pass


class DirectoryCatalog(InMemoryCatalog):
    """`CREATE CATALOG c WITH ('type' = 'dynsql', 'path' = '/some/folder')`: an in-memory catalog whose every
    change is also written to the folder, and which starts from what the folder holds."""

    kind = "dynsql"
    options_allowed = ("type", "path", "default-database")

    def __init__(self, name, options, default_database="default"):
        if not options.get("path"):
            raise SqlError("Catalog '%s': the 'dynsql' catalog needs the option 'path' (the folder it keeps its "
                           "tables, views and functions in)" % name)
        super().__init__(name, options, default_database)
        self.path = os.path.abspath(os.path.expanduser(options["path"]))
        self._load()
        if not os.path.isdir(self._folder(self.default_database)):
            self._written_database(self.default_database)

    def describe(self):
        return super().describe() + [("path", self.path)]

    def _folder(self, db):
        return os.path.join(self.path, quote(db, safe=""))

    def _file(self, db, kind, name):
        return os.path.join(self._folder(db), "%s.%s.json" % (quote(name, safe=""), kind))

    def _load(self):
        try:
            from runtime.private_files import private_folder
            private_folder(self.path)
            entries = sorted(os.listdir(self.path))
        except OSError as e:
            raise SqlError("Catalog '%s': cannot use the folder %s: %s" % (self.name, self.path, e))
        for entry in entries:
            folder = os.path.join(self.path, entry)
            if not os.path.isdir(folder):
                continue
            db = Database(unquote(entry))
            for file_name in sorted(os.listdir(folder)):
                parts = file_name.rsplit(".", 2)
                if len(parts) != 3 or parts[2] != "json" or parts[1] not in KINDS:
                    continue
                try:
                    with open(os.path.join(folder, file_name)) as f:
                        obj = _from_json(parts[1], json.load(f))
                except (OSError, ValueError, TypeError, KeyError) as e:
                    raise SqlError("Catalog '%s': cannot read %s: %s" % (self.name, os.path.join(folder, file_name),
                                                                           e))
                getattr(db, KINDS[parts[1]])[obj.name] = obj
            self.databases[db.name] = db

    writes = 0

    def _write(self, path, data):
        self.writes += 1
        from runtime.private_files import open_private
        tmp = path + ".tmp"
        with open_private(tmp, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
        os.replace(tmp, path)

    def _written(self, db, kind, obj):
        self._write(self._file(db, kind, obj.name), asdict(obj))

    def _removed(self, db, kind, name):
        self.writes += 1
        try:
            os.remove(self._file(db, kind, name))
        except FileNotFoundError:
            pass

    def _written_database(self, name):
        from runtime.private_files import private_folder
        self.writes += 1
        private_folder(self._folder(name))

    def _removed_database(self, name):
        self.writes += 1
        import shutil
        shutil.rmtree(self._folder(name), ignore_errors=True)


def _from_json(kind, data):
    if kind == "table":
        data["columns"] = [ColumnDef(**c) for c in data["columns"]]
        if data.get("watermark"):
            data["watermark"] = WatermarkSpec(**data["watermark"])
        return TableDef(**data)
    if kind == "view":
        data["columns"] = [tuple(c) for c in data.get("columns", [])]
        return ViewDef(**data)
    return FunctionDef(**data)


def make_catalog(name, options):
    """CREATE CATALOG's WITH options -> the catalog (its 'type' chooses which)."""
    from .spark_warehouse import WarehouseCatalog
    types = {"generic_in_memory": InMemoryCatalog, "dynsql": DirectoryCatalog, "spark": WarehouseCatalog}
    kind = options.get("type")
    if kind is None:
        raise SqlError("Catalog '%s' has no 'type' option" % name,
                       hint="'type' = 'generic_in_memory' | 'dynsql' (persistent: with 'path') | 'spark' "
                            "(a Spark warehouse: with 'warehouse')")
    if kind not in types:
        raise SqlError("Could not find any factory for identifier '%s' that implements "
                       "'org.apache.flink.table.factories.CatalogFactory' in the classpath." % kind,
                       hint="dynsql's catalog types: " + ", ".join(types))
    cls = types[kind]
    unknown = sorted(k for k in options if k not in cls.options_allowed)
    if unknown:
        raise SqlError("Unsupported options found for '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s"
                       % (kind, "\n".join(unknown), "\n".join(sorted(cls.options_allowed))))
    return cls(name, options)
