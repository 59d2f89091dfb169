"""The catalog `default_catalog.default_database`: tables (with their schema, watermark, primary key and
connector options) and views. Names are case-sensitive, as in Flink."""

from dataclasses import dataclass, field

from .errors import SqlError

CATALOG = "default_catalog"
DATABASE = "default_database"


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


class Catalog:
    def __init__(self):
        self.tables = {}
        self.views = {}
        self.functions = {}     # lower-case name -> planner.python_functions.definition.PythonFunction

    # --- lookup
    def get(self, name):
        name = _strip_path(name)
        if name in self.tables:
            return self.tables[name]
        if name in self.views:
            return self.views[name]
        return None

    def require(self, name, line=None, column=None):
        obj = self.get(name)
        if obj is None:
            short = _strip_path(name)
            close = [n for n in self.names() if n.lower() == short.lower()]
            hint = ("names are case-sensitive: did you mean `%s`?" % close[0]) if close else \
                ("known tables and views: " + ", ".join(self.names())) if self.names() else \
                "no tables yet: CREATE TABLE first (or start with --demo)"
            raise SqlError("Object '%s' not found" % short, line, column, hint)
        return obj

    def names(self):
        return sorted(set(self.tables) | set(self.views))

    def columns_of(self, name):
        obj = self.get(name)
        if obj is None:
            return []
        if isinstance(obj, TableDef):
            return [c.name for c in obj.columns]
        return [c for c, _ in obj.columns]

    # --- changes
    def add_table(self, table, if_not_exists=False):
        if table.name in self.tables or table.name in self.views:
            if if_not_exists:
                return False
            raise SqlError("Table '%s' already exists in %s.%s" % (table.name, CATALOG, DATABASE),
                           hint="use CREATE TABLE IF NOT EXISTS, or DROP TABLE first")
        self.tables[table.name] = table
        return True

    def add_view(self, view, if_not_exists=False, or_replace=False):
        if view.name in self.tables or (view.name in self.views and not or_replace):
            if if_not_exists:
                return False
            raise SqlError("View '%s' already exists in %s.%s" % (view.name, CATALOG, DATABASE))
        self.views[view.name] = view
        return True

    def drop(self, kind, name, if_exists=False):
        name = _strip_path(name)
        store = self.tables if kind == "TABLE" else self.views
        if name not in store:
            if if_exists:
                return False
            other = self.views if kind == "TABLE" else self.tables
            hint = ("'%s' is a %s: use DROP %s" % (name, "view" if kind == "TABLE" else "table",
                                                   "VIEW" if kind == "TABLE" else "TABLE")) if name in other else None
            raise SqlError("%s '%s' does not exist" % (kind.title(), name), hint=hint)
        del store[name]
        return True


def _strip_path(name):
    """`default_catalog.default_database.t` and `default_database.t` name `t`."""
    parts = [p.strip("`") for p in name.split(".")]
    if len(parts) == 3 and parts[0] == CATALOG and parts[1] == DATABASE:
        return parts[2]
    if len(parts) == 2 and parts[0] == DATABASE:
        return parts[1]
    return ".".join(parts)
