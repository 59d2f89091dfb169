"""File formats as Flink reads them, record by record: csv, json, debezium-json, canal-json (parquet is read
as Arrow by parquet_split.py). This is the executors' side of a source: it reads one split, never plans one.

`Format(fmt, columns, options).records(cursor, limit, progress)` reads up to `limit` records from a
`LineCursor` (a file from a byte position) and yields `(op, values, bad)`: `op` is '+I' for the append-only
formats and '+I' / '-U' / '+U' / '-D' for the changelog formats, `values` a tuple of typed Python values of the
physical columns, `bad` True when ignore-parse-errors turned something of the row into NULL. `progress`
(a SplitProgress) counts the records read, the rows skipped or nulled, and where the split ended.

Bad data, as Flink 2.3 treats it (each case checked against Flink):
  csv   a value that does not parse (an empty field of a number, date or time type too, unless
        'csv.null-literal' is ''; BOOLEAN reads any text but 'true' as false): an error, or NULL with
        'csv.ignore-parse-errors'; a row with too few
        fields (an empty line is one empty field): an error, or kept with NULLs; too many fields: an error,
        or skipped; invalid UTF-8: an error even with ignore-parse-errors, as in Flink; a UTF-8 BOM at the
        start of a file is dropped; a field may be up to 20,000,000 characters (Jackson's limit in Flink): a
        longer one is an error, or its row is skipped.
  json  a line that is not JSON, not an object or not UTF-8, or a line of blanks: an error, or skipped with
        'json.ignore-parse-errors'; a value that does not fit its type: an error, or NULL; an empty line is
        skipped. debezium-json and canal-json: the same, and a message of an unknown kind is an error or
        skipped.
Errors are `FormatError("<file>:<line>: column '<c>': <what> '<value>'")`."""

import csv
import json
import os
import re
import sys

from planner.connectors import FORMATS

from .values import BadValue, converter, shown

BOM = b"\xef\xbb\xbf"
FIELD_SIZE_LIMIT = 20_000_000     # Flink's csv and json formats (Jackson's StreamReadConstraints)
csv.field_size_limit(FIELD_SIZE_LIMIT)


class FormatError(Exception):
    pass


def truthy(v):
    return str(v).strip().lower() == "true"


def csv_quote(options):
    """A csv table's quote character, or None when 'csv.disable-quote-character' is set."""
    if truthy(options.get("csv.disable-quote-character", "false")):
        return None
    return options.get("csv.quote-character", '"')


class SplitProgress:
    """How far a split's reading got: records read, the byte and line where the next record starts, whether
    the file ended, and the rows ignore-parse-errors skipped or kept with NULLs."""

    def __init__(self, byte=0, line=1):
        self.records = 0
        self.byte = byte
        self.line = line
        self.eof = False
        self.skipped = 0
        self.nulled = 0


class LineCursor:
    """A file's lines from a byte position, as bytes; it knows the byte and the line where the next line
    starts. Iterate `raw_lines()` (bytes, line ending kept) or `text_lines()` (UTF-8 text; a line that is not
    UTF-8 is decoded with surrogate escapes and remembered in `bad_utf8`). `stop`: the byte where the lines
    end, at a line's start (None: the file's end)."""

    def __init__(self, path, byte=0, line=1, stop=None):
        self.path = path
        self.file = open(path, "rb")
        self.size = os.fstat(self.file.fileno()).st_size
        self.stop = stop
        if stop is not None:
            self.size = min(self.size, stop)
        if byte:
            self.file.seek(byte)
        self.byte = byte
        self.line = line
        self.bad_utf8 = None      # (line number, UnicodeDecodeError, raw bytes) of the last line not UTF-8

    def raw_lines(self):
        at_start = self.byte == 0
        for raw in self.file:
            if self.stop is not None and self.byte >= self.stop:
                return
            self.byte += len(raw)
            self.line += 1
            if at_start:
                at_start = False
                if raw.startswith(BOM):
                    raw = raw[len(BOM):]
            yield raw

    def text_lines(self):
        for raw in self.raw_lines():
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as e:
                self.bad_utf8 = (self.line - 1, e, raw)
                yield raw.decode("utf-8", "surrogateescape")

    def at_end(self):
        return self.byte >= self.size

    def close(self):
        self.file.close()


_SURROGATE = re.compile("[\udc80-\udcff]")


def _escaped_bytes(text):
    """Text decoded with surrogate escapes -> its bad bytes shown as \\xNN."""
    return _SURROGATE.sub(lambda m: "\\x%02x" % (ord(m.group()) - 0xDC00), text)


class Format:
    def __init__(self, fmt, columns, options):
        """columns: [(name, flink_type)] of the physical columns, in order."""
        if fmt not in FORMATS:
            raise FormatError("Unsupported format '%s'; dynsql reads %s" % (fmt, ", ".join(FORMATS)))
        self.fmt = fmt
        self.names = [n for n, _ in columns]
        self.types = [t for _, t in columns]
        self.convert = [converter(t) for _, t in columns]
        self.options = options
        self.ignore_errors = truthy(options.get(fmt + ".ignore-parse-errors", "false"))
        self.fail_on_missing = truthy(options.get("json.fail-on-missing-field", "false"))
        self._too_deep = False        # the JSON message being read nests deeper than Flink reads

    # ------------------------------------------------------------------ one value
    def _value(self, i, raw, where):
        """-> (value, bad): a value that does not fit its type is an error, or NULL when errors are ignored."""
        try:
            return self.convert[i](raw), False
        except BadValue as e:
            problem = str(e)
        except (ValueError, TypeError, AttributeError, ArithmeticError):
            problem = "%s is not a valid %s" % (shown(raw), self.types[i])
        if self.ignore_errors:
            return None, True
        raise FormatError("%s: column '%s': %s" % (where, self.names[i], problem))

    def records(self, cursor, limit, progress):
        if self.fmt == "csv":
            rows = self._csv_records(cursor, limit, progress)
        else:
            rows = self._json_records(cursor, limit, progress)
        for op, values, bad in rows:
            if bad:
                progress.nulled += 1
            yield op, values, bad
        progress.byte, progress.line = cursor.byte, cursor.line
        if cursor.at_end():
            progress.eof = True

    # ------------------------------------------------------------------ csv
    def _csv_dialect(self):
        o = self.options
        delimiter = o.get("csv.field-delimiter", ",")
        if delimiter == "\\t":
            delimiter = "\t"
        if len(delimiter) != 1:
            raise FormatError("'csv.field-delimiter' must be one character, not %r" % delimiter)
        quote = csv_quote(o)
        return dict(delimiter=delimiter, quotechar=quote,
                    quoting=csv.QUOTE_NONE if quote is None else csv.QUOTE_MINIMAL,
                    escapechar=o.get("csv.escape-character") or None, doublequote=True, strict=False)

    def _csv_records(self, cursor, limit, progress):
        comments = truthy(self.options.get("csv.allow-comments", "false"))
        null_literal = self.options.get("csv.null-literal")
        reader = csv.reader(cursor.text_lines(), **self._csv_dialect())
        n = len(self.names)
        while limit is None or progress.records < limit:
            where = "%s:%d" % (cursor.path, cursor.line)
            cursor.bad_utf8 = None
            try:
                fields = next(reader)
            except StopIteration:
                break
            except csv.Error as e:        # a field over the size limit, a stray line break...
                if not self.ignore_errors:
                    raise FormatError("%s: %s" % (where, _csv_problem(e)))
                progress.records += 1
                progress.skipped += 1     # Flink skips the record
                continue
            progress.records += 1
            if cursor.bad_utf8 is not None:
                raise self._csv_utf8_error(where, fields)
            if not fields:
                fields = [""]          # an empty line is one empty field, as Flink's csv reader sees it
            if comments and fields[0].startswith("#"):
                continue
            bad = False
            if len(fields) != n:
                if not self.ignore_errors:
                    raise FormatError("%s: expected %d fields, found %d%s" % (
                        where, n, len(fields), " (an empty line)" if fields == [""] else ""))
                if len(fields) > n:    # Flink drops a row with too many fields
                    progress.skipped += 1
                    continue
                fields = fields + [None] * (n - len(fields))   # and keeps a short one, with NULLs
                bad = True
            values = []
            for i, raw in enumerate(fields):
                if raw is None or (null_literal is not None and raw == null_literal):
                    values.append(None)     # an empty field is not NULL, unless it is the null literal
                    continue
                value, wrong = self._value(i, raw, where)
                values.append(value)
                bad = bad or wrong
            yield "+I", tuple(values), bad

    def _csv_utf8_error(self, where, fields):
        for i, field in enumerate(fields):
            if _SURROGATE.search(field):
                name = "column '%s': " % self.names[i] if i < len(self.names) else "field %d: " % (i + 1)
                return FormatError("%s: %sinvalid UTF-8 in %s" % (where, name, shown(_escaped_bytes(field))))
        return FormatError("%s: invalid UTF-8" % where)

    # ------------------------------------------------------------------ json, debezium-json, canal-json
    def _json_records(self, cursor, limit, progress):
        lines = cursor.raw_lines()
        while limit is None or progress.records < limit:
            where = "%s:%d" % (cursor.path, cursor.line)
            raw = next(lines, None)
            if raw is None:
                break
            progress.records += 1
            body = raw.rstrip(b"\n").rstrip(b"\r")
            if not body:
                continue               # Flink skips an empty message
            try:
                text = body.decode("utf-8")
                if not text.strip():
                    raise FormatError("%s: not valid JSON: a line of blanks" % where)
                with _RecursionRoom(_nests_deeply(text)):
                    obj, self._too_deep = _json_value(text, where)
                    if self._too_deep and self.fmt != "json":
                        raise FormatError("%s: JSON nested more than %d levels deep (Flink's limit): %s" % (
                            where, JSON_MAX_DEPTH, shown(text)))
                    rows = list(self._changes(obj, where))
            except UnicodeDecodeError:
                if self.ignore_errors:
                    progress.skipped += 1
                    continue
                raise self._json_utf8_error(where, body)
            except FormatError:
                if self.ignore_errors:
                    progress.skipped += 1
                    continue
                raise
            yield from rows

    def _json_utf8_error(self, where, body):
        text = body.decode("utf-8", "surrogateescape")
        try:
            obj = json.loads(text)
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            for key, value in obj.items():
                if isinstance(value, str) and _SURROGATE.search(value):
                    return FormatError("%s: column '%s': invalid UTF-8 in %s"
                                       % (where, key, shown(_escaped_bytes(value))))
        return FormatError("%s: invalid UTF-8 in %s" % (where, shown(_escaped_bytes(text))))

    def _row(self, obj, where):
        """A JSON object -> (values, bad); a value that is not an object is an error (or a skipped row)."""
        if not isinstance(obj, dict):
            raise FormatError("%s: expected a JSON object, got %s" % (where, shown(json.dumps(obj))))
        out, bad = [], False
        for i, name in enumerate(self.names):
            if name not in obj and self.fail_on_missing:
                raise FormatError("%s: field '%s' is missing" % (where, name))
            raw = obj.get(name)
            if raw is None:
                out.append(None)
                continue
            if self._too_deep and isinstance(raw, (list, dict)) and 1 + _value_depth(raw) > JSON_MAX_DEPTH:
                if not self.ignore_errors:      # Flink fails at the field; ignoring errors, reads it as NULL
                    raise FormatError("%s: column '%s': JSON nested more than %d levels deep (Flink's limit)" % (
                        where, name, JSON_MAX_DEPTH))
                out.append(None)
                bad = True
                continue
            value, wrong = self._value(i, raw, where)
            out.append(value)
            bad = bad or wrong
        return tuple(out), bad

    def _changes(self, obj, where):
        """One JSON message -> its changes [(op, values, bad)]."""
        if self.fmt == "json":
            return [("+I",) + self._row(obj, where)]
        if not isinstance(obj, dict):
            raise FormatError("%s: expected a JSON object, got %s" % (where, shown(json.dumps(obj))))
        if self.fmt == "debezium-json":
            return self._debezium(obj, where)
        return self._canal(obj, where)

    def _debezium(self, obj, where):
        if isinstance(obj.get("payload"), dict):
            obj = obj["payload"]
        op = obj.get("op")
        before, after = obj.get("before"), obj.get("after")
        if op in ("c", "r"):
            return [("+I",) + self._row(after, where)]
        if op == "u":
            out = [("-U",) + self._row(before, where)] if before is not None else []
            return out + [("+U",) + self._row(after, where)]
        if op == "d":
            return [("-D",) + self._row(before, where)]
        raise FormatError("%s: unknown debezium operation %s (expected c, r, u or d)" % (where, shown(str(op))))

    def _canal(self, obj, where):
        kind = str(obj.get("type", "")).upper()
        data = obj.get("data") or []
        old = obj.get("old") or []
        if not isinstance(data, list) or not isinstance(old, list):
            raise FormatError("%s: canal 'data' and 'old' must be arrays" % where)
        if kind == "INSERT":
            return [("+I",) + self._row(d, where) for d in data]
        if kind == "UPDATE":
            out = []
            for i, d in enumerate(data):
                before = dict(d) if isinstance(d, dict) else d
                if isinstance(before, dict) and i < len(old) and isinstance(old[i], dict):
                    before.update(old[i])
                out += [("-U",) + self._row(before, where), ("+U",) + self._row(d, where)]
            return out
        if kind == "DELETE":
            return [("-D",) + self._row(d, where) for d in data]
        if kind in ("CREATE", "QUERY", "ALTER"):
            return []
        raise FormatError("%s: unknown canal type %s" % (where, shown(kind)))


JSON_MAX_DEPTH = 1000       # Flink's json format (Jackson's StreamReadConstraints): deeper is an error


class _RecursionRoom:
    """Python's recursion limit raised while a deeply nested JSON message is parsed and its values converted
    (Python's own stops short of the depth Flink reads)."""

    def __init__(self, needed):
        self.needed = needed
        self.limit = None

    def __enter__(self):
        if self.needed:
            self.limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(self.limit, 4 * JSON_MAX_DEPTH))

    def __exit__(self, *exc):
        if self.limit is not None:
            sys.setrecursionlimit(self.limit)


def _nests_deeply(text):
    """Whether a JSON message may nest deeper than Python reads by default (a cheap test: its brackets)."""
    return text.count("[") + text.count("{") > JSON_MAX_DEPTH // 2


def _json_value(text, where):
    """One JSON message -> (its value, whether it nests deeper than Flink reads); FormatError (naming the line)
    for invalid JSON, and for nesting too deep to read at all. Run in a `_RecursionRoom` when `_nests_deeply`."""
    try:
        if not _nests_deeply(text):
            return json.loads(text), False
        return json.loads(text), _nesting_depth(text) > JSON_MAX_DEPTH
    except RecursionError:
        raise FormatError("%s: JSON nested more than %d levels deep (Flink's limit): %s" % (
            where, JSON_MAX_DEPTH, shown(text)))
    except ValueError as e:
        raise FormatError("%s: not valid JSON (%s): %s" % (where, e, shown(text)))


def _value_depth(value):
    """How deep arrays and objects nest in a parsed JSON value (0 for a scalar), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, depth = stack.pop()
        items = v.values() if isinstance(v, dict) else v if isinstance(v, list) else None
        if items is not None:
            deepest = max(deepest, depth)
            stack.extend((x, depth + 1) for x in items)
    return deepest


def _nesting_depth(text):
    """The deepest nesting of arrays and objects in JSON text (brackets inside strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _csv_problem(e):
    text = str(e)
    if "field larger than field limit" in text:
        return "a field is longer than %d characters (Flink's limit)" % FIELD_SIZE_LIMIT
    return "not valid csv: %s" % text
