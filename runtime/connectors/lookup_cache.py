"""Flink's partial lookup cache (DefaultLookupCache): the rows a lookup found for a key, kept for the next
lookups of that key, at most `max_rows` keys (the least recently read dropped first), each dropped once it is
older than `expire_after_write` or unread for `expire_after_access` (milliseconds, None: never); a key the
table lacks is kept as found-nothing when `cache_missing_key` (Flink's default), else asked again.

Flink keeps one cache in each parallel instance of the lookup; here one a query in each executor: an SQLite
file in the executor's local folder, shared by its Python workers (a task may run in any of them, so a cache
in one worker's memory would miss at random), gone with the Spark application."""

import os
import pickle
import sqlite3
import time


def cache_path(cache_name):
    """The cache file of `cache_name` in this executor's local folder (SPARK_LOCAL_DIRS, set for Python
    workers), else in the temporary folder."""
    import tempfile
    folder = (os.environ.get("SPARK_LOCAL_DIRS") or tempfile.gettempdir()).split(",")[0]
    return os.path.join(folder, "dynsql-lookup-cache-%s.sqlite" % cache_name)


class LookupCache:
    def __init__(self, path, max_rows, expire_after_write=None, expire_after_access=None, cache_missing_key=True,
                 clock=time.time):
        self.max_rows = max_rows
        self.write_ttl = None if expire_after_write is None else expire_after_write / 1000.0
        self.access_ttl = None if expire_after_access is None else expire_after_access / 1000.0
        self.cache_missing_key = cache_missing_key
        self.clock = clock
        self.db = sqlite3.connect(path, timeout=60, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS entries (k TEXT PRIMARY KEY, rows BLOB, written REAL, "
                        "read REAL)")

    def get_many(self, keys):
        """{key: its cached rows (a list, maybe empty)} of the `keys` cached and not expired."""
        now = self.clock()
        found = {}
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute("DELETE FROM entries WHERE (? IS NOT NULL AND ? - written >= ?) OR "
                            "(? IS NOT NULL AND ? - read >= ?)", (self.write_ttl, now, self.write_ttl,
                                                                   self.access_ttl, now, self.access_ttl))
            texts = {repr(k): k for k in keys}
            names = list(texts)
            for i in range(0, len(names), 500):
                part = names[i:i + 500]
                for text, rows in self.db.execute("SELECT k, rows FROM entries WHERE k IN (%s)"
                                                  % ",".join("?" * len(part)), part):
                    found[texts[text]] = pickle.loads(rows)
                self.db.execute("UPDATE entries SET read = ? WHERE k IN (%s)" % ",".join("?" * len(part)),
                                [now] + part)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return found

    def put_many(self, found):
        """Cache {key: rows} (a key with no rows only when `cache_missing_key`), then drop the least recently
        read keys beyond `max_rows`."""
        now = self.clock()
        entries = [(repr(k), pickle.dumps(rows), now, now) for k, rows in found.items()
                   if rows or self.cache_missing_key]
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?)", entries)
            self.db.execute("DELETE FROM entries WHERE k IN (SELECT k FROM entries ORDER BY read DESC, written DESC "
                            "LIMIT -1 OFFSET ?)", (self.max_rows,))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def __len__(self):
        return self.db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
