"""The planner: one statement's text -> a typed plan (see plans.py), applying DDL and SET as it goes.

Knows every statement kind dynsql runs: CREATE TABLE / VIEW, DROP, SHOW, DESCRIBE, SET, RESET, EXPLAIN,
INSERT INTO, EXECUTE STATEMENT SET (several INSERTs as one job), SELECT (and WITH / VALUES), SHOW JOBS,
STOP JOB.

A statement is planned with a deep stack (`planner.parse.deep_stack`: deeply nested SQL plans instead of
overflowing Python's), and an error that does not say where it is gets the statement's line and column."""

import re

from . import plans
from .catalog import Catalog, TableDef, ViewDef
from .connectors import check_table_options
from .ddl import parse_create_table
from .errors import DynsqlError, SqlError, UnsupportedError
from .expr.functions.registry import FLINK_FUNCTIONS
from .parse import deep_stack, near, parse_sql
from .query_plan import plan_query
from .settings import KNOWN_KEYS, Settings
from .splitter import split

OK = "[INFO] Execute statement succeeded."


def _strip_quotes(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'`\"":
        return s[1:-1].replace(s[0] * 2, s[0])
    return s


class Planner:
    def __init__(self, catalog=None, settings=None):
        self.catalog = catalog or Catalog()
        self.settings = settings or Settings()

    def _query(self, text, line, col, sink_table=None):
        """A query's text -> its plan (a planner.query_plan.QueryPlan)."""
        return plan_query(self.catalog, self.settings, parse_sql(text, line, col), text, line, col, sink_table)

    def split(self, text):
        return split(text)

    def plan(self, statement):
        """A `planner.splitter.Statement` (or plain text) -> a plan (planned on a deep stack: planner/parse.py)."""
        return deep_stack(self._plan, statement)

    def _plan(self, statement):
        if isinstance(statement, str):
            stmts = split(statement)
            if len(stmts) != 1:
                raise SqlError("Expected one statement, found %d" % len(stmts))
            statement = stmts[0]
        try:
            return self._dispatch(statement.text, statement.line, statement.column)
        except DynsqlError as error:
            if error.line is None:
                error.line, error.column = statement.line, statement.column
            raise

    def _dispatch(self, text, line, col):
        words = re.findall(r"\w+", text[:200].upper())      # words as the statement regexes' \b see them
        head = " ".join(words[:3])
        first = words[0] if words else ""
        if first == "CREATE":
            if re.match(r"CREATE\s+(TEMPORARY\s+)?TABLE\b", text, re.I):
                return self._create_table(text, line, col)
            if re.match(r"CREATE\s+(OR\s+REPLACE\s+)?(TEMPORARY\s+)?VIEW\b", text, re.I):
                return self._create_view(text, line, col)
            raise UnsupportedError("Unsupported CREATE statement", line, col,
                                   hint="CREATE TABLE and CREATE VIEW are supported")
        if first == "DROP":
            return self._drop(text, line, col)
        if first == "SHOW":
            return self._show(text, line, col)
        if first in ("DESCRIBE", "DESC"):
            return self._describe(text, line, col)
        if first == "SET":
            return self._set(text, line, col)
        if first == "RESET":
            return self._reset(text, line, col)
        if first == "EXPLAIN":
            return self._explain(text, line, col)
        if first == "INSERT":
            return self._insert(text, line, col)
        if first == "EXECUTE":
            return self._execute(text, line, col)
        if first == "STOP" and words[1:2] == ["JOB"]:
            m = re.match(r"\s*STOP\s+JOB\s+'([^']+)'\s*(WITH\s+SAVEPOINT\s*)?(WITH\s+DRAIN\s*)?$", text, re.I)
            if not m:
                raise SqlError("Expected STOP JOB '<job id>' [WITH SAVEPOINT] [WITH DRAIN]", line, col,
                               hint="SHOW JOBS lists the ids")
            return plans.StopJob(m.group(1), savepoint=bool(m.group(2)), drain=bool(m.group(3)))
        if first in ("SELECT", "WITH", "VALUES") or text.lstrip().startswith("("):
            q = self._query(text, line, col)
            return plans.QueryRun(q, self.settings.batch)
        if first in ("USE", "ALTER", "LOAD", "UNLOAD", "ADD", "REMOVE", "ANALYZE", "TRUNCATE", "DELETE", "UPDATE"):
            raise UnsupportedError("%s statements are not supported by dynsql" % first, line, col)
        raise SqlError("Unknown statement starting with '%s'" % near(text.split()[0] if text.split() else text),
                       line, col, hint="type HELP for the statements dynsql knows")

    # ------------------------------------------------------------------ DDL
    def _create_table(self, text, line, col):
        table, if_not_exists = parse_create_table(text, line, col)
        check_table_options(table, line, col)
        self.catalog.add_table(table, if_not_exists)
        return plans.MessagePlan(OK)

    def _create_view(self, text, line, col):
        m = re.match(r"\s*CREATE\s+(OR\s+REPLACE\s+)?(TEMPORARY\s+)?VIEW\s+(IF\s+NOT\s+EXISTS\s+)?"
                     r"(`(?:[^`]|``)+`|[\w.]+)\s*(\(([^)]*)\))?\s+AS\s+", text, re.I | re.S)
        if not m:
            raise SqlError("Expected CREATE VIEW <name> AS <query>", line, col)
        name = _strip_quotes(m.group(4))
        body = text[m.end():]
        body_line, body_col = _body_position(text, m.end(), line, col)
        q = self._query(body, body_line, body_col)
        view = ViewDef(name=name, query=body, temporary=bool(m.group(2)), ddl=text)
        view.columns = [(f.name, f.type_text()) for f in q.fields]
        if m.group(6):
            raise UnsupportedError("CREATE VIEW with a column list is not supported yet", line, col,
                                   hint="alias the columns in the query instead")
        self.catalog.add_view(view, if_not_exists=bool(m.group(3)), or_replace=bool(m.group(1)))
        return plans.MessagePlan(OK)

    def _drop(self, text, line, col):
        m = re.match(r"\s*DROP\s+(TEMPORARY\s+)?(TABLE|VIEW)\s+(IF\s+EXISTS\s+)?(`(?:[^`]|``)+`|[\w.]+)\s*$",
                     text, re.I)
        if not m:
            raise SqlError("Expected DROP TABLE|VIEW [IF EXISTS] <name>", line, col)
        self.catalog.drop(m.group(2).upper(), _strip_quotes(m.group(4)), bool(m.group(3)))
        return plans.MessagePlan(OK)

    # ------------------------------------------------------------------ SHOW / DESCRIBE
    def _show(self, text, line, col):
        what = " ".join(re.sub(r"^\s*SHOW\b", "", text, flags=re.I).split())
        up = what.upper()
        if up == "TABLES":
            return plans.ListingPlan([("table name", "STRING")], [(n,) for n in sorted(self.catalog.tables)]
                                     + [(n,) for n in sorted(self.catalog.views)])
        if up == "VIEWS":
            return plans.ListingPlan([("view name", "STRING")], [(n,) for n in sorted(self.catalog.views)])
        if up in ("FUNCTIONS", "USER FUNCTIONS"):
            names = [] if up.startswith("USER") else sorted(n for n in FLINK_FUNCTIONS if not n.startswith("$"))
            return plans.ListingPlan([("function name", "STRING")], [(n,) for n in names])
        if up == "CATALOGS":
            return plans.ListingPlan([("catalog name", "STRING")], [("default_catalog",)])
        if up == "DATABASES":
            return plans.ListingPlan([("database name", "STRING")], [("default_database",)])
        if up in ("CURRENT CATALOG",):
            return plans.ListingPlan([("current catalog name", "STRING")], [("default_catalog",)])
        if up in ("CURRENT DATABASE",):
            return plans.ListingPlan([("current database name", "STRING")], [("default_database",)])
        if up == "JOBS":
            return plans.ShowJobs()
        m2 = re.match(r"CREATE\s+(TABLE|VIEW)\s+(`(?:[^`]|``)+`|[\w.]+)$", what, re.I)
        if m2:
            obj = self.catalog.require(_strip_quotes(m2.group(2)), line, col)
            return plans.ListingPlan([("result", "STRING")], [(show_create(obj),)])
        hint = "SHOW TABLES | VIEWS | FUNCTIONS | JOBS | CREATE TABLE <name>"
        if not what:
            raise SqlError("Expected what to show after SHOW", line, col, hint=hint)
        raise SqlError("Unsupported SHOW %s" % near(what), line, col, hint=hint)

    def _describe(self, text, line, col):
        m = re.match(r"\s*DESC(?:RIBE)?\s+(?:EXTENDED\s+)?(`(?:[^`]|``)+`|[\w.]+)\s*$", text, re.I)
        if not m:
            raise SqlError("Expected DESCRIBE <table or view>", line, col)
        obj = self.catalog.require(_strip_quotes(m.group(1)), line, col)
        cols = [("name", "STRING"), ("type", "STRING"), ("null", "BOOLEAN"), ("key", "STRING"),
                ("extras", "STRING"), ("watermark", "STRING")]
        rows = []
        if isinstance(obj, TableDef):
            for c in obj.columns:
                t = c.type.replace(" NOT NULL", "")
                if c.name == obj.rowtime:
                    t += " *ROWTIME*"
                elif c.is_proctime:
                    t = "TIMESTAMP_LTZ(3) *PROCTIME*"
                extras = ("AS " + c.computed) if c.computed else \
                    ("METADATA FROM '%s'" % c.metadata) if c.metadata else None
                key = ("PRI(%s)" % ", ".join(obj.primary_key)) if c.name in obj.primary_key else None
                wm = obj.watermark.expression if obj.watermark and obj.watermark.column == c.name else None
                rows.append((c.name, t, c.nullable and not c.is_proctime, key, extras, wm))
        else:
            for n, t in obj.columns:
                rows.append((n, t or "", True, None, None, None))
        return plans.ListingPlan(cols, rows)

    # ------------------------------------------------------------------ SET / RESET
    def _set(self, text, line, col):
        body = text.strip()[3:].strip()
        if not body:
            return plans.ListingPlan([("key", "STRING"), ("value", "STRING")],
                                     [(k, v) for k, v in self.settings.items()])
        m = re.match(r"^('(?:[^']|'')*'|[\w.\-]+)\s*=\s*('(?:[^']|'')*'|[^\s']+)$", body, re.S)
        if not m:
            raise SqlError("Expected SET 'key' = 'value'", line, col)
        key, value = _strip_quotes(m.group(1)), _strip_quotes(m.group(2))
        self.settings.set(key, value)
        conf = {key: value} if key.startswith("spark.") else {}
        return plans.MessagePlan("[INFO] Execute statement succeeded.", spark_conf=conf)

    def _reset(self, text, line, col):
        body = text.strip()[5:].strip()
        if not body:
            unset = [k for k in self.settings.explicit() if k.startswith("spark.")]
            self.settings.reset()
            return plans.MessagePlan("[INFO] Execute statement succeeded.", spark_conf_unset=unset)
        if not re.fullmatch(r"'(?:[^']|'')*'|`(?:[^`]|``)*`|[\w.\-]+", body):
            raise SqlError("Expected RESET or RESET 'key'", line, col)
        key = _strip_quotes(body)
        self.settings.reset(key)
        return plans.MessagePlan("[INFO] Execute statement succeeded.",
                                 spark_conf_unset=[key] if key.startswith("spark.") else [])

    # ------------------------------------------------------------------ EXPLAIN / INSERT
    def _explain(self, text, line, col):
        m = re.match(r"\s*EXPLAIN\b\s*((?:PLAN\s+FOR\b\s*)|(?:CHANGELOG_MODE\b\s*)|(?:ESTIMATED_COST\b\s*)|"
                     r"(?:JSON_EXECUTION_PLAN\b\s*))?", text, re.I)
        if not m:
            raise SqlError("Expected EXPLAIN [CHANGELOG_MODE] <query>", line, col)
        body = text[m.end():]
        detail = (m.group(1) or "").strip().upper()
        body_line, body_col = _body_position(text, m.end(), line, col)
        if not body.strip():
            raise SqlError("Expected a query after EXPLAIN", line, col)
        if re.match(r"\s*INSERT\b", body, re.I):
            q = self._insert(body, body_line, body_col).query
        else:
            q = self._query(body, body_line, body_col)
        return plans.ExplainRun(q, detail == "CHANGELOG_MODE", self.settings.batch)

    def _execute(self, text, line, col):
        """EXECUTE INSERT INTO ... (one INSERT) or EXECUTE STATEMENT SET BEGIN <INSERT>; ... END."""
        m = re.match(r"\s*EXECUTE\s+(?=INSERT\b)", text, re.I)
        if m:
            line2, col2 = _body_position(text, m.end(), line, col)
            return self._insert(text[m.end():], line2, col2)
        m = re.match(r"\s*EXECUTE\s+STATEMENT\s+SET\s+BEGIN\b", text, re.I)
        end = re.search(r"\bEND\s*$", text, re.I)
        if not m or not end:
            raise SqlError("Expected EXECUTE STATEMENT SET BEGIN <INSERT INTO ...>; ... END", line, col)
        body_line, body_col = _body_position(text, m.end(), line, col)
        inserts = []
        for stmt in split(text[m.end():end.start()]):
            s_line = body_line + stmt.line - 1
            s_col = body_col + stmt.column - 1 if stmt.line == 1 else stmt.column
            if not re.match(r"INSERT\b", stmt.text, re.I):
                word = stmt.text.split()[0] if stmt.text.split() else stmt.text
                raise SqlError("Encountered \"%s\": a statement set holds INSERT INTO statements only" % word,
                               s_line, s_col)
            inserts.append(self._insert(stmt.text, s_line, s_col))
        if not inserts:
            raise SqlError("Encountered \"END\": a statement set needs at least one INSERT INTO statement",
                           line, col)
        return plans.StatementSetRun(inserts, text)

    def _insert(self, text, line, col):
        m = _INSERT_HEAD.match(text)
        if not m:
            raise SqlError("Expected INSERT INTO <table> SELECT ...", line, col)
        target = self.catalog.require(_strip_quotes(m.group(2)), line, col)
        if not isinstance(target, TableDef):
            raise SqlError("Cannot INSERT INTO view '%s'" % near(target.name), line, col)
        if m.group(1).upper() == "OVERWRITE" and not self.settings.batch:
            raise UnsupportedError("Streaming mode not support overwrite.", line, col,
                                   hint="INSERT OVERWRITE runs in batch mode: SET 'execution.runtime-mode' = 'batch'")
        columns = None
        physical = [c.name for c in target.physical_columns]
        if m.group(3):
            columns = [_strip_quotes(c) for c in m.group(4).split(",") if c.strip()]
            for c in columns:
                if c not in physical:
                    raise SqlError("Unknown target column '%s' of table '%s'" % (near(c), target.name), line, col,
                                   hint="its columns: " + ", ".join(physical))
        body = text[m.end():]
        body_line, body_col = _body_position(text, m.end(), line, col)
        if not body.strip():
            raise SqlError("Expected a query after INSERT INTO %s" % near(m.group(2)), line, col)
        q = self._query(body, body_line, body_col, sink_table=target if columns is None else None)
        if len(q.fields) != len(columns if columns is not None else physical):
            raise SqlError("Column types of query result and sink for 'default_catalog.default_database.%s' do not "
                           "match.\nCause: Different number of columns.\n\nQuery schema: [%s]\nSink schema:  [%s]"
                           % (target.name, ", ".join("%s: %s" % (f.name, f.type_text()) for f in q.fields),
                              ", ".join("%s: %s" % (c.name, c.type) for c in target.physical_columns)),
                           q.line, q.column)
        return plans.InsertRun(target, q, self.settings.batch, text, target_columns=columns,
                               overwrite=m.group(1).upper() == "OVERWRITE")


# INSERT INTO <table> [(<column>, ...)]: the column names separated by commas, each read one way only (a
# pattern whose separators were optional tried every split of every word: minutes on a mistyped list).
_TARGET_COLUMN = r"(?:`(?:[^`]|``)+`|(?!SELECT\b|WITH\b|VALUES\b)\w+)"
_INSERT_HEAD = re.compile(r"\s*INSERT\s+(INTO|OVERWRITE)\s+(`(?:[^`]|``)+`|[\w.]+)\s*"
                          r"(\(\s*(%s\s*(?:,\s*%s\s*)*)\))?\s*" % (_TARGET_COLUMN, _TARGET_COLUMN), re.I)


def _body_position(text, offset, line, col):
    """(line, column) in the user's input of `text[offset:]`, the statement starting at line:col."""
    body_line = line + text.count("\n", 0, offset)
    body_col = (col + offset) if body_line == line else offset - text.rfind("\n", 0, offset)
    return body_line, body_col


def show_create(obj):
    if isinstance(obj, ViewDef):
        return "CREATE VIEW `default_catalog`.`default_database`.`%s` AS\n%s" % (obj.name, obj.query.strip())
    lines = []
    for c in obj.columns:
        if c.computed:
            lines.append("  `%s` AS %s" % (c.name, c.computed))
        else:
            lines.append("  `%s` %s%s" % (c.name, c.type, (" METADATA FROM '%s'" % c.metadata) if c.metadata else ""))
    if obj.watermark:
        lines.append("  WATERMARK FOR `%s` AS %s" % (obj.watermark.column, obj.watermark.expression))
    if obj.primary_key:
        lines.append("  PRIMARY KEY (%s) NOT ENFORCED" % ", ".join("`%s`" % k for k in obj.primary_key))
    from runtime.redaction import MASK, is_sensitive    # a password is never shown (a plain module: no Spark)
    opts = ",\n".join("  '%s' = '%s'" % (k, MASK if is_sensitive(k) else v.replace("'", "''"))
                      for k, v in obj.options.items())
    return "CREATE TABLE `default_catalog`.`default_database`.`%s` (\n%s\n) WITH (\n%s\n)" % (
        obj.name, ",\n".join(lines), opts)
