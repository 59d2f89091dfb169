"""Rendering results: Flink's tableau layout, JSON lines (the conformance contract), csv, and messages.

`format_value(value, flink_type)` is the text a cell shows; `json_value(value, flink_type)` the JSON a
jsonl line carries (see ../shared/conformance/README.md)."""

import csv
import datetime as dt
import json
import math
import sys
from decimal import Decimal
from zoneinfo import ZoneInfo

from wcwidth import wcswidth

from planner.expr.types import base_name
from runtime.connectors.parse_errors import changed_files_note
from runtime.results import ChangeStream, MessageResult, TableResult
from runtime.values_text import timestamp_text, value_text


def _float32_text(v):
    import numpy as np
    return str(np.float32(v))


def _local(v, tz):
    if tz and tz not in ("UTC", "Z") and isinstance(v, dt.datetime):
        return v.replace(tzinfo=dt.timezone.utc).astimezone(ZoneInfo(tz)).replace(tzinfo=None)
    return v


def format_value(v, flink_type="", tz="UTC"):
    """A cell's text, as Flink's SQL client prints it (NULL as <NULL>, BOOLEAN as TRUE / FALSE,
    TIMESTAMP(p) with p fraction digits, DOUBLE as Java's Double.toString)."""
    if v is None:
        return "<NULL>"
    t = base_name(flink_type)
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return java_double_text(float(_float32_text(v)) if t == "FLOAT" else v)
    if t in ("TIMESTAMP", "TIMESTAMP_LTZ") and isinstance(v, dt.datetime):
        if t == "TIMESTAMP_LTZ":
            v = _local(v, tz)
        return _timestamp_with_precision(v, _precision(flink_type))
    if isinstance(v, (list, tuple, dict)):
        return nested_text(v)
    return value_text(v)


def nested_text(v):
    """A ROW, ARRAY, MAP or MULTISET value as Flink's tableau prints it: `(1, a)`, `[NULL, 1]`, `{k=1}`, with
    NULL, TRUE and FALSE in capitals inside."""
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return java_double_text(v)
    if hasattr(v, "asDict"):       # a Spark Row (ROW type)
        return "(" + ", ".join(nested_text(x) for x in v) + ")"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(nested_text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join("%s=%s" % (nested_text(k), nested_text(x)) for k, x in _entries(v)) + "}"
    return value_text(v)


def _entries(m):
    """A map's entries in order, a key that comes twice (a parquet file's map) twice."""
    return m.all_items() if hasattr(m, "all_items") else m.items()


def _precision(flink_type):
    import re
    m = re.search(r"\((\d+)\)", flink_type or "")
    return int(m.group(1)) if m else 6


def _timestamp_with_precision(v, p):
    base = timestamp_text(v.replace(microsecond=0))
    if p <= 0:
        return base
    return base + "." + ("%06d" % v.microsecond)[:min(p, 6)].ljust(p, "0")


def java_double_text(d):
    """Java's Double.toString: plain for 1e-3 <= |d| < 1e7 (with at least one decimal), else d.dddE±n,
    with the shortest digits that read back as the same double (Python's repr)."""
    if math.isnan(d):
        return "NaN"
    if math.isinf(d):
        return "Infinity" if d > 0 else "-Infinity"
    if d == 0:
        return "-0.0" if math.copysign(1, d) < 0 else "0.0"
    if 1e-3 <= abs(d) < 1e7:
        r = repr(d) if "e" not in repr(d) else format(Decimal(repr(d)), "f")
        return r if "." in r else r + ".0"
    sign, digits, exponent = Decimal(repr(d)).normalize().as_tuple()
    text = "".join(map(str, digits))
    exp10 = exponent + len(text) - 1
    return "%s%s.%sE%d" % ("-" if sign else "", text[0], text[1:] or "0", exp10)


def json_value(v, flink_type="", tz="UTC"):
    if v is None:
        return None
    t = base_name(flink_type)
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        if t == "FLOAT":
            return float(_float32_text(v))
        return v
    if isinstance(v, Decimal):
        return format(v, "f")
    if isinstance(v, dt.datetime):
        return timestamp_text(_local(v, tz) if t == "TIMESTAMP_LTZ" else v)
    if isinstance(v, dt.date):
        return "%04d-%02d-%02d" % (v.year, v.month, v.day)
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if isinstance(v, dict):
        pairs = [[json_value(k), json_value(x)] for k, x in _entries(v)]
        return sorted(pairs, key=lambda p: json.dumps(p, ensure_ascii=False))
    if hasattr(v, "asDict"):  # a Spark Row (ROW type)
        return [json_value(x) for x in v]
    if isinstance(v, (list, tuple)):
        return [json_value(x) for x in v]
    return v if isinstance(v, str) else str(v)


def jsonl_line(op, row, columns, tz="UTC"):
    return json.dumps({"op": op, "row": [json_value(v, c.type, tz) for v, c in zip(row, columns)]},
                      ensure_ascii=False)


# ---------------------------------------------------------------------- tableau
def _width(s):
    w = wcswidth(s)
    return len(s) if w < 0 else w


def _cut(s, max_width):
    if _width(s) <= max_width:
        return s
    out = ""
    for ch in s:
        if _width(out + ch) > max_width - 3:
            break
        out += ch
    return out + "..."


class TableauPrinter:
    """Flink's tableau layout: a boxed header, rows as they come, then a summary line.

    A query's cells are cut at `max_width`; a listing's (SHOW, DESCRIBE, SET: `whole=True`) never are,
    as in Flink: they are names and ids the user copies (STOP JOB needs the whole id SHOW JOBS shows)."""

    def __init__(self, columns, out, max_width=30, with_op=True, tz="UTC", rows=None, whole=False):
        """Column widths come from the types (streaming: rows are not known yet), or from `rows`."""
        self.columns = columns
        self.out = out
        if whole:
            max_width = max([max_width] + [_width(format_value(v, c.type, tz)) for r in rows or ()
                                           for v, c in zip(r, columns)])
        self.max_width = max_width
        self.with_op = with_op
        self.tz = tz
        names = (["op"] if with_op else []) + [c.name for c in columns]
        if rows is None:
            widths = [_type_width(c, max_width) for c in ([None] if with_op else []) + list(columns)]
        else:
            widths = ([2] if with_op else []) + [
                max([_width(format_value(r[i], c.type, tz)) for r in rows] or [1])
                for i, c in enumerate(columns)]
        self.widths = [min(max(_width(n), w), max(max_width, len(n))) for n, w in zip(names, widths)]
        self.count = 0

    def _line(self):
        return "+" + "+".join("-" * (w + 2) for w in self.widths) + "+"

    def _cells(self, cells, right):
        parts = []
        for text, w, r in zip(cells, self.widths, right):
            text = _cut(text, w)
            pad = " " * (w - _width(text))
            parts.append(" " + (pad + text if r else text + pad) + " ")
        return "|" + "|".join(parts) + "|"

    def header(self):
        names = (["op"] if self.with_op else []) + [c.name for c in self.columns]
        self.out.write(self._line() + "\n" + self._cells(names, [False] * len(names)) + "\n" + self._line() + "\n")
        self.out.flush()

    def row(self, op, row):
        cells = ([op] if self.with_op else []) + [format_value(v, c.type, self.tz) for v, c in zip(row, self.columns)]
        right = ([False] if self.with_op else []) + [_is_numeric(c.type) for c in self.columns]
        self.out.write(self._cells(cells, right) + "\n")
        self.count += 1

    def footer(self, streaming, note=""):
        self.out.write(self._line() + "\n")
        if streaming:
            self.out.write("Received a total of %d row%s\n" % (self.count, "" if self.count == 1 else "s"))
        else:
            self.out.write("%d row%s in set\n" % (self.count, "" if self.count == 1 else "s"))
        if note:
            self.out.write(note + "\n")
        self.out.flush()


def _rows(n):
    return "%d row%s" % (n, "" if n == 1 else "s")


def parse_error_note(counts):
    """'Input: 2 rows skipped, 1 row read with NULLs (ignore-parse-errors)' for a ChangeStats or TableResult,
    then the files a source found changed after it took them, or '' when there is nothing to say."""
    parts = []
    if getattr(counts, "skipped_rows", 0):
        parts.append("%s skipped" % _rows(counts.skipped_rows))
    if getattr(counts, "nulled_rows", 0):
        parts.append("%s read with NULLs" % _rows(counts.nulled_rows))
    notes = ["Input: %s (ignore-parse-errors)" % ", ".join(parts)] if parts else []
    changed = getattr(counts, "changed_files", None)
    if changed:
        notes.append(changed_files_note(changed))
    return "; ".join(notes)


def _note_to_stderr(counts):
    note = parse_error_note(counts)
    if note:
        sys.stderr.write(note + "\n")


def _type_width(c, max_width):
    """Flink's printable width of a type (PrintUtils): what the widest value of the type needs."""
    if c is None:
        return 2
    t = base_name(c.type)
    fixed = {"BOOLEAN": 5, "TINYINT": 4, "SMALLINT": 6, "INT": 11, "INTEGER": 11, "BIGINT": 20,
             "FLOAT": 15, "DOUBLE": 24, "DATE": 10, "TIME": 12, "TIMESTAMP": 26, "TIMESTAMP_LTZ": 26}
    if t in fixed:
        if t in ("TIMESTAMP", "TIMESTAMP_LTZ"):
            import re
            m = re.search(r"\((\d+)\)", c.type)
            p = int(m.group(1)) if m else 6
            return 19 + (p + 1 if p else 0)
        return fixed[t]
    if t == "DECIMAL":
        import re
        m = re.search(r"\((\d+)", c.type)
        return (int(m.group(1)) if m else 10) + 2
    return max_width


def _is_numeric(t):
    return base_name(t) in ("TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL")


# ---------------------------------------------------------------------- results
def print_result(result, out=None, settings=None, output="tableau", stop_check=None):
    """Print a MessageResult, TableResult or (draining it) a ChangeStream. Returns the row count."""
    out = out or sys.stdout
    tz = settings.get("table.local-time-zone") if settings is not None else "UTC"
    max_width = int(settings.get("table.display.max-column-width")) if settings is not None else 30
    if isinstance(result, MessageResult):
        if output == "tableau":
            out.write(result.text + "\n")
        else:
            sys.stderr.write(result.text + "\n")
        return 0
    if isinstance(result, TableResult):
        if output == "jsonl":
            if result.is_query:
                for row in result.rows:
                    out.write(jsonl_line("+I", row, result.columns, tz) + "\n")
                _note_to_stderr(result)
            else:
                _listing_to_stderr(result, tz)
            return len(result.rows)
        if output == "csv":
            w = csv.writer(out, lineterminator="\n")
            w.writerow([c.name for c in result.columns])
            for row in result.rows:
                w.writerow(["" if v is None else format_value(v, c.type, tz) for v, c in zip(row, result.columns)])
            _note_to_stderr(result)
            return len(result.rows)
        if not result.rows and not result.is_query:
            out.write("Empty set\n")
            return 0
        p = TableauPrinter(result.columns, out, max_width, with_op=False, tz=tz, rows=result.rows,
                           whole=not result.is_query or getattr(result, "uncut", False))
        p.header()
        for row in result.rows:
            p.row("+I", row)
        p.footer(streaming=False, note=parse_error_note(result))
        return len(result.rows)
    if isinstance(result, ChangeStream):
        return print_stream(result, out, output, tz, max_width, stop_check)
    raise TypeError("cannot print %r" % (result,))


def print_stream(stream, out, output, tz="UTC", max_width=30, stop_check=None):
    p = None
    w = None
    n = 0
    if output == "tableau":
        p = TableauPrinter(stream.columns, out, max_width, with_op=True, tz=tz)
        p.header()
    elif output == "csv":
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["op"] + [c.name for c in stream.columns])
    while not stream.finished:
        if stop_check is not None and stop_check():
            stream.stop()
            break
        batch = stream.poll(0.1)
        if batch is None:
            continue
        for op, row in batch.changes:
            n += 1
            if p is not None:
                p.row(op, row)
            elif w is not None:
                w.writerow([op] + ["" if v is None else format_value(v, c.type, tz) for v, c in zip(row, stream.columns)])
            else:
                out.write(jsonl_line(op, row, stream.columns, tz) + "\n")
        out.flush()
    if p is not None:
        p.footer(streaming=True, note=parse_error_note(stream.stats))
    else:
        _note_to_stderr(stream.stats)
    if stream.error is not None:
        raise stream.error
    return n


def _listing_to_stderr(result, tz):
    p = TableauPrinter(result.columns, sys.stderr, 60, with_op=False, tz=tz, rows=result.rows, whole=True)
    p.header()
    for row in result.rows:
        p.row("+I", row)
    p.footer(streaming=False)
