"""Registering a query's Python functions in the SparkSession before the query is translated: each under its
Spark name (`PythonFunction.spark_name`, which the planner's Spark SQL calls) as an Arrow UDF (batches.py),
its module shipped first (shipping.py); an aggregate function's module is only shipped (the operators that
aggregate run it: aggregates.py). A function is registered again only when its definition changed
(DROP and CREATE of another module under the same name)."""

import warnings

from planner.expr.types import parse_type, to_spark

from ..errors import from_spark
from .batches import batch_function
from .shipping import ship

_SESSIONS = {}     # id(spark) -> (spark, {spark name: PythonFunction registered}, set of zips shipped)


def register_python_functions(spark, functions, python_files=()):
    if not functions:
        return
    held = _SESSIONS.get(id(spark))
    if held is None or held[0] is not spark:
        held = _SESSIONS[id(spark)] = (spark, {}, set())
    _, registered, shipped = held
    for fn in functions:
        if registered.get(fn.spark_name) == fn:
            continue
        try:
            ship(spark, fn.module, python_files, shipped)
            if fn.kind != "aggregate":      # an aggregate runs inside the aggregating operators (aggregates.py)
                spark.udf.register(fn.spark_name, arrow_udf_of(fn))
        except Exception as e:
            raise from_spark(e)
        registered[fn.spark_name] = fn


def arrow_udf_of(fn):
    """The PythonFunction as Spark's scalar Arrow UDF."""
    from pyspark.sql.functions import ArrowUDFType, arrow_udf
    from pyspark.sql.pandas.types import to_arrow_type
    spark_type = to_spark(parse_type(fn.result_type))
    run = batch_function(fn.to_dict(), to_arrow_type(spark_type))
    with warnings.catch_warnings():      # "type hints are preferred": the function takes any number of arrays
        warnings.simplefilter("ignore", UserWarning)
        return arrow_udf(run, spark_type, ArrowUDFType.SCALAR)
