"""Connector and format options a table may declare, checked when the table is created."""

from .errors import SqlError, UnsupportedError

CONNECTORS = ("filesystem", "datagen", "print", "blackhole")
FORMATS = ("csv", "json", "parquet", "debezium-json", "canal-json")
CHANGELOG_FORMATS = ("debezium-json", "canal-json")

_COMMON = {"connector", "format", "path", "source.monitor-interval", "replay.rows-per-second",
           "scan.rows-per-batch", "sink.rolling-policy.file-size", "sink.rolling-policy.rollover-interval",
           "partition.default-name"}
_FORMAT_PREFIXES = tuple(f + "." for f in FORMATS)
_DATAGEN = {"connector", "rows-per-second", "number-of-rows", "scan.parallelism"}
_PRINT = {"connector", "print-identifier", "standard-error", "sink.parallelism"}


def check_table_options(table, line=None, column=None):
    o = table.options
    conn = o.get("connector")
    if conn is None:
        raise SqlError("Table '%s' has no 'connector' option" % table.name, line, column,
                       hint="e.g. WITH ('connector' = 'filesystem', 'path' = '...', 'format' = 'csv')")
    if conn not in CONNECTORS:
        raise UnsupportedError("Unsupported connector '%s' for table '%s'" % (conn, table.name), line, column,
                               hint="dynsql has the connectors " + ", ".join(CONNECTORS))
    if conn == "filesystem":
        for k in ("path", "format"):
            if k not in o:
                raise SqlError("Table '%s': the filesystem connector needs the option '%s'" % (table.name, k),
                               line, column)
        if o["format"] not in FORMATS:
            raise UnsupportedError("Unsupported format '%s' for table '%s'" % (o["format"], table.name),
                                   line, column, hint="formats: " + ", ".join(FORMATS))
        unknown = [k for k in o if k not in _COMMON and not k.startswith(_FORMAT_PREFIXES)]
        _positive(o, "replay.rows-per-second", table, line, column)
        _positive(o, "scan.rows-per-batch", table, line, column)
    elif conn == "datagen":
        unknown = [k for k in o if k not in _DATAGEN and not k.startswith("fields.")]
        for k in o:
            if k.startswith("fields."):
                parts = k.split(".")
                if len(parts) != 3 or table.column(parts[1]) is None:
                    raise SqlError("Table '%s': option '%s' names no column" % (table.name, k), line, column)
                if parts[2] not in ("kind", "min", "max", "length", "start", "end", "null-rate", "max-past",
                                    "element.length"):
                    raise SqlError("Table '%s': unknown datagen option '%s'" % (table.name, k), line, column,
                                   hint="fields.<f>.kind|min|max|length|start|end|null-rate")
                if parts[2] == "kind" and o[k] not in ("random", "sequence"):
                    raise SqlError("Table '%s': '%s' must be 'random' or 'sequence'" % (table.name, k),
                                   line, column)
        _positive(o, "rows-per-second", table, line, column)
        _positive(o, "number-of-rows", table, line, column)
    else:
        unknown = [k for k in o if k not in _PRINT]
    if unknown:
        raise SqlError("Unsupported options for table '%s' (connector '%s'): %s"
                       % (table.name, conn, ", ".join("'%s'" % k for k in sorted(unknown))), line, column)


def _positive(o, key, table, line, column):
    if key in o:
        try:
            ok = float(o[key]) > 0
        except ValueError:
            ok = False
        if not ok:
            raise SqlError("Table '%s': option '%s' must be a positive number, not '%s'"
                           % (table.name, key, o[key]), line, column)
