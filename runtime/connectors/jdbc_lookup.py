"""The `jdbc` table as a lookup source (Flink's JdbcRowDataLookupFunction): the probe rows' keys are looked up
in PostgreSQL by key (`SELECT <columns> FROM <table> WHERE (<keys>) IN (...)`, the distinct keys of an Arrow
batch in one query), never by reading the whole table, in the executors' Python workers (a mapInArrow over
the probe rows), through the partial cache when `lookup.cache` = 'PARTIAL' (lookup_cache.py: one a query in each
executor, as Flink keeps one in each parallel instance of the lookup). With
`lookup.cache` = 'NONE' (the default) each batch's keys are asked again. A failed query is retried
`lookup.max-retries` times (Flink's default 3), on a new connection, before the query fails with the cause in
words (never the password). Each probe row gets `__found`: the list of the rows found for its key."""

import time

from .lookup_cache import LookupCache, cache_path
from .pg_client import connect, quote_identifier, quote_table

_CACHES = {}          # (cache name) -> LookupCache, in this worker process
_CONNECTIONS = {}     # (connection id) -> pg8000 connection, in this worker process
CHUNK = 1000          # keys a query


def cache_settings(options):
    """(max rows, expire-after-write ms, expire-after-access ms, cache missing key) of a PARTIAL cache (Flink's
    legacy `lookup.cache.max-rows` / `lookup.cache.ttl` read as such a cache), or None."""
    from planner.settings import parse_duration_ms

    def ms(key):
        return parse_duration_ms(options[key]) if key in options else None
    missing = str(options.get("lookup.partial-cache.cache-missing-key",
                              options.get("lookup.cache.caching-missing-key", "true"))).strip().lower() == "true"
    if str(options.get("lookup.cache", "NONE")).upper() == "PARTIAL":
        return (int(options["lookup.partial-cache.max-rows"]), ms("lookup.partial-cache.expire-after-write"),
                ms("lookup.partial-cache.expire-after-access"), missing)
    if "lookup.cache.max-rows" in options:
        return int(options["lookup.cache.max-rows"]), ms("lookup.cache.ttl"), None, missing
    return None


class JdbcLookup:
    """mapInArrow's function. `probe_keys`: the input columns that hold the probe rows' keys (dropped from the
    output), `key_columns` the PostgreSQL columns they are compared with, `columns` the PostgreSQL columns
    read, `found_type` the Arrow type of `__found` (a list of structs of the columns' output names)."""

    def __init__(self, options, table_name, describe, probe_keys, key_columns, columns, found_type):
        import uuid
        self.options = dict(options)
        self.describe = describe             # (table name, url without the password) for errors
        self.probe_keys = list(probe_keys)
        self.key_columns = list(key_columns)
        self.columns = list(columns)
        self.found_type = found_type
        self.retries = int(options.get("lookup.max-retries", 3))
        self.cache = cache_settings(options)
        self.sql = "SELECT %s FROM %s WHERE (%s) IN " % (
            ", ".join(quote_identifier(c) for c in self.columns + self.key_columns), quote_table(table_name),
            ", ".join(quote_identifier(c) for c in self.key_columns))
        self.cache_id = (self.sql, repr(sorted(self.options.items())), self.cache)
        self.cache_name = uuid.uuid4().hex          # this query's (a query started again starts empty)

    def __call__(self, batches):
        import pyarrow as pa
        cache = None
        if self.cache is not None:
            cache = _CACHES.get(self.cache_name)
            if cache is None:
                cache = _CACHES[self.cache_name] = LookupCache(cache_path(self.cache_name), *self.cache)
        for batch in batches:
            keys = list(zip(*[batch.column(k).to_pylist() for k in self.probe_keys]))
            wanted = {k for k in keys if None not in k}
            found = cache.get_many(wanted) if cache is not None and wanted else {}
            asked = [k for k in wanted if k not in found]
            if asked:
                fetched = self._query(asked)
                found.update(fetched)
                if cache is not None:
                    cache.put_many(fetched)
            column = pa.array([found.get(k, []) for k in keys], type=self.found_type)
            names = [n for n in batch.schema.names if n not in self.probe_keys]
            yield pa.RecordBatch.from_arrays([batch.column(n) for n in names] + [column], names=names + ["__found"])

    def _query(self, keys):
        """{key: [row dict, ...]} of the rows whose key columns equal one of `keys`."""
        attempt = 0
        while True:
            try:
                return self._fetch(keys)
            except Exception as e:
                _drop_connection(self.cache_id)
                attempt += 1
                if attempt > self.retries:
                    raise RuntimeError(self._failure(e)) from None
                time.sleep(min(attempt, 3))

    def _fetch(self, keys):
        conn = _CONNECTIONS.get(self.cache_id)
        if conn is None:
            conn = _CONNECTIONS[self.cache_id] = connect(self.options)
            conn.autocommit = True
        out = {}
        n, width = len(self.columns), len(self.key_columns)
        one = "(%s)" % ", ".join(["%s"] * width)
        cursor = conn.cursor()
        try:
            for i in range(0, len(keys), CHUNK):
                chunk = keys[i:i + CHUNK]
                cursor.execute(self.sql + "(%s)" % ", ".join([one] * len(chunk)), [v for k in chunk for v in k])
                for row in cursor.fetchall():
                    out.setdefault(tuple(row[n:]), []).append(dict(zip(self.found_names, row[:n])))
        finally:
            cursor.close()
        return {k: out.get(tuple(k), []) for k in keys}

    @property
    def found_names(self):
        return [f.name for f in self.found_type.value_type]

    def _failure(self, error):
        from .jdbc import cause_in_words, redact_secrets
        name, url = self.describe
        text = redact_secrets(str(error), self.options)
        return "Table '%s' (jdbc, %s): %s while looking up keys (after %d retries, 'lookup.max-retries')" % (
            name, url, cause_in_words(text)[0], self.retries)


def _drop_connection(cache_id):
    conn = _CONNECTIONS.pop(cache_id, None)
    if conn is not None:
        try:
            conn.close()
        except Exception:
            pass
