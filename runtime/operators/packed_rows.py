"""Rows travel to a keyed pandas operator (`transformWithStateInPandas`) packed: a key's rows in one value.

Spark 4.3's worker for transformWithStateInPandas regroups its input row by row: each Arrow batch becomes a
pandas frame, then one namedtuple per row (`itertuples`), then a new frame per key (`pd.DataFrame(rows)`):
about 1.3 microseconds a row, as much as MATCH_RECOGNIZE's matcher spends on it. `pack_by_key(df, keys)` does
that regrouping before the shuffle instead, on Arrow batches, in one `mapInArrow` pass: for each input batch
and key with at least PACK_FROM rows, one row whose `__rows` holds those rows as an Arrow IPC stream (all of
`df`'s columns; in the row itself the key columns are set, number and boolean columns are 0 / false so that
pandas keeps their dtype, other columns NULL). A key with fewer rows in the batch goes as its rows (`__rows`
NULL): unpacking costs about 0.15 ms a key and call, more than the worker's regrouping of a few rows.

The operator's call for a key gets the worker's frames and `unpack(frames, timezone)` gives back the frame
Spark's worker would have built from the rows: the same columns, dtypes and values (numbers, booleans and
strings converted as pyspark converts them, other columns by pyspark's own conversion), rows in arrival order
within each input batch."""

ROWS = "__rows"
PACK_FROM = 64          # rows of one key in one input batch from which they travel packed


def pack_by_key(df, keys):
    """df -> df's columns and __rows BINARY: per input batch, a key's rows as they are or packed in one row."""
    from pyspark.sql import types as st
    schema = st.StructType(list(df.schema.fields) + [st.StructField(ROWS, st.BinaryType(), True)])
    return df.mapInArrow(_packer(list(keys), PACK_FROM, ROWS), schema)


def _packer(keys, pack_from, rows_column):
    """The mapInArrow function (a closure that imports nothing of dynsql: it travels by value, to a Spark Connect
    server too)."""

    def placeholder(column, n):
        """A packed row's value of a column that is not a key: pandas keeps a number column's dtype."""
        import pyarrow as pa
        kind = column.type
        if pa.types.is_integer(kind) or pa.types.is_floating(kind):
            return pa.array([0] * n, kind)
        if pa.types.is_boolean(kind):
            return pa.array([False] * n, kind)
        return pa.nulls(n, kind)

    def pack(batches):
        import numpy as np
        import pyarrow as pa
        for batch in batches:
            n = batch.num_rows
            if not n:
                continue
            index = pa.table([batch.column(k) for k in keys] + [pa.array(np.arange(n))], names=keys + ["__i"])
            groups = index.group_by(keys, use_threads=False).aggregate([("__i", "list")])
            if n < pack_from * groups.num_rows * 2:      # few rows a key: no packing pays
                yield pa.RecordBatch.from_arrays(batch.columns + [pa.nulls(n, pa.binary())],
                                                 names=batch.schema.names + [rows_column])
                continue
            rows = groups.column("__i_list").combine_chunks()
            offsets, values = rows.offsets.to_numpy(), rows.values
            sizes = np.diff(offsets)
            packed = np.flatnonzero(sizes >= pack_from)
            plain = np.flatnonzero(sizes < pack_from)
            blobs = []
            for g in packed:
                part = batch.take(values[offsets[g]:offsets[g + 1]])
                sink = pa.BufferOutputStream()
                with pa.ipc.new_stream(sink, part.schema) as writer:
                    writer.write_batch(part)
                blobs.append(sink.getvalue().to_pybytes())
            heads = batch.take(values.take(pa.array(offsets[packed])))   # a row of each packed key
            m = len(packed)
            columns = [heads.column(i) if name in keys else placeholder(heads.column(i), m)
                       for i, name in enumerate(batch.schema.names)]
            yield pa.RecordBatch.from_arrays(columns + [pa.array(blobs, pa.binary())],
                                             names=batch.schema.names + [rows_column])
            if len(plain):
                positions = np.concatenate([np.arange(offsets[g], offsets[g + 1]) for g in plain])
                rest = batch.take(pa.array(np.sort(values.to_numpy()[positions])))     # in arrival order
                yield pa.RecordBatch.from_arrays(rest.columns + [pa.nulls(len(rest), pa.binary())],
                                                 names=batch.schema.names + [rows_column])

    return pack


def frames_of_call(rows, timezone):
    """A keyed operator's call's frames (Spark's iterator `rows`) -> its non-empty frames: one, unpacked, when the
    rows come packed (`timezone`: the session's; None when they come as they are)."""
    frames = [f for f in rows if len(f)]
    if timezone is None:
        return frames
    frame = unpack(frames, timezone)
    return [] if frame is None else [frame]


def unpack(frames, timezone):
    """The frames a key's call got (df's columns and __rows, by position) -> one pandas frame of the key's rows
    with df's columns, or None when there are none."""
    import pandas as pd     # here: a worker that only unpickles the processor imports no pandas
    import pyarrow as pa
    parts, tables = [], []
    for frame in frames:
        blobs = frame.iloc[:, -1].to_numpy()
        packed = ~pd.isna(blobs)
        if not packed.any():
            parts.append(frame.iloc[:, :-1])
            continue
        if not packed.all():
            parts.append(frame.iloc[~packed, :-1])
        tables += [pa.ipc.open_stream(blob).read_all() for blob in blobs[packed]]
    if tables:
        table = tables[0] if len(tables) == 1 else pa.concat_tables(tables)
        names = list(frames[0].columns[:-1])
        parts.append(pd.DataFrame({name: _pandas_column(column, timezone)
                                   for name, column in zip(names, table.columns)}, copy=False))
    parts = [p for p in parts if len(p)]
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else pd.concat(parts, ignore_index=True)


def _pandas_column(column, timezone):
    """An Arrow column as pyspark's conversion gives it to pandas (fast for numbers, booleans and strings)."""
    import pyarrow as pa
    kind = column.type
    if (pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind)) \
            and column.null_count == 0:
        return column.to_numpy()
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return column.to_numpy(zero_copy_only=False)
    from pyspark.sql.conversion import ArrowBatchTransformer
    return ArrowBatchTransformer.to_pandas(pa.table([column], names=["c"]), timezone=timezone)[0]
