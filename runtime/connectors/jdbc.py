"""The `jdbc` connector's reads, on PostgreSQL: Spark's JDBC data source (`spark.read.format("jdbc")`) reads the
table on the executors, in `scan.partition.num` parallel ranges of `scan.partition.column` when the scan
options say so, `scan.fetch-size` rows a round trip. A batch read gives the rows with the hidden columns
(`__seq` their order, `__wm` NULL, `__op` +I); a streaming read is a bounded input like a bounded file: the
executors write the table's rows once into a parquet snapshot (kept in a job's checkpoint, so that a resumed job
reads the same rows), which the filesystem source then reads with every streaming feature a file has
(watermarks, the end of input). Types map as Flink's PostgreSQL dialect maps them: each declared column
must be one Spark's reader gives a value that fits (integers, NUMERIC(p,s) -> DECIMAL, TIMESTAMP(p), text,
BOOLEAN, DATE, arrays); a PostgreSQL type neither maps (point, json, ...) is refused naming the column.
Errors name the table and the url, never the password."""

import dataclasses
import os
import re

from planner.errors import RuntimeFailure, SqlError
from planner.expr.types import parse_type, to_spark

DRIVER = "org.postgresql.Driver"


def connection_options(options):
    """Spark's JDBC options for a table's connection (url, user, password, driver, the time to connect)."""
    o = {"url": options["url"], "driver": DRIVER}
    if "username" in options:
        o["user"] = options["username"]
    if "password" in options:
        o["password"] = options["password"]
    if "connection.max-retry-timeout" in options:     # PostgreSQL's driver: seconds to connect
        from planner.settings import parse_duration_ms
        o["connectTimeout"] = str(parse_duration_ms(options["connection.max-retry-timeout"]) // 1000)
    return o


def read_options(table):
    o = table.options
    r = {**connection_options(o), "dbtable": o["table-name"]}
    if "scan.fetch-size" in o and int(o["scan.fetch-size"]) > 0:
        r["fetchsize"] = o["scan.fetch-size"]
    if "scan.partition.column" in o:
        r.update(partitionColumn=o["scan.partition.column"], numPartitions=o["scan.partition.num"],
                 lowerBound=o["scan.partition.lower-bound"], upperBound=o["scan.partition.upper-bound"])
    return r


# the PostgreSQL types Flink's PostgreSQL dialect reads (PostgresTypeMapper), by their names in pg_type; an array
# is `_` and its element's name
MAPPED_TYPES = {"int2", "int4", "int8", "float4", "float8", "numeric", "bool", "text", "varchar", "bpchar", "char",
                "character", "date", "time", "timestamp", "timestamptz", "bytea", "serial", "bigserial"}


def check_column_types(table):
    """Each declared column's PostgreSQL type is one Flink's PostgreSQL dialect maps (else a clear error)."""
    from .pg_client import connect, quote_table
    try:
        conn = connect(table.options)
        try:
            cursor = conn.cursor()
            cursor.execute("SELECT a.attname, t.typname FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid "
                           "WHERE a.attrelid = %s::regclass AND a.attnum > 0 AND NOT a.attisdropped",
                           [quote_table(table.options["table-name"])])
            types = dict(cursor.fetchall())
        finally:
            conn.close()
    except Exception as e:
        raise jdbc_failure(e, table) from None
    for c in table.physical_columns:
        pg = types.get(c.name)
        if pg is not None and pg.lstrip("_") not in MAPPED_TYPES:
            raise SqlError("Table '%s': column '%s' has the PostgreSQL type %s, which Flink's PostgreSQL dialect "
                           "does not map to a Flink type" % (table.name, c.name, pg),
                           hint="read it through a PostgreSQL view that casts it (e.g. to TEXT)")


def read_table(spark, table):
    """The table's physical columns, cast to their declared types, read by Spark's JDBC source (no hidden
    columns)."""
    from pyspark.sql import functions as F
    check_column_types(table)
    reader = spark.read.format("jdbc")
    for k, v in read_options(table).items():
        reader = reader.option(k, str(v))
    try:
        df = reader.load()
    except Exception as e:
        raise jdbc_failure(e, table) from None
    found = {f.name: f for f in df.schema.fields}
    cols = []
    for c in table.physical_columns:
        if c.name not in found:
            raise SqlError("Table '%s': column '%s' is not in the PostgreSQL table '%s' (it has %s)"
                           % (table.name, c.name, table.options["table-name"], ", ".join(found) or "no columns"))
        want = to_spark(parse_type(c.type))
        if not _fits(found[c.name].dataType, want):
            raise SqlError("Table '%s': column '%s' is declared %s, but the PostgreSQL column is %s, which does not "
                           "map to it" % (table.name, c.name, c.type, found[c.name].dataType.simpleString()),
                           hint="declare it with the Flink type of the PostgreSQL type (see README, JDBC)")
        cols.append(F.col("`%s`" % c.name).cast(want).alias(c.name))
    return df.select(*cols)


def _fits(have, want):
    from pyspark.sql import types as st
    numbers = (st.ByteType, st.ShortType, st.IntegerType, st.LongType, st.DecimalType, st.FloatType, st.DoubleType)
    if isinstance(want, st.ArrayType):
        return isinstance(have, st.ArrayType) and _fits(have.elementType, want.elementType)
    if isinstance(want, numbers):
        return isinstance(have, numbers)
    if isinstance(want, st.StringType):
        return isinstance(have, (st.StringType, st.CharType, st.VarcharType))
    if isinstance(want, (st.TimestampType, st.TimestampNTZType)):
        return isinstance(have, (st.TimestampType, st.TimestampNTZType))
    return type(have) is type(want) or isinstance(have, st.StringType) and isinstance(want, st.StringType)


def batch_frame(spark, table):
    """A batch read with the hidden columns: `__seq` (a hash of the row: a database table has no order, and a
    lookup join reads the table inside streaming micro-batches, where Spark has no row numbers), `__wm` NULL,
    `__op` +I."""
    from pyspark.sql import functions as F
    df = read_table(spark, table)
    return df.select("*", F.xxhash64(*[F.col("`%s`" % c) for c in df.columns]).alias("__seq"),
                     F.lit(None).cast("timestamp").alias("__wm"),
                     F.lit(0).cast("tinyint").alias("__op"))


def snapshot_table(spark, table, folder):
    """A streaming read's input: the table's rows written once (by the executors) as parquet under `folder`,
    and a filesystem table over it with the same columns; a folder that holds a finished snapshot (a resumed
    job's) is read again as it is."""
    data = os.path.join(folder, "rows")
    if not os.path.exists(os.path.join(data, "_SUCCESS")):
        try:
            read_table(spark, table).write.mode("overwrite").parquet(data)
        except (SqlError, RuntimeFailure):
            raise
        except Exception as e:
            raise jdbc_failure(e, table) from None
    return dataclasses.replace(table, options={"connector": "filesystem", "path": data, "format": "parquet"})


# ---------------------------------------------------------------------- errors, in words, without the password
_CAUSES = (
    (re.compile(r"password authentication failed for user \"?([^\"\s]+)", re.I),
     "PostgreSQL refused the user '{0}': password authentication failed", "check 'username' and 'password'"),
    (re.compile(r"Can't create a connection to host (\S+) and port (\d+)", re.I),
     "cannot connect to PostgreSQL at {0}:{1} (is the server running?)", None),
    (re.compile(r"Connection to (\S+) refused", re.I),
     "cannot connect to PostgreSQL at {0}: connection refused (is the server running?)", None),
    (re.compile(r"relation \"([^\"]+)\" does not exist", re.I),
     "PostgreSQL has no table '{0}'", "check 'table-name'"),
    (re.compile(r"database \"([^\"]+)\" does not exist", re.I), "PostgreSQL has no database '{0}'", "check 'url'"),
    (re.compile(r"no unique or exclusion constraint matching the ON CONFLICT", re.I),
     "the PostgreSQL table has no primary key or unique constraint on the PRIMARY KEY's columns, which an upsert "
     "needs", "ALTER TABLE ... ADD PRIMARY KEY (...) in PostgreSQL"),
    (re.compile(r"column \"([^\"]+)\" (?:of relation \"[^\"]+\" )?does not exist", re.I),
     "the PostgreSQL table has no column '{0}'", None),
    (re.compile(r"(?:Unsupported type|UNRECOGNIZED_SQL_TYPE|Unrecognized SQL type)\W*(.*)", re.I),
     "a column has a PostgreSQL type that Flink's PostgreSQL dialect does not map ({0})",
     "declare the table over a view that casts it (e.g. to TEXT)"),
    (re.compile(r"The connection attempt failed|Connection refused|terminating connection|"
                r"An I/O error occurred while sending to the backend|This connection has been closed|network error|"
                r"connection is closed|server closed the connection|Connection reset by peer|Broken pipe", re.I),
     "lost the connection to PostgreSQL (the server stopped or is unreachable)", None),
)


def redact_secrets(text, options):
    """`text` without the table's password (also where it is part of a url)."""
    text = str(text)
    pw = options.get("password")
    if pw:
        text = text.replace(pw, "******")
    return re.sub(r"(?i)(password=)[^&;\s]*", r"\1******", text)


def _chain(error):
    """The texts of an error and of its Java causes (a py4j error's or a captured Spark exception's)."""
    texts = [getattr(error, "desc", None) or str(error)]
    java = getattr(error, "java_exception", None) or getattr(error, "_origin", None)
    seen = 0
    while java is not None and seen < 20:
        try:
            texts.append(str(java.toString()))
            java = java.getCause()
        except Exception:
            break
        seen += 1
    return "\n".join(texts)


def cause_in_words(text):
    """(the cause of a failure named in `text`, in words, a hint or None): the first known cause, else the
    text's first line."""
    for pattern, words, hint in _CAUSES:
        m = pattern.search(text)
        if m:
            return words.format(*[g.strip().rstrip(".") for g in m.groups()]), hint
    first = text.strip().splitlines()[0] if text.strip() else "failed"
    return "failed: " + first[:300], None


def jdbc_failure(error, table, doing="reading"):
    """A RuntimeFailure naming the table, its url and the cause in words, without the password."""
    text = redact_secrets(_chain(error), table.options)
    url = redact_secrets(table.options.get("url", ""), table.options)
    cause, hint = cause_in_words(text)
    return RuntimeFailure("Table '%s' (jdbc, %s): %s while %s it" % (table.name, url, cause, doing), hint=hint)
