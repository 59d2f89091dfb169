"""Session settings: Flink's SQL-client keys with their defaults and allowed values, plus any `spark.*` key.

`SET 'k' = 'v'` validates here; `SET;` lists; `RESET ['k']` restores defaults."""

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
    "dynsql.jobs.dir": ("~/.dynsql/jobs", None, "the job registry: one folder per INSERT INTO job, shared by sessions"),
}

ALLOWED_PREFIXES = ("spark.", "dynsql.", "table.", "execution.", "sql-client.", "pipeline.", "parallelism.")


class Settings:
    """The session's `SET` values; unknown Flink keys are kept (Flink accepts them) unless malformed."""

    def __init__(self, initial=None):
        self._values = {}
        for k, v in (initial or {}).items():
            self.set(k, v)

    def get(self, key):
        if key in self._values:
            return self._values[key]
        if key in KNOWN_KEYS:
            return KNOWN_KEYS[key][0]
        return None

    def set(self, key, value):
        key = key.strip()
        value = str(value).strip()
        if not key:
            raise ConfigError("SET needs a key: SET 'key' = 'value';")
        if key in KNOWN_KEYS:
            allowed = KNOWN_KEYS[key][1]
            if allowed is not None and value.lower() not in allowed:
                raise ConfigError("Invalid value %r for '%s'" % (value, key),
                                  hint="allowed values: " + ", ".join(allowed))
            if allowed is not None:
                value = value.lower()
            if key in _DURATION_KEYS:
                parse_duration_ms(value)
            if key == "table.display.max-column-width":
                if not value.isdigit() or int(value) < 1:
                    raise ConfigError("Invalid value %r for '%s': a positive whole number" % (value, key))
            if key == "table.local-time-zone":
                _check_time_zone(value)
        elif not key.startswith(ALLOWED_PREFIXES):
            raise ConfigError("Unknown configuration key '%s'" % key,
                              hint="Flink keys such as %s, or any spark.* key"
                              % ", ".join("'%s'" % k for k in list(KNOWN_KEYS)[:3]))
        self._values[key] = value

    def reset(self, key=None):
        if key is None:
            self._values.clear()
        else:
            self._values.pop(key, None)

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
        return os.path.abspath(os.path.expanduser(self.get("dynsql.jobs.dir") or "~/.dynsql/jobs"))

    @property
    def savepoint_path(self):
        return self.get("execution.savepoint.path") or None

    @property
    def state_ttl_ms(self):
        return parse_duration_ms(self.get("table.exec.state.ttl"))

    def window_emit(self):
        """(early firing, allowed lateness in ms) of legacy group windows, from the table.exec.emit.* keys. A
        late row within the lateness fires its window again (Flink's event-time trigger does so even without
        late-fire, whose delay only batches the firings)."""
        lateness = parse_duration_ms(self.get("table.exec.emit.allow-lateness"))
        return self.get("table.exec.emit.early-fire.enabled") == "true", lateness


_DURATION_KEYS = ("table.exec.state.ttl", "table.exec.emit.allow-lateness", "table.exec.emit.late-fire.delay",
                  "table.exec.emit.early-fire.delay")


_UNITS_MS = {
    "ms": 1, "milli": 1, "millis": 1, "millisecond": 1, "milliseconds": 1,
    "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
    "min": 60000, "mins": 60000, "minute": 60000, "minutes": 60000, "m": 60000,
    "h": 3600000, "hour": 3600000, "hours": 3600000,
    "d": 86400000, "day": 86400000, "days": 86400000,
}


def parse_duration_ms(text):
    """Flink duration text ('10 s', '1 h', '500ms', '0') -> milliseconds."""
    import re
    m = re.fullmatch(r"\s*(\d+)\s*([a-zA-Z]*)\s*", text or "")
    if not m:
        raise ConfigError("Invalid duration %r" % text, hint="e.g. '10 s', '5 min', '1 h', '500 ms'")
    n, unit = int(m.group(1)), m.group(2).lower() or "ms"
    if unit not in _UNITS_MS:
        raise ConfigError("Invalid duration unit %r in %r" % (unit, text),
                          hint="units: ms, s, min, h, d")
    return n * _UNITS_MS[unit]


def _check_time_zone(value):
    from zoneinfo import ZoneInfo
    try:
        ZoneInfo(value)
    except Exception:
        import re
        if not re.fullmatch(r"(UTC|GMT)?[+-]\d{1,2}(:\d{2})?", value):
            raise ConfigError("Invalid time zone %r for 'table.local-time-zone'" % value,
                              hint="an IANA name such as 'Europe/Berlin', or 'UTC'")
