"""dynsql's Python API for users: `dynsql.udf` declares Python functions for CREATE FUNCTION ... LANGUAGE PYTHON."""
