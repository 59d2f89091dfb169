"""The Spark side of MATCH_RECOGNIZE's result: its StructType, and Python rows -> Arrow record batches."""

from decimal import ROUND_HALF_UP, Decimal

from planner.match_recognize.types import parse_type_text
from planner.expr.types import parse_type, to_spark


def spark_schema(spec):
    """The result's StructType, from the types the planner gave its columns (`spec.output_columns`, set by
    planner/match_recognize's validate): the runtime does not derive them again."""
    from pyspark.sql import types as st
    fields = []
    for name, text in spec.output_columns:
        info = parse_type_text(text)
        base = "STRING" if info.name == "NULL" else info.base
        fields.append(st.StructField(name, to_spark(parse_type(base)), info.nullable))
    return st.StructType(fields)


def exact_array(arrow_type, values):
    """Python values -> a pyarrow array of `arrow_type`, none changed on the way: a DECIMAL rounded half up to
    the type's scale, a floating value as a float (a NaN stays NaN), None as NULL."""
    import pyarrow as pa
    if pa.types.is_decimal(arrow_type):
        quantum = Decimal(1).scaleb(-arrow_type.scale)
        values = [None if v is None else Decimal(v).quantize(quantum, rounding=ROUND_HALF_UP) for v in values]
    elif pa.types.is_floating(arrow_type):
        values = [None if v is None else float(v) for v in values]
    elif pa.types.is_signed_integer(arrow_type):
        values = [None if v is None else wrap_integer(v, arrow_type.bit_width) for v in values]
    return pa.array(values, type=arrow_type)


def wrap_integer(v, bits):
    """An integer result kept to its type's `bits`, as Java (and Flink) wrap it: INT 2147483647 + 2 is -2147483647.
    (The matcher computes with Python's unbounded ints; the measure's type says where it wraps.)"""
    if isinstance(v, bool) or not isinstance(v, int):
        return v
    half = 1 << (bits - 1)
    return (v + half) % (half << 1) - half if not -half <= v < half else v


class ArrowWriter:
    """Buffers output rows and turns them into pyarrow RecordBatches of the output schema."""

    def __init__(self, spark_struct, timezone="UTC", batch_rows=8192):
        import pyarrow as pa
        from pyspark.sql.pandas.types import to_arrow_schema
        self.pa = pa
        self.schema = to_arrow_schema(spark_struct, timezone=timezone)
        self.rows = []
        self.batch_rows = batch_rows

    def add(self, rows):
        self.rows.extend(rows)
        if len(self.rows) >= self.batch_rows:
            return self.flush()
        return None

    def flush(self):
        """The buffered rows as one RecordBatch of the schema, or None when there are none."""
        rows, self.rows = self.rows, []
        if not rows:
            return None
        arrays = [exact_array(f.type, list(values)) for f, values in zip(self.schema, zip(*rows))]
        return self.pa.RecordBatch.from_arrays(arrays, schema=self.schema)

    def empty(self):
        return self.pa.RecordBatch.from_arrays([self.pa.array([], type=f.type) for f in self.schema],
                                               schema=self.schema)
