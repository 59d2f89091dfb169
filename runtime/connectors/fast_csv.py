"""The fast path of the csv format: pyarrow reads the file into typed columns (in C) when the table's
types and options are ones whose Flink semantics Arrow gives exactly; anything else (or any value Arrow
cannot read) falls back to the row-by-row reader in formats.py, which names the bad value."""

import pyarrow as pa
from pyarrow import csv as pacsv

from planner.types import parse_type

_SIMPLE_OPTIONS = {"csv.field-delimiter", "csv.null-literal", "csv.quote-character"}


def arrow_type(t):
    """Flink type -> the Arrow type the fast path reads it as, or None (use the slow path)."""
    n = t.name
    if n in ("CHAR", "VARCHAR"):
        return pa.string()
    simple = {"BOOLEAN": pa.bool_(), "TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INT": pa.int32(),
              "BIGINT": pa.int64(), "DOUBLE": pa.float64(), "FLOAT": pa.float32(), "DATE": pa.date32()}
    if n in simple:
        return simple[n]
    if n == "TIMESTAMP" and (t.params or (6,))[0] >= 3:
        return pa.timestamp("us")
    return None


def read_csv(path, columns, options):
    """-> an Arrow table of the physical columns, or None when the fast path does not apply."""
    fmt_options = {k for k in options if k.startswith("csv.")}
    if not fmt_options <= _SIMPLE_OPTIONS:
        return None
    types = [parse_type(t) for _, t in columns]
    arrow_types = [arrow_type(t) for t in types]
    if any(a is None for a in arrow_types):
        return None
    null_literal = options.get("csv.null-literal")
    if null_literal not in (None, ""):
        return None
    delimiter = options.get("csv.field-delimiter", ",")
    if delimiter == "\\t":
        delimiter = "\t"
    names = [n for n, _ in columns]
    try:
        table = pacsv.read_csv(
            path,
            read_options=pacsv.ReadOptions(column_names=names, use_threads=False),
            parse_options=pacsv.ParseOptions(delimiter=delimiter, quote_char=options.get("csv.quote-character", '"'),
                                             double_quote=True, newlines_in_values=True),
            convert_options=pacsv.ConvertOptions(
                column_types=dict(zip(names, arrow_types)), null_values=[""],
                strings_can_be_null=null_literal == "", quoted_strings_can_be_null=False,
                true_values=["true", "TRUE", "True"], false_values=["false", "FALSE", "False"],
                timestamp_parsers=[pacsv.ISO8601]))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, ValueError):
        return None   # the slow path reads it and names what is wrong
    if table.num_columns != len(names):
        return None
    return table


def annotate(table, first_seq, rowtime_index, delay_ms, max_before):
    """Add __seq, __wm (Flink's watermark before each row) and __op (+I) -> (table, new max rowtime)."""
    import datetime as dt
    import numpy as np
    n = table.num_rows
    seq = pa.array(np.arange(first_seq, first_seq + n, dtype=np.int64))
    op = pa.array(np.zeros(n, dtype=np.int8))
    max_after = max_before
    if rowtime_index is not None and delay_ms is not None and n:
        ts = table.column(rowtime_index).cast(pa.timestamp("us")).to_numpy(zero_copy_only=False)
        micros = ts.astype("datetime64[us]").astype(np.int64)
        missing = np.isnat(ts)
        lowest = np.iinfo(np.int64).min
        micros = np.where(missing, lowest, micros)
        start = lowest if max_before is None else int((max_before - dt.datetime(1970, 1, 1)).total_seconds() * 1e6)
        running = np.maximum.accumulate(np.concatenate([[start], micros]))
        before = running[:-1]
        wm_values = before - delay_ms * 1000
        wm = pa.array(np.where(before == lowest, 0, wm_values), type=pa.timestamp("us"),
                      mask=before == lowest)
        if running[-1] != lowest:
            max_after = dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=int(running[-1]))
    else:
        wm = pa.nulls(n, type=pa.timestamp("us"))
    table = table.append_column("__seq", seq).append_column("__wm", wm).append_column("__op", op)
    return table, max_after
