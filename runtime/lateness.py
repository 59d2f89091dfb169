"""Flink's per-row lateness, written once for each engine that decides it: a row is late when its rowtime is at
or before `__wm`, the watermark just before the row arrived (runtime/translate.py); a row without a rowtime or
without a `__wm` (an operator's output, which cannot be late) is not. For a window operator a (row, window) pair
is late when its window had fired when the row arrived: window end - 1 ms (+ a legacy group window's allowed
lateness) at or before `__wm`.

`late_column(rowtime)`: a Spark column (the streaming operators' input, the batch matcher); `late_array(rowtime,
wm)`: the same test on Arrow arrays (the whole-file reads). `window_fired(end_ms)`: a Spark column (the window
operators); `window_pairs_kept(...)`: on numpy arrays, the pairs Spark's filter on it keeps (the whole-file
aggregate). tests/test_lateness.py checks each against the other on random rows."""


def late_column(rowtime):
    """BOOLEAN Spark column: the row is late (`rowtime`: the rowtime's Column)."""
    from pyspark.sql import functions as F
    return F.coalesce(F.col("__wm").isNotNull() & (rowtime <= F.col("__wm")), F.lit(False))


def late_array(rowtime, wm):
    """BOOLEAN Arrow array: each row is late (`rowtime`, `wm`: Arrow arrays of one timestamp unit)."""
    import pyarrow.compute as pc
    return pc.fill_null(pc.less_equal(rowtime, wm), False)


def window_fired(end_ms, lateness_ms=0):
    """BOOLEAN Spark column: the row's window [.., end) had fired (and its allowed lateness passed) when the row
    arrived (`end_ms`: the window end's Column, epoch milliseconds); NULL when the end is NULL and there is a
    `__wm`, False without a `__wm`."""
    from pyspark.sql import functions as F
    return F.col("__wm").isNotNull() & (end_ms - 1 + F.lit(lateness_ms) <= F.unix_millis(F.col("__wm")))


def window_pairs_kept(end_ms, no_end, wm_ms, no_wm):
    """numpy BOOLEAN: the (row, window) pairs `filter(~window_fired(end))` keeps (`end_ms`, `wm_ms`: int64 epoch
    milliseconds; `no_end`, `no_wm`: where they are NULL): those without a `__wm`, and those with an end whose
    window had not fired."""
    return no_wm | (~no_end & (end_ms - 1 > wm_ms))
