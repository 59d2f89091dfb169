"""The fast path of the csv format: pyarrow reads a split's records into typed columns (in C) when the table's
types and options are ones whose Flink semantics Arrow gives exactly.

`FastCsv.for_table(columns, options)` says whether the path applies (None: use formats.py's record reader).
`chunks(path, progress, limit)` reads records from `progress.byte` in chunks and yields Arrow tables of the
physical columns, advancing `progress`. Record boundaries are found with numpy (a newline outside quotes ends
a record), so a split can start and stop at any record. At anything Arrow would read differently from
Flink (an empty line, a short or long row, a value Arrow cannot convert, invalid UTF-8) it raises
`UseRecordReader` before yielding that chunk: the record reader goes on from `progress`, and names the bad
value. This module plans nothing and computes no hidden column."""

import numpy as np
import pyarrow as pa
from pyarrow import csv as pacsv

from planner.expr.types import parse_type

from .formats import FIELD_SIZE_LIMIT

_SIMPLE_OPTIONS = {"csv.field-delimiter", "csv.null-literal", "csv.quote-character", "csv.ignore-parse-errors"}
CHUNK_RECORDS = 65536
_WINDOW = 4 << 20
_NEWLINE, _CR = 10, 13


class UseRecordReader(Exception):
    """The rest of the split is for the record reader (formats.py), from the progress reached."""


def arrow_type(t):
    """Flink type -> the Arrow type the fast path reads it as, or None (use the record reader)."""
    n = t.name
    if n in ("CHAR", "VARCHAR"):
        return pa.string()
    simple = {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INT": pa.int32(), "BIGINT": pa.int64(),
              "DOUBLE": pa.float64(), "FLOAT": pa.float32(), "DATE": pa.date32()}
    if n in simple:
        return simple[n]
    if n == "TIMESTAMP" and (t.params or (6,))[0] >= 3:
        return pa.timestamp("us")
    return None   # BOOLEAN: Flink reads any text but 'true' as false, Arrow refuses it


class FastCsv:
    def __init__(self, names, types, delimiter, quote, null_literal):
        self.names = names
        self.types = types
        self.delimiter = delimiter
        self.quote = quote
        self.null_literal = null_literal

    @classmethod
    def for_table(cls, columns, options):
        """-> a FastCsv, or None when Arrow would not read the table as Flink does."""
        if not {k for k in options if k.startswith("csv.")} <= _SIMPLE_OPTIONS:
            return None
        types = [arrow_type(parse_type(t)) for _, t in columns]
        if any(a is None for a in types):
            return None
        null_literal = options.get("csv.null-literal")
        if null_literal not in (None, ""):
            return None
        delimiter = options.get("csv.field-delimiter", ",")
        if delimiter == "\\t":
            delimiter = "\t"
        quote = options.get("csv.quote-character", '"')
        if len(delimiter) != 1 or len(quote) != 1:
            return None
        return cls([n for n, _ in columns], types, delimiter, quote, null_literal)

    def chunks(self, path, progress, limit=None, stop=None):
        """`stop`: the byte where the split's records end (None: the file's end)."""
        with pa.memory_map(path) as f:
            size = f.size() if stop is None else min(stop, f.size())
            while limit is None or progress.records < limit:
                if progress.byte >= size:
                    break
                want = CHUNK_RECORDS if limit is None else min(CHUNK_RECORDS, limit - progress.records)
                ends = self._record_ends(f, progress.byte, size, want)
                data = f.read_at(int(ends[-1]) - progress.byte, progress.byte)
                table = self._parse(data, ends - progress.byte)
                progress.records += len(ends)
                progress.line += _lines(data)
                progress.byte = int(ends[-1])
                yield table
            progress.eof = progress.byte >= size

    def _record_ends(self, f, start, size, want):
        """Byte offsets just after each of the next `want` records from `start` (a record ends at a newline
        outside quotes, or at the end of the file)."""
        quote = ord(self.quote)
        ends, parity, pos = [], 0, start
        while len(ends) < want and pos < size:
            window = np.frombuffer(f.read_at(min(_WINDOW, size - pos), pos), dtype=np.uint8)
            newlines = np.flatnonzero(window == _NEWLINE)
            quotes = np.flatnonzero(window == quote)
            if len(quotes):
                outside = (parity + np.searchsorted(quotes, newlines)) % 2 == 0
                newlines = newlines[outside]
                parity = (parity + len(quotes)) % 2
            elif parity:
                newlines = newlines[:0]
            ends.extend((pos + newlines[:want - len(ends)] + 1).tolist())
            pos += len(window)
        if len(ends) < want and (not ends or ends[-1] < size) and start < size:
            ends.append(size)     # the last record, without a newline
        return np.array(ends, dtype=np.int64)

    def _parse(self, data, ends):
        """The chunk's bytes (records ending at `ends`, offsets into `data`) -> an Arrow table, or
        UseRecordReader where Arrow would not give Flink's rows."""
        view = np.frombuffer(data, dtype=np.uint8)
        starts = np.concatenate([[0], ends[:-1]])
        lengths = ends - starts
        if (lengths > FIELD_SIZE_LIMIT).any():
            raise UseRecordReader()   # a field may be past Flink's limit: the record reader checks and says so
        # Arrow reads an empty line as a row of NULLs; Flink as one empty field
        body = lengths - (view[ends - 1] == _NEWLINE)
        if ((body == 0) | ((body == 1) & (view[starts] == _CR))).any():
            raise UseRecordReader()
        try:
            table = pacsv.read_csv(
                pa.BufferReader(data),
                read_options=pacsv.ReadOptions(column_names=self.names, use_threads=False,
                                               block_size=max(1 << 20, len(data) + 1)),
                parse_options=pacsv.ParseOptions(delimiter=self.delimiter, quote_char=self.quote, double_quote=True,
                                                 newlines_in_values=True, ignore_empty_lines=False),
                convert_options=pacsv.ConvertOptions(
                    column_types=dict(zip(self.names, self.types)),
                    null_values=[""] if self.null_literal == "" else [],   # else an empty number is an error
                    strings_can_be_null=self.null_literal == "", quoted_strings_can_be_null=self.null_literal == "",
                    timestamp_parsers=[pacsv.ISO8601]))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, ValueError):
            raise UseRecordReader()   # the record reader reads it and names what is wrong
        if table.num_rows != len(ends) or table.num_columns != len(self.names):
            raise UseRecordReader()
        return table


def _lines(data):
    """Lines in a chunk of whole records, as the record reader counts them (a last line without newline too)."""
    view = np.frombuffer(data, dtype=np.uint8)
    n = int(np.count_nonzero(view == _NEWLINE))
    return n + (1 if len(view) and view[-1] != _NEWLINE else 0)
