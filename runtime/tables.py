"""Catalog tables as Spark DataFrames (batch or streaming), with the hidden columns operators need.

`table_frame` gives the table's columns in declared order (physical, computed, metadata) plus
`__seq`, `__wm`, `__op` (see connectors/filesystem.py). In streaming, when the query has event-time
operators, the rowtime gets Spark's watermark and the end-of-input sentinel row is dropped right after
the watermark node."""

import contextlib
import json
import os
import threading
import time
import uuid

from pyspark.sql import functions as F
from pyspark.sql import types as st

from planner.errors import RuntimeFailure, UnsupportedError
from planner.metadata_columns import FILESYSTEM_METADATA, metadata_columns
from planner.settings import parse_duration_ms
from planner.expr.types import parse_type, to_spark

from .connectors import nexmark, splits
from .connectors.filesystem import END_OF_INPUT, HIDDEN_COLUMNS
from .connectors.parse_errors import new_counters, watch_state_dir
from .streaming import checkpoint_root

_SOURCE_FORMATS = {"filesystem": "dynsql_filesystem", "datagen": "dynsql_datagen", "nexmark": "dynsql_nexmark"}
HIDDEN_SCHEMA = [st.StructField("__seq", st.LongType()), st.StructField("__wm", st.TimestampType()),
                 st.StructField("__op", st.ByteType())]


def source_schema(table, read=None):
    """The source's columns: the physical ones as the files hold them, then a partitioned table's partition
    columns (from its folders), then its metadata columns' values (`__meta<i>`, the key's type), then the
    hidden ones. `read`: only these physical columns (projection push-down, see operators/scan.py)."""
    fields = [st.StructField(c.name, to_spark(parse_type(c.type)), True) for c in file_order(table)
              if read is None or c.name in read]
    meta = [st.StructField("__meta%d" % i, to_spark(parse_type(FILESYSTEM_METADATA[key])), True)
            for i, (_, key) in enumerate(_read_metadata(table))]
    return st.StructType(fields + meta + HIDDEN_SCHEMA)


def _read_metadata(table):
    """[(column, key)] the source reads: a filesystem table's metadata columns (planner/metadata_columns.py)."""
    return metadata_columns(table) if table.options.get("connector") == "filesystem" else []


def is_bounded(table):
    o = table.options
    if o["connector"] == "filesystem":
        return "source.monitor-interval" not in o
    if o["connector"] == "datagen":
        return "number-of-rows" in o or any(k.endswith(".kind") and v == "sequence" for k, v in o.items())
    if o["connector"] == "nexmark":
        return nexmark.is_bounded(o)
    return True


def is_paced(table):
    o = table.options
    if o["connector"] == "nexmark":
        return nexmark.is_paced(o)
    return "replay.rows-per-second" in o or o["connector"] == "datagen" or "source.monitor-interval" in o


def one_unpaced_file(scan):
    """A scan of a filesystem table that is one file read as it stands: not partitioned, not a changelog format,
    neither paced nor watched."""
    table = scan.table
    o = table.options
    return (o.get("connector") == "filesystem" and not scan.changelog_source and not table.partition_keys
            and not is_paced(table) and os.path.isfile(o.get("path", "")))


def file_order(table):
    keys = table.partition_keys
    return ([c for c in table.physical_columns if c.name not in keys]
            + [c for c in table.physical_columns if c.name in keys])


class _KeptState(threading.local):
    root = None        # a job's checkpoint folder while its query is built (see sources_kept_in)
    count = 0


_kept_state = _KeptState()


@contextlib.contextmanager
def sources_kept_in(checkpoint):
    """`with sources_kept_in(folder):` build a job's query: its streaming sources keep their state (the files
    found, the split reports) in `folder/sources/<n>`, the n-th source built, and leave it there when the
    query stops, so that the job resumes (or a savepoint restores) where it was."""
    _kept_state.root, _kept_state.count = checkpoint, 0
    try:
        yield
    finally:
        _kept_state.root = None


def source_state_dir():
    """Where a streaming source keeps its state: a job's checkpoint (sources_kept_in), else a folder of its
    own under the session's checkpoint folder, removed when the query stops."""
    if _kept_state.root is None:
        return os.path.join(checkpoint_root(), "sources", uuid.uuid4().hex)
    _kept_state.count += 1
    return os.path.join(_kept_state.root, "sources", str(_kept_state.count))


def _spec(spark, table, streaming, sentinel, pieces=1, read=None, piece_bytes=None, piece_maxima=False):
    if table.options["connector"] == "nexmark":
        return nexmark.spec_json(table, sentinel, parallelism(spark), _event_time_delay_ms(table))
    physical = [c for c in table.physical_columns if c.name not in table.partition_keys]
    rowtime_index = None
    delay = None
    if table.watermark is not None:
        names = [c.name for c in physical]
        if table.watermark.column in names:
            rowtime_index = names.index(table.watermark.column)
            delay = table.watermark.delay_ms
    o = table.options
    if o["connector"] == "datagen":
        return json.dumps({"columns": [(c.name, c.type) for c in physical], "options": o, "created": time.time()})
    monitor = o.get("source.monitor-interval")
    fmt = o["format"]
    state_dir = source_state_dir() if streaming else None
    watch_state_dir(state_dir)
    return json.dumps({
        "path": o["path"], "format": fmt, "columns": [(c.name, c.type) for c in physical],
        "partitions": [(c.name, c.type) for c in file_order(table)[len(physical):]],
        "metadata": [key for _, key in _read_metadata(table)],
        "options": o, "rowtime_index": rowtime_index, "delay_ms": delay,
        # a computed rowtime gets the sentinel too: table_frame gives it END_OF_INPUT (see there)
        "sentinel": bool(sentinel and table.watermark is not None),
        "monitor": monitor is not None,
        "monitor_interval_ms": parse_duration_ms(monitor) if monitor is not None else None,
        "rows_per_second": o.get("replay.rows-per-second"),
        "rows_per_batch": o.get("scan.rows-per-batch"),
        "pieces": pieces, "piece_bytes": piece_bytes or splits.PIECE_BYTES, "piece_maxima": piece_maxima,
        # streaming: where the executors report each split for the planner (under the checkpoint directory)
        "state_dir": state_dir,
        "keep_state": _kept_state.root is not None,
        "counters": new_counters(spark) if o.get(fmt + ".ignore-parse-errors", "").lower() == "true" else None,
        # projection push-down: the positions of the physical columns handed to Spark, and the files' whole
        # schema the reader parses them with (None: all columns)
        "read": [i for i, c in enumerate(physical) if c.name in read] if read is not None else None,
        "file_schema": source_schema(table).json() if read is not None else None,
    })


def read_spec(spark, table, piece_bytes=None, read=None):
    """(the source's spec JSON, its schema JSON) of a whole bounded read of a filesystem table, for a task that
    reads the table itself (runtime/whole_file.py); `piece_bytes`: the least size of the pieces it is cut in;
    `read`: only these physical columns handed on (the others parsed, not converted)."""
    return _spec(spark, table, False, sentinel=False, piece_bytes=piece_bytes, read=read), \
        source_schema(table, read).json()


def pieces_read_spec(spark, table, pieces, read=None):
    """read_spec of a read of the file in `pieces` (how many, bytes each: the physical plan's cut), each piece's
    rows followed by its maximum's row (connectors/filesystem.py), for the tasks that read the pieces themselves
    (runtime/operators/window_pieces_arrow.py)."""
    count, piece_bytes = pieces
    return _spec(spark, table, False, sentinel=False, pieces=count, piece_bytes=piece_bytes, piece_maxima=True,
                 read=read), source_schema(table, read).json()


def parallelism(spark):
    """The cores Spark's tasks run on (1 under Spark Connect, which does not say)."""
    try:
        return spark.sparkContext.defaultParallelism
    except Exception:   # Spark Connect has no SparkContext
        return 1


def _event_time_delay_ms(table):
    """The watermark delay when a nexmark table's rowtime is each event's own time (the source then
    computes __wm), else None."""
    from planner.connectors import nexmark_rowtime_is_event_time
    return table.watermark.delay_ms if nexmark_rowtime_is_event_time(table) else None


def table_frame(spark, ref, streaming, event_time=False, cut_files=False, pieces=None, piece_maxima=False):
    """A scan (`ref`: runtime.operators.scan.ScanRef) -> DataFrame with the table's columns and the hidden columns.
    `cut_files`: a batch read whose rows' `__wm` nothing reads may cut a large text file into a piece a core
    (splits.batch_splits). `pieces` (how many, bytes each): a batch read cut so, with `piece_maxima` each
    piece's rows followed by its maximum's row (connectors/filesystem.py)."""
    table = ref.table
    conn = table.options["connector"]
    jdbc_rows = None
    if conn == "jdbc":       # Spark's JDBC reader; streaming: a bounded parquet snapshot (connectors/jdbc.py)
        from .connectors import jdbc
        if streaming:
            table, conn = jdbc.snapshot_table(spark, table, source_state_dir() + "-jdbc"), "filesystem"
        else:
            jdbc_rows = jdbc.batch_frame(spark, table)
    if conn not in _SOURCE_FORMATS and jdbc_rows is None:
        raise UnsupportedError("Table '%s' (connector '%s') is a sink: it cannot be read" % (table.name, conn))
    fmt = _SOURCE_FORMATS.get(conn)
    if conn == "filesystem":
        if not os.path.exists(table.options["path"]):
            raise RuntimeFailure("Table '%s': no file or directory at path '%s'" % (table.name, table.options["path"]),
                                 hint="check the 'path' option (absolute, or relative to where dynsql runs)")
    read = None
    if jdbc_rows is not None:
        df = jdbc_rows
    else:
        count = parallelism(spark) if cut_files and not streaming else 1
        piece_bytes = None
        if pieces is not None and not streaming:
            count, piece_bytes = pieces
        # projection push-down (operators/scan.py): a plain filesystem table's physical columns the query reads
        read = {c.name for c in table.physical_columns if c.name in ref.read} \
            if ref.read is not None and conn == "filesystem" and table is ref.table else None
        spec = _spec(spark, table, streaming, sentinel=streaming and event_time, pieces=count, read=read,
                     piece_bytes=piece_bytes, piece_maxima=piece_maxima and piece_bytes is not None)
        reader = (spark.readStream if streaming else spark.read).format(fmt).schema(source_schema(table, read))
        df = reader.option("spec", spec).load()
    cols = []
    rowtime = table.watermark.column if table.watermark is not None else None
    meta = {c.name: "__meta%d" % i for i, (c, _) in enumerate(_read_metadata(table))}
    for c in table.columns:
        if c.is_proctime:
            cols.append(F.current_timestamp().alias(c.name))
        elif c.computed is not None and c.name == rowtime:
            # the end-of-input sentinel row (its __wm is END_OF_INPUT) sets only physical columns: its computed
            # rowtime is END_OF_INPUT here, so that the watermark passes every window at the end of the input
            cols.append(F.when(F.col("__wm") == F.lit(END_OF_INPUT), F.lit(END_OF_INPUT))
                        .otherwise(F.expr(ref.computed[c.name])).alias(c.name))
        elif c.computed is not None:
            cols.append(F.expr(ref.computed[c.name]).alias(c.name))
        elif c.metadata is not None:
            if c.name not in meta:      # the planner refuses such a table (planner/metadata_columns.py)
                raise UnsupportedError("Table '%s': the '%s' connector offers no metadata (column '%s')"
                                       % (table.name, conn, c.name))
            cols.append(F.col(meta[c.name]).cast(to_spark(parse_type(c.type))).alias(c.name))
        elif read is not None and c.name not in read:      # not read (see operators/scan.py): a typed NULL
            cols.append(F.lit(None).cast(to_spark(parse_type(c.type))).alias(c.name))
        else:
            cols.append(F.col("`%s`" % c.name))
    # (Spark's watermark, and dropping the end-of-input row: the WatermarkAssigner above, operators/watermark.py)
    return df.select(*cols, *[F.col(h) for h in HIDDEN_COLUMNS])


def materialize_changelog(df, columns, key=()):
    """A batch read of a changelog source -> its final rows, as Flink's batch result of the table is the
    table, not its history: with a primary key, each key's last change (gone if it is -U/-D); without one,
    +I/+U add a row and -U/-D take an equal one away."""
    from pyspark.sql import Window
    if key:
        last = Window.partitionBy(*[F.col("`%s`" % k) for k in key]).orderBy(F.col("__seq").desc())
        ranked = df.withColumn("__last", F.row_number().over(last))
        return ranked.filter((F.col("__last") == 1) & F.col("__op").isin(0, 2)).drop("__last")
    weight = F.when(F.col("__op").isin(0, 2), F.lit(1)).otherwise(F.lit(-1))
    cols = [F.col("`%s`" % c) for c in columns]
    counted = df.groupBy(*cols).agg(F.sum(weight).alias("__n"), F.max("__seq").alias("__seq"))
    kept = counted.filter(F.col("__n") > 0)
    return kept.select(*cols, F.explode(F.sequence(F.lit(1), F.col("__n"))).alias("__copy"), F.col("__seq")) \
        .select(*cols, F.lit(None).cast("timestamp").alias("__wm"), F.lit(0).cast("tinyint").alias("__op"), "__seq")


def user_columns(table):
    return [c.name for c in table.columns]
