"""Rows in, rows out, in plain Python: Flink's per-row lateness rule, partitioning, ordering, matching.

`match_rows(compiled, column_names, rows, seq, wm)` is what both Spark executions do per partition
and what the pure-Python tests call directly:
  - a row is late (dropped, counted) when its rowtime <= __wm, the watermark in effect just before it
    arrived (NULL __wm: never late); Flink drops such rows before MATCH_RECOGNIZE sees them;
  - the rest is grouped by PARTITION BY and sorted by (rowtime, further ORDER BY keys, arrival order);
  - each partition is matched and its output rows returned."""

import datetime as _dt

from ..sort_keys import Descending

_EPOCH = _dt.datetime(1970, 1, 1)


def to_micros(value):
    """A TIMESTAMP value (datetime, pandas Timestamp, or int micros) -> int microseconds since the epoch."""
    if value is None:
        return None
    if isinstance(value, int):
        return value
    if hasattr(value, "value") and hasattr(value, "tz_localize"):      # pandas Timestamp (ns)
        return int(value.value // 1000)
    if value.tzinfo is not None:
        value = value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
    d = value - _EPOCH
    return (d.days * 86400 + d.seconds) * 1000000 + d.microseconds


def is_late(rowtime, wm):
    return wm is not None and rowtime is not None and to_micros(rowtime) <= to_micros(wm)


def sort_key_fn(column_names, spec, time_index=None, seq_index=-1):
    """Key for sorting one partition's rows (tuples) with their arrival sequence at seq_index (last by
    default); time_index: where a row already carries its rowtime in microseconds (else converted)."""
    idx = [column_names.index(k.column) for k in spec.order_by]
    asc = [k.ascending for k in spec.order_by]
    first = idx[0]
    if spec.proctime is not None and spec.order_by[0].column == spec.proctime:
        return lambda row: row[seq_index]   # processing time: arrival order
    rest = list(zip(idx[1:], asc[1:]))
    if time_index is not None and not rest:
        return lambda row: (row[time_index], row[seq_index])

    def key(row):
        parts = [row[time_index] if time_index is not None else to_micros(row[first])]
        for i, a in rest:
            v = row[i]
            parts.append((v is not None, v) if a else Descending((v is not None, v)))
        parts.append(row[seq_index])
        return tuple(parts)
    return key


def match_partition(compiled, column_names, rows, key_values, final=True):
    """rows: tuples (column values..., seq) of ONE partition, not yet sorted -> output rows."""
    spec = compiled.spec
    rows = sorted(rows, key=sort_key_fn(column_names, spec))
    n = len(rows)
    data = [[r[i] for r in rows] for i in range(len(column_names))]
    ts = None
    if spec.ordered_by_rowtime():
        ti = column_names.index(spec.rowtime)
        ts = [to_micros(v) for v in data[ti]]
    elif spec.proctime is not None:
        ts = [r[-1] for r in rows]
    return compiled.run_partition(data, ts, key_values, final=final) if n else []


def match_rows(compiled, column_names, rows, seq=None, wm=None):
    """All rows of a bounded input, in arrival order -> (output rows, number of late rows dropped)."""
    spec = compiled.spec
    seq = list(range(len(rows))) if seq is None else seq
    wm = [None] * len(rows) if wm is None else wm
    ti = column_names.index(spec.rowtime) if spec.rowtime is not None else None
    pidx = [column_names.index(p) for p in spec.partition_by]
    groups = {}
    late = 0
    for row, s, w in zip(rows, seq, wm):
        if ti is not None and is_late(row[ti], w):
            late += 1
            continue
        key = tuple(row[i] for i in pidx)
        groups.setdefault(key, []).append(tuple(row) + (s,))
    out = []
    for key, part in groups.items():
        out.extend(match_partition(compiled, column_names, part, key))
    return out, late
