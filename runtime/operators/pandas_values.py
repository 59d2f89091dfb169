"""Row values across pandas and back, exactly: how a pandas operator (`transformWithStateInPandas`) gets a
row's fields as numpy columns without losing NULLs, NaNs, big integers or timestamps, and how it hands them
back to Spark.

pandas has no NULL for a numpy integer or boolean column (it turns the column into floats, which lose
integers above 2**53) and it calls NaN a NULL. So a field crosses into pandas by its kind:
  number   BOOLEAN, TINYINT .. BIGINT, FLOAT, DOUBLE: the value (0 where NULL: a plain numpy column) and a
           NULL flag (a bit of a BIGINT column shared by the row's fields); a NaN stays a value
  micros   TIMESTAMP (Spark's TimestampType): the same, the value in epoch microseconds (pandas' own
           timestamps are nanoseconds: they end in 2262, and are read in the session's time zone)
  object   anything else (strings, decimals, dates, arrays, maps, rows): one column of Python values, None
           where NULL
and goes back as one column of the field's own type: a number as a pandas masked array (its NULLs are the
mask, a NaN stays a value), a timestamp as datetime64[us, UTC] (NaT where NULL), an object column as it is.
`RowColumns` makes an input's columns (Spark side) and reads them (pandas side) as `Values`, a field's arrays;
`Values.as_series` is the output column. Nothing here knows what an operator does with the values."""

import numpy as np
from pyspark.sql import functions as F
from pyspark.sql import types as st

NUMBER_TYPES = (st.BooleanType, st.ByteType, st.ShortType, st.IntegerType, st.LongType, st.FloatType,
                st.DoubleType)
NUMBER, MICROS, OBJECT = "number", "micros", "object"
# pandas' masked array of a numpy dtype kind (pandas.arrays, imported where a series is made: a worker that only
# unpickles a processor imports no pandas)
_MASKED = {"b": "BooleanArray", "i": "IntegerArray", "u": "IntegerArray", "f": "FloatingArray"}


def kind_of(data_type):
    if isinstance(data_type, NUMBER_TYPES):
        return NUMBER
    if isinstance(data_type, st.TimestampType):
        return MICROS
    return OBJECT


class RowColumns:
    """One input's fields (Spark types `types`) as the columns of a pandas operator's input: `prefix{i}` for field
    i (the value; a number's or timestamp's 0 where NULL), and the NULL flags of the number and timestamp fields
    as bits of BIGINT columns `prefix` + "nulls{w}" (bit b of word w: flagged field 63 * w + b), fewer columns
    for the pandas worker to walk row by row. Fields in `skip` are not carried (the operator has them
    otherwise, e.g. a rowtime that is also the row's __t)."""

    def __init__(self, prefix, types, skip=()):
        self.prefix, self.types, self.skip = prefix, list(types), frozenset(skip)
        flagged = [i for i, t in enumerate(self.types) if i not in self.skip and kind_of(t) != OBJECT]
        self.bit = {i: divmod(n, 63) for n, i in enumerate(flagged)}       # field -> (word, bit)
        self.words = (len(flagged) + 62) // 63

    def spark_columns(self, values):
        """The input columns for a row whose fields are `values` (Columns), or of a row with none (None)."""
        out, nulls = [], [F.lit(0).cast("long") for _ in range(self.words)]
        for i, t in enumerate(self.types):
            if i in self.skip:
                continue
            kind, column = kind_of(t), values[i] if values is not None else None
            name = "%s%d" % (self.prefix, i)
            if kind == OBJECT:
                out.append((column if column is not None else F.lit(None).cast(t)).alias(name))
                continue
            value_type = st.LongType() if kind == MICROS else t
            zero = (F.lit(False) if isinstance(t, st.BooleanType) else F.lit(0)).cast(value_type)
            word, bit = self.bit[i]
            if column is None:
                out.append(zero.alias(name))
                nulls[word] = nulls[word] + F.lit(1 << bit)
            else:
                out.append(F.coalesce(F.unix_micros(column) if kind == MICROS else column, zero).alias(name))
                nulls[word] = nulls[word] + F.when(column.isNull(), F.lit(1 << bit)).otherwise(F.lit(0))
        return out + [n.cast("long").alias("%snulls%d" % (self.prefix, w)) for w, n in enumerate(nulls)]

    def read(self, frame, rows=None):
        """{field index: Values} of the carried fields, from an input pandas DataFrame (`rows`: a mask or
        positions of the frame's rows to read, default all)."""
        def column(name, dtype=None):
            a = frame[name].to_numpy(dtype=dtype)
            return a if rows is None else a[rows]
        words = [column("%snulls%d" % (self.prefix, w), np.int64) for w in range(self.words)]
        out = {}
        for i, t in enumerate(self.types):
            if i in self.skip:
                continue
            kind, name = kind_of(t), "%s%d" % (self.prefix, i)
            if kind == OBJECT:
                out[i] = Values(kind, column(name, object))
            else:
                word, bit = self.bit[i]
                out[i] = Values(kind, column(name), (words[word] >> bit) & 1 != 0)
        return out


class Values:
    """One field's values as numpy arrays: `values` (object arrays hold None for NULL) and, for the number and
    micros kinds, `nulls`. Cheap to index, concatenate and pickle."""
    __slots__ = ("kind", "values", "nulls")

    def __init__(self, kind, values, nulls=None):
        self.kind, self.values, self.nulls = kind, values, nulls

    @classmethod
    def nulls_of(cls, data_type, n):
        """`n` NULLs of a field of `data_type`."""
        kind = kind_of(data_type)
        if kind == OBJECT:
            return cls(kind, np.full(n, None, dtype=object))
        dtype = bool if isinstance(data_type, st.BooleanType) else \
            np.float64 if isinstance(data_type, (st.FloatType, st.DoubleType)) else np.int64
        return cls(kind, np.zeros(n, dtype=dtype), np.ones(n, dtype=bool))

    def __len__(self):
        return len(self.values)

    def take(self, index):
        return Values(self.kind, self.values[index], None if self.nulls is None else self.nulls[index])

    def concat(self, other):
        return Values(self.kind, np.concatenate([self.values, other.values]),
                      None if self.nulls is None else np.concatenate([self.nulls, other.nulls]))

    def where(self, present):
        """These values where `present`, NULL elsewhere."""
        if self.kind == OBJECT:
            out = self.values.copy() if self.values.dtype == object else self.values.astype(object)
            out[~present] = None
            return Values(OBJECT, out)
        return Values(self.kind, self.values, self.nulls | ~present)

    def __getstate__(self):
        return (self.kind, self.values, self.nulls)

    def __setstate__(self, state):
        self.kind, self.values, self.nulls = state

    def as_series(self):
        """The values as the output column Spark takes back as the field's type."""
        import pandas as pd
        if self.kind == OBJECT:
            return pd.Series(self.values, dtype=object)
        if self.kind == MICROS:
            times = self.values.astype(np.int64).astype("datetime64[us]")
            times[self.nulls] = np.datetime64("NaT")
            return pd.Series(times).dt.tz_localize("UTC")
        values = self.values
        masked = getattr(pd.arrays, _MASKED.get(values.dtype.kind, ""), None)
        if masked is None:
            raise TypeError("a number column of dtype %s" % values.dtype)
        if values.dtype.kind == "u":
            values = values.astype(np.int64)
        return pd.Series(masked(values, self.nulls.copy()))
