"""MATCH_RECOGNIZE read as one batch (batch mode, or a one pass: runtime/one_pass.py) straight over one small
bounded file, without a shuffle: `match_whole_file(...)`.

The general batch plan (batch.py) reads the file into Spark's rows, shuffles them by PARTITION BY, sorts each
Spark partition and hands it back to a Python worker: every row crosses from Python into the JVM and back, and
through the shuffle's files. For a file of at most `dynsql.match-recognize.whole-file-max-size` (64 MB) each of
`tasks` Spark tasks instead reads the whole file itself, with the source's own reader (split_reader.py, in the
task's Python worker, the same rows and `__seq` as the scan), keeps the rows whose PARTITION BY key falls to
it, sorts them with Arrow by (PARTITION BY, ORDER BY, `__seq`), as Spark sorts them there, and runs the same
matcher (batch._ArrowMatch), which in a one pass drops the rows streaming finds late (`__wm`, computed by the
reader over the whole file in order, as in the one pass's scan). Only the matches reach the JVM. What this
trades is reading: every task parses the whole file, which is why the size is bounded (as Spark's broadcast
join bounds the side every task reads).

A key's share is a hash of its values' text (CRC-32 of their repr), the same in every task's process. Only what
the scan gives the same way is read here: a filesystem table's one file, not partitioned, not a changelog
format, no parse errors skipped, and columns the match reads that are all physical; the ORDER BY ascending,
rowtime first, on no floating-point column (Arrow and Spark order NULLs and NaNs alike there)."""

import os
import zlib

from planner.types import base_name

from .batch import LATE, SEQ, WM, _ArrowMatch
from .output_schema import spark_schema

FLOATING = ("FLOAT", "DOUBLE", "REAL")


def reads_whole_file(scan, spec, columns, max_bytes):
    """Can the match over `scan` (a TableScan node) read its file in every task? `columns`: what it reads."""
    from ..tables import one_unpaced_file
    table = scan.table
    o = table.options
    if max_bytes <= 0 or not spec.partition_by or not spec.ordered_by_rowtime():
        return False
    if not one_unpaced_file(scan) or os.path.getsize(o["path"]) > max_bytes or \
            any(k.endswith("ignore-parse-errors") and v.lower() == "true" for k, v in o.items()):
        return False
    physical = {c.name for c in table.physical_columns}
    if any(name not in physical for name, _ in columns):
        return False
    types = dict(columns)
    return all(k.ascending and base_name(types[k.column]) not in FLOATING for k in spec.order_by)


def match_whole_file(spark, read_spec, schema_json, spec, columns, tasks, late_rows=False):
    """-> the match's DataFrame (schema: output_schema.spark_schema), `tasks` Spark tasks each reading the file
    (`read_spec`, `schema_json`: runtime.tables.read_spec) and matching its share of the keys. late_rows: drop the
    rows streaming finds late (a one pass: rowtime <= `__wm`, which the reader computes over the whole file in
    order, as the one pass's scan does), as batch.py does."""
    schema = spark_schema(spec, columns)
    tz = spark.conf.get("spark.sql.session.timeZone")
    fn = _WholeFileMatch(read_spec, schema_json, _ArrowMatch(spec, columns, schema, tz, None), tasks, late_rows)
    return spark.range(0, tasks, 1, tasks).mapInArrow(fn, schema)


class _WholeFileMatch:
    """The mapInArrow function: its input holds the task's share number(s); it reads the file, keeps the rows
    of its share, sorts them and yields the matcher's output."""

    def __init__(self, read_spec, schema_json, matcher, tasks, late_rows):
        self.read_spec = read_spec
        self.schema_json = schema_json
        self.matcher = matcher
        self.tasks = tasks
        self.late_rows = late_rows

    def __call__(self, batches):
        for batch in batches:
            for share in batch.column(0).to_pylist():
                rows = self._rows_of(share)
                if rows.num_rows:
                    yield from self.matcher(iter(rows.to_batches(max_chunksize=100000)))

    def _rows_of(self, share):
        """The file's rows whose key falls to `share`, in the order the matcher takes them."""
        import pyarrow as pa
        import pyarrow.compute as pc
        from ..connectors.filesystem import TableSpec
        from ..connectors.split_reader import read_partition
        from ..connectors.splits import batch_splits
        spec = self.matcher.spec
        names = [n for n, _ in self.matcher.input_columns]
        source = TableSpec(self.read_spec)
        out = names + ([LATE] if self.late_rows else [])
        kept = []
        for split in batch_splits(source.path):
            for batch in read_partition(source, split, self.schema_json):
                table = pa.Table.from_batches([batch])
                if self.late_rows:         # as batch.prepare marks them
                    late = pc.fill_null(pc.less_equal(table.column(spec.rowtime), table.column(WM)), False)
                    table = table.append_column(LATE, late)
                table = table.select(out + [SEQ])
                kept.append(table.filter(pa.array(key_shares(table, spec.partition_by, self.tasks) == share)))
        if not kept:
            return pa.table({n: [] for n in out})
        rows = pa.concat_tables(kept)
        order = [(k, "ascending") for k in spec.partition_by] + \
            [(k.column, "ascending") for k in spec.order_by] + [(SEQ, "ascending")]
        return rows.take(pc.sort_indices(rows, sort_keys=order, null_placement="at_start")).select(out)


def key_shares(table, keys, tasks):
    """numpy array: each row's share (0 .. tasks - 1) by its key values, the same in every process."""
    import numpy as np
    import pyarrow as pa
    combined = np.zeros(table.num_rows, dtype=np.int64)
    for k in keys:
        column = table.column(k).combine_chunks()
        try:
            encoded = column.dictionary_encode()
            values, indices = encoded.dictionary.to_pylist(), encoded.indices
        except (pa.ArrowNotImplementedError, pa.ArrowInvalid):
            values, indices = column.to_pylist(), pa.array(range(len(column)))
        hashes = np.array([zlib.crc32(repr(v).encode("utf-8")) for v in values] + [0], dtype=np.int64)
        at = indices.fill_null(len(values)).to_numpy(zero_copy_only=False)     # NULL: the extra last hash
        combined = (combined * 1000003 + hashes[at]) & 0xFFFFFFFF
    return combined % tasks
