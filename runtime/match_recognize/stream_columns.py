"""How streaming MATCH_RECOGNIZE's rows travel between Spark and the matcher: `StreamColumns`.

The operator runs on `transformWithStateInPandas`, whose Python worker hands over each key's rows as a pandas
DataFrame built row by row from Arrow (Spark 4.3): an integer column with a NULL becomes float64 (exact only up
to 2**53), a DOUBLE's NULL becomes NaN (no longer told from NaN), a TIMESTAMP becomes a pandas Timestamp per
row (about a microsecond each). So Spark sends the columns in a form that survives that trip exactly:
  - integer, floating and BOOLEAN columns with NULL replaced by 0 / 0.0 / false, and a NULL bit for each;
  - TIMESTAMP columns as epoch microseconds (`unix_micros`), NULL replaced by 0, with a NULL bit; the ORDER BY
    rowtime column is not sent at all: it is `__t` (its epoch microseconds, which the event-time logic reads);
  - other columns (strings, decimals, dates, nested values) as they are (NULL is None);
  - `__t` (event time in epoch microseconds, 0 when NULL), `__seq` (arrival order);
  - `__nulls0`, `__nulls1`, ...: BIGINT bit masks, 62 bits each: bit 0 of the first is Flink's lateness of the
    row (`__late`), bit 1 a NULL `__t`, then one bit per column above that needs one, in column order.
The frame's columns are read by position (the worker renames columns such as `__t`).

Back in Python, `block(frame)` turns a frame into a `ColumnBlock` (numpy arrays, column_block.py), and the
matcher's values come from `ColumnBlock.values()`: Python ints, floats, bools, strings and None, TIMESTAMP
columns as `LazyTimestamps` (UTC datetimes when read), nested values as Arrow gives them (lists, (key, value)
pairs for a MAP, dicts for a ROW) - the same values as the batch path. Output rows go back as one pandas
DataFrame of Arrow-backed columns (`output_frame`), which Spark's worker converts without a loss (no NaN for
NULL, no nanosecond timestamps)."""

from planner.match_recognize.types import parse_type_text
from planner.expr.types import parse_type, to_spark
from runtime.match_recognize.column_block import ColumnBlock
from runtime.match_recognize.output_schema import exact_array, wrap_integer
from runtime.translate import q

ALL_KEY = "__mr_all"
BITS_PER_MASK = 62
LATE_BIT, T_NULL_BIT = 0, 1

# how a column is sent: with a NULL bit (numeric, boolean, timestamp as micros) or as it is
INTEGER, FLOATING, BOOLEAN, TIMESTAMP, OBJECT, NESTED, ROWTIME = \
    "integer", "floating", "boolean", "timestamp", "object", "nested", "rowtime"
_WITH_NULL_BIT = (INTEGER, FLOATING, BOOLEAN, TIMESTAMP)


def spark_type(type_text):
    info = parse_type_text(type_text)
    return to_spark(parse_type("STRING" if info.name == "NULL" else info.base))


def column_kind(dtype):
    from pyspark.sql import types as st
    if isinstance(dtype, (st.ByteType, st.ShortType, st.IntegerType, st.LongType)):
        return INTEGER
    if isinstance(dtype, (st.FloatType, st.DoubleType)):
        return FLOATING
    if isinstance(dtype, st.BooleanType):
        return BOOLEAN
    if isinstance(dtype, (st.TimestampType, st.TimestampNTZType)):
        return TIMESTAMP
    if isinstance(dtype, (st.ArrayType, st.MapType, st.StructType)):
        return NESTED
    return OBJECT


class StreamColumns:
    """The layout of the operator's input frame for `input_columns` [(name, type text)] keyed by `partition_by`
    (names); `rowtime_is_t_of`: the ORDER BY rowtime column, which travels as __t.

    The frame starts with the grouping columns Spark adds (`added_keys`: a PARTITION BY column not sent as it
    is, as `__key<i>`, its value cast to a string (a TIMESTAMP's epoch microseconds); `__mr_all`, 0, when
    there is no PARTITION BY); a PARTITION BY column sent as it is (a string, say) groups the rows itself. The
    matcher's partition values come from the rows (`key_values`), not from the grouping key."""

    def __init__(self, input_columns, partition_by=(), rowtime_is_t_of=None):
        self.names = [n for n, _ in input_columns]
        self.types = [spark_type(t) for _, t in input_columns]
        self.kinds = [ROWTIME if n == rowtime_is_t_of else column_kind(d) for n, d in zip(self.names, self.types)]
        self.sent = [i for i, k in enumerate(self.kinds) if k != ROWTIME]        # input index of each sent column
        keys = [self.names.index(p) for p in partition_by]
        self.grouping = [self.names[i] if self.kinds[i] == OBJECT else "__key%d" % k for k, i in enumerate(keys)] \
            or [ALL_KEY]
        self.added_keys = [(g, i) for g, i in zip(self.grouping, keys + [None]) if g not in self.names]
        self.frame_offset = len(self.added_keys)
        bits = [i for i in self.sent if self.kinds[i] in _WITH_NULL_BIT]
        self.null_bit = {i: 2 + k for k, i in enumerate(bits)}                 # input index -> bit number
        self.n_masks = 1 + (1 + len(bits)) // BITS_PER_MASK
        self.t_pos = len(self.sent)                                             # frame positions of __t, __seq
        self.seq_pos = self.t_pos + 1
        self.mask_pos = self.t_pos + 2

    def mask_names(self):
        return ["__nulls%d" % k for k in range(self.n_masks)]

    # ------------------------------------------------------------------ Spark side
    def spark_columns(self):
        """Select expressions (over the input columns, __t, __seq and __late) giving the frame's columns."""
        from pyspark.sql import functions as F
        out = [(F.lit(0) if i is None else self._key_string(F.col(q(self.names[i])), i)).alias(g)
               for g, i in self.added_keys]
        for i in self.sent:
            c = F.col(q(self.names[i]))
            kind = self.kinds[i]
            if kind == TIMESTAMP:
                c = F.coalesce(F.unix_micros(c), F.lit(0).cast("long"))
            elif kind == INTEGER:
                c = F.coalesce(c, F.lit(0).cast(self.types[i]))
            elif kind == FLOATING:
                c = F.coalesce(c, F.lit(0.0).cast(self.types[i]))
            elif kind == BOOLEAN:
                c = F.coalesce(c, F.lit(False))
            out.append(c.alias(self.names[i]))
        out.append(F.coalesce(F.col("__t"), F.lit(0).cast("long")).alias("__t"))
        out.append(F.col("__seq"))
        flagged = [(LATE_BIT, F.col("__late")), (T_NULL_BIT, F.col("__t").isNull())]
        flagged += [(b, F.col(q(self.names[i])).isNull()) for i, b in self.null_bit.items()]
        for k, name in enumerate(self.mask_names()):
            parts = [F.when(cond, F.lit(1 << (b - k * BITS_PER_MASK))).otherwise(F.lit(0)).cast("long")
                     for b, cond in flagged if b // BITS_PER_MASK == k]
            total = parts[0]
            for p in parts[1:]:
                total = total.bitwiseOR(p)
            out.append(total.alias(name))
        return out

    def _key_string(self, c, i):
        """An added grouping column: the PARTITION BY value as a string (a numeric grouping column with a NULL
        would reach the worker as floats, which Spark cannot take back as the state's key)."""
        from pyspark.sql import functions as F
        if self.kinds[i] in (TIMESTAMP, ROWTIME):
            c = F.unix_micros(c)
        return c.cast("string")

    def encode_row(self, values, t, seq, late):
        """One input row as Spark's `spark_columns` sends it (plain Python: the tests' stand-in for Spark)."""
        from runtime.match_recognize.rows import to_micros
        out = [0 if i is None else _key_text(values[i], self.kinds[i]) for _, i in self.added_keys]
        masks = [0] * self.n_masks
        flags = [(LATE_BIT, bool(late)), (T_NULL_BIT, t is None)]
        for i in self.sent:
            v = values[i]
            kind = self.kinds[i]
            if kind in _WITH_NULL_BIT:
                flags.append((self.null_bit[i], v is None))
                if v is None:
                    v = {INTEGER: 0, FLOATING: 0.0, BOOLEAN: False, TIMESTAMP: 0}[kind]
                elif kind == TIMESTAMP:
                    v = to_micros(v)
            out.append(v)
        for b, on in flags:
            if on:
                masks[b // BITS_PER_MASK] |= 1 << (b % BITS_PER_MASK)
        return tuple(out) + (0 if t is None else t, seq) + tuple(masks)

    def frame_names(self):
        sent = [self.names[i] for i in self.sent]
        return [g for g, _ in self.added_keys] + sent + ["__t", "__seq"] + self.mask_names()

    # ------------------------------------------------------------------ Python side
    def block(self, frame):
        """A frame from Spark -> (ColumnBlock of its rows in frame order, late mask, NULL-__t mask)."""
        import numpy as np
        n = len(frame)
        if self.frame_offset:
            frame = frame.iloc[:, self.frame_offset:]
        cols = frame.iloc
        masks = [cols[:, self.mask_pos + k].to_numpy(dtype=np.int64) for k in range(self.n_masks)]

        def bit(b):
            return (masks[b // BITS_PER_MASK] >> (b % BITS_PER_MASK)) & 1 == 1

        t = cols[:, self.t_pos].to_numpy(dtype=np.int64)
        seq = cols[:, self.seq_pos].to_numpy(dtype=np.int64)
        values, nulls = [], []
        sent = iter(range(len(self.sent)))
        for i, kind in enumerate(self.kinds):
            if kind == ROWTIME:
                values.append(None)
                nulls.append(None)
                continue
            j = next(sent)
            if kind in _WITH_NULL_BIT:
                dtype = {INTEGER: np.int64, FLOATING: np.float64, BOOLEAN: np.bool_, TIMESTAMP: np.int64}[kind]
                values.append(cols[:, j].to_numpy(dtype=dtype))
                null = bit(self.null_bit[i])
                nulls.append(null if null.any() else None)
            else:
                values.append(cols[:, j].to_numpy(dtype=object) if n else np.empty(0, dtype=object))
                nulls.append(None)
        block = ColumnBlock(t, seq, values, nulls)
        return block, bit(LATE_BIT), bit(T_NULL_BIT)

    def key_values(self, block, partition_index):
        """The PARTITION BY values of the block's first row (exact: the worker's key has a BIGINT column with a
        NULL in it as floats)."""
        first = block.take(slice(0, 1))
        return tuple(first.column_values(i, self.kinds[i], self.types[i])[0] for i in partition_index)

    def python_values(self, block):
        """The matcher's column lists for the rows of `block` (see ColumnBlock.values)."""
        return block.values(self.kinds, self.types)


def output_frame(arrow_types, names, rows):
    """Output tuples -> one pandas DataFrame for Spark's worker, which turns it into Arrow of the output schema
    (`arrow_types`, `names`) without a loss: Python values in object columns (ints stay exact, None is NULL,
    datetimes keep their time zone), floating and decimal columns as Arrow-backed columns (a NaN stays NaN,
    a decimal gets the column's scale: output_schema.exact_array)."""
    import pandas as pd
    import pyarrow as pa
    columns = {}
    for name, arrow_type, values in zip(names, arrow_types, zip(*rows)):
        if pa.types.is_floating(arrow_type) or pa.types.is_decimal(arrow_type):
            array = exact_array(arrow_type, values)
            columns[name] = pd.Series(pd.arrays.ArrowExtensionArray(array), copy=False)
        elif pa.types.is_signed_integer(arrow_type):       # wrapped to the type's bits, as Flink's Java ints
            columns[name] = pd.Series([None if v is None else wrap_integer(v, arrow_type.bit_width) for v in values],
                                      dtype=object, copy=False)
        else:
            if _has_map(arrow_type):
                values = [_maps_as_dicts(v, arrow_type) for v in values]
            columns[name] = pd.Series(list(values), dtype=object, copy=False)
    return pd.DataFrame(columns, copy=False)


def _has_map(arrow_type):
    import pyarrow as pa
    if pa.types.is_map(arrow_type):
        return True
    if pa.types.is_struct(arrow_type):
        return any(_has_map(arrow_type.field(i).type) for i in range(arrow_type.num_fields))
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        return _has_map(arrow_type.value_type)
    return False


def _maps_as_dicts(value, arrow_type):
    """A value as the matcher holds it (a MAP as Arrow gives it: a list of (key, value) pairs) -> as Spark's
    worker takes it from pandas (a MAP as a dict), at any depth."""
    import pyarrow as pa
    if value is None:
        return None
    if pa.types.is_map(arrow_type):
        items = value.items() if isinstance(value, dict) else value
        return {k: _maps_as_dicts(v, arrow_type.item_type) for k, v in items}
    if pa.types.is_struct(arrow_type):
        return {f.name: _maps_as_dicts(value.get(f.name), f.type) for f in arrow_type}
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        return [_maps_as_dicts(v, arrow_type.value_type) for v in value]
    return value


def _key_text(v, kind):
    """The tests' stand-in for `_key_string` (Spark's cast to string) on one value."""
    from runtime.match_recognize.rows import to_micros
    if v is None:
        return None
    if kind in (TIMESTAMP, ROWTIME):
        return str(to_micros(v))
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)

