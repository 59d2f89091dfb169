"""The planner: one statement's text -> a typed plan (see plans.py), applying DDL and SET as it goes.

Knows every statement kind dynsql runs: CREATE TABLE / VIEW, DROP, SHOW, DESCRIBE, SET, RESET, EXPLAIN,
INSERT INTO, EXECUTE STATEMENT SET (several INSERTs as one job), SELECT (and WITH / VALUES), SHOW JOBS,
STOP JOB.

A statement is planned with a deep stack (`planner.parse.deep_stack`: deeply nested SQL plans instead of
overflowing Python's), and an error that does not say where it is gets the statement's line and column."""

import re

from . import plans
from .catalog import Catalog, TableDef, ViewDef
from .catalog_statements import describe_rows, plan_catalog_statement, show_create
from .connectors import check_table_options
from .alter_table import alter_table
from .create_table_as import ctas_columns
from .create_table_like import merge_like
from .ddl import check_table_definition, parse_create_table_statement
from .errors import DynsqlError, SqlError, UnsupportedError
from .expr.functions.registry import FLINK_FUNCTIONS
from .parse import deep_stack, near, parse_sql
from .python_functions import statements as python_functions
from .query_plan import plan_query
from .settings import KNOWN_KEYS, Settings
from .splitter import split

OK = "[INFO] Execute statement succeeded."
# a table's name as written: `t`, db.t, cat.db.t, each part plain or in backticks
_PART = r"(?:`(?:[^`]|``)+`|\w+)"
NAME = r"%s(?:\s*\.\s*%s){0,2}" % (_PART, _PART)


def _strip_quotes(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'`\"":
        return s[1:-1].replace(s[0] * 2, s[0])
    return s


class Planner:
    def __init__(self, catalog=None, settings=None, warehouse=None):
        """warehouse: Spark's warehouse folder, read as `spark_catalog` (spark.sql.warehouse.dir)."""
        self.catalog = catalog or Catalog(warehouse)
        self.settings = settings or Settings()
        self.statement_set = None    # between BEGIN STATEMENT SET and END: the InsertRuns added so far

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
        writes = self.catalog.disk_writes()
        try:
            plan = self._dispatch(statement.text, statement.line, statement.column)
            if isinstance(plan, plans.MessagePlan) and self.catalog.wrote_since(writes):
                plan.replay = False       # a job process reads it back from the catalog's folder
            return plan
        except DynsqlError as error:
            if error.line is None:
                error.line, error.column = statement.line, statement.column
            raise

    def _dispatch(self, text, line, col):
        words = re.findall(r"\w+", text[:200].upper())      # words as the statement regexes' \b see them
        first = words[0] if words else ""
        if words[:3] == ["BEGIN", "STATEMENT", "SET"] or words == ["END"] or self.statement_set is not None:
            return self._statement_set(text, line, col, words)
        if first in ("CREATE", "DROP", "USE", "SHOW", "DESCRIBE", "DESC") and \
                (words[1:2] in (["CATALOG"], ["DATABASE"], ["SCHEMA"]) or first in ("USE", "SHOW")):
            if words[1:2] == ["SCHEMA"]:
                raise UnsupportedError("%s SCHEMA: Flink names it %s DATABASE" % (first, first), line, col)
            if words[:2] != ["SHOW", "JOBS"] and words[:3] != ["SHOW", "SPARK", "UI"]:
                return plan_catalog_statement(self.catalog, text, line, col)
        if first == "CREATE":
            if re.match(r"CREATE\s+(TEMPORARY\s+)?TABLE\b", text, re.I):
                return self._create_table(text, line, col)
            if re.match(r"CREATE\s+(OR\s+REPLACE\s+)?(TEMPORARY\s+)?VIEW\b", text, re.I):
                return self._create_view(text, line, col)
            if python_functions.is_create_function(text):
                python_functions.create_function(self.catalog, self.settings, text, line, col)
                return plans.MessagePlan(OK)
            raise UnsupportedError("Unsupported CREATE statement", line, col,
                                   hint="CREATE TABLE, CREATE VIEW and CREATE FUNCTION are supported")
        if first == "DROP" and python_functions.is_drop_function(text):
            python_functions.drop_function(self.catalog, text, line, col)
            return plans.MessagePlan(OK)
        if first == "DROP" and words[1:2] == ["JOB"]:
            m = re.match(r"\s*DROP\s+JOB\s+'([^']+)'\s*$", text, re.I)
            if not m:
                raise SqlError("Expected DROP JOB '<job id>'", line, col, hint="SHOW JOBS lists the ids")
            return plans.DropJob(m.group(1))
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
        if words[:2] == ["ALTER", "TABLE"]:
            alter_table(self.catalog, text, line, col)
            return plans.MessagePlan(OK)
        if first in ("USE", "ALTER", "LOAD", "UNLOAD", "ADD", "REMOVE", "ANALYZE", "TRUNCATE", "DELETE", "UPDATE"):
            raise UnsupportedError("%s statements are not supported by dynsql" % first, line, col)
        raise SqlError("Unknown statement starting with '%s'" % near(text.split()[0] if text.split() else text),
                       line, col, hint="type HELP for the statements dynsql knows")

    # ------------------------------------------------------------------ DDL
    def _create_table(self, text, line, col):
        create = parse_create_table_statement(text, line, col)
        table = create.table
        if create.like is not None:
            source = self.catalog.get(create.like)
            if source is None:
                raise SqlError("Source table '%s' of the LIKE clause not found in the catalog"
                               % _quoted_path(self.catalog, create.like), *create.like_position)
            table = merge_like(create, source, line, col)
        if create.query is not None:
            return self._create_table_as(create, text, line, col)
        check_table_options(table, line, col)
        self.catalog.add_table(table, create.if_not_exists, path=table.name, temporary=create.temporary)
        return plans.MessagePlan(OK)

    def _create_table_as(self, create, text, line, col):
        """CREATE TABLE t WITH (...) AS <query>: the table, its columns the query's, then a job inserting the
        query's rows (as Flink: the table stays when the job fails)."""
        table = create.table
        if self.statement_set is not None:
            raise UnsupportedError("CREATE TABLE AS SELECT in a statement set is not supported by dynsql", line, col)
        refuse_distributed_sink(table, self.catalog.full_name(table.name), line, col)
        q_line, q_col = _body_position(text, create.query_offset, line, col)
        q = self._query(create.query, q_line, q_col)
        table.columns = ctas_columns(create, q.fields, line, col)
        check_table_definition(table, line, col)
        check_table_options(table, line, col)
        writes = self.catalog.disk_writes()
        full = self.catalog.full_name(table.name)
        self.catalog.add_table(table, create.if_not_exists, path=full, temporary=create.temporary)
        target = self.catalog.require(full, line, col)     # IF NOT EXISTS and there: the rows go to that table
        names = [f.name for f in q.fields]
        listed = "" if names == [c.name for c in target.physical_columns] else \
            " (%s)" % ", ".join("`%s`" % n.replace("`", "``") for n in names)    # the query's columns, by name
        insert_text = "INSERT INTO %s%s %s" % (_quoted_path(self.catalog, full), listed, create.query)
        run = self._insert(insert_text, line, col)
        run.text = insert_text
        if not self.catalog.wrote_since(writes):        # a job process makes the table from its DDL
            run.table_ddl = show_create(target, full, mask=False)
        return run

    def _create_view(self, text, line, col):
        m = re.match(r"\s*CREATE\s+(OR\s+REPLACE\s+)?(TEMPORARY\s+)?VIEW\s+(IF\s+NOT\s+EXISTS\s+)?"
                     r"(%s)\s*(\(([^)]*)\))?\s+AS\s+" % NAME, text, re.I | re.S)
        if not m:
            raise SqlError("Expected CREATE VIEW <name> AS <query>", line, col)
        name = m.group(4)
        body = text[m.end():]
        body_line, body_col = _body_position(text, m.end(), line, col)
        q = self._query(body, body_line, body_col)
        view = ViewDef(name=name, query=body, temporary=bool(m.group(2)), ddl=text)
        view.columns = [(f.name, f.type_text()) for f in q.fields]
        if m.group(6):
            raise UnsupportedError("CREATE VIEW with a column list is not supported yet", line, col,
                                   hint="alias the columns in the query instead")
        self.catalog.add_view(view, if_not_exists=bool(m.group(3)), or_replace=bool(m.group(1)), path=name)
        return plans.MessagePlan(OK)

    def _drop(self, text, line, col):
        m = re.match(r"\s*DROP\s+(TEMPORARY\s+)?(TABLE|VIEW)\s+(IF\s+EXISTS\s+)?(%s)\s*$" % NAME, text, re.I)
        if not m:
            raise SqlError("Expected DROP TABLE|VIEW [IF EXISTS] <name>", line, col)
        self.catalog.drop(m.group(2).upper(), m.group(4), bool(m.group(3)))
        return plans.MessagePlan(OK)

    # ------------------------------------------------------------------ SHOW / DESCRIBE
    def _show(self, text, line, col):
        if re.fullmatch(r"\s*SHOW\s+JOBS\s*", text, re.I):
            return plans.ShowJobs()
        if re.fullmatch(r"\s*SHOW\s+SPARK\s+UI\s*", text, re.I):
            return plans.ShowSparkUi()
        return plan_catalog_statement(self.catalog, text, line, col)

    def _describe(self, text, line, col):
        if python_functions.is_describe_function(text):
            return plans.ListingPlan(*python_functions.describe_function(self.catalog, text, line, col))
        m = re.match(r"\s*DESC(?:RIBE)?\s+(?:EXTENDED\s+)?(`(?:[^`]|``)+`|[\w.`]+)\s*$", text, re.I)
        if not m:
            raise SqlError("Expected DESCRIBE <table or view>", line, col)
        obj = self.catalog.require(m.group(1), line, col)
        return plans.ListingPlan(*describe_rows(obj))

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
        warning = self.settings.set(key, value)
        conf = {key: value} if key.startswith("spark.") else {}
        text = "[INFO] Execute statement succeeded."
        return plans.MessagePlan(warning + "\n" + text if warning else text, spark_conf=conf)

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

    def _statement_set(self, text, line, col, words):
        """The shell's statement set: BEGIN STATEMENT SET; then INSERTs, each added, not run; END runs them as
        one job (an empty set is skipped, as Flink's client does)."""
        if words[:3] == ["BEGIN", "STATEMENT", "SET"]:
            if len(words) > 3:
                raise SqlError("Unexpected '%s' after BEGIN STATEMENT SET" % words[3], line, col)
            if self.statement_set is not None:
                raise SqlError("A statement set has begun already: add INSERT INTO statements, then END",
                               line, col)
            self.statement_set = []
            return plans.MessagePlan("[INFO] Begin a statement set.", replay=False)
        if words == ["END"]:
            if self.statement_set is None:
                raise SqlError('No Statement Set to submit, "END;" command should be used after '
                               '"BEGIN STATEMENT SET;".', line, col)
            inserts, self.statement_set = self.statement_set, None
            if not inserts:
                return plans.MessagePlan("[INFO] No statement in the statement set, skip submit.", replay=False)
            return plans.StatementSetRun(inserts, ";\n".join(p.text for p in inserts))
        if words[:1] != ["INSERT"]:
            raise SqlError("Only INSERT statement is allowed in Statement Set.", line, col,
                           hint="END submits the statement set's INSERTs as one job")
        self.statement_set.append(self._insert(text, line, col))
        return plans.MessagePlan("[INFO] Add SQL update statement to the statement set.", replay=False)

    def _insert(self, text, line, col):
        m = _INSERT_HEAD.match(text)
        if not m:
            raise SqlError("Expected INSERT INTO <table> SELECT ...", line, col)
        target = self.catalog.require(m.group(2), line, col)
        if not isinstance(target, TableDef):
            raise SqlError("Cannot INSERT INTO view '%s'" % near(target.name), line, col)
        refuse_distributed_sink(target, self.catalog.full_name(m.group(2)), line, col)
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
            raise SqlError("Column types of query result and sink for '%s' do not "
                           "match.\nCause: Different number of columns.\n\nQuery schema: [%s]\nSink schema:  [%s]"
                           % (self.catalog.full_name(m.group(2)), ", ".join("%s: %s" % (f.name, f.type_text()) for f in q.fields),
                              ", ".join("%s: %s" % (c.name, c.type) for c in target.physical_columns)),
                           q.line, q.column)
        return plans.InsertRun(target, q, self.settings.batch, text, target_columns=columns,
                               overwrite=m.group(1).upper() == "OVERWRITE",
                               target_path=self.catalog.full_name(m.group(2)))


# INSERT INTO <table> [(<column>, ...)]: the column names separated by commas, each read one way only (a
# pattern whose separators were optional tried every split of every word: minutes on a mistyped list).
_TARGET_COLUMN = r"(?:`(?:[^`]|``)+`|(?!SELECT\b|WITH\b|VALUES\b)\w+)"
_INSERT_HEAD = re.compile(r"\s*INSERT\s+(INTO|OVERWRITE)\s+(%s)\s*"
                          r"(\(\s*(%s\s*(?:,\s*%s\s*)*)\))?\s*" % (NAME, _TARGET_COLUMN, _TARGET_COLUMN), re.I)


def refuse_distributed_sink(table, full_name, line, col):
    """A write into a table with DISTRIBUTED BY / INTO: Flink 2.3 refuses it for each of its sinks (none implements
    SupportsBucketing; recorded on filesystem and print), and so does dynsql, before anything runs."""
    if table.distribution:
        raise UnsupportedError("Table '%s' is distributed into buckets, but the underlying DynamicTableSink doesn't "
                               "implement the SupportsBucketing interface." % full_name, line, col,
                               hint="dynsql's sinks write no buckets: declare the table without DISTRIBUTED BY / "
                                    "INTO (reading a distributed table works)")


def _quoted_path(catalog, name):
    """`name` resolved to `catalog`.`database`.`table`, each part in backticks."""
    from .catalog import split_name
    return ".".join("`%s`" % p.replace("`", "``") for p in split_name(catalog.full_name(name)))


def _body_position(text, offset, line, col):
    """(line, column) in the user's input of `text[offset:]`, the statement starting at line:col."""
    body_line = line + text.count("\n", 0, offset)
    body_col = (col + offset) if body_line == line else offset - text.rfind("\n", 0, offset)
    return body_line, body_col
