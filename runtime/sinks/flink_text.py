"""Rows as the lines Flink's filesystem sink writes in its `csv` and `json` formats (checked against Flink 2.3):

- numbers as Java prints them: DOUBLE/FLOAT `1.5`, `1.0E20`, `1.0E-5`, `NaN`, `Infinity`; DECIMAL without
  trailing zeros (`11.10` -> `11.1`, `100.00` -> `1E+2`, `0.00` -> `0`), as Jackson writes a BigDecimal;
- TIMESTAMP `2024-01-01 12:00:00.12` (fraction without trailing zeros), TIMESTAMP_LTZ the same in UTC with
  `Z`, DATE `2024-01-02`, TIME `10:11:12`, BYTES in base64;
- csv: `,` between fields, NULL as nothing, ARRAY elements and ROW fields joined by `;`; a text field is
  quoted (`"` doubled) when it holds a character below `-` (space, `,`, `"`, `#`, control characters...),
  numbers and booleans never are;
- json: one object a line, fields in column order, NULL as `null`, NaN and infinities as strings, ARRAY as a
  list, ROW and MAP as objects.

A column's type is given as a small descriptor (`describe(FlinkType)`), so that formatting on the executors
needs neither the planner nor Spark. Does not write files (filesystem.py does)."""

import base64
import datetime as dt
import json
import math
from decimal import Context, Decimal

import numpy as np

_WIDE = Context(prec=200)
_NUMBERS = ("TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL")


def describe(flink_type):
    """planner.types.FlinkType -> a descriptor of plain tuples: (name, precision, children)."""
    n = flink_type.name
    if n == "ROW":
        return (n, None, tuple((fn, describe(ft)) for fn, ft in flink_type.children))
    if n in ("ARRAY", "MULTISET", "MAP"):
        return (n, None, tuple(describe(c) for c in flink_type.children))
    precision = flink_type.params[0] if flink_type.params else None
    return (n, precision, ())


def java_float_text(v, single=False):
    """A float as Java's Double.toString / Float.toString prints it (shortest digits)."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    shortest = str(np.float32(v)) if single else repr(float(v))
    sign, digits, exponent = Decimal(shortest).as_tuple()
    scientific = len(digits) - 1 + exponent
    minus = "-" if sign else ""
    if -3 <= scientific < 7:
        text = format(Decimal(shortest).copy_abs(), "f")
        return minus + (text if "." in text else text + ".0")
    rest = "".join(str(d) for d in digits[1:]).rstrip("0") or "0"
    return "%s%d.%sE%d" % (minus, digits[0], rest, scientific)


def decimal_text(v):
    """A DECIMAL as Jackson writes a BigDecimal node: trailing zeros stripped, Java's toString."""
    return str(v.normalize(_WIDE))


def timestamp_text(v):
    frac = ("%06d" % v.microsecond).rstrip("0")
    return "%04d-%02d-%02d %02d:%02d:%02d%s" % (v.year, v.month, v.day, v.hour, v.minute, v.second,
                                                "." + frac if frac else "")


def time_text(v, precision):
    """TIME(p) carried as text 'HH:MM:SS[.fff]': the fraction cut to p digits, trailing zeros dropped."""
    whole, _, frac = str(v).partition(".")
    frac = frac[:precision or 0].rstrip("0")
    return whole + ("." + frac if frac else "")


def _scalar_text(v, desc):
    """Any non-NULL scalar value as text (csv fields, json strings and numbers)."""
    name, precision, _ = desc
    if name == "BOOLEAN":
        return "true" if v else "false"
    if name in ("FLOAT", "DOUBLE"):
        return java_float_text(v, single=name == "FLOAT")
    if name == "DECIMAL":
        return decimal_text(v)
    if name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        if v.tzinfo is not None:
            v = v.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return timestamp_text(v) + ("Z" if name == "TIMESTAMP_LTZ" else "")
    if name == "DATE":
        return "%04d-%02d-%02d" % (v.year, v.month, v.day)
    if name == "TIME":
        return time_text(v, precision)
    if name in ("BINARY", "VARBINARY", "BYTES"):
        return base64.b64encode(bytes(v)).decode("ascii")
    return str(v)


# ---------------------------------------------------------------------- csv
def csv_field(v, desc):
    """One csv field of a value (NULL -> '')."""
    if v is None:
        return ""
    name = desc[0]
    if name in _NUMBERS or name == "BOOLEAN":
        return _scalar_text(v, desc)
    return _quoted(_csv_text(v, desc))


def _csv_text(v, desc):
    if v is None:
        return ""
    name, _, children = desc
    if name in ("ARRAY", "MULTISET"):
        return ";".join(_csv_text(x, children[0]) for x in v)
    if name == "ROW":
        values = v.values() if isinstance(v, dict) else v
        return ";".join(_csv_text(x, c) for x, (_, c) in zip(values, children))
    return _scalar_text(v, desc)


def _quoted(text):
    if any(ch < "-" for ch in text):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_line(row, descs):
    return ",".join(csv_field(v, d) for v, d in zip(row, descs))


# ---------------------------------------------------------------------- json
def json_value(v, desc):
    """The JSON text of a value."""
    if v is None:
        return "null"
    name, _, children = desc
    if name in ("FLOAT", "DOUBLE"):
        text = java_float_text(v, single=name == "FLOAT")
        return text if v == v and not math.isinf(v) else json.dumps(text)
    if name in _NUMBERS or name == "BOOLEAN":
        return _scalar_text(v, desc)
    if name in ("ARRAY", "MULTISET"):
        return "[" + ",".join(json_value(x, children[0]) for x in v) + "]"
    if name == "ROW":
        values = v.values() if isinstance(v, dict) else v
        return "{" + ",".join("%s:%s" % (json.dumps(fn, ensure_ascii=False), json_value(x, c))
                              for x, (fn, c) in zip(values, children)) + "}"
    if name == "MAP":
        pairs = v.items() if isinstance(v, dict) else v
        return "{" + ",".join("%s:%s" % (json.dumps(_key_text(k, children[0]), ensure_ascii=False),
                                         json_value(x, children[1])) for k, x in pairs) + "}"
    return json.dumps(_scalar_text(v, desc), ensure_ascii=False)


def _key_text(k, desc):
    return "null" if k is None else _scalar_text(k, desc)


def json_line(row, names, descs):
    return "{" + ",".join("%s:%s" % (json.dumps(n, ensure_ascii=False), json_value(v, d))
                          for v, n, d in zip(row, names, descs)) + "}"


# ---------------------------------------------------------------------- Arrow batches -> lines
def lines_of_batches(batches, fmt, names, descs, partitions=(), default_partition="__DEFAULT_PARTITION__"):
    """mapInArrow function: record batches of the sink's columns -> batches of one `value` column of lines.
    `partitions`: the names of partition columns, left out of the lines and passed on as text columns
    (NULL as `default_partition`), for Spark's partitionBy."""
    import pyarrow as pa
    for batch in batches:
        columns = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
        content = [i for i, n in enumerate(names) if n not in partitions]
        rows = zip(*[columns[i] for i in content])
        if fmt == "csv":
            lines = [csv_line(row, [descs[i] for i in content]) for row in rows]
        else:
            lines = [json_line(row, [names[i] for i in content], [descs[i] for i in content]) for row in rows]
        arrays = [pa.array(lines, pa.string())]
        for key in partitions:
            values = columns[names.index(key)]
            arrays.append(pa.array([default_partition if v is None else str(v) for v in values], pa.string()))
        yield pa.RecordBatch.from_arrays(arrays, names=["value"] + list(partitions))
