"""Tab completion for the shell: a prompt_toolkit Completer over a metadata snapshot.

`MetadataSnapshot` holds what completion needs (table and view names with their columns, function
names, SET keys with their allowed values), copied out of the catalog after each statement;
`SqlCompleter` asks `suggest_type` what may come at the cursor and matches names from the snapshot
its `snapshot_source` callable returns. Nothing here touches Spark or runs anything slow on a
keystroke; it does not decide SQL semantics (a suggestion may not be valid SQL). The cursor analysis
(sqlcompletion) is imported on the first completion, not before the prompt is drawn."""

import re
from dataclasses import dataclass, field

from prompt_toolkit.completion import Completer, Completion

from .lexer import ALL_KEYWORDS, KEYWORDS

STATEMENT_STARTS = (
    "SELECT", "INSERT INTO", "CREATE TABLE", "CREATE VIEW", "CREATE TEMPORARY VIEW", "DROP TABLE",
    "DROP VIEW", "SHOW TABLES", "SHOW VIEWS", "SHOW FUNCTIONS", "SHOW JOBS", "SHOW CREATE TABLE",
    "CREATE FUNCTION", "CREATE TEMPORARY FUNCTION", "CREATE TEMPORARY SYSTEM FUNCTION", "DROP FUNCTION",
    "SHOW USER FUNCTIONS",
    "DESCRIBE", "EXPLAIN", "EXPLAIN CHANGELOG_MODE", "SET", "RESET", "STOP JOB", "WITH", "HELP",
    "CLEAR", "QUIT", "EXIT",
)

KEYWORD_PHRASES = (
    "FOR SYSTEM_TIME AS OF", "ONE ROW PER MATCH", "ALL ROWS PER MATCH", "AFTER MATCH SKIP PAST LAST ROW",
    "AFTER MATCH SKIP TO NEXT ROW", "AFTER MATCH SKIP TO FIRST", "AFTER MATCH SKIP TO LAST",
    "PRIMARY KEY", "NOT ENFORCED", "GROUP BY", "ORDER BY", "PARTITION BY", "INSERT INTO",
    "LEFT JOIN", "UNION ALL", "IF NOT EXISTS", "IF EXISTS",
)

WINDOW_COLUMNS = ("window_start", "window_end", "window_time")

_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def load_function_names():
    """Function names from the planner's mapping table; empty until the planner has one."""
    try:
        from planner.expr.functions.registry import FLINK_FUNCTIONS
    except ImportError:
        return ()
    return tuple(sorted(n for n in FLINK_FUNCTIONS if not n.startswith("$")))   # not internal calls ($IS_JSON)


def load_set_keys():
    from planner.settings import KNOWN_KEYS
    return {key: (default, allowed) for key, (default, allowed, _description) in KNOWN_KEYS.items()}


@dataclass(frozen=True)
class MetadataSnapshot:
    """Names for completion, copied out of the catalog so a keystroke never waits for anything."""
    tables: dict = field(default_factory=dict)       # name -> tuple of column names
    paths: tuple = ()            # (catalog, database, table) of every table and view of every catalog
    current: tuple = ()          # (current catalog, current database)
    functions: tuple = ()
    set_keys: dict = field(default_factory=dict)     # key -> (default, allowed values or None)

    @classmethod
    def from_catalog(cls, catalog, functions=None, set_keys=None):
        tables = {name: tuple(catalog.columns_of(name)) for name in catalog.names()}
        paths = []
        for cat_name, store in sorted(getattr(catalog, "catalogs", {}).items()):
            try:
                for db in store.list_databases():
                    paths += [(cat_name, db, name) for name in store.database(db).names()] or [(cat_name, db, None)]
            except Exception:      # a catalog folder that cannot be read now: its names are left out
                continue
        current = (catalog.current_catalog, catalog.current_database) if hasattr(catalog, "current_catalog") else ()
        return cls(tables=tables, paths=tuple(paths), current=current,
                   functions=tuple(functions) if functions is not None else load_function_names(),
                   set_keys=dict(set_keys) if set_keys is not None else load_set_keys())

    def names_under(self, path):
        """What may follow `cat.` (its databases), `db.` (the current catalog's database: its tables) or
        `cat.db.` (its tables)."""
        if len(path) == 2:
            return sorted({t for c, d, t in self.paths if (c, d) == tuple(path) and t})
        if len(path) == 1:
            databases = {d for c, d, _ in self.paths if c == path[0]}
            tables = {t for c, d, t in self.paths if self.current and c == self.current[0] and d == path[0] and t}
            return sorted(databases | tables)
        return []

    def catalog_names(self):
        return sorted({c for c, _, _ in self.paths})

    def columns(self, table_name):
        if table_name in self.tables:
            return self.tables[table_name]
        short = table_name.split(".")[-1]
        return self.tables.get(short, ())


def quote_identifier(name):
    """`name` as it must be written in SQL: backticks around anything but a plain non-keyword name."""
    if _PLAIN_NAME.match(name) and name.upper() not in KEYWORDS:
        return name
    return "`" + name.replace("`", "``") + "`"


class SqlCompleter(Completer):
    def __init__(self, snapshot_source):
        """`snapshot_source()` returns the current MetadataSnapshot (cheap: the shell keeps it)."""
        self.snapshot_source = snapshot_source

    def get_completions(self, document, complete_event):
        before = document.text_before_cursor
        typing = complete_event is not None and not complete_event.completion_requested
        if typing and not re.search(r"[A-Za-z0-9_`'.]$", before):
            return      # while typing, a menu only once a name is begun; Tab shows everything
        from .sqlcompletion import suggest_type
        snapshot = self.snapshot_source()
        after = document.text_after_cursor
        for suggestion in suggest_type(document.text, before):
            yield from self._complete(suggestion, snapshot, before, after)

    # --- one kind of suggestion
    def _complete(self, suggestion, snapshot, before, after):
        from .sqlcompletion import Column, Function, Keyword, SetKey, SetValue, Table
        if isinstance(suggestion, SetKey):
            word = _text_in_open_quote(before) if suggestion.quoted else _word_before(before)
            keys = sorted(snapshot.set_keys)
            yield from _matches(word, keys, "setting",
                                render=lambda k: _quoted_value(k, suggestion.quoted, after))
            return
        if isinstance(suggestion, SetValue):
            word = _text_in_open_quote(before) if suggestion.quoted else _word_before(before)
            default, allowed = snapshot.set_keys.get(suggestion.key, (None, None))
            values = list(allowed) if allowed else ([default] if default else [])
            yield from _matches(word, values, "value",
                                render=lambda v: _quoted_value(v, suggestion.quoted, after))
            return

        word = _identifier_before(before)
        bare = word[1:] if word.startswith("`") else word
        if isinstance(suggestion, Keyword):
            names = STATEMENT_STARTS if suggestion.last_token is None else ALL_KEYWORDS + KEYWORD_PHRASES
            lower = bare[:1].islower()
            yield from _matches(bare, names, "keyword", start=-len(word),
                                render=lambda k: k.lower() if lower else k)
        elif isinstance(suggestion, Table) and suggestion.path:
            yield from _matches(bare, snapshot.names_under(suggestion.path), "table", start=-len(word),
                                render=quote_identifier)
        elif isinstance(suggestion, Table):
            names = [n for n in snapshot.tables if "." not in n] + snapshot.catalog_names()
            yield from _matches(bare, sorted(set(names)), "table", start=-len(word), render=quote_identifier)
        elif isinstance(suggestion, Column):
            names = []
            for ref in suggestion.tables:
                for c in snapshot.columns(ref.name):
                    if c not in names:
                        names.append(c)
            if suggestion.window_columns:
                names += [c for c in WINDOW_COLUMNS if c not in names]
            yield from _matches(bare, names, "column", start=-len(word), render=quote_identifier)
        elif isinstance(suggestion, Function):
            yield from _matches(bare, snapshot.functions, "function", start=-len(word),
                                display=lambda f: f + "()")


def _matches(word, names, meta, start=None, render=None, display=None):
    """Names that start with `word` (any case), then names that contain it."""
    start = -len(word) if start is None else start
    needle = word.lower()
    prefixed = [n for n in names if n.lower().startswith(needle)]
    inside = [n for n in names if needle and needle in n.lower() and n not in prefixed]
    for name in prefixed + inside:
        text = render(name) if render else name
        yield Completion(text, start_position=start, display=display(name) if display else name,
                         display_meta=meta)


def _word_before(text):
    m = re.search(r"[A-Za-z0-9_.\-]*$", text)
    return m.group(0)


def _identifier_before(text):
    """The name being typed: `ab`, `` `a b `` (open backtick), without any `x.` qualifier."""
    m = re.search(r"`(?:[^`]|``)*$", text)
    if m and text.count("`") % 2 == 1:
        return m.group(0)
    m = re.search(r"[A-Za-z0-9_$]*$", text)
    return m.group(0)


def _text_in_open_quote(text):
    return text[text.rfind("'") + 1:]


def _quoted_value(value, inside_quotes, after):
    if inside_quotes:
        return value if after.startswith("'") else value + "'"
    return "'" + value + "'"
