"""match_batch on Spark batch DataFrames: every mr_* case with rows gives Flink's rows; late rows are
dropped per row from __wm and counted."""

import datetime as dt
import json

import pytest

from planner.match_recognize import parse_match_recognize, validate
from runtime.match_recognize.batch import match_batch
from tests.match_recognize.cases import Case, as_multiset, case_dirs

CASES = [c for c in (Case(p) for p in case_dirs()) if c.expected is not None]


def case_frame(spark, case):
    from pyspark.sql import types as st
    from planner.types import parse_type, to_spark
    rows = case.rows()
    wms = case.watermarks(rows)
    fields = [st.StructField(n, to_spark(parse_type(t))) for n, t in case.columns]
    fields += [st.StructField("__seq", st.LongType()), st.StructField("__wm", st.TimestampType())]
    data = [tuple(r) + (i, w) for i, (r, w) in enumerate(zip(rows, wms))]
    return spark.createDataFrame(data, st.StructType(fields))


def test_all_cases_batch(spark):
    """All cases in one Spark job each (kept small: a few rows per case)."""
    for case in CASES:
        spec = validate(parse_match_recognize(case.body, case.line, case.column), case.columns, case.rowtime)
        out = match_batch(case_frame(spark, case), spec, case.columns)
        assert [f.name for f in out.schema.fields] == [n for n, _ in case.expected_columns]
        got = [tuple(_naive(v) for v in r) for r in out.collect()]
        assert as_multiset(got) == sorted(json.dumps(e["row"]) for e in case.expected), case.name


def test_late_rows_counted(spark):
    case = Case("/work/shared/conformance/cases/mr_out_of_order_input")
    spec = validate(parse_match_recognize(case.body), case.columns, case.rowtime)
    acc = spark.sparkContext.accumulator(0)
    rows = match_batch(case_frame(spark, case), spec, case.columns, late_rows=acc).collect()
    assert len(rows) == 1
    assert acc.value == 1          # the 10:00:06 row arriving after 10:00:10 (delay 2 s) is late


def _naive(v):
    if isinstance(v, dt.datetime) and v.tzinfo is not None:
        return v.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return v
