"""The as-of join of as_of_join.py when the versions are few: each probe batch looks its versions up with numpy.

The versioned view's input rows are brought to the driver when they fit under Spark's own broadcast limit
(`spark.sql.autoBroadcastJoinThreshold`, as Spark decides to broadcast the small side of a join; -1 turns this
off). There they are deduplicated as as_of_join.py's `keep_last_versions` does it on Spark (a row older than an
earlier row of its key is no version; of a key's rows with one time the last to arrive is the version), and
the versions travel with the function into every task; the probe rows never leave the task that reads them:
no shuffle, no sort, no window. Per probe batch, the key is encoded as one integer (each key column's position
among the versions' distinct values, combined), the time as its rank among the versions' times, and one
`searchsorted` over the versions sorted by (key, time) finds for every row the last version of its key at or
before its time: the same version the window plan carries to it. A FLOAT/DOUBLE key comes as its text
(keyed_state.key_value: Arrow's lookups and Spark's grouping disagree on -0.0 / NaN), so its probe rows are
never read from the file here; nested keys and values keep the window plan. The versions
are read while the query is planned, a Spark job of their own (Ctrl-C does not cancel it; the broadcast limit
bounds it)."""

import numpy as np
from pyspark.sql import types as st


MAX_VERSIONS = 1_000_000          # more: the window plan, whatever their size in bytes
KEY_TYPES = (st.ByteType, st.ShortType, st.IntegerType, st.LongType, st.StringType, st.BooleanType,
             st.DecimalType, st.DateType, st.TimestampType, st.TimestampNTZType)
VALUE_TYPES = KEY_TYPES + (st.FloatType, st.DoubleType)


def lookup_takes(versions, key, values):
    """Whether a lookup can join the versions frame's `key` and `values` columns (by their types alone)."""
    types = {f.name: f.dataType for f in versions.schema.fields}
    return all(type(types[k]) in KEY_TYPES for k in key) and all(type(types[v]) in VALUE_TYPES for v in values)


def collect_versions(frame, limit):
    """The versions frame (key columns, __t, __seq, the values) as a pyarrow Table, a Spark job the engine runs
    before the query (never while translating); None when they are too many or too large for `limit` bytes
    (Spark's broadcast limit: the engine then plans the window plan instead), with the reason."""
    table = frame.limit(MAX_VERSIONS + 1).toArrow()
    if table.num_rows > MAX_VERSIONS:
        return None, "more than %d versions" % MAX_VERSIONS
    if limit is not None and 0 <= limit < table.nbytes:
        return None, "the versions take %d bytes in memory > spark.sql.autoBroadcastJoinThreshold" % table.nbytes
    return table, None


def no_versions(frame):
    """An empty Table of the versions frame's columns: the lookup EXPLAIN plans (the versions are collected only
    when the query runs)."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_schema
    schema = to_arrow_schema(frame.schema, timezone=frame.sparkSession.conf.get("spark.sql.session.timeZone"))
    return pa.Table.from_batches([], schema=schema)


class AsOfLookup:
    """The mapInArrow function: probe batches (key columns, __knull the last, __t, __seq, __l<i>) -> the joined rows
    (the left values, the version's values, __op, __seq), cast to `schema` (a pyarrow Schema). `inner`: a probe
    row without a version is dropped (else its version's values are NULL)."""

    def __init__(self, versions, key, values, left, schema, inner):
        import pyarrow.compute as pc
        versions = versions.combine_chunks()
        self.key, self.left, self.schema, self.inner = list(key), list(left), schema, inner
        self.distinct = [pc.unique(versions.column(k)) for k in self.key]
        code, _ = self._codes(versions)
        t = versions.column("__t").to_numpy()
        self.times = np.unique(t)
        self.width = len(self.times) + 1
        if np.prod([float(len(d)) for d in self.distinct]) * self.width >= 2.0 ** 62:
            raise OverflowError("the versions' keys and times do not fit one int64 code")
        # each version's (key, time) as one integer: its time's rank + 1, so that a probe row's count of version
        # times at or before its own is the code of the last version it may take
        combined = code * self.width + np.searchsorted(self.times, t) + 1
        kept = newest_versions(combined, code * self.width, versions.column("__seq").to_numpy())
        order = kept[np.argsort(combined[kept], kind="stable")]
        self.combined, self.code = combined[order], code[order]
        self.values = versions.select(list(values)).take(order)

    def _codes(self, batch):
        """(the key as one int64 per row, whether every key column's value is among the versions')."""
        import pyarrow.compute as pc
        code = np.zeros(batch.num_rows, dtype=np.int64)
        known = np.ones(batch.num_rows, dtype=bool)
        for name, distinct in zip(self.key, self.distinct):
            position = pc.index_in(batch.column(name), value_set=distinct)
            known &= position.is_valid().to_numpy(zero_copy_only=False)
            code = code * len(distinct) + position.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
        return code, known

    def lookup(self, batch):
        """Each probe row's version: its index into self.values, and where it has one."""
        code, known = self._codes(batch)
        t = batch.column("__t").to_numpy(zero_copy_only=False)
        probe = code * self.width + np.searchsorted(self.times, t, side="right")
        found = np.searchsorted(self.combined, probe, side="right") - 1
        hit = known & (found >= 0)      # a version at or before the row's time: its key's, or an earlier key's
        hit[hit] = self.code[found[hit]] == code[hit]
        return found, hit

    def __call__(self, batches):
        import pyarrow as pa
        for batch in batches:
            found, hit = self.lookup(batch)
            if self.inner:
                keep = pa.array(hit)
                batch, rows = batch.filter(keep), pa.array(found[hit])
            else:
                rows = pa.array(found, mask=~hit)
            right = self.values.take(rows)
            n = batch.num_rows
            columns = [batch.column(c) for c in self.left] + [right.column(i).combine_chunks()
                                                               for i in range(right.num_columns)]
            columns += [pa.array(np.zeros(n, dtype=np.int8)), batch.column("__seq")]
            yield pa.RecordBatch.from_arrays([c.cast(f.type) for c, f in zip(columns, self.schema)],
                                             schema=self.schema)


class FileProbeLookup:
    """The mapInArrow function of a lookup whose probe rows are one small file's (runtime/whole_file.py): its
    input holds the task's share number(s); it reads its pieces of the file, makes them probe batches as
    as_of_join.py's `side` does (the key columns with a NULL as temporal_join._key_column makes it, which of them
    are NULL __knull's, __t the time in epoch microseconds, rows without a time dropped, the left fields `__l<i>`)
    and looks them up (`lookup`: an AsOfLookup). `columns`: {probe column (the keys, `__l<i>`, `__time`): the
    file's column}."""

    def __init__(self, read_spec, schema_json, columns, lookup, tasks):
        self.read_spec = read_spec
        self.schema_json = schema_json
        self.columns = columns
        self.lookup = lookup
        self.tasks = tasks

    def __call__(self, batches):
        from ..whole_file import read_whole_file, shares_of
        for share in shares_of(batches):
            tables = read_whole_file(self.read_spec, self.schema_json, self.columns, ("__seq",),
                                     piece=(share, self.tasks))
            yield from self.lookup(b for t in tables for b in self._probe(t).to_batches())

    def _probe(self, table):
        import pyarrow as pa
        import pyarrow.compute as pc
        t = pc.cast(table.column("__time"), pa.int64())
        key = self.lookup.key[:-1]
        knull = np.full(table.num_rows, "", dtype=object)   # temporal_join._null_fields: '1' a NULL field, '0' not
        for k in key:
            knull = knull + np.where(table.column(k).is_null().to_numpy(zero_copy_only=False), "1", "0")
        probe = pa.table({**{k: _without_null(table.column(k)) for k in key}, "__knull": pa.array(knull, pa.string()),
                          "__t": t, "__seq": table.column("__seq"), **{c: table.column(c) for c in self.lookup.left}})
        return probe.filter(t.is_valid()).combine_chunks()


def _without_null(column):
    """A key column's NULLs as temporal_join._key_column makes them (0, '0', FALSE, the epoch): a NULL key field
    equals a NULL one (with __knull), as the versions' keys are made."""
    import decimal
    import pyarrow as pa
    import pyarrow.compute as pc
    if not column.null_count:
        return column
    t = column.type
    if pa.types.is_timestamp(t):
        zero = pa.scalar(0, pa.int64()).cast(t)
    elif pa.types.is_decimal(t):
        zero = pa.scalar(decimal.Decimal(0), t)
    else:
        zero = pa.scalar(0, pa.int32()).cast(t)
    return pc.fill_null(column, zero)


def newest_versions(combined, key_base, seq):
    """The indexes of the rows the keep-last-row deduplication takes as versions (as_of_join.keep_last_versions):
    `combined` orders a key's rows by time (key_base: the key's lowest code, below all its rows'), `seq` by
    arrival. A row older than an earlier row of its key is none; of a key's rows with one time, the last to
    arrive (among those left) is the version."""
    by_arrival = np.lexsort((seq, key_base))
    c = combined[by_arrival]
    newest_before = np.maximum.accumulate(np.concatenate([[-1], c]))[:-1]   # of an earlier key: below key_base
    left = by_arrival[c >= newest_before]
    by_time = left[np.lexsort((seq[left], combined[left]))]
    last = np.ones(len(by_time), dtype=bool)          # the last row of each (key, time)
    last[:-1] = combined[by_time][1:] != combined[by_time][:-1]
    return by_time[last]
