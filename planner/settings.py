"""Session settings: Flink's SQL-client keys with their defaults and allowed values, plus any `spark.*` key.

Every key is honoured (KNOWN_KEYS, and the Flink names ALIASES maps to them), passed to Spark (`spark.*`),
accepted with a warning that it has no effect in dynsql (any other key Flink 2.3 has: planner/flink_config_keys.py,
the reason by its prefix in NO_EFFECT), or refused (a key neither Flink nor dynsql has: a typo).

`SET 'k' = 'v'` validates here; `SET;` lists; `RESET ['k']` restores defaults. A duration is checked as
Flink's TimeUtils reads it (a whole number and a unit; at most what fits in Java's long as nanoseconds:
about 106,751 days); NaN, Infinity, fractions and 5,000-digit numbers are refused by their text."""

import re

from .errors import ConfigError

# key -> (default, allowed values or None for free text, description)
KNOWN_KEYS = {
    "execution.runtime-mode": ("streaming", ("streaming", "batch"),
                               "streaming: continuous queries with a changelog; batch: final rows"),
    "sql-client.execution.result-mode": ("table", ("table", "changelog", "tableau"),
                                         "how the shell shows a query's result"),
    "table.exec.state.ttl": ("0 ms", None, "idle state retention of keyed operators (0 = keep forever)"),
    "table.local-time-zone": ("UTC", None, "time zone for TIMESTAMP_LTZ values"),
    "sql-client.verbose": ("false", ("true", "false"), "print stack traces with errors"),
    "table.display.max-column-width": ("30", None, "widest column the tableau and table views print"),
    "table.exec.emit.allow-lateness": ("0 ms", None,
                                       "legacy group windows: how long after it fired a window takes late rows"),
    "table.exec.emit.late-fire.enabled": ("false", ("true", "false"),
                                          "legacy group windows: update a fired window with its late rows"),
    "table.exec.emit.late-fire.delay": ("0 ms", None, "how often late firings happen (dynsql: each micro-batch)"),
    "table.exec.emit.early-fire.enabled": ("false", ("true", "false"),
                                           "legacy group windows: results before the window closes"),
    "table.exec.emit.early-fire.delay": ("0 ms", None, "how often early firings happen (dynsql: each micro-batch)"),
    "dynsql.match-recognize.extensions": ("false", ("true", "false"),
                                          "allow the SQL standard's MATCH_RECOGNIZE features that Flink refuses"),
    "table.dml-sync": ("false", ("true", "false"), "INSERT INTO waits for its job to finish"),
    "execution.savepoint.path": ("", None, "the next INSERT INTO jobs resume from this savepoint (a job's checkpoint)"),
    "jobstore.expiration-time": ("604800", None,
                                 "seconds after which a job that ended (FINISHED, FAILED, CANCELED) is removed from "
                                 "the job registry, with its checkpoint and output, when SHOW JOBS lists it (Flink's "
                                 "key; its default is 3600: dynsql keeps a week, as the job's folder holds the "
                                 "checkpoint a resume or a savepoint needs)"),
    "table.catalog-store.kind": ("file", ("generic_in_memory", "file"),
                                 "where CREATE CATALOG keeps its registrations (Flink's catalog store): file (the "
                                 "next session has them; dynsql's default) or generic_in_memory (gone at exit, "
                                 "Flink's default)"),
    "table.catalog-store.file.path": ("", None, "the file catalog store's folder, one file a catalog; empty: the "
                                                "project's .dynsql/catalogs"),
    "dynsql.jobs.dir": ("", None, "the job registry: one folder per INSERT INTO job, shared by sessions; empty: "
                                  "the project's .dynsql/jobs (the nearest folder up from the working folder with a "
                                  ".dynsql folder or a .git, else the working folder)"),
    "dynsql.job-host.idle-timeout": ("10 min", None,
                                     "how long a job host (the process that runs a session's INSERT INTO jobs) "
                                     "lives on without a job; a host takes it from the session that starts it "
                                     "(-D, or $DYNSQL_JOB_HOST_IDLE_TIMEOUT)"),
    "state.backend.type": ("hashmap", ("hashmap", "rocksdb"),
                           "where streaming queries keep their state: hashmap (memory) or rocksdb (local disk, "
                           "for state bigger than memory; always for dynsql's own stateful operators)"),
    "dynsql.one-pass.max-input-size": ("64 mb", None,
                                       "a streaming SELECT over bounded files of at most this size, whose result is "
                                       "insert-only, reads its input in one pass (one Spark batch job) instead of "
                                       "micro-batches; 0: always micro-batches"),
    "dynsql.one-pass.piece-size": ("64 mb", None,
                                   "a streaming SELECT of a TUMBLE, HOP or CUMULATE aggregate, a MATCH_RECOGNIZE or a grouped aggregate over one csv or json file larger than dynsql.one-pass.max-input-size reads it in "
                                   "one pass, in pieces of about this size (at least two) read in parallel, as does "
                                   "an event-time temporal join its probe file (a multiple of the cores); 0: "
                                   "micro-batches"),
    "sql-client.execution.max-table-result.rows": ("1000000", None,
                                                   "the table result mode keeps at most this many rows: the "
                                                   "oldest go when more come (as Flink's client)"),
    "pipeline.name": ("", None, "the name of the next INSERT INTO jobs (SHOW JOBS); empty: insert-into_<sinks>"),
    "dynsql.one-pass.enabled": ("true", ("true", "false"),
                                "false: a streaming SELECT always runs on micro-batches, showing its -U/+U as rows "
                                "flow (a one pass shows the final rows at the end of the input)"),
    "dynsql.physical.force": ("auto", ("auto", "general", "one-pass", "fast"),
                              "force the execution choices, to compare paths on the same rows: general (no fast "
                              "path), one-pass (one pass wherever it applies, general operators), fast (every fast "
                              "path wherever it applies, whatever the sizes); auto: by the inputs' sizes"),
    "dynsql.whole-file.max-size": ("64 mb", None,
                                   "a MATCH_RECOGNIZE, a grouped aggregate or a TUMBLE, HOP or CUMULATE aggregate "
                                   "read as one batch (batch mode, one pass) straight over one file of at most this "
                                   "size: each Spark task reads the whole file and computes its share of the keys, "
                                   "without a shuffle; 0: always shuffle"),
    "dynsql.window-aggregate.per-micro-batch": ("true", ("true", "false"),
                                                "a TUMBLE, HOP or CUMULATE aggregate a streaming SELECT shows on "
                                                "micro-batches: Spark's batch aggregate in each micro-batch over the "
                                                "windows the watermark has closed, the open windows' rows carried to "
                                                "the next (no state store); false: Spark's streaming aggregate"),
    "dynsql.temporal-join.per-micro-batch": ("true", ("true", "false"),
                                             "an event-time temporal join over a versioned view that a streaming "
                                             "SELECT shows on micro-batches: Spark's batch as-of join in each "
                                             "micro-batch over the probe rows the watermark passed, the others and "
                                             "the versions carried to the next (no state store); false: dynsql's "
                                             "temporal join operator"),
    "python.files": ("", None, "Python files, folders or zips (comma-separated) that CREATE FUNCTION ... LANGUAGE "
                               "PYTHON imports from, shipped to the Spark executors"),
}

ALLOWED_PREFIXES = ("spark.", "dynsql.", "table.", "execution.", "sql-client.", "pipeline.", "parallelism.")

# Flink names of keys dynsql honours under another name: setting one sets the other
ALIASES = {"sql-client.display.max-column-width": "table.display.max-column-width",
           "execution.state-recovery.path": "execution.savepoint.path"}

# why a Flink key has no effect in dynsql, by the longest prefix of the key that is listed
NO_EFFECT = {
    "table.optimizer.": "Spark's optimizer plans the query (spark.sql.* keys tune it)",
    "table.exec.mini-batch.": "a streaming query already runs as Spark micro-batches",
    "table.exec.resource.": "Spark sizes memory and parallelism (spark.sql.shuffle.partitions, spark.executor.*)",
    "table.exec.": "it tunes a Flink operator; dynsql's operators run on Spark",
    "table.": "it configures Flink's table environment, which dynsql does not have",
    "execution.checkpointing.": "a job checkpoints after every Spark micro-batch, in its own folder",
    "execution.state-recovery.": "a job resumes from its checkpoint folder (execution.savepoint.path)",
    "execution.": "it configures Flink's runtime",
    "pipeline.": "it configures Flink's job graph",
    "parallelism.": "Spark's parallelism is its cores and spark.sql.shuffle.partitions",
    "state.": "it configures a Flink state backend (state.backend.type is honoured)",
    "restart-strategy.": "a failed dynsql job stays failed (SHOW JOBS says why; --resume-job restarts it)",
    "sql-client.display.": "the shell draws results its own way",
    "": "it configures a Flink cluster, which dynsql does not have",
}


def no_effect_warning(key):
    """The warning for a Flink key dynsql accepts but does not use; None for a key it honours or does not know."""
    from .flink_config_keys import FLINK_KEYS
    if key in KNOWN_KEYS or key in ALIASES or key not in FLINK_KEYS:
        return None
    prefix = max((p for p in NO_EFFECT if key.startswith(p)), key=len)
    return "[WARNING] '%s' is a Flink option that has no effect in dynsql: %s." % (key, NO_EFFECT[prefix])


class Settings:
    """The session's `SET` values; unknown Flink keys are kept (Flink accepts them) unless malformed."""

    def __init__(self, initial=None):
        """initial: the -D / --conf settings; `warnings` then holds what SET would have said of each (a Flink key
        with no effect in dynsql), for the command line to print."""
        self._values = {}
        self.warnings = []
        for k, v in (initial or {}).items():
            warning = self.set(k, v)
            if warning:
                self.warnings.append(warning)

    def get(self, key):
        key = ALIASES.get(key, key)
        if key in self._values:
            return self._values[key]
        if key in KNOWN_KEYS:
            return KNOWN_KEYS[key][0]
        return None

    def set(self, key, value):
        """Validates and keeps `key`; -> a warning text when Flink's key has no effect in dynsql, else None."""
        key = key.strip()
        value = str(value).strip()
        if not key:
            raise ConfigError("SET needs a key: SET 'key' = 'value';")
        key = ALIASES.get(key, key)
        warning = None
        if key in KNOWN_KEYS:
            allowed = KNOWN_KEYS[key][1]
            if allowed is not None and value.lower() not in allowed:
                raise ConfigError("Invalid value '%s' for '%s'" % (_shown(value), key),
                                  hint="allowed values: " + ", ".join(allowed))
            if allowed is not None:
                value = value.lower()
            if key in _DURATION_KEYS:
                parse_duration_ms(value, key)
            if key == "table.display.max-column-width":
                if not re.fullmatch(r"0*[1-9][0-9]{0,8}", value):
                    raise ConfigError("Invalid value '%s' for '%s': a positive whole number (at most 999999999)"
                                      % (_shown(value), key))
            if key == "table.local-time-zone":
                _check_time_zone(value)
            if key in _SIZE_KEYS:
                parse_size_bytes(value, key)
            if key == "jobstore.expiration-time" and not re.fullmatch(r"[0-9]{1,15}", value):
                raise ConfigError("Could not parse value '%s' for key '%s': a whole number of seconds"
                                  % (_shown(value), key))
            if key == "sql-client.execution.max-table-result.rows" and not re.fullmatch(r"0*[1-9][0-9]{0,9}", value):
                raise ConfigError("Invalid value '%s' for '%s': a positive whole number" % (_shown(value), key))
        elif not key.startswith("spark."):
            warning = no_effect_warning(key)
            if warning is None:
                raise ConfigError("Unknown configuration key '%s'" % _shown(key), hint=_unknown_key_hint(key))
        else:       # Spark passes a key it does not know on silently; one close to a key it has gets a hint
            from .spark_config_keys import misspelling_warning
            warning = misspelling_warning(key)
        self._values[key] = value
        return warning

    def reset(self, key=None):
        if key is None:
            self._values.clear()
        else:
            self._values.pop(ALIASES.get(key, key), None)

    def items(self):
        keys = sorted(set(KNOWN_KEYS) | set(self._values))
        return [(k, self.get(k)) for k in keys]

    def explicit(self):
        return dict(self._values)

    @property
    def batch(self):
        return self.get("execution.runtime-mode") == "batch"

    @property
    def verbose(self):
        return self.get("sql-client.verbose") == "true"

    @property
    def dml_sync(self):
        return self.get("table.dml-sync") == "true"

    @property
    def jobs_dir(self):
        import os
        return os.path.abspath(os.path.expanduser(self.get("dynsql.jobs.dir") or project_jobs_dir()))

    @property
    def catalog_store_path(self):
        """The file catalog store's folder, or None when catalogs are kept in memory."""
        import os
        if self.get("table.catalog-store.kind") != "file":
            return None
        path = self.get("table.catalog-store.file.path")
        if path.startswith("file://"):       # Flink's examples write it as a URI
            path = path[len("file://"):]
        return os.path.abspath(os.path.expanduser(path or os.path.join(project_dynsql_dir(), "catalogs")))

    @property
    def job_expiration_seconds(self):
        return int(self.get("jobstore.expiration-time"))

    @property
    def savepoint_path(self):
        return self.get("execution.savepoint.path") or None

    @property
    def state_backend(self):
        return self.get("state.backend.type")

    @property
    def state_ttl_ms(self):
        return parse_duration_ms(self.get("table.exec.state.ttl"))

    @property
    def one_pass_max_bytes(self):
        return parse_size_bytes(self.get("dynsql.one-pass.max-input-size"))

    @property
    def one_pass_piece_bytes(self):
        return parse_size_bytes(self.get("dynsql.one-pass.piece-size"))

    @property
    def one_pass_enabled(self):
        return self.get("dynsql.one-pass.enabled") == "true"

    @property
    def physical_force(self):
        return self.get("dynsql.physical.force")

    @property
    def window_per_micro_batch(self):
        return self.get("dynsql.window-aggregate.per-micro-batch") == "true"

    @property
    def temporal_join_per_micro_batch(self):
        return self.get("dynsql.temporal-join.per-micro-batch") == "true"

    @property
    def whole_file_max_bytes(self):
        return parse_size_bytes(self.get("dynsql.whole-file.max-size"))

    def window_emit(self):
        """(early firing, allowed lateness in ms) of legacy group windows, from the table.exec.emit.* keys. A
        late row within the lateness fires its window again (Flink's event-time trigger does so even without
        late-fire, whose delay only batches the firings)."""
        lateness = parse_duration_ms(self.get("table.exec.emit.allow-lateness"))
        return self.get("table.exec.emit.early-fire.enabled") == "true", lateness


def _unknown_key_hint(key):
    import difflib
    if key.startswith("fs."):
        return "a file system's keys go to Spark's Hadoop configuration: SET 'spark.hadoop.%s' = '...'" % key

    from .flink_config_keys import FLINK_KEYS
    names = list(dict.fromkeys(list(KNOWN_KEYS) + list(ALIASES) + list(FLINK_KEYS)))
    close = difflib.get_close_matches(key, names, n=3, cutoff=0.75)
    if close:
        return "did you mean %s? (SET; lists the keys dynsql honours)" % " or ".join("'%s'" % k for k in close)
    return "SET; lists the keys dynsql honours; any spark.* key goes to Spark"


_DURATION_KEYS = ("table.exec.state.ttl", "table.exec.emit.allow-lateness", "table.exec.emit.late-fire.delay",
                  "table.exec.emit.early-fire.delay", "dynsql.job-host.idle-timeout")


_SIZE_KEYS = ("dynsql.one-pass.max-input-size", "dynsql.whole-file.max-size", "dynsql.one-pass.piece-size")

_UNITS_BYTES = {"": 1, "b": 1, "bytes": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20,
                "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tb": 1 << 40,
                "tib": 1 << 40}


def project_jobs_dir(start=None):
    """The project's job registry: `.dynsql/jobs` in the project's folder (project_dynsql_dir)."""
    import os
    return os.path.join(project_dynsql_dir(start), "jobs")


def project_dynsql_dir(start=None):
    """The project's `.dynsql` folder: in the nearest folder from `start` (the working folder) up that has a
    `.dynsql` folder, else in the nearest that is a checkout (has `.git`), else in `start` itself."""
    import os
    start = os.path.abspath(start or os.getcwd())
    for marker in (".dynsql", ".git"):
        folder = start
        while True:
            if os.path.exists(os.path.join(folder, marker)):
                return os.path.join(folder, ".dynsql")
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    return os.path.join(start, ".dynsql")


def parse_size_bytes(text, key=None):
    """A memory size as Flink's MemorySize reads it ('64 mb', '1g', '512 kb', '1024': bytes) -> bytes. `key`
    names the setting in errors."""
    return _parse_quantity(text, key, "size", _UNITS_BYTES, "", 2 ** 63 - 1, "too large",
                           "e.g. '64 mb', '1 gb', '512 kb', '0'", "units: bytes, kb, mb, gb, tb")


_UNITS_MS = {
    "ms": 1, "milli": 1, "millis": 1, "millisecond": 1, "milliseconds": 1,
    "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
    "min": 60000, "mins": 60000, "minute": 60000, "minutes": 60000, "m": 60000,
    "h": 3600000, "hour": 3600000, "hours": 3600000,
    "d": 86400000, "day": 86400000, "days": 86400000,
}


_MAX_DURATION_MS = (2 ** 63 - 1) // 1_000_000     # Flink keeps a duration in nanoseconds, in a Java long


def parse_duration_ms(text, key=None):
    """Flink duration text ('10 s', '1 h', '500ms', '0': milliseconds) -> milliseconds. `key` names the
    setting in errors."""
    return _parse_quantity(text, key, "duration", _UNITS_MS, "ms", _MAX_DURATION_MS,
                           "too large (at most %d days)" % (_MAX_DURATION_MS // 86400000),
                           "e.g. '10 s', '5 min', '1 h', '500 ms'", "units: ms, s, min, h, d")


def _parse_quantity(text, key, noun, units, default_unit, largest, too_large, examples, unit_names):
    """'<whole number> [unit]' -> the number times its unit's value in `units` (no unit: `default_unit`), at most
    `largest`; errors name the `noun`, the setting `key`, and the hints given."""
    of = (" for '%s'" % key) if key else ""
    m = re.fullmatch(r"\s*([0-9]+)\s*([a-zA-Z]*)\s*", text or "")
    if not m:
        raise ConfigError("Invalid %s '%s'%s: a whole number and a unit" % (noun, _shown(text), of), hint=examples)
    digits, unit = m.group(1).lstrip("0") or "0", m.group(2).lower() or default_unit
    if unit not in units:
        raise ConfigError("Invalid %s unit '%s' in '%s'%s" % (noun, _shown(unit), _shown(text), of), hint=unit_names)
    if len(digits) > 20 or int(digits) * units[unit] > largest:
        raise ConfigError("Invalid %s '%s'%s: %s" % (noun, _shown(text), of, too_large))
    return int(digits) * units[unit]


def _shown(text, width=60):
    """A value as an error quotes it: on one line, cut to `width` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def _check_time_zone(value):
    from zoneinfo import ZoneInfo
    try:
        ZoneInfo(value)
    except Exception:
        if not re.fullmatch(r"(UTC|GMT)?[+-]\d{1,2}(:\d{2})?", value):
            raise ConfigError("Invalid time zone '%s' for 'table.local-time-zone'" % _shown(value),
                              hint="an IANA name such as 'Europe/Berlin', or 'UTC'")
