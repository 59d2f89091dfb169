"""The Spark SQL that Flink function calls turn into (pure sqlglot, no Spark): `map_anonymous` for calls
sqlglot leaves anonymous, `map_parsed` for those it parses into typed nodes."""

import pytest
import sqlglot

from planner.dialect import Flink
from planner.errors import SqlError
from planner.expr.functions.registry import FLINK_FUNCTIONS, FLINK_UNMAPPED, map_anonymous, map_parsed
from sqlglot import exp


def spark_sql(flink_expr):
    tree = sqlglot.parse_one("SELECT " + flink_expr, read=Flink)
    tree = tree.transform(lambda n: map_anonymous(n) if isinstance(n, exp.Anonymous) and not n.meta.get("spark")
                          else map_parsed(n))
    return tree.expressions[0].sql("spark")


@pytest.mark.parametrize("flink,spark", [
    ("GREATEST(a, b)", "CASE WHEN a IS NULL OR b IS NULL THEN NULL ELSE GREATEST(a, b) END"),
    ("LEAST(a, b)", "CASE WHEN a IS NULL OR b IS NULL THEN NULL ELSE LEAST(a, b) END"),
    ("REGEXP_EXTRACT(s, r)", "CASE WHEN s RLIKE r THEN REGEXP_EXTRACT(s, r, 0) ELSE NULL END"),
    ("REGEXP_EXTRACT(s, r, 2)", "CASE WHEN s RLIKE r THEN REGEXP_EXTRACT(s, r, 2) ELSE NULL END"),
    ("CONCAT_WS('-', a, b)", "CONCAT_WS('-', a, b)"),
    ("TRUNCATE(x, 2)", "IF(x < 0, CEIL(x, 2), FLOOR(x, 2))"),
    ("FROM_BASE64(s)", "CAST(UNBASE64(s) AS STRING)"),
    ("TYPEOF(a)", "UPPER(TYPEOF(a))"),
    ("WEEK(d)", "WEEKOFYEAR(d)"),
    ("SPLIT_INDEX(s, ',', i)",
     "CASE WHEN i >= 0 THEN TRY_ELEMENT_AT(SPLIT(s, CONCAT('\\\\Q', ',', '\\\\E')), i + 1) ELSE NULL END"),
    ("SHA256(s)", "SHA2(s, 256)"),
    # (a time that happens twice in the first zone: the later instant, as Flink's java.util parse takes it)
    ("CONVERT_TZ(s, 'Europe/Berlin', 'Asia/Tokyo')",
     "DATE_FORMAT(FROM_UTC_TIMESTAMP(CAST(TRANSFORM(ARRAY(CAST(s AS TIMESTAMP)), t -> TRANSFORM(ARRAY("
     "TO_UTC_TIMESTAMP(CAST(t AS TIMESTAMP), 'Europe/Berlin')), u -> TRANSFORM(ARRAY(t - (FROM_UTC_TIMESTAMP(CAST("
     "u + INTERVAL '3' HOURS AS TIMESTAMP), 'Europe/Berlin') - (u + INTERVAL '3' HOURS))), c -> IF(c > u AND "
     "FROM_UTC_TIMESTAMP(CAST(c AS TIMESTAMP), 'Europe/Berlin') = t, c, u))[0])[0])[0] AS TIMESTAMP), 'Asia/Tokyo'), "
     "'yyyy-MM-dd HH:mm:ss')"),
    ("REGEXP_REPLACE(s, '(a)', '$1')",
     "REGEXP_REPLACE(s, '(a)', REPLACE(REPLACE('$1', '\\\\', '\\\\\\\\'), '$', '\\\\$'))"),
    ("EXTRACT(MILLISECOND FROM ts)", "CAST(FLOOR(DATE_PART('SECOND', ts) * 1000) % 1000 AS BIGINT)"),
])
def test_rewrites(flink, spark):
    assert spark_sql(flink) == spark


@pytest.mark.parametrize("flink,split,pair", [("STR_TO_MAP(s)", "SPLIT(s, ',', -1)", "SPLIT(p, '=', 2)"),
                                               ("STR_TO_MAP(s, ';', ':')", "SPLIT(s, ';', -1)", "SPLIT(p, ':', 2)")])
def test_str_to_map_has_flinks_delimiters_and_is_put_in_hash_map_order(flink, split, pair):
    """Flink's default delimiters (Spark's key-value one is ':'); the text split once, each piece split once
    into a key and a value, the entries put in Java's HashMap<String, String> order by the Python kernel
    DYNSQL_STR_TO_MAP_ENTRIES (tests/sql/map_key_order.sqltest, str_to_map_duplicates.sqltest and
    map_crowded_slots.sqltest have the rows)."""
    sql = spark_sql(flink)
    assert sql.count(split) == 1 and sql.count(pair) == 1 and sql.count("DYNSQL_STR_TO_MAP_ENTRIES(") == 1
    assert "MAP_FROM_ENTRIES" in sql and "STR_TO_MAP(" not in sql


def test_an_operand_that_calls_a_python_kernel_is_not_bound_in_a_lambda():
    """Spark refuses a Python UDF inside a lambda: GREATEST reads each operand twice (NULL if any is NULL),
    and binds one that is not a column in a lambda, but not one that calls a kernel (STR_TO_MAP's)."""
    assert "_v1 ->" in spark_sql("GREATEST(CARDINALITY(SPLIT(s, ',')), 1)")
    assert "_v1 ->" not in spark_sql("GREATEST(CARDINALITY(STR_TO_MAP(s)), 1)")


@pytest.mark.parametrize("flink", ["GREATEST(a * 2, b)", "LEAST(b, a * 2)", "SPLIT_INDEX(s, ',', i * 2)"])
def test_an_argument_read_twice_is_written_once(flink):
    """GREATEST / LEAST test each argument for NULL and pass it on, SPLIT_INDEX tests its index and reads it:
    an argument that is more than a column is bound once (operands_once), not copied into both places."""
    sql = spark_sql(flink)
    assert sql.count("* 2") == 1 and sql.startswith("TRANSFORM(ARRAY(")


def test_errors_name_the_function():
    with pytest.raises(SqlError, match="SPLIT_INDEX"):
        spark_sql("SPLIT_INDEX(s)")
    with pytest.raises(SqlError, match="NOPE"):
        spark_sql("NOPE(1)")
    with pytest.raises(SqlError, match="BITMAP_BUILD"):           # a Flink function dynsql does not run
        spark_sql("BITMAP_BUILD(a)")
    assert not FLINK_UNMAPPED & set(FLINK_FUNCTIONS)
