"""The csv fast path (pyarrow) reads the same rows, watermarks and arrival order as the record reader, on the
conformance inputs and on edge cases, whole or in splits of a few records; and it steps aside where Arrow
would differ from Flink."""

import os

import pyarrow as pa
import pytest

from runtime.connectors.fast_csv import FastCsv, UseRecordReader
from runtime.connectors.formats import Format, LineCursor, SplitProgress
from runtime.connectors.split_reader import annotate, rows_table

from conformance_inprocess import CASES

_ARROW = {"STRING": pa.string(), "INT": pa.int32(), "BIGINT": pa.int64(), "TIMESTAMP(3)": pa.timestamp("us", "UTC"),
          "BOOLEAN": pa.bool_(), "DOUBLE": pa.float64()}


def _rows(table, progress_before, rowtime_index, delay_ms, running):
    table, running = annotate(table, None, progress_before, rowtime_index, delay_ms, running)
    return [tuple(r.values()) for r in table.to_pylist()], running


def read_in_splits(path, columns, options, split_records=None, fast=True, rowtime_index=None, delay_ms=None):
    """Every row of the file, read split after split of `split_records` records (None: one split), each split
    starting where the last one's progress stopped, as the planner chains them."""
    physical = pa.schema([pa.field(n, _ARROW[t]) for n, t in columns])
    out, running, byte, line, seq = [], None, 0, 1, 0
    while True:
        progress = SplitProgress(byte, line)
        if fast:
            reader = FastCsv.for_table(columns, options)
            assert reader is not None, "the fast path should apply"
            tables = list(reader.chunks(str(path), progress, split_records))
        else:
            cursor = LineCursor(str(path), byte, line)
            rows = [values for _, values, _ in Format("csv", columns, options).records(cursor, split_records, progress)]
            cursor.close()
            tables = [rows_table(rows, physical, str(path))] if rows else []
        for table in tables:
            rows, running = _rows(table, seq, rowtime_index, delay_ms, running)
            seq += len(rows)
            out += [tuple(v.replace(tzinfo=None) if hasattr(v, "tzinfo") else v for v in r) for r in rows]
        byte, line = progress.byte, progress.line
        if progress.eof or split_records is None:
            return out


TICKER = [["symbol", "STRING"], ["rowtime", "TIMESTAMP(3)"], ["price", "BIGINT"], ["tax", "BIGINT"]]


@pytest.mark.skipif(not os.path.isdir(CASES), reason="conformance cases not beside the repository")
def test_same_rows_and_watermarks_as_the_record_reader():
    path = os.path.join(CASES, "mr_out_of_order_input", "ticker.csv")
    whole = read_in_splits(path, TICKER, {}, None, False, 1, 1000)
    assert read_in_splits(path, TICKER, {}, None, True, 1, 1000) == whole
    assert read_in_splits(path, TICKER, {}, 3, True, 1, 1000) == whole
    assert read_in_splits(path, TICKER, {}, 3, False, 1, 1000) == whole


EDGES = ('\ufeffa,1,2024-01-01 00:00:00.5\r\n"b, c",2,2024-01-02 10:00:00\n'
         '"multi\nline ""quoted""",3,2024-01-02 00:00:00\n'
         ',4,2024-01-03 00:00:00\nlast,5,2024-01-01 00:00:00')
EMPTIES = 'a,,2024-01-01 00:00:00\n"",2,\nc,3,2024-01-02 00:00:00\n'


@pytest.mark.parametrize("split_records", [None, 1, 2, 4])
def test_splits_of_any_size_give_the_rows_of_one_read(tmp_path, split_records):
    path = tmp_path / "t.csv"
    path.write_bytes(EDGES.encode("utf-8"))
    cols = [["s", "STRING"], ["n", "INT"], ["ts", "TIMESTAMP(3)"]]
    whole = read_in_splits(path, cols, {}, None, False, 2, 0)
    assert [r[:2] for r in whole] == [("a", 1), ("b, c", 2), ('multi\nline "quoted"', 3), ("", 4), ("last", 5)]
    assert read_in_splits(path, cols, {}, split_records, True, 2, 0) == whole
    assert read_in_splits(path, cols, {}, split_records, False, 2, 0) == whole
    path.write_text(EMPTIES)            # with 'csv.null-literal' = '' an empty field is NULL
    empties = read_in_splits(path, cols, {"csv.null-literal": ""}, split_records, False)
    assert [r[:2] for r in empties] == [("a", None), (None, 2), ("c", 3)]
    assert read_in_splits(path, cols, {"csv.null-literal": ""}, split_records, True) == empties


def test_steps_aside_where_arrow_differs(tmp_path):
    assert FastCsv.for_table([["n", "INT"], ["t", "TIME(3)"]], {}) is None        # TIME: our own text
    assert FastCsv.for_table([["b", "BOOLEAN"]], {}) is None                      # Flink: 'yes' is false
    assert FastCsv.for_table([["n", "INT"]], {"csv.allow-comments": "true"}) is None
    path = tmp_path / "t.csv"
    cols = [["n", "INT"], ["m", "INT"]]
    for bad in ("1,notanumber\n", "1,2\n\n3,4\n", "1\n", "1,2,3\n", "1,\n"):  # a bad value, an empty line,
        # a short row, a long row, an empty number (Flink: an error, or NULL with ignore-parse-errors)
        path.write_text(bad)
        with pytest.raises(UseRecordReader):
            list(FastCsv.for_table(cols, {}).chunks(str(path), SplitProgress()))


def test_a_field_past_flinks_limit_is_an_error_or_a_skipped_row(client, tmp_path):
    """A csv field of more than 20,000,000 characters (Flink's limit): Arrow would read it, so the fast path
    hands such a chunk to the record reader, which names the line (or skips the row with ignore-parse-errors)."""
    path = tmp_path / "big.csv"
    with open(path, "w") as f:
        f.write("1,a\n2,%s\n3,c\n" % ("x" * 20_000_001))
    for name, ignore in (("strict", "false"), ("lenient", "true")):
        client.execute("CREATE TABLE %s (id INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '%s', "
                       "'format' = 'csv', 'csv.ignore-parse-errors' = '%s')" % (name, path, ignore))
    with pytest.raises(Exception) as failure:
        for _ in client.execute("SELECT id FROM strict"):
            pass
    assert "big.csv:2" in str(failure.value) and "longer than 20000000 characters" in str(failure.value)
    rows = [row for batch in client.execute("SELECT id, CHAR_LENGTH(s) FROM lenient") for _, row in batch.changes]
    assert sorted(rows) == [(1, 1), (3, 1)]
