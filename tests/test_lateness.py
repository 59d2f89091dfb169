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


def test_spark_and_numpy_keep_the_same_window_pairs(spark):
    """A (row, window) pair is late when its window had fired when the row arrived: window.py's filter on Spark,
    the whole-file aggregate's on numpy (runtime/lateness.py), NULL ends and watermarks and ties included."""
    import numpy as np
    from pyspark.sql import functions as F
    from runtime.lateness import window_fired, window_pairs_kept
    rng = random.Random(33)
    base = dt.datetime(2024, 1, 1)
    epoch = dt.datetime(1970, 1, 1)

    def end():
        return None if rng.random() < 0.1 else int((base - epoch).total_seconds() * 1000) + rng.randint(0, 20) * 500

    def wm():
        return None if rng.random() < 0.1 else base + dt.timedelta(milliseconds=rng.randint(0, 20) * 500 - 1)
    rows = [(i, end(), wm()) for i in range(400)]
    df = spark.createDataFrame(rows, "i INT, end_ms BIGINT, __wm TIMESTAMP")
    on_spark = {r.i for r in df.filter(~window_fired(F.col("end_ms"))).select("i").collect()}
    no_end = np.array([r[1] is None for r in rows])
    no_wm = np.array([r[2] is None for r in rows])
    end_ms = np.array([r[1] or 0 for r in rows], dtype=np.int64)
    wm_ms = np.array([int(((r[2] or epoch) - epoch).total_seconds() * 1000) for r in rows], dtype=np.int64)
    kept = window_pairs_kept(end_ms, no_end, wm_ms, no_wm)
    assert {i for i in range(len(rows)) if kept[i]} == on_spark
    assert 50 < len(on_spark) < 350          # kept and dropped pairs, so that the comparison can fail
    assert any(r[1] == int((r[2] - epoch).total_seconds() * 1000) + 1 for r in rows if r[1] and r[2])   # ties
