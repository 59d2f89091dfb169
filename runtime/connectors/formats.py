"""File formats as Flink reads them: csv, json, debezium-json, canal-json, parquet.

`read_records(path, fmt, columns, options)` yields `(op, values)` in file order: `op` is '+I' for
append-only formats and '+I' / '-U' / '+U' / '-D' for the changelog formats; `values` is a tuple of
typed Python values for the physical columns. Bad input raises `FormatError` naming the file and line,
unless the format's ignore-parse-errors option is on."""

import csv
import json

from planner.connectors import FORMATS

from .values import BadValue, converter


class FormatError(Exception):
    pass


def _truthy(v):
    return str(v).strip().lower() == "true"


class Format:
    def __init__(self, fmt, columns, options):
        """columns: [(name, flink_type)] of the physical columns, in order."""
        if fmt not in FORMATS:
            raise FormatError("Unsupported format '%s'; dynsql reads %s" % (fmt, ", ".join(FORMATS)))
        self.fmt = fmt
        self.names = [n for n, _ in columns]
        self.types = [t for _, t in columns]
        self.convert = [converter(t) for _, t in columns]
        self.is_string = [t.upper().startswith(("STRING", "VARCHAR", "CHAR")) for t in self.types]
        self.options = options
        prefix = fmt + "."
        self.ignore_errors = _truthy(options.get(prefix + "ignore-parse-errors", "false"))

    # --- one value / one row
    def _value(self, i, raw, where):
        if raw is None:
            return None
        try:
            return self.convert[i](raw)
        except BadValue as e:
            if self.ignore_errors:
                return None
            raise FormatError("%s: column '%s': %s" % (where, self.names[i], e))

    def _row_from_dict(self, obj, where):
        if not isinstance(obj, dict):
            raise FormatError("%s: expected a JSON object, got %s" % (where, type(obj).__name__))
        fail_missing = _truthy(self.options.get("json.fail-on-missing-field", "false"))
        out = []
        for i, name in enumerate(self.names):
            if name not in obj and fail_missing:
                raise FormatError("%s: field '%s' is missing" % (where, name))
            out.append(self._value(i, obj.get(name), where))
        return tuple(out)

    # --- files
    def read(self, path):
        if self.fmt == "csv":
            yield from self._read_csv(path)
        elif self.fmt == "parquet":
            yield from self._read_parquet(path)
        else:
            yield from self._read_json_lines(path)

    def _read_csv(self, path):
        o = self.options
        delimiter = o.get("csv.field-delimiter", ",")
        if delimiter == "\\t":
            delimiter = "\t"
        quote = o.get("csv.quote-character", '"')
        no_quote = _truthy(o.get("csv.disable-quote-character", "false"))
        escape = o.get("csv.escape-character") or None
        comments = _truthy(o.get("csv.allow-comments", "false"))
        null_literal = o.get("csv.null-literal")
        if len(delimiter) != 1:
            raise FormatError("'csv.field-delimiter' must be one character, not %r" % delimiter)
        with open(path, encoding="utf-8", newline="") as f:
            reader = csv.reader(f, delimiter=delimiter, quotechar=quote if not no_quote else None,
                                quoting=csv.QUOTE_NONE if no_quote else csv.QUOTE_MINIMAL,
                                escapechar=escape, doublequote=True, strict=False)
            line = 0
            for fields in reader:
                line = reader.line_num
                if not fields or (len(fields) == 1 and fields[0] == ""):
                    continue
                if comments and fields[0].startswith("#"):
                    continue
                where = "%s:%d" % (path, line)
                if len(fields) != len(self.names):
                    if self.ignore_errors:
                        continue
                    raise FormatError("%s: expected %d fields, found %d" % (where, len(self.names), len(fields)),)
                values = []
                bad = False
                for i, raw in enumerate(fields):
                    if null_literal is not None and raw == null_literal:
                        values.append(None)
                    elif raw == "" and not self.is_string[i]:
                        values.append(None)
                    else:
                        try:
                            values.append(self.convert[i](raw))
                        except BadValue as e:
                            if self.ignore_errors:
                                values.append(None)
                                bad = True
                            else:
                                raise FormatError("%s: column '%s': %s" % (where, self.names[i], e))
                yield "+I", tuple(values)

    def _read_json_lines(self, path):
        with open(path, encoding="utf-8") as f:
            for no, line in enumerate(f, start=1):
                s = line.strip()
                if not s:
                    continue
                where = "%s:%d" % (path, no)
                try:
                    obj = json.loads(s)
                except ValueError as e:
                    if self.ignore_errors:
                        continue
                    raise FormatError("%s: not valid JSON: %s" % (where, e))
                if self.fmt == "json":
                    yield "+I", self._row_from_dict(obj, where)
                elif self.fmt == "debezium-json":
                    yield from self._debezium(obj, where)
                else:
                    yield from self._canal(obj, where)

    def _debezium(self, obj, where):
        if isinstance(obj, dict) and "payload" in obj and isinstance(obj["payload"], dict):
            obj = obj["payload"]
        op = obj.get("op") if isinstance(obj, dict) else None
        before, after = obj.get("before"), obj.get("after")
        if op in ("c", "r"):
            yield "+I", self._row_from_dict(after, where)
        elif op == "u":
            if before is not None:
                yield "-U", self._row_from_dict(before, where)
            yield "+U", self._row_from_dict(after, where)
        elif op == "d":
            yield "-D", self._row_from_dict(before, where)
        elif self.ignore_errors:
            return
        else:
            raise FormatError("%s: unknown debezium operation %r (expected c, r, u or d)" % (where, op))

    def _canal(self, obj, where):
        kind = str(obj.get("type", "")).upper()
        data = obj.get("data") or []
        old = obj.get("old") or []
        if kind == "INSERT":
            for d in data:
                yield "+I", self._row_from_dict(d, where)
        elif kind == "UPDATE":
            for i, d in enumerate(data):
                before = dict(d)
                if i < len(old) and old[i]:
                    before.update(old[i])
                yield "-U", self._row_from_dict(before, where)
                yield "+U", self._row_from_dict(d, where)
        elif kind == "DELETE":
            for d in data:
                yield "-D", self._row_from_dict(d, where)
        elif kind in ("CREATE", "QUERY", "ALTER"):
            return
        elif not self.ignore_errors:
            raise FormatError("%s: unknown canal type %r" % (where, kind))

    def _read_parquet(self, path):
        import pyarrow.parquet as pq
        table = pq.read_table(path)
        missing = [n for n in self.names if n not in table.column_names]
        if missing:
            raise FormatError("%s: no column %s in the parquet file" % (path, ", ".join(missing)))
        cols = [table.column(n).to_pylist() for n in self.names]
        for values in zip(*cols):
            yield "+I", tuple(values)
