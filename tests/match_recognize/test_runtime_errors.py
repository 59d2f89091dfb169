"""A DEFINE or MEASURES expression that fails on a row (a division by zero, a CAST of a value the type cannot
hold) fails the query as Flink's does, in dynsql's words: in batch mode, in one pass and on micro-batches.
TRY_CAST gives NULL instead."""

import pytest

from planner.errors import DynsqlError

ROWS = "S1,2024-01-01 00:00:01,5\nS1,2024-01-01 00:00:02,6\nS1,2024-01-01 00:00:03,7\nS2,2024-01-01 00:00:04,0\n"
MATCH = """SELECT * FROM T MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES A.price AS p, %s AS m
  ONE ROW PER MATCH PATTERN (A B) DEFINE A AS %s, B AS B.price > 0) MR"""


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(ROWS)

    def create(client, mode):
        client.execute("CREATE TABLE T (symbol STRING, rowtime TIMESTAMP(3), price BIGINT, WATERMARK FOR rowtime "
                       "AS rowtime) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % path)
        client.execute("SET 'execution.runtime-mode' = '%s'" % mode)
        return client
    return create


def rows(client, sql):
    from runtime.results import ChangeStream
    result = client.execute(sql)
    if not isinstance(result, ChangeStream):        # batch mode: the final rows
        return sorted(tuple(r) for r in result.rows)
    return sorted(tuple(r) for batch in result for _, r in batch.changes)


def failure(client, sql):
    with pytest.raises(DynsqlError) as e:
        list(client.execute(sql))
    return e.value


MODES = [("client", "streaming"), ("one_pass_client", "streaming"), ("client", "batch")]


@pytest.mark.parametrize("fixture, mode", MODES)
def test_a_division_by_zero_fails_the_query_in_dynsqls_words(request, table, fixture, mode):
    c = table(request.getfixturevalue(fixture), mode)
    err = failure(c, MATCH % ("A.price", "10 / A.price > 1"))      # S2's price is 0
    assert (err.message, err.hint) == ("Division by zero", "guard the divisor: CASE WHEN d <> 0 THEN n / d END")
    assert "Python" not in str(err) and "Spark" not in str(err)


@pytest.mark.parametrize("fixture, mode", MODES)
def test_a_cast_of_a_malformed_value_fails_and_try_cast_gives_null(request, table, fixture, mode):
    c = table(request.getfixturevalue(fixture), mode)
    err = failure(c, MATCH % ("A.price", "CAST(A.symbol AS INT) > 1"))
    assert err.message in ("Cannot cast 'S%d' to INT: it is not a valid INT value" % i for i in (1, 2))  # first met
    assert err.hint == "TRY_CAST gives NULL for a value that does not fit"
    assert rows(c, MATCH % ("TRY_CAST(A.symbol AS INT)", "TRY_CAST(A.symbol AS INT) IS NULL")) == [
        ("S1", 5, None), ("S1", 6, None)]


def test_any_other_python_worker_failure_names_its_exception_not_sparks_headline(spark):
    from runtime.errors import from_spark

    def _fails_in_python(batches):         # defined here: pickled by value, as the workers cannot import tests
        for _ in batches:
            raise KeyError("some_key")
        yield
    with pytest.raises(Exception) as e:
        spark.range(3).mapInArrow(_fails_in_python, "id long").collect()
    assert str(from_spark(e.value)) == "A Spark Python worker failed: KeyError: 'some_key'"
