"""The Spark side of MATCH_RECOGNIZE's result: its StructType, and Python rows -> Arrow record batches."""

from decimal import ROUND_HALF_UP, Decimal

from planner.match_recognize.types import output_columns, parse_type_text
from planner.types import parse_type, to_spark


def spark_schema(spec, input_columns):
    from pyspark.sql import types as st
    fields = []
    for name, text in output_columns(spec, input_columns):
        info = parse_type_text(text)
        base = "STRING" if info.name == "NULL" else info.base
        fields.append(st.StructField(name, to_spark(parse_type(base)), info.nullable))
    return st.StructType(fields)


class ArrowWriter:
    """Buffers output rows and turns them into pyarrow RecordBatches of the output schema."""

    def __init__(self, spark_struct, timezone="UTC", batch_rows=8192):
        import pyarrow as pa
        from pyspark.sql.pandas.types import to_arrow_schema
        self.pa = pa
        self.schema = to_arrow_schema(spark_struct, timezone=timezone)
        self.rows = []
        self.batch_rows = batch_rows
        self.decimal_scales = {}
        for i, f in enumerate(self.schema):
            if pa.types.is_decimal(f.type):
                self.decimal_scales[i] = Decimal(1).scaleb(-f.type.scale)

    def add(self, rows):
        self.rows.extend(rows)
        if len(self.rows) >= self.batch_rows:
            return self.flush()
        return None

    def flush(self):
        rows, self.rows = self.rows, []
        return self.batch(rows)

    def batch(self, rows):
        """`rows` (tuples) -> one RecordBatch of the schema, or None when there are none."""
        if not rows:
            return None
        pa = self.pa
        cols = list(zip(*rows))
        arrays = []
        for i, f in enumerate(self.schema):
            values = list(cols[i])
            q = self.decimal_scales.get(i)
            if q is not None:
                values = [None if v is None else Decimal(v).quantize(q, rounding=ROUND_HALF_UP) for v in values]
            elif pa.types.is_floating(f.type):
                values = [None if v is None else float(v) for v in values]
            arrays.append(pa.array(values, type=f.type))
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)

    def empty(self):
        return self.pa.RecordBatch.from_arrays([self.pa.array([], type=f.type) for f in self.schema],
                                               schema=self.schema)
