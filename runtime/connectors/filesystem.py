"""The `filesystem` source as a Python Data Source, for batch and streaming reads alike.

The table's files (a file, or a directory's files in name order) are read top to bottom: file order is
arrival order. Every row carries hidden columns:
  __seq  BIGINT     its arrival index in the table
  __wm   TIMESTAMP  Flink's watermark just before the row arrived: max(rowtime of earlier rows) - delay
                    (NULL before the first row, or when the rowtime is a computed column)
  __op   TINYINT    its row kind (0 +I, 1 -U, 2 +U, 3 -D): changelog formats produce all four
A streaming read of a bounded input can end with a sentinel row whose rowtime is END_OF_INPUT, so that
the watermark passes every pending window and pattern (Flink's final watermark); the runtime drops it
right after the watermark node. Options beyond Flink's (documented in README):
  'source.monitor-interval'    watch the directory for new files (unbounded); Flink's option
  'replay.rows-per-second'     pace a bounded input as a live stream
  'scan.rows-per-batch'        most rows in one micro-batch (default 100000)

The reader parses the files in the process that plans the micro-batches and ships each batch's rows
inside its partitions."""

import datetime as dt
import json
import os
import time

from pyspark.sql.datasource import DataSource, DataSourceReader, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow

END_OF_INPUT = dt.datetime(9999, 12, 31, 23, 59, 59)
from ..results import OP_CODES, OP_NAMES  # noqa: F401  (OP_NAMES: part of this module's interface)
HIDDEN_COLUMNS = ("__seq", "__wm", "__op")


def list_files(path):
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if not n.startswith((".", "_")))
        return [os.path.join(path, n) for n in names if os.path.isfile(os.path.join(path, n))]
    if os.path.isfile(path):
        return [path]
    raise FileNotFoundError("No file or directory at path '%s'" % path)


class TableSpec:
    """What a reader needs to know of the table: from the `spec` option (JSON)."""

    def __init__(self, text):
        d = json.loads(text)
        self.path = d["path"]
        self.format = d["format"]
        self.columns = [tuple(c) for c in d["columns"]]   # physical (name, flink type)
        self.options = d["options"]
        self.rowtime_index = d.get("rowtime_index")       # index into columns, or None
        self.delay_ms = d.get("delay_ms")
        self.sentinel = d.get("sentinel", False)
        self.monitor = d.get("monitor", False)
        self.rows_per_second = float(d["rows_per_second"]) if d.get("rows_per_second") else None
        self.rows_per_batch = int(d.get("rows_per_batch") or 100000)


class RowStore:
    """The rows read so far, in arrival order: segments of Python tuples or Arrow tables."""

    def __init__(self):
        self.segments = []      # [(start index, rows list | pyarrow.Table)]
        self.count = 0

    def __len__(self):
        return self.count

    def append_rows(self, rows):
        if rows:
            self.segments.append((self.count, rows))
            self.count += len(rows)

    def append_table(self, table):
        if table.num_rows:
            self.segments.append((self.count, table))
            self.count += table.num_rows

    def slice(self, a, b):
        """Rows a..b-1 as a list of segments (lists or Arrow tables)."""
        out = []
        for start, seg in self.segments:
            end = start + len(seg) if isinstance(seg, list) else start + seg.num_rows
            lo, hi = max(a, start), min(b, end)
            if lo < hi:
                out.append(seg[lo - start:hi - start] if isinstance(seg, list) else seg.slice(lo - start, hi - lo))
        return out


class _Rows:
    """Rows read so far, with the running watermark; reads new files when asked."""

    def __init__(self, spec):
        from .formats import Format
        self.spec = spec
        self.format = Format(spec.format, spec.columns, spec.options)
        self.rows = RowStore()
        self.files_seen = []
        self.max_rowtime = None

    def refresh(self):
        files = list_files(self.spec.path)
        for f in files:
            if f in self.files_seen:
                continue
            self.files_seen.append(f)
            self._read(f)

    def _read(self, path):
        ri, delay = self.spec.rowtime_index, self.spec.delay_ms
        if self.spec.format == "csv":
            from .fast_csv import annotate, read_csv
            table = read_csv(path, self.spec.columns, self.spec.options)
            if table is not None:
                table, self.max_rowtime = annotate(table, len(self.rows), ri, delay, self.max_rowtime)
                self.rows.append_table(table)
                return
        rows = []
        first = len(self.rows)
        for op, values in self.format.read(path):
            wm = None
            if ri is not None and delay is not None and self.max_rowtime is not None:
                wm = self.max_rowtime - dt.timedelta(milliseconds=delay)
            if ri is not None and values[ri] is not None:
                if self.max_rowtime is None or values[ri] > self.max_rowtime:
                    self.max_rowtime = values[ri]
            rows.append(values + (first + len(rows), wm, OP_CODES[op]))
        self.rows.append_rows(rows)

    def sentinel_row(self):
        """The end-of-input row: its rowtime (a physical one) and its `__wm` are END_OF_INPUT (the marker
        runtime/tables.py recognizes when the rowtime is a computed column)."""
        values = [None] * len(self.spec.columns)
        if self.spec.rowtime_index is not None:
            values[self.spec.rowtime_index] = END_OF_INPUT
        return tuple(values) + (len(self.rows), END_OF_INPUT, 0)


class RowsPartition(InputPartition):
    def __init__(self, segments):
        self.segments = segments   # lists of tuples and Arrow tables, in order


def arrow_batches(segments, schema_json, size=65536):
    """Segments (tuples in schema order, or Arrow tables) -> pyarrow RecordBatches of Spark's schema:
    Spark takes them without a per-row Python conversion."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_schema
    from pyspark.sql.types import StructType
    schema = to_arrow_schema(StructType.fromJson(json.loads(schema_json)), timezone="UTC")
    for seg in segments:
        if not isinstance(seg, list):
            arrays = [seg.column(i).cast(field.type) for i, field in enumerate(schema)]
            yield from pa.Table.from_arrays(arrays, schema=schema).to_batches(max_chunksize=size)
            continue
        for start in range(0, len(seg), size):
            chunk = seg[start:start + size]
            columns = list(zip(*chunk))
            arrays = [pa.array(list(col), type=field.type) for col, field in zip(columns, schema)]
            yield pa.RecordBatch.from_arrays(arrays, schema=schema)


class FilesystemSource(DataSource):
    @classmethod
    def name(cls):
        return "dynsql_filesystem"

    def schema(self):
        raise ValueError("dynsql_filesystem needs a schema")

    def reader(self, schema):
        return FilesystemBatchReader(TableSpec(self.options["spec"]), schema.json())

    def streamReader(self, schema):
        return FilesystemStreamReader(TableSpec(self.options["spec"]), schema.json())


class FilesystemBatchReader(DataSourceReader):
    def __init__(self, spec, schema_json):
        self.spec = spec
        self.schema_json = schema_json

    def partitions(self):
        rows = _Rows(self.spec)
        rows.refresh()
        return [RowsPartition(rows.rows.slice(0, len(rows.rows)))]

    def read(self, partition):
        yield from arrow_batches(partition.segments, self.schema_json)


class FilesystemStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    def __init__(self, spec, schema_json):
        self.spec = spec
        self.schema_json = schema_json
        self.data = _Rows(spec)
        self.started = None

    def prepareForTriggerAvailableNow(self):
        self.data.refresh()

    def initialOffset(self):
        return {"row": 0, "done": False}

    def _available(self):
        self.data.refresh()
        n = len(self.data.rows)
        if self.spec.rows_per_second:
            if self.started is None:
                self.started = time.time()
            n = min(n, int((time.time() - self.started) * self.spec.rows_per_second) + 1)
        return n

    def latestOffset(self, start=None, limit=None):
        start_row = start["row"] if start else 0
        if start and start.get("done"):
            return start
        n = self._available()
        end = min(n, start_row + self.spec.rows_per_batch)
        total = len(self.data.rows)
        bounded = not self.spec.monitor
        if bounded and end == total and start_row == total:
            # everything was read: the end of input (with its sentinel row when asked for)
            return {"row": total + (1 if self.spec.sentinel else 0), "done": True}
        return {"row": end, "done": False}

    def partitions(self, start, end):
        a, b = start["row"], end["row"]
        if b > len(self.data.rows):
            self.data.refresh()
        total = len(self.data.rows)
        segments = self.data.rows.slice(a, min(b, total))
        if end.get("done") and self.spec.sentinel and b > total:
            segments.append([self.data.sentinel_row()])
        return [RowsPartition(segments)] if segments else []

    def read(self, partition):
        yield from arrow_batches(partition.segments, self.schema_json)

    def commit(self, end):
        pass
