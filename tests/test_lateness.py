"""Flink's per-row lateness (runtime/lateness.py) on Spark and on Arrow: the same rows late on random rowtimes and
watermarks, NULLs and ties included."""

import datetime as dt
import random

import pyarrow as pa

from runtime.lateness import late_array, late_column


def test_spark_and_arrow_find_the_same_rows_late(spark):
    from pyspark.sql import functions as F
    rng = random.Random(26)
    base = dt.datetime(2024, 1, 1)

    def moment():
        return None if rng.random() < 0.1 else base + dt.timedelta(seconds=rng.randint(0, 20))
    rows = [(i, moment(), moment()) for i in range(400)]
    df = spark.createDataFrame(rows, "i INT, rt TIMESTAMP, __wm TIMESTAMP")
    on_spark = {r.i: r.late for r in df.select("i", late_column(F.col("rt")).alias("late")).collect()}
    table = pa.table({"rt": pa.array([r[1] for r in rows], pa.timestamp("us")),
                      "wm": pa.array([r[2] for r in rows], pa.timestamp("us"))})
    on_arrow = late_array(table.column("rt"), table.column("wm")).to_pylist()
    assert [on_spark[i] for i in range(len(rows))] == on_arrow
    assert 50 < sum(on_arrow) < 350          # both kinds of rows, so that the comparison can fail
    assert all(not late for (_, rt, wm), late in zip(rows, on_arrow) if rt is None or wm is None)
