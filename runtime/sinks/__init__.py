"""The sinks of INSERT INTO, each a Spark write of its own with a checkpoint that outlives the job:

  filesystem  csv, json or parquet part files written per micro-batch, exactly once (filesystem.py)
  blackhole   Spark's `noop` sink
  print       Flink's `+I[...]` lines on the job's standard output (print_sink.py)
  jdbc        PostgreSQL: upserts by the primary key, or appends; one transaction a micro-batch (jdbc_sink.py)

`check_insert` refuses what Flink refuses before a job starts (an updating query into a filesystem table,
columns whose types do not fit the sink's); `sink_frame` turns the query's result into the sink's columns;
`start_sink` starts the write and returns a `SinkWrite` (write.py) the job's process watches. Where a job
runs is job_launch.py's business, what it does over time job_run.py's."""

import re

from planner.errors import SqlError, UnsupportedError
from planner.infer import refused_changes
from planner.plan.changelog import INSERT_ONLY_KINDS
from planner.expr.types import parse_type, to_spark

SINK_CONNECTORS = ("print", "blackhole", "filesystem", "jdbc")
FILE_FORMATS = ("csv", "json", "parquet")


def check_insert(plan):
    """Flink's refusals that need no Spark: a table that cannot be written, an updating query into a
    filesystem table, a format the sink cannot write."""
    target, q = plan.target, plan.query
    conn = target.options.get("connector")
    if conn not in SINK_CONNECTORS:
        raise UnsupportedError("Table '%s' (connector '%s') cannot be written to" % (target.name, conn),
                               q.line, q.column, hint="sinks: " + ", ".join(SINK_CONNECTORS))
    if conn == "jdbc" and not target.primary_key:     # an append sink: insert-only queries, as in Flink
        refusal = refused_changes("Table sink 'default_catalog.default_database.%s'" % target.name, q.query,
                                  INSERT_ONLY_KINDS)
        if refusal:
            raise SqlError(refusal, q.line, q.column,
                           hint="declare a PRIMARY KEY (...) NOT ENFORCED on table '%s' to upsert" % target.name)
    if conn != "filesystem":
        return
    refusal = refused_changes("Table sink 'default_catalog.default_database.%s'" % target.name, q.query,
                              INSERT_ONLY_KINDS)
    if refusal:
        raise SqlError(refusal, q.line, q.column, hint="a filesystem sink takes insert-only queries")
    fmt = target.options.get("format")
    if fmt not in FILE_FORMATS:
        raise UnsupportedError("The filesystem sink of table '%s' writes csv, json or parquet, not '%s'"
                               % (target.name, fmt), q.line, q.column)
    if fmt == "csv":
        for c in target.physical_columns:
            if re.match(r"\s*(MAP|MULTISET)\b", c.type, re.I):
                raise UnsupportedError("The csv format cannot write column '%s' of type %s (table '%s')"
                                       % (c.name, c.type, target.name), q.line, q.column,
                                       hint="write it as json or parquet")


# ---------------------------------------------------------------------- the query's columns -> the sink's
def sink_columns(plan, result_columns):
    """[(query column name or None, sink Column)] for the sink's physical columns, in the sink's order;
    raises Flink's "Column types of query result and sink ... do not match" when they do not fit."""
    target, q = plan.target, plan.query
    physical = target.physical_columns
    targets = [target.column(n) for n in plan.target_columns] if plan.target_columns else physical
    if len(result_columns) != len(targets):
        raise _mismatch(plan, result_columns, "Different number of columns.")
    for i, (rc, tc) in enumerate(zip(result_columns, targets)):
        if not implicit_cast(_bare(rc.type), _bare(tc.type)):
            raise _mismatch(plan, result_columns, "Incompatible types for sink column '%s' at position %d."
                            % (tc.name, physical.index(tc)))
    by_target = {tc.name: rc.name for rc, tc in zip(result_columns, targets)}
    return [(by_target.get(c.name), c) for c in physical]


def _mismatch(plan, result_columns, cause):
    q = plan.query
    return SqlError("Column types of query result and sink for 'default_catalog.default_database.%s' do not "
                    "match.\nCause: %s\n\nQuery schema: [%s]\nSink schema:  [%s]"
                    % (plan.target.name, cause, ", ".join("%s: %s" % (c.name, _bare(c.type)) for c in result_columns),
                       ", ".join("%s: %s" % (c.name, c.type) for c in plan.target.physical_columns)),
                    q.line, q.column)


def _bare(type_text):
    return re.sub(r"\s*\*[A-Z]+\*", "", type_text).strip()


_NUMERIC_RANK = {"TINYINT": 0, "SMALLINT": 1, "INT": 2, "INTEGER": 2, "BIGINT": 3, "DECIMAL": 4, "FLOAT": 5,
                 "DOUBLE": 6}
_FAMILIES = ({"CHAR", "VARCHAR", "STRING"}, {"BINARY", "VARBINARY", "BYTES"}, {"TIMESTAMP", "TIMESTAMP_LTZ"})


def implicit_cast(source, target):
    """True when Flink inserts a value of type `source` (text) into a column of type `target` without an
    explicit CAST: the same type (any precision or length), a wider number, text to text, TIMESTAMP and
    TIMESTAMP_LTZ to each other, NULL to anything; ARRAY, MAP and ROW element by element."""
    try:
        s, t = parse_type(source), parse_type(target)
    except SqlError:
        return source == target
    return _fits(s, t)


def _fits(s, t):
    if s.name == "NULL":
        return True
    if s.name in _NUMERIC_RANK and t.name in _NUMERIC_RANK:
        return _NUMERIC_RANK[s.name] <= _NUMERIC_RANK[t.name]
    if s.name in ("ARRAY", "MULTISET", "MAP") and s.name == t.name:
        return all(_fits(a, b) for a, b in zip(s.children, t.children))
    if s.name == "ROW" and t.name == "ROW":
        return len(s.children) == len(t.children) and all(_fits(a, b) for (_, a), (_, b) in
                                                           zip(s.children, t.children))
    if s.name == t.name:
        return True
    return any(s.name in f and t.name in f for f in _FAMILIES)


def sink_projection(plan, result_columns):
    """[(query column or None, sink column name, sink column's Flink type)]: what `project` needs, as plain
    values (it may run where the plan is not, in a foreachBatch on a Spark Connect server)."""
    return [(source, column.name, column.type) for source, column in sink_columns(plan, result_columns)]


def project(df, projection, hidden=False):
    """The result DataFrame as the sink's physical columns: cast to their types, named as they are, NULL
    for a column an `INSERT INTO t (a, b)` leaves out; with `hidden`, the `__op`, `__seq`... columns too."""
    from pyspark.sql import functions as F
    cols = []
    for source, name, type_text in projection:
        value = F.col("`%s`" % source) if source is not None else F.lit(None)
        cols.append(value.cast(to_spark(parse_type(type_text))).alias(name))
    if hidden:
        cols += [F.col(c) for c in df.columns if c.startswith("__")]
    return df.select(*cols)


def sink_frame(df, plan, result_columns, hidden=False):
    return project(df, sink_projection(plan, result_columns), hidden)


def start_sink(spark, plan, result, checkpoint, prefix, rows=0, last_batch=-1, output=None):
    """Start writing `result` (an Engine ResultFrame) into the plan's sink table -> a SinkWrite (write.py).
    `checkpoint`: the folder Spark keeps the write's progress in (resumed when it holds one); `prefix`: what
    names this write's files; `rows`, `last_batch`: what an earlier run of the write counted; `output`: where the
    print sink writes (the job's output.log in a job host; else standard output or error)."""
    conn = plan.target.options["connector"]
    if conn == "print":
        from .print_sink import start_print
        return start_print(spark, plan, result, checkpoint, rows, output)
    if conn == "blackhole":
        from .write import start_noop
        return start_noop(spark, plan, result, checkpoint, rows, last_batch)
    if conn == "jdbc":
        from .jdbc_sink import start_jdbc
        return start_jdbc(spark, plan, result, checkpoint)
    from .filesystem import start_files
    return start_files(spark, plan, result, checkpoint, prefix)
