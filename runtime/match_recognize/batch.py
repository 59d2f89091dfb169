"""MATCH_RECOGNIZE over a Spark batch DataFrame: `match_batch(df, spec, input_columns)`.

The input holds the table's columns plus `__seq` (arrival order) and `__wm` (Flink's watermark just
before the row arrived; NULL when none). Spark does the heavy lifting natively: it marks late rows
(rowtime <= __wm, Flink drops them), hash-partitions by PARTITION BY and sorts each partition by
(partition key, rowtime, further ORDER BY keys, __seq); a FLOAT/DOUBLE partition key by its text
(keyed_state.python_key, added as `__mk<i>`: NaN one partition, -0.0 apart from 0.0, as Flink keys it in both
modes; Spark's shuffle and sort take -0.0 for 0.0); one `mapInArrow` pass then walks each key's
rows in order through the pure-Python matcher. Late rows are skipped and counted in the accumulator
passed as `late_rows` (a pyspark Accumulator; the caller reads `.value` after an action).
The result's schema is the planner's (spec.output_columns)."""

import sys

from pyspark.sql import functions as F

from runtime.match_recognize.lazy_timestamps import LazyTimestamps
from runtime.operators.keyed_state import python_key
from runtime.match_recognize.output_schema import ArrowWriter, spark_schema

SEQ, WM, LATE = "__seq", "__wm", "__late"


def prepare(df, spec, input_columns, partitions=None):
    """Mark late rows (`__late`, only where the input has `__wm`), co-locate partitions and sort them for the
    matcher."""
    rt = spec.rowtime
    if rt is not None and WM in df.columns:
        from ..lateness import late_column
        df = df.withColumn(LATE, late_column(F.col(rt)))
    if SEQ not in df.columns:
        df = df.withColumn(SEQ, F.monotonically_increasing_id())
    keyed = key_columns(spec, input_columns)
    df = df.select("*", *[python_key(df, p).alias(k) for p, k in zip(spec.partition_by, keyed) if k != p])
    keys = [F.col(k) for k in keyed]
    if keys:
        n = partitions or int(df.sparkSession.conf.get("spark.sql.shuffle.partitions"))
        df = df.repartition(n, *keys)
    else:
        df = df.repartition(1)
    order = list(keys)
    first = spec.order_by[0].column
    if spec.proctime is not None and first == spec.proctime:
        order.append(F.col(SEQ))
    else:
        for k in spec.order_by:
            order.append(F.col(k.column).asc() if k.ascending else F.col(k.column).desc())
        order.append(F.col(SEQ))
    return df.sortWithinPartitions(*order)


def key_columns(spec, input_columns):
    """The columns the matcher tells PARTITION BY keys apart by: each key's own, a FLOAT/DOUBLE one's
    `__mk<i>` (its text: `prepare` adds it); `input_columns`: [(name, Flink type text)]."""
    from planner.expr.types import base_name
    types = dict(input_columns)
    return ["__mk%d" % i if base_name(types[p]) in ("FLOAT", "DOUBLE", "REAL") else p
            for i, p in enumerate(spec.partition_by)]


def match_batch(df, spec, input_columns, late_rows=None, partitions=None):
    """Batch MATCH_RECOGNIZE: one output row per match (or per row for ALL ROWS PER MATCH)."""
    schema = spark_schema(spec)
    tz = df.sparkSession.conf.get("spark.sql.session.timeZone")
    names = [n for n, _ in input_columns]
    prepared = prepare(df.select(*names, *[c for c in (SEQ, WM) if c in df.columns]), spec, input_columns, partitions)
    # the rows come sorted: `__seq` goes on to the matcher only where it is the order (processing time)
    by_time = spec.ordered_by_rowtime()
    keyed = [k for k in key_columns(spec, input_columns) if k not in names]
    prepared = prepared.select(*names, *keyed,
                               *[c for c in ((LATE,) if by_time else (SEQ, LATE)) if c in prepared.columns])
    fn = _ArrowMatch(spec, input_columns, schema, tz, late_rows)
    return prepared.mapInArrow(fn, schema)


def _column_values(array):
    import pyarrow as pa
    if pa.types.is_timestamp(array.type):
        return LazyTimestamps(array.cast(pa.timestamp("us", tz=array.type.tz)).cast(pa.int64()).to_pylist())
    return array.to_pylist()


def _key_runs(batch, key_names):
    """The (first, end) row ranges of the batch's runs of equal partition keys (`key_columns`), found by Arrow's
    comparisons of each row with the one before (NULL equals NULL)."""
    import numpy as np
    import pyarrow.compute as pc
    n = batch.num_rows
    change = np.zeros(max(n - 1, 0), dtype=bool)
    for name in key_names if n > 1 else ():
        column = batch.column(name)
        later, earlier = column.slice(1), column.slice(0, n - 1)
        change |= pc.fill_null(pc.not_equal(later, earlier), False).to_numpy(zero_copy_only=False)
        if column.null_count:
            change |= pc.is_null(later).to_numpy(zero_copy_only=False) != \
                pc.is_null(earlier).to_numpy(zero_copy_only=False)
    starts = np.concatenate([[0], np.flatnonzero(change) + 1]).tolist()
    return zip(starts, starts[1:] + [n])


class _ArrowMatch:
    """The mapInArrow function: consecutive rows with the same key form one partition."""

    def __init__(self, spec, input_columns, schema, tz, late_rows):
        self.spec = spec
        self.input_columns = list(input_columns)
        self.schema = schema
        self.tz = tz
        self.late_rows = late_rows

    def __call__(self, batches):
        import pyarrow as pa
        import pyarrow.compute as pc
        from runtime.match_recognize.matcher import CompiledMatch

        spec = self.spec
        names = [n for n, _ in self.input_columns]
        compiled = CompiledMatch(spec, names)
        writer = ArrowWriter(self.schema, self.tz)
        pidx = [names.index(p) for p in spec.partition_by]
        keyed = key_columns(spec, self.input_columns)
        by_time = spec.ordered_by_rowtime()
        ti = names.index(spec.rowtime) if by_time else None
        key = run_key = None      # the partition's values, and its `key_columns` values
        buf = None          # [column lists..., ts list]
        late = 0
        for batch in batches:
            if batch.num_rows == 0:
                continue
            late_mask = batch.column(LATE) if LATE in batch.schema.names else None
            n_late = 0 if late_mask is None else pc.sum(late_mask.cast(pa.int64())).as_py() or 0
            if n_late:
                late += n_late
                batch = batch.filter(pc.invert(late_mask))
                if batch.num_rows == 0:
                    continue
            cols = [_column_values(batch.column(n)) for n in names]
            if by_time:
                ts = list(cols[ti].us)
            else:
                ts = batch.column(SEQ).to_pylist()
            key_cols = [batch.column(k) for k in keyed]
            for a, b in _key_runs(batch, keyed):
                k = tuple(c[a].as_py() for c in key_cols)
                if buf is not None and k != run_key:
                    out = self._run(compiled, buf, key, writer)
                    if out is not None:
                        yield out
                    buf = None
                if buf is None:
                    run_key, key = k, tuple(cols[i][a] for i in pidx)
                    buf = [c[a:b] for c in cols] + [ts[a:b]]
                else:
                    for c, src in zip(buf, cols + [ts]):
                        c.extend(src[a:b])
        if buf is not None:
            out = self._run(compiled, buf, key, writer)
            if out is not None:
                yield out
        if late:
            print("dynsql: MATCH_RECOGNIZE dropped %d late row(s) (rowtime at or below the watermark)" % late,
                  file=sys.stderr)
            if self.late_rows is not None:
                self.late_rows.add(late)
        last = writer.flush()
        if last is not None:
            yield last

    @staticmethod
    def _run(compiled, buf, key, writer):
        data, ts = buf[:-1], buf[-1]
        return writer.add(compiled.run_partition(data, ts, key))
