"""The `filesystem` source as a Python Data Source, for batch and streaming reads alike: the driver plans
splits (splits.py), the executors read them (split_reader.py). No row passes through the driver, and the
driver keeps nothing per row: its memory does not grow with the input.

The table's files (a file, or a directory's files) are read top to bottom. Every row carries hidden columns:
  __seq  BIGINT     its arrival order: the split's ordinal, then the row's index in the split
  __wm   TIMESTAMP  Flink's watermark just before the row arrived: max(rowtime of earlier rows) - delay, where
                    the earlier rows are the split's, and every row of the micro-batches before (NULL before
                    the first row, or when the rowtime is a computed column)
  __op   TINYINT    its row kind (0 +I, 1 -U, 2 +U, 3 -D): changelog formats produce all four
One file read in order gives exactly Flink's per-row watermarks; the files that one micro-batch reads are
read in parallel, each against its own running maximum (Flink with one source subtask per file). A batch
read whose rows' `__wm` no operator reads (batch mode; one pass without late rows) cuts a csv or json file of
at least 2 * 8 MB into a piece a core, read in parallel (splits.batch_splits); a one pass's window aggregate
over a file larger than the one pass's limit has it cut so too, each piece's rows with the watermark of the
piece's own running maximum and followed by a row with that maximum (its `__seq`'s row index PIECE_MAXIMUM,
the spec's `piece_maxima`), from which the aggregate applies the earlier pieces' maximum (operators/window_pieces.py). A streaming
read of a bounded input can end with a sentinel row whose rowtime is END_OF_INPUT, so that the watermark
passes every pending window and pattern (Flink's final watermark); the runtime drops it right after the
watermark node. Options beyond Flink's (documented in README):
  'source.monitor-interval'    watch the directory for new files (unbounded); Flink's option
  'replay.rows-per-second'     pace a bounded input as a live stream
  'scan.rows-per-batch'        most records a micro-batch reads from one file (default: 100000 in the first
                               micro-batch, then ten times the records read so far, up to 1000000; and without
                               the option, a text file's micro-batch reads to its end when what is left is
                               about that many records, or a file not read yet is at most 1 MB or holds about
                               1,100,000 records by its head's line lengths: that batch is the last, and the end
                               of input comes with it)"""

import datetime as dt
import json
import shutil

from pyspark.sql.datasource import DataSource, DataSourceReader, DataSourceStreamReader
from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow

from ..results import OP_CODES, OP_NAMES  # noqa: F401  (OP_NAMES: part of this module's interface)
from .splits import CUT_FORMATS, PIECE_BYTES, SplitPlanner, batch_splits, initial_offset, list_files, partitions_of

END_OF_INPUT = dt.datetime(9999, 12, 31, 23, 59, 59)
PIECE_MAXIMUM = 0xFFFFFFFF   # the low 32 bits of `__seq` of the row after a piece's rows carrying its maximum
HIDDEN_COLUMNS = ("__seq", "__wm", "__op")
__all__ = ["END_OF_INPUT", "HIDDEN_COLUMNS", "FilesystemSource", "TableSpec", "list_files"]


class TableSpec:
    """What a reader needs to know of the table: from the `spec` option (JSON)."""

    def __init__(self, text):
        d = json.loads(text)
        self.path = d["path"]
        self.format = d["format"]
        self.columns = [tuple(c) for c in d["columns"]]   # physical (name, flink type), in the files
        self.partitions = [tuple(c) for c in d.get("partitions") or []]   # (name, type) from key=value folders
        self.metadata = d.get("metadata") or []            # metadata keys read, after the partition columns
        self.options = d["options"]
        self.rowtime_index = d.get("rowtime_index")       # index into columns, or None
        self.delay_ms = d.get("delay_ms")
        self.sentinel = d.get("sentinel", False)
        self.monitor = d.get("monitor", False)
        self.monitor_interval_s = (d.get("monitor_interval_ms") or 1000) / 1000.0
        self.rows_per_second = float(d["rows_per_second"]) if d.get("rows_per_second") else None
        self.rows_per_batch = int(d["rows_per_batch"]) if d.get("rows_per_batch") else None   # None: growing
        self.state_dir = d.get("state_dir")                # streaming: the split reports and file manifest
        self.keep_state = d.get("keep_state", False)       # a job's: kept when the query stops
        self.pieces = d.get("pieces", 1)                   # a batch read: cut a large file into up to this many
        self.piece_bytes = d.get("piece_bytes", PIECE_BYTES)   # pieces of at least this many bytes
        self.piece_maxima = d.get("piece_maxima", False)   # each split's rows followed by its maximum's row
        self.counters = d.get("counters")                  # accumulator ids: rows skipped, rows nulled
        self.read = d.get("read")                          # positions of the columns handed on (None: all)
        self.file_schema = d.get("file_schema")            # with `read`: Spark's schema of all the columns


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
    """A batch read: one split a file, or a piece a core of a large text file when no row's watermark is needed
    (the spec's `pieces`); the splits read in parallel."""

    def __init__(self, spec, schema_json):
        self.spec = spec
        self.schema_json = schema_json

    def partitions(self):
        pieces = self.spec.pieces if self.spec.format in CUT_FORMATS else 1
        return batch_splits(self.spec.path, bool(self.spec.partitions), pieces, self.spec.piece_bytes)

    def read(self, partition):
        from .split_reader import read_partition
        return read_partition(self.spec, partition, self.schema_json)


class FilesystemStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """A streaming read. This object is built where Spark plans the query and, pickled, on every task: its
    planner (the manifest of files) is made on first use, in the planning process only."""

    def __init__(self, spec, schema_json):
        self.spec = spec
        self.schema_json = schema_json
        self._planner = None

    @property
    def planner(self):
        if self._planner is None:
            self._planner = SplitPlanner(self.spec)
        return self._planner

    def prepareForTriggerAvailableNow(self):
        self.planner.freeze()

    def initialOffset(self):
        return initial_offset()

    def latestOffset(self, start=None, limit=None):
        return self.planner.next_offset(start or initial_offset())

    def partitions(self, start, end):
        return partitions_of(start, end)

    def read(self, partition):
        from .split_reader import read_partition
        return read_partition(self.spec, partition, self.schema_json)

    def commit(self, end):
        pass   # the next latestOffset removes the reports the committed batches no longer need

    def stop(self):
        if self.spec.state_dir and self._planner is not None and not self.spec.keep_state:
            shutil.rmtree(self.spec.state_dir, ignore_errors=True)
