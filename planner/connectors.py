"""Connector and format options a table may declare, checked when the table is created; for the nexmark
connector also its schema (Nexmark's four columns) and whether its rowtime is each event's own time."""

import re

from .errors import SqlError, UnsupportedError
from .filesystem_options import OPTIONS as FILESYSTEM_OPTIONS, check_filesystem_options, map_legacy_options

CONNECTORS = ("filesystem", "datagen", "nexmark", "print", "blackhole", "jdbc")
FORMATS = ("csv", "json", "parquet", "debezium-json", "canal-json")
CHANGELOG_FORMATS = ("debezium-json", "canal-json")

_COMMON = {"connector", "format", "path", "source.monitor-interval", "replay.rows-per-second",
           "scan.rows-per-batch", "sink.rolling-policy.file-size", "partition.default-name"} | FILESYSTEM_OPTIONS
# each format's options dynsql reads (Flink's others are refused, named)
FORMAT_OPTIONS = {
    "csv": ("field-delimiter", "quote-character", "disable-quote-character", "allow-comments", "ignore-parse-errors",
            "escape-character", "null-literal"),
    "json": ("fail-on-missing-field", "ignore-parse-errors"),
    "parquet": (),
    "debezium-json": ("ignore-parse-errors",),
    "canal-json": ("ignore-parse-errors",),
}
_DATAGEN = {"connector", "rows-per-second", "number-of-rows", "scan.parallelism"}
_DATAGEN_FIELD_KEYS = ("kind", "min", "max", "length", "start", "end", "null-rate", "max-past", "element.length")
_PRINT = {"connector", "print-identifier", "standard-error", "sink.parallelism"}
_BLACKHOLE = {"connector"}
# Nexmark's source options (nexmark-flink's NexmarkSourceOptions), then dynsql's own
_NEXMARK_INTS = {"first-event.rate": 1, "next-event.rate": 1, "person.proportion": 0, "auction.proportion": 0,
                 "bid.proportion": 0, "bid.hot-ratio.auctions": 1, "bid.hot-ratio.bidders": 1,
                 "auction.hot-ratio.sellers": 1, "events.num": 0, "stop-at": -1, "seed": 0,
                 "scan.parallelism": 1, "scan.rows-per-batch": 1}      # option -> its smallest value
_NEXMARK_SIZES = ("person.avg-size", "auction.avg-size", "bid.avg-size")
_NEXMARK_BOOLEANS = ("rate.limited", "keep-alive", "max-emit-speed")
_NEXMARK = ({"connector", "rate.shape", "rate.period", "base-time"} | set(_NEXMARK_INTS) | set(_NEXMARK_SIZES)
            | set(_NEXMARK_BOOLEANS))
# Nexmark's schema (its NexmarkTableSource): the source fills columns by position
_NEXMARK_SCHEMA = (
    ("event_type", "INT"),
    ("person", (("id", "BIGINT"), ("name", "VARCHAR"), ("emailAddress", "VARCHAR"), ("creditCard", "VARCHAR"),
                ("city", "VARCHAR"), ("state", "VARCHAR"), ("dateTime", "TIMESTAMP"), ("extra", "VARCHAR"))),
    ("auction", (("id", "BIGINT"), ("itemName", "VARCHAR"), ("description", "VARCHAR"), ("initialBid", "BIGINT"),
                 ("reserve", "BIGINT"), ("dateTime", "TIMESTAMP"), ("expires", "TIMESTAMP"), ("seller", "BIGINT"),
                 ("category", "BIGINT"), ("extra", "VARCHAR"))),
    ("bid", (("auction", "BIGINT"), ("bidder", "BIGINT"), ("price", "BIGINT"), ("channel", "VARCHAR"),
             ("url", "VARCHAR"), ("dateTime", "TIMESTAMP"), ("extra", "VARCHAR"))),
)
# ddl_gen.sql's rowtime: each event's own time
NEXMARK_EVENT_TIME = ("CASE WHEN event_type = 0 THEN person.`dateTime` WHEN event_type = 1 THEN auction.`dateTime` "
                      "ELSE bid.`dateTime` END")


def check_table_options(table, line=None, column=None):
    map_legacy_options(table, line, column)
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
        supported = _COMMON | {"%s.%s" % (o["format"], k) for k in FORMAT_OPTIONS[o["format"]]}
        unknown = [k for k in o if k not in supported]
        _positive(o, "replay.rows-per-second", table, line, column)
        _positive(o, "scan.rows-per-batch", table, line, column)
        check_filesystem_options(table, line, column)
    elif conn == "datagen":
        supported = _DATAGEN | {"fields.#.%s" % k for k in _DATAGEN_FIELD_KEYS}
        unknown = [k for k in o if k not in _DATAGEN and not k.startswith("fields.")]
        for k in o:
            if k.startswith("fields."):
                parts = k.split(".")
                if len(parts) < 3 or table.column(parts[1]) is None:
                    raise SqlError("Table '%s': option '%s' names no column" % (table.name, k), line, column)
                if ".".join(parts[2:]) not in _DATAGEN_FIELD_KEYS:
                    raise SqlError("Table '%s': unknown datagen option '%s'" % (table.name, k), line, column,
                                   hint="fields.<f>.kind|min|max|length|start|end|null-rate")
                if parts[2] == "kind" and o[k] not in ("random", "sequence"):
                    raise SqlError("Table '%s': '%s' must be 'random' or 'sequence'" % (table.name, k),
                                   line, column)
        _positive(o, "rows-per-second", table, line, column)
        _row_count(o, "number-of-rows", table, line, column)
    elif conn == "jdbc":
        from .jdbc_options import check_jdbc_options
        return check_jdbc_options(table, line, column)
    elif conn == "nexmark":
        supported = _NEXMARK
        unknown = [k for k in o if k not in _NEXMARK]
        _check_nexmark(table, line, column)
    else:
        supported = _PRINT if conn == "print" else _BLACKHOLE
        unknown = [k for k in o if k not in supported]
    if table.partition_keys and conn != "filesystem":
        raise UnsupportedError("Table '%s': PARTITIONED BY needs the filesystem connector, not '%s'"
                               % (table.name, conn), line, column)
    if unknown:
        raise unsupported_options(table, conn, unknown, supported, line, column)


def unsupported_options(table, factory, unknown, supported, line=None, column=None):
    """Flink's error for options no factory consumed: each unknown key, then every supported one; the hint names
    the table and a supported key close to each unknown one (a misspelling)."""
    import difflib
    close = ["'%s' (not '%s')" % (m[0], k) for k in sorted(unknown)
             for m in [difflib.get_close_matches(k, sorted(supported), n=1, cutoff=0.8)] if m]
    hint = "table '%s': %s" % (table.name, ("did you mean " + ", ".join(close)) if close else
                               "check the spelling of " + ", ".join(sorted(unknown)))
    return SqlError("Unsupported options found for '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s"
                    % (factory, "\n".join(sorted(unknown)), "\n".join(sorted(supported))), line, column, hint=hint)


def _positive(o, key, table, line, column):
    if key in o:
        try:
            ok = float(o[key]) > 0
        except ValueError:
            ok = False
        if not ok:
            raise SqlError("Table '%s': option '%s' must be a positive number, not '%s'"
                           % (table.name, key, o[key]), line, column)


def _row_count(o, key, table, line, column):
    """A whole number of rows, 0 included (Flink's datagen takes '0': an empty bounded table)."""
    if key in o and not re.fullmatch(r"\s*\+?[0-9]+\s*", o[key]):
        raise SqlError("Table '%s': option '%s' must be a whole number of rows (0 or more), not '%s'"
                       % (table.name, key, o[key]), line, column)


def _check_nexmark(table, line, column):
    o = table.options
    for key, low in _NEXMARK_INTS.items():
        if key in o:
            try:
                ok = int(o[key]) >= low
            except ValueError:
                ok = False
            if not ok:
                raise SqlError("Table '%s': option '%s' must be an integer >= %d, not '%s'"
                               % (table.name, key, low, o[key]), line, column)
    if sum(int(o.get(k, d)) for k, d in (("person.proportion", 1), ("auction.proportion", 3),
                                         ("bid.proportion", 46))) <= 0:
        raise SqlError("Table '%s': the person, auction and bid proportions add up to 0" % table.name, line, column)
    for key in _NEXMARK_SIZES:
        if key in o and not re.fullmatch(r"\s*\d+\s*(b|bytes|k|kb|m|mb)?\s*", str(o[key]).lower()):
            raise SqlError("Table '%s': option '%s' must be a size such as '200b' or '1kb', not '%s'"
                           % (table.name, key, o[key]), line, column)
    for key in _NEXMARK_BOOLEANS:
        if key in o and str(o[key]).strip().lower() not in ("true", "false"):
            raise SqlError("Table '%s': option '%s' must be 'true' or 'false', not '%s'" % (table.name, key, o[key]),
                           line, column)
    if "rate.shape" in o and str(o["rate.shape"]).upper() not in ("SQUARE", "SINE"):
        raise SqlError("Table '%s': option 'rate.shape' must be 'SQUARE' or 'SINE', not '%s'"
                       % (table.name, o["rate.shape"]), line, column)
    if "base-time" in o and not _is_time(o["base-time"]):
        raise SqlError("Table '%s': option 'base-time' must be a UTC timestamp ('2024-01-01 00:00:00') or "
                       "milliseconds since the epoch, not '%s'" % (table.name, o["base-time"]), line, column)
    _check_nexmark_schema(table, line, column)


def _is_time(text):
    import datetime as dt
    s = str(text).strip()
    if s.lstrip("-").isdigit():
        return True
    try:
        dt.datetime.fromisoformat(s.replace("T", " "))
        return True
    except ValueError:
        return False


def _check_nexmark_schema(table, line, column):
    """The nexmark source fills its physical columns by position: they must be Nexmark's four, with its types
    (names are free, as in Nexmark's source; VARCHAR(n) or STRING, TIMESTAMP(p) or TIMESTAMP_LTZ(p))."""
    from .expr.types import parse_type
    physical = table.physical_columns
    want = ", ".join(name for name, _ in _NEXMARK_SCHEMA)
    if len(physical) != len(_NEXMARK_SCHEMA):
        raise SqlError("Table '%s': a nexmark table has the physical columns %s (Nexmark's ddl_gen.sql), not %d "
                       "columns" % (table.name, want, len(physical)), line, column)
    for col, (name, expected) in zip(physical, _NEXMARK_SCHEMA):
        if not _nexmark_type_fits(parse_type(col.type), expected):
            raise SqlError("Table '%s': column '%s' must have Nexmark's type for '%s' (see ddl_gen.sql), not %s"
                           % (table.name, col.name, name, col.type), line, column)


def _nexmark_type_fits(t, expected):
    if isinstance(expected, tuple):
        return (t.name == "ROW" and len(t.children) == len(expected)
                and all(_nexmark_type_fits(ft, et) for (_, ft), (_, et) in zip(t.children, expected)))
    if expected == "VARCHAR":
        return t.name in ("VARCHAR", "CHAR")
    if expected == "TIMESTAMP":
        return t.name in ("TIMESTAMP", "TIMESTAMP_LTZ")
    return t.name == expected


def nexmark_rowtime_is_event_time(table):
    """True when a nexmark table's rowtime is a computed column giving each event's own time: ddl_gen.sql's
    CASE over event_type (compared as parsed SQL: spacing, keyword case and quoting do not matter)."""
    if table.options.get("connector") != "nexmark" or table.watermark is None or table.watermark.delay_ms is None:
        return False
    col = table.column(table.watermark.column)
    if col is None or col.computed is None:
        return False
    names = [c.name for c in table.physical_columns]
    if names != [name for name, _ in _NEXMARK_SCHEMA]:
        return False
    return _canonical_sql(col.computed) == _canonical_sql(NEXMARK_EVENT_TIME)


def _canonical_sql(text):
    import sqlglot
    from sqlglot import exp

    from .dialect import Flink
    try:
        tree = sqlglot.parse_one(text, read=Flink)
    except Exception:    # not an expression sqlglot reads: not the event time
        return None
    tree = tree.transform(lambda n: exp.to_identifier(n.name) if isinstance(n, exp.Identifier) else n)
    return tree.sql(dialect=Flink)
