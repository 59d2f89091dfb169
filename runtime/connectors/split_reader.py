"""Reading one split on an executor: its rows as Arrow record batches in Spark's schema, hidden columns
computed here:
  __seq  (the split's ordinal << 32) + the row's index in the split: arrival order
  __wm   Flink's watermark just before the row: the split's running maximum of rowtimes (starting from the
         table's maximum committed before the micro-batch, which the split carries) minus the delay;
         NULL before the first rowtime, and when the table has no watermark on a physical column
  __op   the row kind (0 +I, 1 -U, 2 +U, 3 -D)
Parsing: csv through pyarrow where Arrow gives Flink's semantics (fast_csv.py), else record by record
(formats.py); parquet through pyarrow, by row groups. After the split's last row the reader writes its
report (splits.py) into the source's state directory, for the planner to plan the file's next split, and adds
the rows ignore-parse-errors skipped or nulled to the query's counters (parse_errors.py). It plans nothing.

Any failure comes out as a `FormatError` naming the file (and line, column and value where there is one)."""

import datetime as dt
import json
import os

import numpy as np
import pyarrow as pa

from ..results import OP_CODES
from . import parse_errors
from .fast_csv import CHUNK_RECORDS, FastCsv, UseRecordReader
from .formats import Format, FormatError, LineCursor, SplitProgress, csv_quote
from .map_order import in_hash_map_order
from .splits import EndOfInput, FilePiece, FileSplit, SplitGroup, write_report

SEQ_BITS = 32
_LOWEST = np.iinfo(np.int64).min
_EPOCH = dt.datetime(1970, 1, 1)


def arrow_schema(schema_json):
    """Spark's schema (JSON) -> the Arrow schema Spark expects batches of."""
    from pyspark.sql.pandas.types import to_arrow_schema
    from pyspark.sql.types import StructType
    return to_arrow_schema(StructType.fromJson(json.loads(schema_json)), timezone="UTC")


def read_partition(spec, partition, schema_json):
    """The batches of one InputPartition: a FileSplit, or the end-of-input row."""
    schema = arrow_schema(schema_json)
    if isinstance(partition, EndOfInput):
        return iter([sentinel_batch(spec, partition.ordinal, schema)])
    if isinstance(partition, FilePiece):
        partition = piece_split(spec, partition)
        if partition is None:
            return iter([])
    if isinstance(partition, SplitGroup):
        return (batch for split in partition.splits for batch in read_split(spec, split, schema))
    if not isinstance(partition, FileSplit):   # Spark's stand-in partition of a read with no file
        return iter([])
    return read_split(spec, partition, schema)


def piece_split(spec, piece):
    """A FilePiece -> the FileSplit of the records that start in it (None: none do). A cut falls just after the
    first newline at or after its byte, and only where no quote character of a csv table comes before it (a
    newline in a quoted field is no record's end): a piece whose start cannot be cut so has no records, and the
    piece before it reads on to the next cut that can be made, or to the end of the file."""
    import mmap
    quote = csv_quote(spec.options) if spec.format == "csv" else None
    quote = quote.encode("utf-8") if quote is not None else None
    try:
        with open(piece.path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size == 0:
                return None
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as view:
                start = _record_start(view, piece.start, quote)
                if start is None:
                    return None
                stop = _record_start(view, piece.end, quote) if piece.end is not None else None
                stop = size if stop is None else stop
                if start >= stop:
                    return None
                line = 1 + int(np.count_nonzero(np.frombuffer(view, dtype=np.uint8, count=start) == 10))
    except OSError as e:
        raise FormatError("%s: cannot be read: %s" % (piece.path, e.strerror or e)) from e
    return FileSplit(piece.ordinal, piece.path, 0, start, line, None, None, stop)


def _record_start(view, cut, quote):
    """Where the record after byte `cut` - 1 begins: just after the first newline from there (the file's size
    when there is none); None when a quote character comes before that."""
    if cut == 0:
        return 0
    newline = view.find(b"\n", cut - 1)
    start = len(view) if newline < 0 else newline + 1
    if quote is not None and view.find(quote, 0, start) >= 0:
        return None
    return start


def read_split(spec, split, schema):
    progress = SplitProgress(split.byte or 0, split.line or 1)
    parsed = arrow_schema(spec.file_schema) if spec.read is not None else schema
    physical = pa.schema(list(parsed)[:len(spec.columns)])
    # projection push-down: every column parsed, only the ones read (then the hidden ones) handed on
    handed = None if spec.read is None else list(spec.read) + [len(spec.columns) + i for i in range(3)]
    seq = split.ordinal << SEQ_BITS
    running = split.base_max
    try:
        for table, ops in _physical_tables(spec, split, progress, physical):
            table, running = annotate(table, ops, seq, spec.rowtime_index, spec.delay_ms, running)
            if handed is not None:
                table = table.select(handed)
            if spec.partitions:
                table = with_partition_values(table, spec, split.path)
            if spec.metadata:
                table = with_metadata_values(table, spec, split.path)
            seq += table.num_rows
            yield from to_spark(table, schema, split.path)
    except FormatError:
        raise
    except OSError as e:
        raise FormatError("%s: cannot be read: %s" % (split.path, e.strerror or e)) from e
    except Exception as e:
        raise FormatError("%s: cannot be read: %s: %s" % (split.path, type(e).__name__, e)) from e
    if spec.piece_maxima and running is not None:
        yield piece_maximum_batch(spec, split.ordinal, running, schema)
    if spec.state_dir:
        write_report(spec.state_dir, split.ordinal, progress, running)
    parse_errors.add_on_executor(spec.counters, progress.skipped, progress.nulled)


def _physical_tables(spec, split, progress, physical):
    """(Arrow table of the physical columns, row kinds or None for all +I) chunks of the split."""
    if spec.format == "parquet":
        for table in parquet_tables(split, spec.columns, progress):
            yield table, None
        return
    fmt = Format(spec.format, spec.columns, spec.options)
    if split.byte is None:       # where the split starts is unknown: skip its first `row` records
        skip = SplitProgress()
        cursor = LineCursor(split.path)
        try:
            for _ in fmt.records(cursor, split.row, skip):
                pass
        finally:
            cursor.close()
        progress.byte, progress.line = skip.byte, skip.line
    fast = FastCsv.for_table(spec.columns, spec.options) if spec.format == "csv" else None
    if fast is not None:
        try:
            for table in fast.chunks(split.path, progress, split.limit, split.stop):
                yield table, None
            return
        except UseRecordReader:
            pass                 # the record reader goes on from where the fast path stopped
    yield from _record_tables(fmt, split, progress, physical)


def _record_tables(fmt, split, progress, physical):
    cursor = LineCursor(split.path, progress.byte, progress.line, split.stop)
    try:
        rows, ops = [], []
        for op, values, _ in fmt.records(cursor, split.limit, progress):
            rows.append(values)
            ops.append(OP_CODES[op])
            if len(rows) >= CHUNK_RECORDS:
                yield rows_table(rows, physical, split.path), np.array(ops, dtype=np.int8)
                rows, ops = [], []
        if rows:
            yield rows_table(rows, physical, split.path), np.array(ops, dtype=np.int8)
    finally:
        cursor.close()


def rows_table(rows, physical, path):
    """Tuples of typed Python values -> an Arrow table of the physical columns; maps (the JSON formats') in
    the order Flink's HashMap gives their entries (map_order.py)."""
    columns = list(zip(*rows))
    arrays = []
    for values, field in zip(columns, physical):
        try:
            arrays.append(in_hash_map_order(pa.array(values, type=field.type)))
        except (pa.ArrowException, TypeError, ValueError, OverflowError) as e:
            raise FormatError("%s: column '%s': a value cannot be held as %s (%s)" % (path, field.name, field.type, e))
    return pa.Table.from_arrays(arrays, schema=physical)


def parquet_tables(split, columns, progress):
    """Rows [split.row, split.row + split.limit) of a parquet file, row group by row group. Its maps keep the
    file's order, duplicate keys too (not map_order.py's HashMap order): Flink's parquet reader is columnar
    (MapColumnReader reads a map column's keys and values as two arrays into a HeapMapVector, whose getMap is a
    ColumnarMapData over the file's entries; MapDataSerializer copies it into a BinaryMapData in that order), so
    no HashMap is built (tests/test_parquet_map_order.py)."""
    import pyarrow.parquet as pq
    names = [n for n, _ in columns]
    pf = pq.ParquetFile(split.path)
    missing = [n for n in names if n not in pf.schema_arrow.names]
    if missing:
        raise FormatError("%s: no column %s in the parquet file" % (split.path, ", ".join(missing)))
    total = pf.metadata.num_rows
    end = total if split.limit is None else min(total, split.row + split.limit)
    offset = 0
    for group in range(pf.num_row_groups):
        n = pf.metadata.row_group(group).num_rows
        lo, hi = max(split.row, offset), min(end, offset + n)
        if lo < hi:
            yield pf.read_row_group(group, columns=names).slice(lo - offset, hi - lo)
        offset += n
    progress.records = max(0, end - split.row)
    progress.eof = end >= total


def annotate(table, ops, first_seq, rowtime_index, delay_ms, max_before):
    """Add __seq, __wm (Flink's watermark before each row: the running maximum, from `max_before`, minus the
    delay) and __op -> (table, maximum after the table). Times are epoch microseconds."""
    n = table.num_rows
    seq = pa.array(np.arange(first_seq, first_seq + n, dtype=np.int64))
    op = pa.array(ops if ops is not None else np.zeros(n, dtype=np.int8), type=pa.int8())
    max_after = max_before
    if rowtime_index is not None and delay_ms is not None and n:
        micros = table.column(rowtime_index).cast(pa.timestamp("us")).cast(pa.int64())
        micros = micros.fill_null(_LOWEST).to_numpy()
        start = _LOWEST if max_before is None else max_before
        running = np.maximum.accumulate(np.concatenate([[start], micros]))
        before = running[:-1]
        unknown = before == _LOWEST
        wm = pa.array(np.where(unknown, 0, before - delay_ms * 1000), type=pa.int64(), mask=unknown)
        wm = wm.cast(pa.timestamp("us"))
        if running[-1] != _LOWEST:
            max_after = int(running[-1])
    else:
        wm = pa.nulls(n, type=pa.timestamp("us"))
    table = table.append_column("__seq", seq).append_column("__wm", wm).append_column("__op", op)
    return table, max_after


def with_partition_values(table, spec, path):
    """The partition columns, after the file's columns: the values of the file's `key=value` folders (as text,
    cast with the rest; Flink's default partition name is NULL)."""
    from urllib.parse import unquote
    folders = dict(unquote(p).split("=", 1) for p in os.path.dirname(path).split(os.sep) if "=" in p)
    default = spec.options.get("partition.default-name", "__DEFAULT_PARTITION__")
    at = len(spec.columns)
    for i, (name, _) in enumerate(spec.partitions):
        value = folders.get(name)
        value = None if value == default else value
        table = table.add_column(at + i, name, pa.array([value] * table.num_rows, pa.string()))
    return table


def with_metadata_values(table, spec, path):
    """The metadata columns, after the partition columns: Flink's filesystem keys, of the split's file."""
    stat = os.stat(path)
    values = {"file.path": (os.path.abspath(path), pa.string()), "file.name": (os.path.basename(path), pa.string()),
              "file.size": (stat.st_size, pa.int64()),
              "file.modification-time": (int(stat.st_mtime * 1000) * 1000, pa.timestamp("us", tz="UTC"))}
    at = len(spec.columns) + len(spec.partitions)
    for i, key in enumerate(spec.metadata):
        value, kind = values[key]
        table = table.add_column(at + i, "__meta%d" % i, pa.array([value] * table.num_rows, kind))
    return table


def to_spark(table, schema, path, size=65536):
    """An Arrow table (physical columns + hidden ones) -> RecordBatches of exactly Spark's schema."""
    arrays = []
    for i, field in enumerate(schema):
        column = table.column(i)
        try:
            arrays.append(column if column.type == field.type else column.cast(field.type))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
            raise FormatError("%s: column '%s': %s values cannot be read as %s (%s)"
                              % (path, field.name, column.type, field.type, e))
    return pa.Table.from_arrays(arrays, schema=schema).to_batches(max_chunksize=size)


def sentinel_batch(spec, ordinal, schema):
    """The end-of-input row: NULLs but a rowtime of END_OF_INPUT, so the watermark passes every window. Its
    `__wm` is END_OF_INPUT too: the marker runtime/tables.py reads when the rowtime is a computed column."""
    from .filesystem import END_OF_INPUT
    return _marker_batch(spec, schema, END_OF_INPUT, ordinal << SEQ_BITS, END_OF_INPUT, 0)


def piece_maximum_batch(spec, ordinal, running_max, schema):
    """After a piece's rows (the spec's `piece_maxima`): a row of NULLs but the piece's maximum rowtime, whose
    `__wm` is the watermark after the piece (that maximum minus the delay) and whose `__seq` has the row index
    PIECE_MAXIMUM, for the window aggregate above to find each piece's maximum (runtime/operators/window_pieces.py)."""
    from .filesystem import PIECE_MAXIMUM
    top = _EPOCH + dt.timedelta(microseconds=running_max)
    return _marker_batch(spec, schema, top, (ordinal << SEQ_BITS) | PIECE_MAXIMUM,
                         top - dt.timedelta(milliseconds=spec.delay_ms or 0), 0)


def _marker_batch(spec, schema, rowtime, seq, wm, op):
    values = [None] * (len(schema) - 3)
    if spec.rowtime_index is not None:     # (projection push-down always reads the rowtime)
        values[spec.rowtime_index if spec.read is None else spec.read.index(spec.rowtime_index)] = rowtime
    row = tuple(values) + (seq, wm, op)
    arrays = [pa.array([v], type=f.type) for v, f in zip(row, schema)]
    return pa.RecordBatch.from_arrays(arrays, schema=schema)
