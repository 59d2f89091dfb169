"""A result's rows brought to the driver as columns (name -> list of Python values), for the sinks that turn
them into changes (runtime/streaming.py) and for a batch query's table.

Through Arrow when every column's type comes back from Arrow as the very Python value a Row would hold
(numbers, strings, booleans, DECIMAL, DATE, TIMESTAMP without time zone): Arrow moves a micro-batch as column
buffers instead of one pickled Row per row, which is most of the hand-off of a large result to the shell.
Other types (TIMESTAMP_LTZ, which Arrow gives zoned and a Row gives naive in local time; ROW, ARRAY, MAP, which
Arrow gives as dicts and pairs; BYTES) come through Row objects, as before."""

from pyspark.sql import types as st

ARROW_SAFE = (st.ByteType, st.ShortType, st.IntegerType, st.LongType, st.FloatType, st.DoubleType, st.StringType,
              st.BooleanType, st.DecimalType, st.DateType, st.TimestampNTZType)


def arrow_safe(schema):
    return all(type(f.dataType) in ARROW_SAFE for f in schema.fields)


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
        return list(zip(*(self._columns[n] for n in names)))


def collect_columns(df):
    """A DataFrame's rows -> Columns (runs the DataFrame's action once)."""
    schema = df.schema
    names = [f.name for f in schema.fields]
    if names and arrow_safe(schema):
        table = df.toArrow()
        return Columns(names, [c.to_pylist() for c in table.columns], table.num_rows)
    rows = df.collect()
    return Columns(names, [[r[i] for r in rows] for i in range(len(names))], len(rows))
