"""Rows of one key held column-wise in numpy arrays: `ColumnBlock` (streaming MATCH_RECOGNIZE's pending rows).

A block has per row its event time `t` (epoch microseconds), its arrival order `seq`, and per input column a
numpy array (int64, float64, bool, or object) with a NULL mask (None: no NULL). The rowtime column the rows are
ordered by has no array of its own: its values are `t`. Blocks are joined (`concat`), filtered and reordered
(`take`), sorted as MATCH_RECOGNIZE orders a partition (`order`), and turned into the matcher's Python column
lists (`values`) only when the watermark releases them. A block pickles as its arrays (one state value).

What a column's values are and how they arrive from Spark is stream_columns.py's business, not this module's."""

import numpy as np

from runtime.match_recognize.lazy_timestamps import LazyTimestamps

_NUMPY_SORTABLE = ("integer", "boolean", "timestamp", "rowtime")


class ColumnBlock:
    __slots__ = ("t", "seq", "cols", "nulls")

    def __init__(self, t, seq, cols, nulls):
        self.t = t
        self.seq = seq
        self.cols = cols
        self.nulls = nulls

    def __len__(self):
        return len(self.seq)

    def __getstate__(self):
        return (self.t, self.seq, self.cols, self.nulls)

    def __setstate__(self, state):
        self.t, self.seq, self.cols, self.nulls = state

    def take(self, index):
        """The rows at `index` (an integer index array or a boolean mask), in that order."""
        return ColumnBlock(self.t[index], self.seq[index], [None if c is None else c[index] for c in self.cols],
                           [None if m is None else _none_if_clear(m[index]) for m in self.nulls])

    @staticmethod
    def concat(a, b):
        if a is None or not len(a):
            return b
        if not len(b):
            return a
        cols = [None if x is None else np.concatenate([x, y]) for x, y in zip(a.cols, b.cols)]
        nulls = [None if x is None and y is None else
                 np.concatenate([_mask(x, len(a)), _mask(y, len(b))]) for x, y in zip(a.nulls, b.nulls)]
        return ColumnBlock(np.concatenate([a.t, b.t]), np.concatenate([a.seq, b.seq]), cols, nulls)

    # ------------------------------------------------------------------ order
    def order(self, further, kinds, by_time):
        """The row order MATCH_RECOGNIZE matches a partition in: by arrival (`by_time` False: processing
        time), else by (t, further ORDER BY keys, seq), `further` [(input index, ascending)]. A further key
        sorts NULL first when ascending and last when descending (rows.sort_key_fn). Integer, boolean and
        timestamp keys sort with numpy; others (strings, floats with their NaN, ...) with rows.sort_key_fn's
        Python comparison. -> an index array."""
        if not by_time:
            return np.argsort(self.seq, kind="stable")
        if all(kinds[i] in _NUMPY_SORTABLE for i, _ in further):
            keys = [self.seq]
            for i, ascending in reversed(further):
                v = self.t if kinds[i] == "rowtime" else self.cols[i].astype(np.int64)
                null = self.nulls[i] if kinds[i] != "rowtime" else None
                null = np.zeros(len(self), dtype=bool) if null is None else null
                if ascending:
                    keys += [v, ~null]            # (v is not None, v): NULL first
                else:
                    keys += [~v, null]            # Descending((v is not None, v)): NULL last, larger first
            keys.append(self.t)
            return np.lexsort(keys)
        return self._python_order(further, kinds)

    def _python_order(self, further, kinds):
        from runtime.sort_keys import Descending
        columns = {i: self.column_values(i, kinds[i]) for i, _ in further}
        t, seq = self.t.tolist(), self.seq.tolist()

        def key(r):
            parts = [t[r]]
            for i, ascending in further:
                v = columns[i][r]
                parts.append((v is not None, v) if ascending else Descending((v is not None, v)))
            parts.append(seq[r])
            return tuple(parts)
        return np.array(sorted(range(len(self)), key=key), dtype=np.int64)

    # ------------------------------------------------------------------ the matcher's values
    def values(self, kinds, types):
        """Python column lists in input column order: numbers, bools and strings as Python values with None
        for NULL, TIMESTAMP columns (and the rowtime, from t) as LazyTimestamps, nested values as Arrow's
        Python values (lists, (key, value) pairs of a MAP, dicts of a ROW)."""
        return [self.column_values(i, kinds[i], types[i]) for i in range(len(kinds))]

    def column_values(self, i, kind, dtype=None):
        if kind == "rowtime":
            return LazyTimestamps(self.t.tolist())
        values = self.cols[i].tolist()
        null = self.nulls[i]
        if null is not None:
            for r in np.flatnonzero(null).tolist():
                values[r] = None
        if kind == "timestamp":
            return LazyTimestamps(values)
        if kind == "nested":
            return [_arrow_value(v, dtype) for v in values]
        return values


def _mask(m, n):
    return np.zeros(n, dtype=bool) if m is None else m


def _none_if_clear(m):
    return m if m.any() else None


def _arrow_value(v, dtype):
    """A nested value as Spark's pandas conversion gives it (numpy arrays, dicts) -> as Arrow's as_py does."""
    from pyspark.sql import types as st
    if v is None or dtype is None:
        return v
    if isinstance(dtype, st.ArrayType):
        return [_arrow_value(x, dtype.elementType) for x in v]
    if isinstance(dtype, st.MapType):
        items = v.items() if isinstance(v, dict) else v
        return [(_arrow_value(k, dtype.keyType), _arrow_value(x, dtype.valueType)) for k, x in items]
    if isinstance(dtype, st.StructType):
        get = v.get if isinstance(v, dict) else (lambda name, _v=v: _v[name])
        return {f.name: _arrow_value(get(f.name), f.dataType) for f in dtype.fields}
    if isinstance(v, float) and v != v:
        return v
    return v.item() if isinstance(v, np.generic) else v
