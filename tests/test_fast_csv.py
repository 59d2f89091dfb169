"""The csv fast path (pyarrow) reads the same rows, watermarks and arrival order as the row-by-row
reader, on the conformance inputs and on edge cases; and it steps aside where Arrow would differ."""

import json
import os

import pytest

from runtime.connectors.fast_csv import annotate, read_csv
from runtime.connectors.filesystem import TableSpec, _Rows

from conformance_inprocess import CASES


def slow_rows(path, columns, options, rowtime_index=None, delay_ms=None):
    spec = TableSpec(json.dumps({"path": str(path), "format": "csv", "columns": columns, "options": options,
                                 "rowtime_index": rowtime_index, "delay_ms": delay_ms}))
    rows = _Rows(spec)   # its format is the row-by-row reader
    out = []
    max_rowtime = None
    import datetime as dt
    for op, values in rows.format.read(str(path)):
        wm = None if max_rowtime is None or delay_ms is None else max_rowtime - dt.timedelta(milliseconds=delay_ms)
        if rowtime_index is not None and values[rowtime_index] is not None:
            max_rowtime = values[rowtime_index] if max_rowtime is None else max(max_rowtime, values[rowtime_index])
        out.append(values + (len(out), wm, 0))
    return out


def fast_rows(path, columns, options, rowtime_index=None, delay_ms=None):
    table = read_csv(str(path), columns, options)
    assert table is not None, "the fast path should apply"
    table, _ = annotate(table, 0, rowtime_index, delay_ms, None)
    return [tuple(r.values()) for r in table.to_pylist()]


TICKER = [["symbol", "STRING"], ["rowtime", "TIMESTAMP(3)"], ["price", "BIGINT"], ["tax", "BIGINT"]]


@pytest.mark.skipif(not os.path.isdir(CASES), reason="conformance cases not beside the repository")
def test_same_rows_and_watermarks_as_the_row_reader():
    path = os.path.join(CASES, "mr_out_of_order_input", "ticker.csv")
    assert fast_rows(path, TICKER, {}, 1, 1000) == slow_rows(path, TICKER, {}, 1, 1000)


def test_empty_fields_and_quotes(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text('a,1,2024-01-01 00:00:00.5,true\n"b, c",,2024-01-02 10:00:00,false\n,3,,\n')
    cols = [["s", "STRING"], ["n", "INT"], ["ts", "TIMESTAMP(3)"], ["f", "BOOLEAN"]]
    assert fast_rows(path, cols, {}) == slow_rows(path, cols, {})
    assert fast_rows(path, cols, {"csv.null-literal": ""}) == slow_rows(path, cols, {"csv.null-literal": ""})


def test_steps_aside_where_arrow_differs(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("1,x\n")
    assert read_csv(str(path), [["n", "INT"], ["t", "TIME(3)"]], {}) is None            # TIME: our own text
    assert read_csv(str(path), [["n", "INT"], ["s", "STRING"]], {"csv.ignore-parse-errors": "true"}) is None
    path.write_text("1,notanumber\n")
    assert read_csv(str(path), [["n", "INT"], ["m", "INT"]], {}) is None                # the slow path names it
