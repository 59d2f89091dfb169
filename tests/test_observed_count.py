"""The rows a micro-batch wrote, read from the metric its progress reports (runtime/sinks/write.py): a classic
session's Row(n=...), and the shapes a Spark Connect client's rebuilt progress gave (no field `n`, a list first)."""

from pyspark.sql import Row

from runtime.sinks.write import observed_count


def test_the_count_is_read_whatever_holds_it():
    assert observed_count(Row(n=5)) == 5
    assert observed_count(Row(values=[6])) == 6 and observed_count([[7]]) == 7
    assert observed_count({"n": 8}) == 8 and observed_count(Row()) == 0
