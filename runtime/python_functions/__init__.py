"""Python user-defined functions on Spark: each function of a query registered in the session under its Spark
name (registration.py) as an Arrow UDF that runs it on the executors a batch of rows at a time (batches.py);
its module shipped to executors that cannot import it (shipping.py); aggregate functions in the aggregating
operators (aggregates.py)."""
