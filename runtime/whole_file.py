"""One small file read whole in every Spark task, for an operator read as one batch (batch mode, or a one pass:
runtime/one_pass.py) that then computes the keys falling to its task, without a shuffle: MATCH_RECOGNIZE
(match_recognize/whole_file.py) and the grouped and window aggregates (operators/whole_file_aggregate.py).

Spark's plan for them reads the file into Spark's rows, shuffles them by key and hands them on: every row
crosses from the Python reader into the JVM, through the shuffle's files, and (MATCH_RECOGNIZE) back to a
Python worker. For a file of at most `dynsql.whole-file.max-size` (64 MB; the physical plan decides:
runtime/physical/rules.py) each of `tasks` Spark tasks instead
reads the whole file itself, with the source's own reader (connectors/split_reader.py, in the task's Python
worker: the same rows, `__seq` and `__wm` as the scan), keeps the rows whose key falls to it and computes them
with Arrow; only the results reach the JVM. What this trades is reading: every task parses the whole file,
which is why the size is bounded (as Spark's broadcast join bounds the side every task reads).

A key's share is a hash of its values' text (CRC-32 of their repr), the same in every task's process. Only what
the scan gives the same way is read so: a filesystem table's one unpaced file, not partitioned, not a changelog
format, no parse errors skipped, and only its physical columns; or a directory of such files, at most that size
in all, which each task reads whole, file after file, each against its own running maximum (the scan's rows,
`__seq` and `__wm`: a one pass's streaming read takes them all in its first micro-batch)."""

import zlib

from planner.plan.calc import Calc
from planner.plan.scan import TableScan


def file_columns_under(node, needed):
    """(the TableScan under `node` (the node itself, or under projections that only pick and rename fields),
    {needed field: the file's column}) when the `needed` fields of `node` are physical columns of a scan; else
    None. Whether the file is one small file is the physical plan's choice (runtime/physical/rules.py)."""
    names = {n: n for n in needed}
    while isinstance(node, Calc):
        if node.condition is not None or any(e.field is None for e, _ in node.projections):
            return None
        picked = dict((name, e.field) for e, name in node.projections)
        names = {n: picked[f] for n, f in names.items()}
        node = node.input
    if not isinstance(node, TableScan):
        return None
    physical = {c.name for c in node.table.physical_columns}
    return (node, names) if all(f in physical for f in names.values()) else None


def run_in_tasks(spark, fn, schema, tasks):
    """`fn` (a mapInArrow function) in `tasks` Spark tasks, each given its share number(s) in column 0."""
    return spark.range(0, tasks, 1, tasks).mapInArrow(fn, schema)


IPC = "__arrow_ipc"     # run_in_tasks_as_ipc's one column


def run_in_tasks_as_ipc(spark, fn, tasks):
    """`fn` (a mapInArrow function that yields Arrow tables) in `tasks` Spark tasks, each table handed to Spark as
    one value: its Arrow IPC stream's bytes (column IPC), LZ4-compressed. Spark's mapInArrow turns every row of
    its output into Spark's row and toArrow turns it back, a cost per row that dominated a one pass of millions
    of result rows; here Spark moves a few values of bytes instead (a quarter of the size: 3 M window groups of
    the 4 M-row perf file, 102 MB -> 28 MB). `tables_from_ipc` reads them back in the driver."""
    from pyspark.sql import types as st
    return run_in_tasks(spark, _AsIpc(fn), st.StructType([st.StructField(IPC, st.BinaryType())]), tasks)


class _AsIpc:
    """run_in_tasks_as_ipc's mapInArrow function around `fn`."""

    def __init__(self, fn):
        self.fn = fn
        # the name Spark's plan (EXPLAIN) shows: the function's, e.g. _PieceGroups_as_arrow_values
        self.__name__ = type(getattr(fn, "__self__", fn)).__name__ + "_as_arrow_values"

    def __call__(self, batches):
        import pyarrow as pa
        compressed = pa.ipc.IpcWriteOptions(compression="lz4")
        for table in self.fn(batches):
            sink = pa.BufferOutputStream()
            with pa.ipc.new_stream(sink, table.schema, options=compressed) as writer:
                writer.write_table(table)
            blob = sink.getvalue()
            yield pa.record_batch([pa.Array.from_buffers(pa.binary(), 1, [None, pa.array([0, blob.size], pa.int32())
                                                                          .buffers()[1], blob])], names=[IPC])


def tables_from_ipc(collected):
    """[the Arrow tables run_in_tasks_as_ipc's tasks yielded, with their schemas' metadata] (`collected`: its
    DataFrame's toArrow), in the order of the tasks."""
    import pyarrow as pa
    return [pa.ipc.open_stream(value.as_buffer()).read_all()
            for chunk in collected.column(IPC).chunks for value in chunk if value.is_valid]


def shares_of(batches):
    """The share numbers a task's mapInArrow input holds."""
    for batch in batches:
        yield from batch.column(0).to_pylist()


def read_whole_file(read_spec, schema_json, names, extra=(), piece=None, piece_bytes=None):
    """The file's rows, top to bottom, as Arrow tables of the columns {name: the file's column} (`names`), then
    the source's hidden columns `extra` (`__seq`, `__wm`); `read_spec`, `schema_json`: runtime.tables.read_spec.
    piece: (share, tasks): only the share's pieces of the file cut in `tasks` (connectors/splits.py's
    batch_splits, pieces of at least `piece_bytes`, else the source's; `__wm` then starts anew in each piece)."""
    import pyarrow as pa
    from .connectors.filesystem import TableSpec
    from .connectors.split_reader import read_partition
    from .connectors.splits import CUT_FORMATS, batch_splits
    source = TableSpec(read_spec)
    if piece is None:
        splits = batch_splits(source.path)
    else:               # cut as the scan's batch read cuts it (connectors/filesystem.py)
        share, tasks = piece
        # (not packed: each task packs alike only where its cores are the same; a file a split, shared out)
        cut = batch_splits(source.path, pieces=tasks if source.format in CUT_FORMATS else 1,
                           piece_bytes=piece_bytes or source.piece_bytes, pack=False)
        splits = [s for i, s in enumerate(cut) if i % tasks == share]
    for split in splits:
        for batch in read_partition(source, split, schema_json):
            table = pa.Table.from_batches([batch])
            yield pa.table([table.column(f) for f in names.values()] + [table.column(h) for h in extra],
                           names=list(names) + list(extra))


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
