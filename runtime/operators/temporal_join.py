"""TemporalJoin (event time) and DropUpdateBefore on Spark.

Flink's TemporalRowTimeJoinOperator as a keyed event-time operator on pandas batches (columnar_event_time.py,
`transformWithStateInPandas`): both inputs unioned and keyed by the join key, each key's rows and state held
as numpy columns (values cross into pandas as pandas_values.py says), a version found by a binary search of
its key's version times for all released rows at once. A left (probe) row is held until the watermark (Spark's, the
smaller of both inputs') passes its rowtime, then emitted with the version valid at that time: the latest
version with a version time at or before it, if that version is not a retraction (LEFT: NULLs otherwise;
INNER: dropped), keeping the left row's kind. Versions are kept per key by version time (a later row with
the same time replaces the earlier one, as Flink's state does); +I/+U are versions, -D (and -U, where a filter
over updates sends them) end one. Versions older than the newest one the watermark passed can no longer be
chosen and are dropped. Probe rows are never dropped as late (Flink's operator keeps them): their time
travels as a plain value, so Spark's watermark does not filter them either. The rest of the ON condition is
applied to the joined rows (INNER drops a row failing it, LEFT keeps it with NULLs): the version is chosen by
time alone, then tested, as in Flink. Batch mode is refused by the planner, as Flink 2.4 does; a streaming query
read in one pass (runtime/one_pass.py) joins the whole input at once (as_of_join.py)."""

from functools import partial

import numpy as np
from pyspark.sql import functions as F
from pyspark.sql import types as st

from planner.plan.temporal_join import DropUpdateBefore, TemporalJoin, versioned_view

from ..physical.nodes import PER_MICRO_BATCH_TEMPORAL_JOIN
from ..translate import Stream, conform, q, translates
from .as_of_join import as_of_join
from .columnar_event_time import NO_TIME, ColumnarEventTimeProcessor, concat, length, take
from .event_time import event_time_column, watermark_delay_ms
from .keyed_state import PickledValueState, key_type, key_value
from .packed_rows import pack_by_key
from .pandas_values import MICROS, RowColumns, Values
from ..connect_shims import portable

LEFT, RIGHT = 0, 1
ACCUMULATE = (0, 2)           # +I and +U are versions; -U and -D retract


class TemporalJoinProcessor(ColumnarEventTimeProcessor):
    """A `transformWithStateInPandas` processor keyed by (the join key, __knull: which key fields are NULL).
    `left` / `right`: the sides' fields as pandas_values.RowColumns, each side's rowtime (field index
    `left_time` / `right_time`) not carried: it is the row's __t; `output_names`: the output columns (the left
    fields, the right fields, __op, __seq). `newest_only`: the versions are a keep-last-row deduplication's
    input rows, so a row older than its key's newest version is no version (the deduplication would not emit
    it).

    Per key: `pending` (the base's) holds the probe rows (__t, __seq, __op, the left values by field index);
    `versions` is one pickled value, columns sorted by version time: __vt, __op and the right values."""
    operator_name = "the temporal join"

    def __init__(self, outer, left, right, left_time, right_time, output_names, newest_only=False):
        self.outer = outer
        self.left, self.right = left, right
        self.left_time, self.right_time = left_time, right_time
        self.output_names = tuple(output_names)
        self.newest_only = newest_only

    def init_state(self, handle):
        self.state = PickledValueState(handle, "versions", dict)
        self.versions = None
        self.changed = False

    def _table(self):
        if self.versions is None:
            self.versions = self.state.get()
        return self.versions

    # ------------------------------------------------------------------ the base's hooks
    def on_arrival(self, key, frame):
        probe = frame["__side"].to_numpy() == LEFT
        keys = key if isinstance(key, tuple) else (key,)
        if not probe.all():               # a NULL key is a key too: Flink's operator keys rows by their binary form
            rows = np.flatnonzero(~probe)
            rows = rows[frame["__t"].to_numpy(dtype=np.int64)[rows] != NO_TIME]
            self._add_versions({**_row_columns(frame, rows), **self.right.read(frame, rows)})
        if not probe.any():
            return None, None
        rows = None if probe.all() else probe
        return {**_row_columns(frame, rows), **self.left.read(frame, rows)}, None

    def _add_versions(self, rows):
        """Versions in arrival order into the table: a later one with the same time replaces the earlier."""
        if not length(rows):
            return
        rows = take(rows, np.argsort(rows["__seq"], kind="stable"))
        table = self._table()
        t = rows["__t"]
        if self.newest_only:                        # older than the newest so far: no version
            newest = table["__vt"][-1] if table else np.iinfo(np.int64).min
            before = np.maximum.accumulate(np.concatenate([[newest], t]))[:-1]
            rows = take(rows, t >= before)
            if not length(rows):
                return
        new = {n: c for n, c in rows.items() if n not in ("__t", "__seq")}
        new["__vt"] = rows["__t"]
        both = concat(table, new)
        order = np.argsort(both["__vt"], kind="stable")
        times = both["__vt"][order]
        last = np.append(times[1:] != times[:-1], True)
        self.versions = take(both, order[last])
        self.changed = True

    def on_time(self, key, rows, watermark_us, final):
        table = self._table()
        out = self._joined(rows, table) if rows else None
        if watermark_us is not None and table:  # versions the watermark passed, but the newest of them, are done
            passed = int(np.searchsorted(table["__vt"], watermark_us, side="right"))
            if passed > 1:
                self.versions = take(table, slice(passed - 1, None))
                self.changed = True
        return out

    def _joined(self, rows, table):
        """Each probe row with the version valid at its time: the latest at or before it, if not a retraction
        (LEFT: NULLs otherwise; INNER: the row is dropped)."""
        import pandas as pd     # here: a worker that only unpickles the processor imports no pandas
        n = length(rows)
        if table:
            at = np.searchsorted(table["__vt"], rows["__t"], side="right") - 1
            index = np.maximum(at, 0)
            valid = (at >= 0) & np.isin(table["__op"][index], ACCUMULATE)
        else:
            index, valid = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=bool)
        if not self.outer:
            if not valid.any():
                return None
            if not valid.all():
                rows, index, valid = take(rows, valid), index[valid], valid[valid]
        n = length(rows)
        right = [_field(table, i, self.right_time, "__vt").take(index).where(valid) if table
                 else Values.nulls_of(t, n) for i, t in enumerate(self.right.types)]
        left = [_field(rows, i, self.left_time, "__t") for i in range(len(self.left.types))]
        columns = [v.as_series() for v in left + right] + [pd.Series(rows["__op"]), pd.Series(rows["__seq"])]
        return pd.DataFrame(dict(zip(self.output_names, columns)))

    def finish(self, key):
        if self.changed:
            if self.versions:
                self.state.put(self.versions)
            else:
                self.state.clear()
        self.versions = None
        self.changed = False


def _row_columns(frame, rows):
    """__t, __seq and __op of the frame's `rows` (a mask or positions; None: all) as Columns."""
    out = {}
    for name, dtype in (("__t", np.int64), ("__seq", np.int64), ("__op", np.int8)):
        a = frame[name].to_numpy(dtype=dtype)
        out[name] = a if rows is None else a[rows]
    return out


def _field(columns, i, time_field, time_column):
    """Field `i`'s Values from held Columns: the side's rowtime is its time column (never NULL: a row without a
    time is neither held nor a version)."""
    if i == time_field:
        t = columns[time_column]
        return Values(MICROS, t, np.zeros(len(t), dtype=bool))
    return columns[i]


def _key_column(column, data_type):
    """A join key column as a grouping column without NULLs (which of its fields is NULL is __knull's): pandas
    would turn a NULL number or timestamp into NaN / NaT, which equals nothing, not even the next row's key."""
    if isinstance(data_type, (st.NumericType, st.BooleanType, st.StringType)):
        return F.coalesce(column, F.lit(0).cast(data_type))
    if isinstance(data_type, (st.TimestampType, st.TimestampNTZType)):
        return F.coalesce(column, F.timestamp_micros(F.lit(0)).cast(data_type))
    if isinstance(data_type, st.DateType):
        return F.coalesce(column, F.date_from_unix_date(F.lit(0)))
    if isinstance(data_type, st.BinaryType):
        return F.coalesce(column, F.lit(bytearray()))
    return column


def _null_fields(columns):
    """__knull: which key fields are NULL, a '0' or '1' a field (a NULL field equals a NULL only, never the value
    _key_column fills it with, and (NULL, NULL) is another key than (NULL, x): Flink 2.3's operator keys a row
    by its key's binary form, null bits and all, in BinaryRowData)."""
    return F.concat(*[F.when(c.isNull(), F.lit("1")).otherwise(F.lit("0")) for c in columns])


# ---------------------------------------------------------------------- the translators
@translates(TemporalJoin)
def translate_temporal_join(node, inputs, ctx):
    left, right = inputs
    right, newest_only = _versions(node.right, right)
    ldf, rdf = left.df, right.df
    if right.changelog and not node.right.update_before:
        rdf = rdf.filter(F.col("__op") != F.lit(1))
    key_types = [ldf.schema[k].dataType for k in node.left_keys]
    keys = ["__k%d" % i for i in range(len(node.left_keys))]

    def key_columns(names):
        """The side's key columns cast to the left's types, never NULL, then __knull; a FLOAT/DOUBLE one as its
        text (keyed_state.key_value: NaN one key, -0.0 apart from 0.0, as Flink's operator keys its rows)."""
        cols = [F.col(q(k)).cast(t) for k, t in zip(names, key_types)]
        return [_key_column(key_value(c, kt), key_type(kt)).alias(name)
                for c, kt, name in zip(cols, key_types, keys)] + \
            [_null_fields(cols).alias("__knull")]
    chosen = ctx.chosen(node)
    if chosen.choice == PER_MICRO_BATCH_TEMPORAL_JOIN:
        from .temporal_join_per_batch import temporal_join_per_batch
        delays = [chosen.watermark_delays_ms[i] * 1000 for i in (0, 1)]
        return temporal_join_per_batch(node, ldf, rdf, key_columns(node.left_keys), key_columns(node.right_keys),
                                       keys + ["__knull"], delays, partial(_output, node), ctx,
                                       chosen.versions_limit, _read(node, chosen))
    if ctx.streaming:
        joined = _joined_on_micro_batches(node, ctx, left, right, ldf, rdf, key_columns, keys, newest_only)
    else:                         # read as one batch (a one pass, batch mode): the whole input at once
        joined = as_of_join(node, ldf, rdf, key_columns(node.left_keys), key_columns(node.right_keys),
                            keys + ["__knull"], chosen, ctx, _read(node, chosen))
    return _output(node, joined, left.changelog)


def _read(node, chosen):
    """The output fields the Calc above the join or its condition reads (None: all)."""
    if chosen.fields_read_above is None:
        return None
    return set(chosen.fields_read_above) | (set(node.condition.refs) if node.condition is not None else set())


def _output(node, joined, changelog=False):
    """The node's Stream of the joined rows (node's fields, __op, __seq): the rest of the ON condition applied,
    the hidden columns."""
    joined = _with_condition(node, joined)
    hidden = [F.col("__seq"), F.lit(None).cast("timestamp").alias("__wm")] + ([F.col("__op")] if changelog else [])
    out = joined.select(*[F.col(q(n)) for n in node.field_names], *hidden)
    return Stream(conform(out, node.fields), changelog=changelog)


def _joined_on_micro_batches(node, ctx, left, right, ldf, rdf, key_columns, keys, newest_only):
    """Both sides unioned, packed by key and joined by TemporalJoinProcessor: (node's fields, __op, __seq)."""
    lnames, rnames = node.left.field_names, node.right.field_names
    ltypes = [ldf.schema[n].dataType for n in lnames]
    rtypes = [rdf.schema[n].dataType for n in rnames]
    lvalues = RowColumns("__l", ltypes, skip=[lnames.index(node.left_time)])
    rvalues = RowColumns("__r", rtypes, skip=[rnames.index(node.right_time)])

    def side_columns(df, stream, side, key_names, time, names):
        values = [F.col(q(n)) for n in names]
        return df.select(
            *key_columns(key_names), F.lit(side).cast("tinyint").alias("__side"),
            F.coalesce(F.unix_micros(F.col(q(time))), F.lit(NO_TIME)).alias("__t"),
            F.col("__seq").cast("long").alias("__seq"),
            (F.col("__op") if stream.changelog else F.lit(0)).cast("tinyint").alias("__op"),
            *lvalues.spark_columns(values if side == LEFT else None),
            *rvalues.spark_columns(values if side == RIGHT else None))
    probe = side_columns(ldf, left, LEFT, node.left_keys, node.left_time, lnames)
    versions = side_columns(rdf, right, RIGHT, node.right_keys, node.right_time, rnames)
    out_names = node.field_names
    fields = [st.StructField(n, t, True) for n, t in zip(out_names, ltypes + rtypes)]
    schema = st.StructType(fields + [st.StructField("__op", st.ByteType()), st.StructField("__seq", st.LongType())])
    processor = TemporalJoinProcessor(node.kind == "LEFT", lvalues, rvalues, lnames.index(node.left_time),
                                      rnames.index(node.right_time), schema.fieldNames(), newest_only)
    processor.watermark_delay_us = max(watermark_delay_ms(c) for c in node.inputs) * 1000
    processor.input_columns = tuple(probe.columns)
    column = event_time_column(node, ctx, node.output_name(0, node.left_time))
    kwargs = {"eventTimeColumnName": column} if column else {}
    processor.packed_in = ctx.spark.conf.get("spark.sql.session.timeZone")
    both = pack_by_key(probe.unionByName(versions), list(keys) + ["__knull"])
    return both.groupBy(*keys, "__knull").transformWithStateInPandas(
        portable(processor), schema, "Append", "EventTime", **kwargs)


def _versions(right, stream):
    """The versioned side's rows -> (Stream, newest_only). A versioned view (projections over a keep-last-row
    deduplication on a rowtime) is read from the deduplication's input (the physical plan leaves the
    Deduplicate out, runtime/physical/rules.py): every row is a version unless it is older than its key's
    newest (the deduplication's changelog row by row; its translated Stream only holds each micro-batch's net
    change, which would skip versions). Otherwise the side's own Stream."""
    n, _ = versioned_view(right)
    return stream, n is not None


def _with_condition(node, joined):
    """The ON condition's rest: INNER keeps the rows it holds for; LEFT nulls the version where it fails."""
    if node.condition is None:
        return joined
    holds = F.coalesce(F.expr(node.condition.sql), F.lit(False))
    if node.kind == "INNER":
        return joined.filter(holds)
    nleft = len(node.left.fields)
    cols = [F.col(q(n)) if i < nleft else F.when(holds, F.col(q(n))).alias(n)
            for i, n in enumerate(node.field_names)]
    return joined.select(*cols, "__op", "__seq")


@translates(DropUpdateBefore)
def translate_drop_update_before(node, inputs, ctx):
    s = inputs[0]
    if not s.changelog:
        return s
    return Stream(s.df.filter(F.col("__op") != F.lit(1)), changelog=True)
