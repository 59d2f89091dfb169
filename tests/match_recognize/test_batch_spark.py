"""match_batch on Spark batch DataFrames: every mr_* case with rows gives Flink's rows; late rows are
dropped per row from __wm and counted."""

import datetime as dt
import json
import os

import pytest

from planner.match_recognize import parse_match_recognize, validate
from runtime.match_recognize.batch import match_batch
from tests.match_recognize.cases import CASES_DIR, Case, as_multiset, case_dirs

CASES = [c for c in (Case(p) for p in case_dirs()) if c.expected is not None]


def case_frame(spark, case):
    from pyspark.sql import types as st
    from planner.expr.types import parse_type, to_spark
    rows = case.rows()
    wms = case.watermarks(rows)
    fields = [st.StructField(n, to_spark(parse_type(t))) for n, t in case.columns]
    fields += [st.StructField("__seq", st.LongType()), st.StructField("__wm", st.TimestampType())]
    data = [tuple(r) + (i, w) for i, (r, w) in enumerate(zip(rows, wms))]
    return spark.createDataFrame(data, st.StructType(fields))


@pytest.mark.slow       # 32 s here: `make test-slow` (make test within 25 min on a slow CI machine)
def test_all_cases_batch(spark):
    """All cases in one Spark job each (kept small: a few rows per case)."""
    for case in CASES:
        spec = validate(parse_match_recognize(case.body, case.line, case.column), case.columns, case.rowtime)
        out = match_batch(case_frame(spark, case), spec, case.columns)
        assert [f.name for f in out.schema.fields] == [n for n, _ in case.expected_columns]
        got = [tuple(_naive(v) for v in r) for r in out.collect()]
        assert as_multiset(got) == sorted(json.dumps(e["row"]) for e in case.expected), case.name


@pytest.mark.slow       # 24 s here, with its setup: `make test-slow` (make test within 25 min on a slow CI machine)
def test_late_rows_counted(spark):
    case = Case(os.path.join(CASES_DIR, "mr_out_of_order_input"))
    spec = validate(parse_match_recognize(case.body), case.columns, case.rowtime)
    acc = spark.sparkContext.accumulator(0)
    rows = match_batch(case_frame(spark, case), spec, case.columns, late_rows=acc).collect()
    assert len(rows) == 1
    assert acc.value == 1          # the 10:00:06 row arriving after 10:00:10 (delay 2 s) is late


def _naive(v):
    if isinstance(v, dt.datetime) and v.tzinfo is not None:
        return v.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return v


def test_partitions_by_several_keys_with_nulls_across_arrow_batches(spark):
    """Runs of equal keys are found per Arrow batch (NULL equals NULL) and continue across batches."""
    from pyspark.sql import types as st
    columns = [("k1", "STRING"), ("k2", "DOUBLE"), ("ts", "TIMESTAMP(3)"), ("v", "INT")]
    spec = validate(parse_match_recognize("""
        PARTITION BY k1, k2 ORDER BY ts MEASURES A.v AS av, B.v AS bv ONE ROW PER MATCH
        PATTERN (A B) DEFINE B AS B.v > A.v"""), columns, "ts")
    t1, t2 = dt.datetime(2024, 1, 1, 10, 0, 1), dt.datetime(2024, 1, 1, 10, 0, 2)
    rows = [("a", 1.0, t1, 1), ("a", 1.0, t2, 2), ("a", None, t1, 5), ("a", None, t2, 6), (None, 1.0, t1, 3),
            (None, 1.0, t2, 4), (None, None, t1, 9), (None, None, t2, 1), ("b", 1.0, t1, 1), ("b", 2.0, t2, 2)]
    schema = st.StructType([st.StructField("k1", st.StringType()), st.StructField("k2", st.DoubleType()),
                            st.StructField("ts", st.TimestampType()), st.StructField("v", st.IntegerType()),
                            st.StructField("__seq", st.LongType())])
    frame = spark.createDataFrame([r + (i,) for i, r in enumerate(rows)], schema)
    before = spark.conf.get("spark.sql.execution.arrow.maxRecordsPerBatch")
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "3")
    try:
        got = sorted(match_batch(frame, spec, columns, partitions=1).collect(), key=lambda r: r["av"])
    finally:
        spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", before)
    assert [tuple(r) for r in got] == [("a", 1.0, 1, 2), (None, 1.0, 3, 4), ("a", None, 5, 6)]
