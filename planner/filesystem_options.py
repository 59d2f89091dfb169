"""The filesystem connector's options beyond path and format, checked as Flink checks them: its partition
commit (`sink.partition-commit.*`), partition time extraction (`partition.time-extractor.*`) and rolling
policy (`sink.rolling-policy.*`) options; and Flink's legacy keys (`'connector.type' = 'filesystem'`,
`'connector.path'`, `'format.type'`), mapped to the filesystem connector's."""

import re

from .errors import ConfigError, SqlError, UnsupportedError
from .settings import parse_duration_ms

DURATIONS = ("sink.partition-commit.delay", "sink.rolling-policy.rollover-interval",
             "sink.rolling-policy.check-interval", "sink.rolling-policy.inactivity-interval")
CHOICES = {"sink.partition-commit.trigger": ("process-time", "partition-time"),
           "partition.time-extractor.kind": ("default", "custom")}
BOOLEANS = ("sink.shuffle-by-partition.enable", "auto-compaction")
TEXTS = ("sink.partition-commit.policy.kind", "sink.partition-commit.policy.class",
         "sink.partition-commit.success-file.name", "sink.partition-commit.watermark-time-zone",
         "partition.time-extractor.class", "partition.time-extractor.timestamp-pattern",
         "partition.time-extractor.timestamp-formatter")
OPTIONS = set(DURATIONS) | set(CHOICES) | set(BOOLEANS) | set(TEXTS)
POLICY_KINDS = ("metastore", "success-file", "custom")
METASTORE_REFUSED = ("Can not configure a 'metastore' partition commit policy for a file system table. You can only "
                     "configure 'metastore' partition commit policy for a hive table.")

LEGACY_KEYS = {"connector.type": "connector", "connector.path": "path", "format.type": "format"}


def map_legacy_options(table, line=None, column=None):
    """`'connector.type' = 'filesystem'`, `'connector.path' = 'file:///...'`, `'format.type' = 'csv'` ->
    the filesystem connector's `connector`, `path` (without its file:// scheme) and `format`; the table
    is marked as a legacy one (Flink's CsvTableSource: a lookup source for processing-time temporal joins)."""
    o = table.options
    legacy = [k for k in o if k.startswith(("connector.", "format.")) or k == "update-mode"]
    if not legacy:
        return
    if "connector" in o:
        raise SqlError("Table '%s' mixes the 'connector' option with legacy keys (%s)"
                       % (table.name, ", ".join("'%s'" % k for k in sorted(legacy))), line, column)
    other = sorted(k for k in legacy if k not in LEGACY_KEYS)
    if other:
        raise UnsupportedError("Unsupported legacy options for table '%s': %s" % (table.name, ", ".join(
            "'%s'" % k for k in other)), line, column,
            hint="of Flink's legacy keys dynsql maps 'connector.type' = 'filesystem', 'connector.path' and "
                 "'format.type' = 'csv'; declare other tables with 'connector' = '...'")
    if o.get("connector.type") != "filesystem":
        raise UnsupportedError("Unsupported legacy connector type '%s' for table '%s'"
                               % (o.get("connector.type"), table.name), line, column,
                               hint="dynsql maps 'connector.type' = 'filesystem' only; declare other tables "
                                    "with 'connector' = '...'")
    if o.get("format.type") != "csv":
        raise UnsupportedError("Unsupported legacy format type '%s' for table '%s'"
                               % (o.get("format.type"), table.name), line, column,
                               hint="dynsql maps 'format.type' = 'csv' only")
    mapped = {LEGACY_KEYS[k]: v for k, v in o.items()}
    if "path" in mapped:
        mapped["path"] = strip_file_scheme(mapped["path"])
    table.options = mapped
    table.legacy_connector = True


def strip_file_scheme(path):
    """'file:///data/x.csv' or 'file:/data/x.csv' -> '/data/x.csv'; other paths as they are."""
    m = re.match(r"file:(//)?(?=/)", path)
    return path[m.end():] if m else path


def check_filesystem_options(table, line=None, column=None):
    o = table.options
    for key in DURATIONS:
        if key in o:
            try:
                parse_duration_ms(o[key], key)
            except ConfigError as e:
                raise SqlError("Table '%s': %s" % (table.name, e.message), line, column, hint=e.hint)
    for key, allowed in CHOICES.items():
        if key in o and o[key] not in allowed:
            raise SqlError("Table '%s': could not parse value '%s' for key '%s'. Expected one of: [%s]"
                           % (table.name, o[key], key, ", ".join(allowed)), line, column)
    for key in BOOLEANS:
        if key in o and str(o[key]).strip().lower() not in ("true", "false"):
            raise SqlError("Table '%s': option '%s' must be 'true' or 'false', not '%s'" % (table.name, key, o[key]),
                           line, column)
    kinds = policy_kinds(o)
    for kind in kinds:
        if kind not in POLICY_KINDS:
            raise SqlError("Table '%s': unknown partition commit policy kind '%s'" % (table.name, kind), line,
                           column, hint="'sink.partition-commit.policy.kind': metastore, success-file, custom "
                                        "(comma-separated)")
    if "metastore" in kinds:
        raise SqlError(METASTORE_REFUSED, line, column)
    if "custom" in kinds and not o.get("sink.partition-commit.policy.class"):
        raise SqlError("Table '%s': a 'custom' partition commit policy needs 'sink.partition-commit.policy.class'"
                       % table.name, line, column)
    if "custom" in kinds or o.get("partition.time-extractor.kind") == "custom":
        raise UnsupportedError("Table '%s': custom partition commit policies and time extractors are Java classes, "
                               "which dynsql cannot load" % table.name, line, column)
    if o.get("sink.partition-commit.trigger") == "partition-time" and not table.partition_keys:
        raise SqlError("Table '%s': the 'partition-time' commit trigger needs a partitioned table "
                       "(PARTITIONED BY (...))" % table.name, line, column)


def policy_kinds(options):
    text = options.get("sink.partition-commit.policy.kind")
    return [k.strip().lower() for k in text.split(",") if k.strip()] if text else []
