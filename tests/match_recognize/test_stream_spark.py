"""match_stream on Spark Structured Streaming: mr_* cases fed as several micro-batches (one small file
per trigger) end with a sentinel row that pushes the watermark to the end, as the runtime does; the
changelog must be Flink's (+I only)."""

import datetime as dt
import json
import os

import pytest

from planner.match_recognize import parse_match_recognize, validate
from runtime.match_recognize.stream import match_stream
from tests.match_recognize.cases import CASES_DIR, Case, as_multiset

END = dt.datetime(9999, 12, 31, 23, 59, 59)

STREAM_CASES = ["mr_price_drop", "mr_out_of_order_input", "mr_within_interval", "mr_aggregates_partitions",
                "mr_after_match_to_next_row", "mr_nav_default_variable", "mr_quantifier_range"]


def write_chunks(case, folder, per_file=3):
    import pyarrow as pa
    import pyarrow.parquet as pq
    rows = case.rows()
    wms = case.watermarks(rows)
    names = [n for n, _ in case.columns]
    data = [tuple(r) + (i, w) for i, (r, w) in enumerate(zip(rows, wms))]
    ti = names.index(case.rowtime)
    sentinel = [None] * len(names)
    sentinel[ti] = END
    for k, n in enumerate(names):     # keep partition columns non-null so the sentinel groups somewhere
        if sentinel[k] is None and case.columns[k][1].upper().startswith("STRING"):
            sentinel[k] = "__end__"
    data.append(tuple(sentinel) + (len(rows), None))
    os.makedirs(folder)
    for k in range(0, len(data), per_file):
        chunk = data[k:k + per_file]
        cols = list(zip(*chunk))
        arrays = {}
        for j, (n, t) in enumerate(case.columns):
            typ = {"STRING": pa.string(), "BIGINT": pa.int64()}.get(t.upper(), pa.timestamp("us"))
            arrays[n] = pa.array(cols[j], type=typ)
        arrays["__seq"] = pa.array(cols[len(names)], type=pa.int64())
        arrays["__wm"] = pa.array(cols[len(names) + 1], type=pa.timestamp("us"))
        path = os.path.join(folder, "part-%05d.parquet" % k)
        pq.write_table(pa.table(arrays), path)
        os.utime(path, (1_700_000_000 + k, 1_700_000_000 + k))   # Spark reads files oldest first


def run_stream(spark, case, folder, spec):
    from pyspark.sql import functions as F
    from pyspark.sql import types as st
    from planner.expr.types import parse_type, to_spark
    fields = [st.StructField(n, to_spark(parse_type(t))) for n, t in case.columns]
    fields += [st.StructField("__seq", st.LongType()), st.StructField("__wm", st.TimestampType())]
    src = (spark.readStream.schema(st.StructType(fields)).option("maxFilesPerTrigger", 1).parquet(folder)
           .withWatermark(case.rowtime, "%d milliseconds" % case.delay_ms))
    src = src.filter(F.col(case.rowtime) < F.lit(END))
    out = match_stream(src, spec, case.columns, case.rowtime)
    got = []

    def collect(batch, batch_id):
        got.extend(batch.collect())

    q = (out.writeStream.outputMode("append").foreachBatch(collect)
         .option("checkpointLocation", folder + "_ckpt").trigger(availableNow=True).start())
    q.awaitTermination(180)
    return got


# two of them in `make test` (out-of-order rows, a WITHIN interval, across micro-batches), the others (4-9 s each
# here) in `make test-slow`: make test within 25 min on a slow CI machine
IN_MAKE_TEST = ("mr_out_of_order_input", "mr_within_interval")


@pytest.mark.parametrize("name", [pytest.param(n, marks=[] if n in IN_MAKE_TEST else [pytest.mark.slow])
                                  for n in STREAM_CASES])
def test_stream_case(spark, tmp_path, name):
    case = Case(os.path.join(CASES_DIR, name))
    spec = validate(parse_match_recognize(case.body, case.line, case.column), case.columns, case.rowtime)
    folder = str(tmp_path / "in")
    write_chunks(case, folder)
    got = run_stream(spark, case, folder, spec)
    rows = [tuple(r)[:-1] for r in got]          # without the output __seq
    assert as_multiset(rows) == sorted(json.dumps(e["row"]) for e in case.expected)
