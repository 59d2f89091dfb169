"""The options of a `'connector' = 'jdbc'` table, checked as Flink's JdbcDynamicTableFactory checks them: the
keys it knows (anything else refused with FactoryUtil's "Unsupported options found for 'jdbc'" message), the
required ones, the groups that go together, the values' forms, and the column types the PostgreSQL dialect
supports (the one database dynsql's JDBC connector speaks: a `jdbc:postgresql:` url)."""

import re

from .errors import SqlError, UnsupportedError
from .settings import parse_duration_ms

REQUIRED = ("url", "table-name")
SCAN_PARTITION = ("scan.partition.column", "scan.partition.num", "scan.partition.lower-bound",
                  "scan.partition.upper-bound")
OPTIONS = frozenset(("connector", "url", "table-name", "driver", "username", "password",
                     "connection.max-retry-timeout", "compatible-mode",
                     *SCAN_PARTITION, "scan.fetch-size", "scan.auto-commit",
                     "lookup.cache", "lookup.partial-cache.max-rows", "lookup.partial-cache.expire-after-write",
                     "lookup.partial-cache.expire-after-access", "lookup.partial-cache.cache-missing-key",
                     "lookup.max-retries", "lookup.cache.max-rows", "lookup.cache.ttl",
                     "lookup.cache.caching-missing-key",
                     "sink.buffer-flush.max-rows", "sink.buffer-flush.interval", "sink.max-retries",
                     "sink.parallelism", "property-version"))
_INTEGERS = {"scan.partition.num": 1, "scan.fetch-size": 0, "lookup.partial-cache.max-rows": 1,
             "lookup.max-retries": 0, "lookup.cache.max-rows": 1, "sink.buffer-flush.max-rows": 0,
             "sink.max-retries": 0, "sink.parallelism": 1}
_DURATIONS = ("connection.max-retry-timeout", "lookup.partial-cache.expire-after-write",
              "lookup.partial-cache.expire-after-access", "lookup.cache.ttl", "sink.buffer-flush.interval")
_BOOLEANS = ("scan.auto-commit", "lookup.partial-cache.cache-missing-key", "lookup.cache.caching-missing-key")
# Flink's PostgresDialect.supportedTypes(), with its precision ranges
_SUPPORTED_TYPES = {"CHAR", "VARCHAR", "STRING", "BOOLEAN", "VARBINARY", "BYTES", "DECIMAL", "TINYINT", "SMALLINT",
                    "INT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ",
                    "ARRAY"}


def check_jdbc_options(table, line=None, column=None):
    o = table.options
    unknown = sorted(k for k in o if k not in OPTIONS)
    if unknown:
        raise SqlError("Unsupported options found for 'jdbc'.\n\nUnsupported options:\n\n%s\n\nSupported options:"
                       "\n\n%s" % ("\n".join(unknown), "\n".join(sorted(OPTIONS))), line, column,
                       hint="table '%s': check the spelling of %s" % (table.name, ", ".join(unknown)))
    missing = [k for k in REQUIRED if k not in o]
    if missing:
        raise SqlError("One or more required options are missing.\n\nMissing required options are:\n\n%s"
                       % "\n".join(missing), line, column, hint="table '%s'" % table.name)
    if not str(o["url"]).startswith("jdbc:postgresql:"):
        raise UnsupportedError("Could not find any jdbc dialect factory that can handle url '%s' (table '%s')"
                               % (o["url"], table.name), line, column,
                               hint="dynsql's jdbc connector speaks PostgreSQL: 'jdbc:postgresql://host:port/db'")
    if "driver" in o and o["driver"] != "org.postgresql.Driver":
        raise UnsupportedError("Table '%s': driver '%s' is not PostgreSQL's (org.postgresql.Driver)"
                               % (table.name, o["driver"]), line, column)
    if str(o.get("compatible-mode", "")).strip():
        raise UnsupportedError("Table '%s': 'compatible-mode' = '%s' is for databases that emulate another (such as "
                               "OceanBase's mysql and oracle modes); PostgreSQL has no such mode"
                               % (table.name, o["compatible-mode"]), line, column,
                               hint="leave 'compatible-mode' out")
    _all_or_none(table, ("username", "password"), line, column)
    _all_or_none(table, SCAN_PARTITION, line, column)
    _all_or_none(table, ("lookup.cache.max-rows", "lookup.cache.ttl"), line, column)
    for key, low in _INTEGERS.items():
        if key in o:
            try:
                ok = int(o[key]) >= low
            except ValueError:
                ok = False
            if not ok:
                raise SqlError("Table '%s': the value of '%s' option must be an integer >= %d, but is '%s'."
                               % (table.name, key, low, o[key]), line, column)
    for key in ("scan.partition.lower-bound", "scan.partition.upper-bound"):
        if key in o and not re.fullmatch(r"\s*-?\d+\s*", str(o[key])):
            raise SqlError("Table '%s': '%s' must be a whole number, not '%s'" % (table.name, key, o[key]),
                           line, column)
    if "scan.partition.column" in o:
        if int(o["scan.partition.lower-bound"]) > int(o["scan.partition.upper-bound"]):
            raise SqlError("'scan.partition.lower-bound'='%s' must not be larger than "
                           "'scan.partition.upper-bound'='%s'." % (o["scan.partition.lower-bound"],
                                                                   o["scan.partition.upper-bound"]), line, column)
        col = table.column(o["scan.partition.column"])
        if col is None or not col.is_physical:
            raise SqlError("Table '%s': 'scan.partition.column' names no column: '%s'"
                           % (table.name, o["scan.partition.column"]), line, column)
        if not re.match(r"\s*(TINYINT|SMALLINT|INT|INTEGER|BIGINT|DECIMAL|NUMERIC|DATE|TIMESTAMP)\b", col.type, re.I):
            raise SqlError("Table '%s': the partition column '%s' must be numeric, a date or a timestamp, not %s"
                           % (table.name, col.name, col.type), line, column)
    for key in _DURATIONS:
        if key in o:
            try:
                ms = parse_duration_ms(o[key])
            except Exception:
                ms = None
            if ms is None or ms < 0:
                raise SqlError("Table '%s': option '%s' must be a duration such as '10 s' or '1 min', not '%s'"
                               % (table.name, key, o[key]), line, column)
            if key == "connection.max-retry-timeout" and (ms < 1000 or ms % 1000):
                raise SqlError("The value of 'connection.max-retry-timeout' option must be in second granularity "
                               "and shouldn't be smaller than 1 second, but is %s." % o[key], line, column)
    for key in _BOOLEANS:
        if key in o and str(o[key]).strip().lower() not in ("true", "false"):
            raise SqlError("Table '%s': option '%s' must be 'true' or 'false', not '%s'" % (table.name, key, o[key]),
                           line, column)
    cache = str(o.get("lookup.cache", "NONE")).upper()
    if cache not in ("NONE", "PARTIAL"):
        raise UnsupportedError("Table '%s': 'lookup.cache' must be 'NONE' or 'PARTIAL', not '%s'"
                               % (table.name, o["lookup.cache"]), line, column,
                               hint="FULL (a cache reloaded as a whole) is not in dynsql's jdbc connector")
    if cache == "PARTIAL" and "lookup.partial-cache.max-rows" not in o:
        raise SqlError("Table '%s': 'lookup.cache' = 'PARTIAL' needs 'lookup.partial-cache.max-rows'" % table.name,
                       line, column)
    if table.partition_keys:
        raise UnsupportedError("Table '%s': PARTITIONED BY needs the filesystem connector, not 'jdbc'"
                               % table.name, line, column)
    for c in table.physical_columns:
        _check_type(table, c, line, column)


def _all_or_none(table, keys, line, column):
    given = [k for k in keys if k in table.options]
    if given and len(given) != len(keys):
        raise SqlError("Either all or none of the following options should be provided:\n%s" % "\n".join(keys),
                       line, column, hint="table '%s' gives only %s" % (table.name, ", ".join(given)))


def _check_type(table, col, line, column):
    from .expr.types import parse_type
    t = parse_type(col.type)
    ok = t.name in _SUPPORTED_TYPES
    if ok and t.name == "ARRAY":
        ok = t.children[0].name in _SUPPORTED_TYPES - {"ARRAY"}
    if ok and t.name in ("TIMESTAMP", "TIMESTAMP_LTZ", "TIME") and t.params:
        ok = 0 <= t.params[0] <= 6
    if not ok:
        raise UnsupportedError("The PostgreSQL dialect doesn't support type: %s." % col.type, line, column,
                               hint="table '%s', column '%s'" % (table.name, col.name))
