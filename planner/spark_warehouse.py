"""Spark's own tables, read by name: `spark_catalog` (and any `CREATE CATALOG w WITH ('type' = 'spark',
'warehouse' = '/path')`) is a Spark warehouse folder as `saveAsTable` leaves it:

    <warehouse>/<table>/part-*.parquet            the `default` database's tables
    <warehouse>/<database>.db/<table>/...         another database's (partitioned tables: key=value folders)

Each table folder holding parquet files is a table of the filesystem connector (format parquet), its columns read
from a parquet footer (pyarrow). The catalog is read-only: Spark owns these tables. Which warehouse is
`spark_catalog`'s: `spark.sql.warehouse.dir` (`dynsql -D spark.sql.warehouse.dir=/path`), else Spark's default,
`spark-warehouse` in the current folder."""

import os

from .catalog import ColumnDef, TableDef
from .catalog_store import Database
from .errors import SqlError

DEFAULT = "default"


class WarehouseCatalog:
    kind = "spark"
    options_allowed = ("type", "warehouse", "default-database")

    def __init__(self, name, options, default_database=DEFAULT):
        self.name = name
        self.options = dict(options)
        self.default_database = options.get("default-database", default_database)
        self.path = os.path.abspath(os.path.expanduser(options.get("warehouse") or "spark-warehouse"))
        self.comment = None

    def describe(self):
        return [("name", self.name), ("type", self.kind), ("comment", self.comment),
                ("warehouse", self.path)]

    # --- databases: the warehouse's folders, read at each look (Spark may add tables meanwhile)
    def list_databases(self):
        names = {DEFAULT}
        if os.path.isdir(self.path):
            names |= {n[:-3] for n in os.listdir(self.path)
                      if n.endswith(".db") and os.path.isdir(os.path.join(self.path, n))}
        return sorted(names)

    def has_database(self, name):
        return name in self.list_databases()

    def loaded_database(self, name):
        return self.has_database(name)

    def _folder(self, db):
        return self.path if db == DEFAULT else os.path.join(self.path, db + ".db")

    def database(self, name):
        if not self.has_database(name):
            raise SqlError("A database with name [%s] does not exist in the catalog: [%s]." % (name, self.name),
                           hint="the warehouse %s has the databases %s" % (self.path,
                                                                           ", ".join(self.list_databases())))
        database = Database(name)
        folder = self._folder(name)
        if os.path.isdir(folder):
            for entry in sorted(os.listdir(folder)):
                path = os.path.join(folder, entry)
                if entry.endswith(".db") or entry.startswith((".", "_")) or not os.path.isdir(path):
                    continue
                table = _table_of(entry, path)
                if table is not None:
                    database.tables[entry] = table
        return database

    def create_database(self, name, if_not_exists=False, comment=None):
        raise self._read_only("CREATE DATABASE")

    def drop_database(self, name, if_exists=False, cascade=False):
        raise self._read_only("DROP DATABASE")

    def put(self, db, kind, obj, temporary=False):
        raise self._read_only("CREATE %s" % kind.upper())

    def remove(self, db, kind, name):
        raise self._read_only("DROP %s" % kind.upper())

    def _read_only(self, what):
        return SqlError("Catalog '%s' is Spark's warehouse %s: dynsql reads its tables, %s is Spark's to do"
                        % (self.name, self.path, what),
                        hint="create tables in default_catalog or a 'dynsql' catalog")


def _parquet_files(path):
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
        for f in sorted(files):
            if f.endswith(".parquet") and not f.startswith((".", "_")):
                yield os.path.join(root, f)


def _table_of(name, path):
    """A table folder -> a TableDef (filesystem, parquet), or None when it holds no parquet file."""
    first = next(_parquet_files(path), None)
    if first is None:
        return None
    import pyarrow.parquet as pq
    try:
        schema = pq.read_schema(first)
    except Exception as e:          # a damaged footer: the table cannot be read, say which file
        raise SqlError("Spark table '%s': cannot read the parquet footer of %s: %s" % (name, first, e))
    partition_keys = []
    rel = os.path.relpath(os.path.dirname(first), path)
    if rel != ".":
        partition_keys = [part.split("=", 1)[0] for part in rel.split(os.sep) if "=" in part]
    columns = [ColumnDef(f.name, _flink_type(f.type)) for f in schema if f.name not in partition_keys]
    for key in partition_keys:
        columns.append(ColumnDef(key, "STRING"))
    return TableDef(name=name, columns=columns, partition_keys=partition_keys,
                    options={"connector": "filesystem", "path": path, "format": "parquet"})


def _flink_type(t):
    import pyarrow as pa
    simple = [(pa.types.is_boolean, "BOOLEAN"), (pa.types.is_int8, "TINYINT"), (pa.types.is_int16, "SMALLINT"),
              (pa.types.is_int32, "INT"), (pa.types.is_int64, "BIGINT"), (pa.types.is_float32, "FLOAT"),
              (pa.types.is_float64, "DOUBLE"), (pa.types.is_string, "STRING"), (pa.types.is_large_string, "STRING"),
              (pa.types.is_binary, "BYTES"), (pa.types.is_date32, "DATE")]
    for test, name in simple:
        if test(t):
            return name
    if pa.types.is_decimal(t):
        return "DECIMAL(%d, %d)" % (t.precision, t.scale)
    if pa.types.is_timestamp(t):
        return "TIMESTAMP_LTZ(6)" if t.tz else "TIMESTAMP(6)"
    if pa.types.is_list(t):
        return "ARRAY<%s>" % _flink_type(t.value_type)
    if pa.types.is_map(t):
        return "MAP<%s, %s>" % (_flink_type(t.key_type), _flink_type(t.item_type))
    if pa.types.is_struct(t):
        return "ROW<%s>" % ", ".join("`%s` %s" % (f.name, _flink_type(f.type)) for f in t)
    raise SqlError("A Spark table's column type %s has no Flink type in dynsql" % t)
