"""Row values across pandas and back, exactly: how a pandas operator (`transformWithStateInPandas`) gets a
row's fields as numpy columns without losing NULLs, NaNs, big integers or timestamps, and how it hands them
back to Spark.

pandas has no NULL for a numpy integer or boolean column (it turns the column into floats, which lose
integers above 2**53) and it calls NaN a NULL. So a field crosses into pandas by its kind:
  number   BOOLEAN, TINYINT .. BIGINT, FLOAT, DOUBLE: two columns, `name` (the value, 0 where NULL: a plain
           numpy column) and `name_null` (BOOLEAN); a NaN stays a value
  micros   TIMESTAMP (Spark's TimestampType): the same pair, the value in epoch microseconds (pandas' own
           timestamps are nanoseconds: they end in 2262, and are read in the session's time zone)
  object   anything else (strings, decimals, dates, arrays, maps, rows): one column of Python values, None
           where NULL
and goes back as one column of the field's own type: a number as a pandas masked array (its NULLs are the
mask, a NaN stays a value), a timestamp as datetime64[us, UTC] (NaT where NULL), an object column as it is.
Spark side: `encoded` (the columns an input row carries), pandas side: `Values` (a field's arrays) and
`as_series` (the output column). Nothing here knows what an operator does with the values."""

import numpy as np
import pandas as pd
from pyspark.sql import functions as F
from pyspark.sql import types as st

NUMBER_TYPES = (st.BooleanType, st.ByteType, st.ShortType, st.IntegerType, st.LongType, st.FloatType,
                st.DoubleType)
NUMBER, MICROS, OBJECT = "number", "micros", "object"
_MASKED = {"b": pd.arrays.BooleanArray, "i": pd.arrays.IntegerArray, "u": pd.arrays.IntegerArray,
           "f": pd.arrays.FloatingArray}


def kind_of(data_type):
    if isinstance(data_type, NUMBER_TYPES):
        return NUMBER
    if isinstance(data_type, st.TimestampType):
        return MICROS
    return OBJECT


def encoded(name, data_type, column):
    """The input columns carrying a field of `data_type` as `name` (`column`: its value; None: NULL)."""
    kind = kind_of(data_type)
    if kind == OBJECT:
        return [(column if column is not None else F.lit(None).cast(data_type)).alias(name)]
    if column is None:
        value, null = None, F.lit(True)
    else:
        value, null = (F.unix_micros(column) if kind == MICROS else column), column.isNull()
    zero = F.lit(False) if isinstance(data_type, st.BooleanType) else F.lit(0)
    value_type = st.LongType() if kind == MICROS else data_type
    return [F.coalesce(value, zero.cast(value_type)).alias(name) if value is not None
            else zero.cast(value_type).alias(name), null.alias(name + "_null")]


class Values:
    """One field's values as numpy arrays: `values` (object arrays hold None for NULL) and, for the number and
    micros kinds, `nulls`. Cheap to index, concatenate and pickle."""
    __slots__ = ("kind", "values", "nulls")

    def __init__(self, kind, values, nulls=None):
        self.kind, self.values, self.nulls = kind, values, nulls

    @classmethod
    def read(cls, kind, frame, name):
        """The field `name` from an input pandas DataFrame."""
        if kind == OBJECT:
            return cls(kind, frame[name].to_numpy(dtype=object))
        return cls(kind, frame[name].to_numpy(), frame[name + "_null"].to_numpy(dtype=bool))

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
        if self.kind == OBJECT:
            return pd.Series(self.values, dtype=object)
        if self.kind == MICROS:
            times = self.values.astype(np.int64).astype("datetime64[us]")
            times[self.nulls] = np.datetime64("NaT")
            return pd.Series(times).dt.tz_localize("UTC")
        values = self.values
        masked = _MASKED.get(values.dtype.kind)
        if masked is None:
            raise TypeError("a number column of dtype %s" % values.dtype)
        if values.dtype.kind == "u":
            values = values.astype(np.int64)
        return pd.Series(masked(values, self.nulls.copy()))
