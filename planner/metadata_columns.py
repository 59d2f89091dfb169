"""Metadata columns (`c TYPE METADATA [FROM 'key'] [VIRTUAL]`): the keys each connector offers, as Flink 2.3's.

Flink's filesystem source (FileSystemTableSource) offers `file.path`, `file.name`, `file.size` and
`file.modification-time`; datagen and nexmark offer none. `check_metadata_columns(table, line, column)` gives
Flink's errors when a query reads such a table (CREATE TABLE accepts any key, as Flink's does): a key the
connector does not offer, a connector that offers none, a declared type the key's value cannot be cast to.
The runtime reads the values (runtime/connectors/split_reader.py: the split's file)."""

from .errors import SqlError
from .expr.types import parse_type

# key -> Flink type of the value, in the order Flink lists them
FILESYSTEM_METADATA = {
    "file.path": "STRING NOT NULL",
    "file.name": "STRING NOT NULL",
    "file.size": "BIGINT NOT NULL",
    "file.modification-time": "TIMESTAMP_LTZ(3) NOT NULL",
}
_SOURCE_CLASS = {"datagen": "DataGenTableSource", "nexmark": "NexmarkTableSource"}
# the declared types a key's value may be cast to (Flink: the type must be castable from the key's type)
_CASTABLE = {
    "STRING": ("CHAR", "VARCHAR", "STRING"),
    "BIGINT": ("TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL", "CHAR", "VARCHAR",
               "STRING"),
    "TIMESTAMP_LTZ": ("TIMESTAMP", "TIMESTAMP_LTZ", "DATE", "TIME", "CHAR", "VARCHAR", "STRING"),
}


def metadata_columns(table):
    """[(column, key)] of the table's metadata columns."""
    return [(c, c.metadata) for c in table.columns if c.metadata is not None]


def check_metadata_columns(table, line=None, column=None):
    columns = metadata_columns(table)
    if not columns:
        return
    conn = table.options.get("connector")
    if conn != "filesystem":
        raise SqlError("Table '%s' declares metadata columns, but the underlying DynamicTableSource doesn't "
                       "implement the SupportsReadingMetadata interface. Therefore, metadata cannot be read from "
                       "the given source." % _SOURCE_CLASS.get(conn, table.name), line, column,
                       "the '%s' connector offers no metadata: drop the METADATA column(s) %s"
                       % (conn, ", ".join(c.name for c, _ in columns)))
    for c, key in columns:
        if key not in FILESYSTEM_METADATA:
            raise SqlError("Invalid metadata key '%s' in column '%s' of table '%s'. The DynamicTableSource class "
                           "'org.apache.flink.connector.file.table.FileSystemTableSource' supports the following "
                           "metadata keys for reading:\n%s" % (key, c.name, _qualified(table.name),
                                                               "\n".join(FILESYSTEM_METADATA)), line, column)
        offered = FILESYSTEM_METADATA[key].split("(")[0].split()[0]
        declared = parse_type(c.type).name
        if declared not in _CASTABLE[offered]:
            raise SqlError("Invalid data type for metadata column '%s' of table '%s'. The column cannot be declared "
                           "as '%s' because the type must be castable from metadata type '%s'."
                           % (c.name, _qualified(table.name), c.type, FILESYSTEM_METADATA[key]), line, column)


def _qualified(name):
    return name if "." in name else "default_catalog.default_database." + name
