"""A Python value as Flink prints it in text (print sink, csv files): decimals in plain notation,
timestamps as 'yyyy-MM-dd HH:mm:ss[.fff]', booleans lower-case, NULL as 'null'."""

import datetime as dt
from decimal import Decimal


def value_text(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Decimal):
        return format(v, "f")
    if isinstance(v, dt.datetime):
        return timestamp_text(v)
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join("%s=%s" % (value_text(k), value_text(x)) for k, x in v.items()) + "}"
    if isinstance(v, (bytes, bytearray)):
        return "x'" + bytes(v).hex() + "'"
    return str(v)


def timestamp_text(v):
    base = v.strftime("%Y-%m-%d %H:%M:%S")
    if v.year < 1000:
        base = "%04d-%s" % (v.year, base.split("-", 1)[1])
    us = v.microsecond
    if us == 0:
        return base
    if us % 1000 == 0:
        return base + ".%03d" % (us // 1000)
    return base + ".%06d" % us
