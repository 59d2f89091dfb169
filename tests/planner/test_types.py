"""Flink types: parsing their text (aliases, parameters, nesting, NOT NULL), mapping to Spark types,
and naming Spark types in Flink's terms."""

import pytest
from pyspark.sql import types as st

from planner.errors import SqlError
from planner.types import base_name, from_spark, parse_type, to_spark

CASES = [
    # Flink text, canonical text, Spark type
    ("BOOLEAN", "BOOLEAN", st.BooleanType()),
    ("TINYINT", "TINYINT", st.ByteType()),
    ("SMALLINT", "SMALLINT", st.ShortType()),
    ("INT", "INT", st.IntegerType()),
    ("INTEGER", "INT", st.IntegerType()),
    ("BIGINT", "BIGINT", st.LongType()),
    ("FLOAT", "FLOAT", st.FloatType()),
    ("REAL", "FLOAT", st.FloatType()),
    ("DOUBLE", "DOUBLE", st.DoubleType()),
    ("DOUBLE PRECISION", "DOUBLE", st.DoubleType()),
    ("DECIMAL", "DECIMAL(10, 0)", st.DecimalType(10, 0)),
    ("DECIMAL(5)", "DECIMAL(5, 0)", st.DecimalType(5, 0)),
    ("DEC(32, 10)", "DECIMAL(32, 10)", st.DecimalType(32, 10)),
    ("NUMERIC(38, 18)", "DECIMAL(38, 18)", st.DecimalType(38, 18)),
    ("CHAR", "CHAR(1)", st.StringType()),
    ("CHAR(3)", "CHAR(3)", st.StringType()),
    ("VARCHAR(20)", "VARCHAR(20)", st.StringType()),
    ("STRING", "STRING", st.StringType()),
    ("BINARY(4)", "BINARY(4)", st.BinaryType()),
    ("VARBINARY(8)", "VARBINARY(8)", st.BinaryType()),
    ("BYTES", "VARBINARY(1)", st.BinaryType()),
    ("DATE", "DATE", st.DateType()),
    ("TIME", "TIME(0)", st.StringType()),
    ("TIME(3)", "TIME(3)", st.StringType()),
    ("TIMESTAMP", "TIMESTAMP(6)", st.TimestampType()),
    ("TIMESTAMP(3)", "TIMESTAMP(3)", st.TimestampType()),
    ("TIMESTAMP(3) WITHOUT TIME ZONE", "TIMESTAMP(3)", st.TimestampType()),
    ("TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(3)", st.TimestampType()),
    ("TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(3)", st.TimestampType()),
    ("ARRAY<INT>", "ARRAY<INT>", st.ArrayType(st.IntegerType(), True)),
    ("ARRAY<INT NOT NULL>", "ARRAY<INT NOT NULL>", st.ArrayType(st.IntegerType(), False)),
    ("MULTISET<STRING>", "MULTISET<STRING>", st.MapType(st.StringType(), st.IntegerType(), False)),
    ("MAP<STRING, BIGINT>", "MAP<STRING, BIGINT>", st.MapType(st.StringType(), st.LongType(), True)),
    ("ROW<a INT, `b c` STRING>", "ROW<`a` INT, `b c` STRING>",
     st.StructType([st.StructField("a", st.IntegerType()), st.StructField("b c", st.StringType())])),
    ("ROW(a INT NOT NULL)", "ROW<`a` INT NOT NULL>",
     st.StructType([st.StructField("a", st.IntegerType(), False)])),
    ("MAP<STRING, ARRAY<ROW<x DOUBLE>>>", "MAP<STRING, ARRAY<ROW<`x` DOUBLE>>>",
     st.MapType(st.StringType(), st.ArrayType(st.StructType([st.StructField("x", st.DoubleType())])))),
]


@pytest.mark.parametrize("text,canonical,spark", CASES, ids=[c[0] for c in CASES])
def test_parse_and_map(text, canonical, spark):
    t = parse_type(text)
    assert t.text() == canonical
    assert to_spark(t) == spark
    assert parse_type(t.text()).text() == canonical  # the canonical text parses back to itself


def test_not_null():
    t = parse_type("BIGINT NOT NULL")
    assert not t.nullable and t.text() == "BIGINT NOT NULL" and t.text(with_null=False) == "BIGINT"
    assert parse_type("INT NULL").nullable


@pytest.mark.parametrize("text,fragment", [
    ("INTEGR", "Unknown type 'INTEGR'"),
    ("DECIMAL(39, 2)", "precision"),
    ("DECIMAL(5, 6)", "scale"),
    ("ARRAY", "element type"),
    ("MAP<STRING>", "expected ','"),
    ("ROW", "needs fields"),
    ("VARCHAR(x)", "expected a number"),
    ("INT NOT", "NULL after NOT"),
    ("INT INT", "unexpected"),
])
def test_bad_types(text, fragment):
    with pytest.raises(SqlError) as info:
        parse_type(text)
    assert fragment in info.value.render()


@pytest.mark.parametrize("spark,flink", [
    (st.IntegerType(), "INT"), (st.LongType(), "BIGINT"), (st.StringType(), "STRING"),
    (st.DecimalType(10, 2), "DECIMAL(10, 2)"), (st.TimestampType(), "TIMESTAMP(6)"), (st.BinaryType(), "BYTES"),
    (st.ArrayType(st.StringType(), False), "ARRAY<STRING NOT NULL>"),
    (st.MapType(st.StringType(), st.LongType()), "MAP<STRING NOT NULL, BIGINT>"),
    (st.StructType([st.StructField("a", st.DoubleType(), False)]), "ROW<`a` DOUBLE NOT NULL>"),
])
def test_from_spark(spark, flink):
    assert from_spark(spark) == flink
    assert from_spark(spark, nullable=False) == flink + " NOT NULL"


def test_base_name():
    assert base_name("DECIMAL(10, 2) NOT NULL") == "DECIMAL"
    assert base_name("TIMESTAMP(3) *ROWTIME*") == "TIMESTAMP"
    assert base_name("") == ""
