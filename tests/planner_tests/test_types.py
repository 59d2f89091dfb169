"""Flink types: parsing their text (aliases, parameters, nesting, NOT NULL), mapping to Spark types,
and naming Spark types in Flink's terms."""

import pytest
from pyspark.sql import types as st

from planner.errors import SqlError
from planner.expr.types import base_name, from_spark, parse_type, to_spark

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
    ("BYTES", "BYTES", st.BinaryType()),
    ("VARBINARY(2147483647)", "BYTES", st.BinaryType()),
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
    ("DECIMAL(0)", "Decimal precision must be between 1 and 38 (both inclusive)."),
    ("DECIMAL(5, 6)", "Decimal scale must be between 0 and the precision 5 (both inclusive)."),
    ("DECIMAL(40, 39)", "Decimal scale must be between 0 and the precision 38 (both inclusive)."),
    ("TIMESTAMP(2147483648)", "Numeric literal '2147483648' out of range"),
    ("DECIMAL(" + "9" * 5000 + ")", "out of range"),
    ("TIMESTAMP(1.5)", "must be a whole number, not '1.5'"),
    ("TIMESTAMP(-1)", 'found "-"'),
    ("INT(3)", "INT takes no parameters"),
    ("ARRAY<" * 101 + "INT" + ">" * 101, "nested too deeply"),
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


# Flink 2.3's SQL reads a precision past the maximum as the maximum (checked with its SQL client: the
# column's type is then shown clamped), and allows a length of 0.
@pytest.mark.parametrize("text,canonical", [
    ("TIMESTAMP(99)", "TIMESTAMP(9)"), ("TIMESTAMP(10)", "TIMESTAMP(9)"), ("TIMESTAMP_LTZ(12)", "TIMESTAMP_LTZ(9)"),
    ("TIMESTAMP(12) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(9)"), ("TIME(9)", "TIME(3)"), ("TIME(0)", "TIME(0)"),
    ("DECIMAL(39, 0)", "DECIMAL(38, 0)"), ("DECIMAL(2147483647, 2)", "DECIMAL(38, 2)"),
    ("DECIMAL(38, 38)", "DECIMAL(38, 38)"), ("VARCHAR(0)", "VARCHAR(0)"), ("CHAR(0)", "CHAR(0)"),
    ("ARRAY<TIMESTAMP(10)>", "ARRAY<TIMESTAMP(9)>"), ("MAP<STRING, DECIMAL(39, 0)>", "MAP<STRING, DECIMAL(38, 0)>"),
])
def test_flink_limits(text, canonical):
    assert parse_type(text).text() == canonical


def test_a_type_error_says_where_it_is():
    with pytest.raises(SqlError) as info:
        parse_type("ROW<a INT, b DECIMAL(0)>", (3, 10))
    assert (info.value.line, info.value.column) == (3, 23)
