"""A result's rows brought to the driver as columns (name -> list of Python values), for the sinks that turn
them into changes (runtime/streaming.py) and for a batch query's table.

Through Arrow when every column has a flat type (numbers, strings, booleans, DECIMAL, DATE, TIMESTAMP): Spark
moves the micro-batch as column buffers, and each column becomes Python values in one vectorized step,
instead of one pickled Row a row (a 750,000-row window result: about 0.7 s instead of 10 s). The values are
the ones a Row holds: TIMESTAMPs are naive datetimes of the session's wall clock (UTC: see planner/types.py),
made by numpy from the epoch microseconds. A TIMESTAMP or string column whose values repeat (a window aggregate's
bounds and keys) is made of its distinct values, each converted once and shared by its rows. A MAP of such
types (not TIMESTAMP) comes through Arrow too, each map a dict in the map's order (a Row's dict is in the order of
the Java HashMap Spark hands it over in). Other nested types (ROW, ARRAY, a MAP in them) and BYTES, which Arrow
hands over as dicts, pairs and bytes, come through Row objects as before, their maps as their keys' and values'
arrays (map_columns.py; 200,000 rows of an ARRAY of a 5-entry map: about 11 s instead of 7 s)."""

import gc
from contextlib import contextmanager
from itertools import repeat

from pyspark.sql import types as st

from .map_columns import from_entries, map_value, maps_as_entries

FLAT_TYPES = (st.ByteType, st.ShortType, st.IntegerType, st.LongType, st.FloatType, st.DoubleType, st.StringType,
              st.BooleanType, st.DecimalType, st.DateType, st.TimestampType, st.TimestampNTZType)
TIMESTAMP_TYPES = (st.TimestampType, st.TimestampNTZType)


# inside a map brought through Arrow: the types whose Arrow value is the one a Row holds (no TIMESTAMP: a Row's
# is the session's wall clock; no BYTES: a Row's is a bytearray)
_PLAIN_TYPES = tuple(t for t in FLAT_TYPES if t not in TIMESTAMP_TYPES)


def _flat_map(t):
    return isinstance(t, st.MapType) and type(t.keyType) in _PLAIN_TYPES and type(t.valueType) in _PLAIN_TYPES


def through_arrow(schema):
    """Every column flat, or a MAP of flat keys and values (Arrow keeps a map's order; a Row's dict loses it)."""
    return bool(schema.fields) and all(type(f.dataType) in FLAT_TYPES or _flat_map(f.dataType)
                                       for f in schema.fields)


class Columns:
    """Rows as columns: `block[name]` is the column's values, `len(block)` the number of rows."""

    def __init__(self, names, columns, size):
        self.names = names
        self._columns = dict(zip(reversed(names), reversed(columns)))   # a repeated name: its first column
        self.size = size

    def __getitem__(self, name):
        return self._columns[name]

    def __contains__(self, name):
        return name in self._columns

    def __len__(self):
        return self.size

    def tuples(self, names):
        """The rows as tuples of the `names` columns."""
        if not names:
            return [()] * self.size
        with no_collection():
            return list(zip(*(self._columns[n] for n in names)))

    def changes(self, names, op="+I"):
        """The rows as changes: (op, tuple of the `names` columns)."""
        rows = zip(*(self._columns[n] for n in names)) if names else repeat((), self.size)
        with no_collection():
            return list(zip(repeat(op), rows))


@contextmanager
def no_collection():
    """Python's cyclic garbage collector off while millions of tuples are made (none holds a cycle): its
    collections, set off by the allocations, would each walk the tuples made so far (3 M rows: ~1 s of 2)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def collect_columns(df, only=None, finish=None):
    """A DataFrame's rows -> Columns (runs the DataFrame's action once). only: the names of the columns to bring
    (a result's fields: its hidden columns stay in Spark), when each names one column; else all come. finish:
    the driver's step from the rows collected as an Arrow table to the result's columns (a one pass whose
    result the driver finishes: runtime/translate.py's Stream.finished_in_driver)."""
    if finish is not None:
        table = finish(df.toArrow())
        return Columns(table.column_names, [arrow_values(c) for c in table.columns], table.num_rows)
    if only is not None and all(df.columns.count(n) == 1 for n in only) and len(set(only)) < len(df.columns):
        df = df.select(*["`%s`" % n.replace("`", "``") for n in dict.fromkeys(only)])
    schema = df.schema
    names = [f.name for f in schema.fields]
    if through_arrow(schema):
        table = df.toArrow()
        columns = [python_values(c, f.dataType) for c, f in zip(table.columns, schema.fields)]
        return Columns(names, columns, table.num_rows)
    df, map_types = maps_as_entries(df)        # a collected dict would lose its map's order
    rows = df.collect()
    return Columns(names, [[from_entries(r[i], map_types[i]) for r in rows] if i in map_types else
                           [r[i] for r in rows] for i in range(len(names))], len(rows))


def python_values(column, data_type):
    """An Arrow column -> the list of Python values Rows would hold (a map a dict in the map's order)."""
    if isinstance(data_type, st.MapType):
        return [None if m is None else map_value(m, data_type.keyType) for m in column.to_pylist()]
    if isinstance(data_type, TIMESTAMP_TYPES):
        import pyarrow as pa
        # the instants' UTC wall clock; NULLs are NaT, which numpy turns into None
        return _each_value_once(column.cast(pa.timestamp("us")),
                                lambda a: a.to_numpy(zero_copy_only=False).astype(object).tolist())
    if isinstance(data_type, st.StringType):
        return _each_value_once(column, lambda a: a.to_pylist())
    return column.to_pylist()


def arrow_values(column):
    """An Arrow column of a flat type -> the list of Python values a Row would hold (TIMESTAMPs naive)."""
    import pyarrow as pa
    if pa.types.is_timestamp(column.type):
        return python_values(column, st.TimestampNTZType())
    if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
        return python_values(column, st.StringType())
    return column.to_pylist()


def _each_value_once(column, convert):
    """`convert` (Arrow array -> list of Python values) over `column`, each distinct value converted once when
    at most half the values are distinct: the rows share the (immutable) objects."""
    import numpy as np
    if len(column) < 1024:
        return convert(column)
    if hasattr(column, "combine_chunks"):
        column = column.combine_chunks()
    encoded = column.dictionary_encode()
    distinct = len(encoded.dictionary)
    if distinct > len(column) // 2:
        return convert(column)
    values = np.empty(distinct + 1, dtype=object)
    values[:distinct] = convert(encoded.dictionary)      # the last: NULL
    return values[encoded.indices.fill_null(distinct).to_numpy()].tolist()
