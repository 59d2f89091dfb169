"""Flink's per-row lateness, written once for each engine that decides it: a row is late when its rowtime is at
or before `__wm`, the watermark just before the row arrived (runtime/translate.py); a row without a rowtime or
without a `__wm` (an operator's output, which cannot be late) is not.

`late_column(rowtime)`: a Spark column (the streaming operators' input, the batch matcher); `late_array(rowtime,
wm)`: the same test on Arrow arrays (the whole-file reads). tests/test_lateness.py checks one against the other on
random rows."""


def late_column(rowtime):
    """BOOLEAN Spark column: the row is late (`rowtime`: the rowtime's Column)."""
    from pyspark.sql import functions as F
    return F.coalesce(F.col("__wm").isNotNull() & (rowtime <= F.col("__wm")), F.lit(False))


def late_array(rowtime, wm):
    """BOOLEAN Arrow array: each row is late (`rowtime`, `wm`: Arrow arrays of one timestamp unit)."""
    import pyarrow.compute as pc
    return pc.fill_null(pc.less_equal(rowtime, wm), False)
