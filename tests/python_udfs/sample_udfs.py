"""Python functions the tests create with CREATE FUNCTION ... LANGUAGE PYTHON (tests/test_python_functions.py,
tests/sql/python_functions*.sqltest name them as 'sample_udfs.<function>', with 'python.files' naming this file)."""

from dynsql.udf import AggregateFunction, udaf, udf, udtf


@udf(result_type="BIGINT", input_types=["BIGINT", "BIGINT"])
def add(a, b):
    return None if a is None or b is None else a + b


@udf(result_type="STRING")
def shout(s):
    return None if s is None else s.upper() + "!"


@udf(result_type="DOUBLE", func_type="pandas")
def celsius(fahrenheit):
    return (fahrenheit - 32) / 1.8


@udf(result_type="INT", input_types=["INT"])
def inverse_percent(n):
    return 100 // n


@udf(result_type="INT")
def wrong_result(s):
    return "not a number"


@udtf(result_types=["STRING", "INT"], result_names=["word", "length"])
def split_words(s):
    for w in (s or "").split():
        yield w, len(w)


def undeclared(x):
    return x


class Total(AggregateFunction):
    """SUM as an AggregateFunction (its accumulator a list of one value)."""

    def create_accumulator(self):
        return [0]

    def accumulate(self, acc, value):
        if value is not None:
            acc[0] += value

    def retract(self, acc, value):
        if value is not None:
            acc[0] -= value

    def get_value(self, acc):
        return acc[0]


total = udaf(Total(), result_type="BIGINT", accumulator_type="ARRAY<BIGINT>", input_types=["BIGINT"])


@udaf(result_type="DOUBLE", func_type="pandas")
def middle(v):
    return v.median()


plain_aggregate = Total()       # not declared with udaf: refused at CREATE FUNCTION
