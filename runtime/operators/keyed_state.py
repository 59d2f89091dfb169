"""What every stateful changelog operator shares: a keyed Python state kept in one RocksDB value
(pickled), the input rows of a micro-batch in arrival order, and the diff of a key's result before
and after the batch turned into labelled changes.

Changes are rows with `__op` (0 +I, 1 -U, 2 +U, 3 -D: +I/+U add one row, -U/-D retract one) and `__seq`
(their order). An operator applies all of a key's changes of a batch to its state (multisets with
signed counts, so order inside the batch does not matter), then emits how the key's result changed."""

import pickle

from pyspark.sql import Row
from pyspark.sql import functions as F
from pyspark.sql.streaming import StatefulProcessor
from pyspark.sql.types import (ArrayType, BinaryType, ByteType, DoubleType, FloatType, LongType, MapType, StringType,
                               StructField, StructType)
from ..connect_shims import portable

ADD_OPS = (0, 2)
STATE_SCHEMA = StructType([StructField("blob", BinaryType(), True)])


class PickledValueState:
    """One Python value kept pickled in one ValueState: one state read and one write per key and
    micro-batch, however many rows or entries it holds. `empty()` is the value of a key with no state."""

    def __init__(self, handle, name, empty=list, ttl_ms=0):
        self.v = handle.getValueState(name, STATE_SCHEMA, ttl_ms or None)
        self.empty = empty

    def exists(self):
        return self.v.exists()

    def get(self):
        blob = self.v.get()             # None where the key has no value: no exists() call, one round trip less
        return pickle.loads(blob[0]) if blob is not None and blob[0] is not None else self.empty()

    def put(self, value):
        self.v.update((pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL),))

    def clear(self):
        self.v.clear()


CHANGE_FIELDS = [StructField("__op", ByteType(), False), StructField("__seq", LongType(), False)]


def run_keyed(df, keys, processor, fields, ctx, time_mode=None):
    """Run `processor` keyed by `keys` (input field names; none: one key for all rows) over `df` (input rows
    with __op and __seq); its output rows have `fields` (Spark StructFields), then __op and __seq."""
    schema = StructType(list(fields) + CHANGE_FIELDS)
    processor.output_names = tuple(f.name for f in schema.fields)
    if keys:
        # grouping columns name the state's key fields, which must be plain names (`$f1` is refused)
        keyed = ["__key%d" % i for i in range(len(keys))]
        df = df.select("*", *[python_key(df, k).alias(n) for k, n in zip(keys, keyed)])
        grouped = df.groupBy(*keyed)
    else:
        grouped = df.withColumn("__all", F.lit(0)).groupBy("__all")
    mode = time_mode or ("ProcessingTime" if ctx.ttl_ms else "None")
    out = grouped.transformWithState(portable(processor), schema, "Append", mode)
    return out.withColumn("__wm", F.lit(None).cast("timestamp"))


def python_key(df, name):
    """Column `name` of `df` as a key of a Python processor (transformWithState): a FLOAT/DOUBLE as its text.
    Spark's Python worker cuts its input into keys with Python's `==`, which a NaN never satisfies: each row with
    a NaN key was a call of its own, its changes ordered apart from the key's others. The text keeps NaN one
    key and -0.0 apart from 0.0, as Flink's streaming operators key a value (by its binary form)."""
    return key_value(F.col("`%s`" % name.replace("`", "``")), df.schema[name].dataType)


def key_value(col, data_type):
    """`python_key` of a Column `col` of Spark type `data_type` (its type: `key_type`). An ARRAY or MAP (or a ROW
    holding one) as its JSON text: Spark's Python worker cannot read the grouping key's schema when it holds an
    array (pyspark's StructType.fromJson: KeyError 'elementType'); the text keys its values as they are, a NaN one
    key and -0.0 apart from 0.0 inside them too."""
    if isinstance(data_type, (DoubleType, FloatType)):
        return col.cast("string")
    if isinstance(data_type, MapType):
        return F.to_json(F.map_entries(col))
    if _holds_collection(data_type):
        return F.to_json(col)
    return col


def _holds_collection(data_type):
    if isinstance(data_type, (ArrayType, MapType)):
        return True
    return isinstance(data_type, StructType) and any(_holds_collection(f.dataType) for f in data_type.fields)


def key_type(data_type):
    """The Spark type of `key_value` of a column of `data_type`."""
    return StringType() if isinstance(data_type, (DoubleType, FloatType)) or _holds_collection(data_type) \
        else data_type


def arrow_key(array):
    """`python_key` of an Arrow column (read by Python, not Spark): a float one as its text."""
    import pyarrow as pa
    import pyarrow.compute as pc
    return pc.cast(array, pa.string()) if pa.types.is_floating(array.type) else array


def python_grouped(df, names, *more):
    """`df` grouped for a Python processor by its columns `names`, each as `python_key` gives it (added as
    __pk0, __pk1, ..: Spark's transformWithState groups by columns of its input), then by the columns `more`."""
    keyed = ["__pk%d" % i for i in range(len(names))]
    df = df.select("*", *[python_key(df, k).alias(n) for k, n in zip(names, keyed)])
    return df.groupBy(*keyed, *more)


def weight(op):
    return 1 if op in ADD_OPS else -1


class KeyedChangelogProcessor(StatefulProcessor):
    """Subclasses implement `apply(state, rows) -> state` and `result(state) -> list of output tuples`,
    and may override `emit(old, new)`. `ttl_ms` (table.exec.state.ttl) forgets idle keys."""

    ttl_ms = 0
    output_names = ()   # set by the compiler: the output columns, then __op and __seq

    def init(self, handle):
        self.row = Row(*self.output_names)
        self.handle = handle
        self.state = PickledValueState(handle, "state", self.empty, self.ttl_ms)

    def handleInputRows(self, key, rows, timerValues):
        rows = sorted(rows, key=lambda r: r["__seq"])
        if not rows:
            return iter(())
        state = self.state.get()
        old = self.result(state)
        state = self.apply(state, rows)
        new = self.result(state)
        if self.is_empty(state):
            self.state.clear()
        else:
            self.state.put(state)
        base = rows[-1]["__seq"] * 8
        return iter([self.row(*values, op, base + i) for i, (op, values) in enumerate(self.emit(old, new))])

    # -- to implement
    def empty(self):
        raise NotImplementedError

    def is_empty(self, state):
        raise NotImplementedError

    def apply(self, state, rows):
        raise NotImplementedError

    def result(self, state):
        raise NotImplementedError

    # -- default: results are sets of rows; removed rows are -D, added ones +I
    def emit(self, old, new):
        return multiset_diff(old, new)

    def close(self):
        pass


def multiset_diff(old, new):
    """Rows in old but not new -> (3, row) (-D); rows in new but not old -> (0, row) (+I)."""
    from collections import Counter
    o, n = Counter(old), Counter(new)
    out = []
    for row, c in (o - n).items():
        out.extend([(3, row)] * c)
    for row, c in (n - o).items():
        out.extend([(0, row)] * c)
    return out


def update_pair(old_row, new_row):
    """A keyed result that was old_row and is new_row: +I, -U/+U, or -D."""
    if old_row is None and new_row is None:
        return []
    if old_row is None:
        return [(0, new_row)]
    if new_row is None:
        return [(3, old_row)]
    if old_row == new_row:
        return []
    return [(1, old_row), (2, new_row)]


def add(counter, row, w):
    if w < 0 and row not in counter:
        row = _kept_row(counter, row)
    c = counter.get(row, 0) + w
    if c:
        counter[row] = c
    else:
        counter.pop(row, None)


def _kept_row(counter, row):
    """The key of `counter` that is `row` with its NaNs (a float NaN is a dict key of its own: Python's == never
    holds for it, and its hash is its object's), else `row`: a retraction finds the row it retracts."""
    if not isinstance(row, tuple) or not any(isinstance(v, float) and v != v for v in row):
        return row
    for kept in counter:
        if isinstance(kept, tuple) and len(kept) == len(row) and all(
                a == b or (isinstance(a, float) and isinstance(b, float) and a != a and b != b)
                for a, b in zip(kept, row)):
            return kept
    return row


class FrozenList(tuple):
    """An ARRAY value kept as a multiset key (lists cannot be hashed)."""


class FrozenMap(tuple):
    """A MAP value kept as a multiset key: its (key, value) pairs."""


class _NaN:
    """A NaN kept in a multiset key: one object, equal to itself across pickling (each float NaN is a value of its
    own to a dict: Python's == never holds for it, its hash is its object's), so a row with a NaN is found again
    when it is retracted."""

    def __reduce__(self):
        return "NAN"

    def __repr__(self):
        return "NAN"


NAN = _NaN()


def freeze(v):
    """A row value that can be a dict key or a Counter element: ARRAY, MAP and ROW values made hashable, a NaN
    the one `NAN`."""
    if isinstance(v, float) and v != v:
        return NAN
    if isinstance(v, list):
        return FrozenList(freeze(x) for x in v)
    if isinstance(v, dict):
        return FrozenMap((freeze(k), freeze(x)) for k, x in v.items())
    if isinstance(v, tuple) and not isinstance(v, (FrozenList, FrozenMap)):
        return tuple(freeze(x) for x in v)          # a ROW (Spark's Row) as a plain tuple: Spark takes it back
    return v


def thaw(v):
    """`freeze` undone: the value as Spark takes it back."""
    if v is NAN:
        return float("nan")
    if isinstance(v, FrozenList):
        return [thaw(x) for x in v]
    if isinstance(v, FrozenMap):
        return {thaw(k): thaw(x) for k, x in v}
    if isinstance(v, tuple):
        return tuple(thaw(x) for x in v)
    return v
