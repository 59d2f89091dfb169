"""A stand-in for Spark's transformWithStateInPandas handle (value/list state, event-time timers) and a driver
that replays micro-batches the way Spark does (watermark = max event time of earlier batches - delay, each
key's rows converted and grouped as Spark's Python worker does, timers fire once the watermark passes them and
are deleted after their call), so the streaming operator's logic is testable in plain Python. Test support
only."""

import datetime as dt

from pyspark.sql import Row


class _List:
    def __init__(self):
        self.v = None

    def exists(self):
        return self.v is not None

    def get(self):
        return iter(self.v or [])

    def put(self, rows):
        self.v = [tuple(r) for r in rows]

    def clear(self):
        self.v = None


class _Value:
    def __init__(self):
        self.v = None

    def exists(self):
        return self.v is not None

    def get(self):
        return self.v

    def update(self, v):
        self.v = tuple(v)

    def clear(self):
        self.v = None


class FakeHandle:
    def __init__(self):
        self.states = {}
        self.timers = {}
        self.key = None

    def getListState(self, name, schema, ttl=None):
        return _KeyedProxy(self, name, _List)

    def getValueState(self, name, schema, ttl=None):
        return _KeyedProxy(self, name, _Value)

    def registerTimer(self, ms):
        self.timers.setdefault(self.key, set()).add(ms)

    def deleteTimer(self, ms):
        self.timers.get(self.key, set()).discard(ms)

    def listTimers(self):
        return iter(sorted(self.timers.get(self.key, set())))


class _KeyedProxy:
    def __init__(self, handle, name, cls):
        self.handle, self.name, self.cls = handle, name, cls

    def _s(self):
        k = (self.handle.key, self.name)
        if k not in self.handle.states:
            self.handle.states[k] = self.cls()
        return self.handle.states[k]

    def __getattr__(self, attr):
        return getattr(self._s(), attr)


class _Timer:
    def __init__(self, wm):
        self.wm = wm

    def getCurrentWatermarkInMs(self):
        return self.wm

    def getCurrentProcessingTimeInMs(self):
        return 0


class _Expired:
    def __init__(self, ms):
        self.ms = ms

    def getExpiryTimeInMs(self):
        return self.ms


def replay(processor, batches, rowtime_of, delay_ms, end=True, max_records=10000):
    """batches: lists of input Rows (the input columns, __t, __seq, __late). Each key's rows of a batch reach
    `processor` (a transformWithStateInPandas processor with a `layout`, stream_columns.StreamColumns) as
    Spark's worker hands them over: sent as the layout says, through Arrow and Spark's pandas conversion,
    rebuilt row by row, in frames of at most `max_records` rows; its output frames go back through Spark's
    pandas-to-Arrow conversion. Returns all output rows as tuples."""
    handle = FakeHandle()
    processor.init(handle)
    out = []
    wm = -1
    top = None
    all_batches = list(batches)
    if end:
        all_batches.append([])
    for k, batch in enumerate(all_batches):
        if end and k == len(all_batches) - 1:
            wm = int((dt.datetime(9999, 12, 31) - dt.datetime(1970, 1, 1)).total_seconds() * 1000)
        calls = worker_calls(processor.layout, batch, max_records)
        for key, frames in calls:
            handle.key = key
            out.extend(output_rows(processor, processor.handleInputRows(key, iter(frames), _Timer(wm))))
        for key in list(handle.timers):
            for t in sorted(handle.timers.get(key, set())):
                if t <= wm and key not in [k for k, _ in calls]:
                    handle.key = key
                    out.extend(output_rows(processor, processor.handleExpiredTimer(key, _Timer(wm), _Expired(t))))
                    handle.timers[key].discard(t)         # as Spark: once the call returned
        for r in batch:
            ms = int((rowtime_of(r) - dt.datetime(1970, 1, 1)).total_seconds() * 1000)
            top = ms if top is None or ms > top else top
        if top is not None and not (end and k == len(all_batches) - 1):
            wm = max(wm, top - delay_ms)
    return out


def _encoded(layout, rows):
    names = layout.names
    return [layout.encode_row(tuple(r[n] for n in names), r["__t"], r["__seq"], r["__late"]) for r in rows]


def _arrow_types(layout):
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_type
    from runtime.match_recognize import stream_columns as sc
    types = [pa.int32() if i is None else pa.string() for _, i in layout.added_keys]   # see _key_string
    for i in layout.sent:
        kind = layout.kinds[i]
        types.append(pa.int64() if kind == sc.TIMESTAMP else to_arrow_type(layout.types[i], timezone="UTC"))
    return types + [pa.int64()] * (2 + layout.n_masks)


def _worker_rows_of(layout, encoded):
    """Encoded rows as the worker iterates them: Arrow batch -> Spark's pandas conversion -> itertuples."""
    import pandas as pd
    import pyarrow as pa
    from pyspark.sql.conversion import ArrowBatchTransformer
    names = layout.frame_names()
    columns = list(zip(*encoded))
    batch = pa.RecordBatch.from_arrays([pa.array(list(c), type=t) for c, t in zip(columns, _arrow_types(layout))],
                                       names=names)
    series = ArrowBatchTransformer.to_pandas(batch, timezone="UTC")
    return list(pd.concat(series, axis=1).itertuples(index=False))


def worker_calls(layout, rows, max_records):
    """[(key, frames)]: the calls Spark's worker makes for one micro-batch's rows: all of them converted
    together (one key's NULL turns another's BIGINT into floats), sorted by the grouping key, grouped as the
    worker groups them (consecutive equal keys), in frames of at most `max_records` rows."""
    import itertools
    import pandas as pd
    if not rows:
        return []
    names = layout.frame_names()
    positions = [names.index(g) for g in layout.grouping]
    encoded = _encoded(layout, rows)
    encoded.sort(key=lambda e: tuple((e[p] is not None, e[p]) for p in positions))
    worker_rows = _worker_rows_of(layout, encoded)
    calls = []
    for key, group in itertools.groupby(worker_rows, key=lambda r: tuple(r[p] for p in positions)):
        group = list(group)
        calls.append((key, [pd.DataFrame(group[k:k + max_records]) for k in range(0, len(group), max_records)]))
    return calls


def output_rows(processor, frames):
    """The processor's output frames as Spark's worker converts them (PandasToArrowConversion) -> tuples."""
    from pyspark.sql import types as st
    from pyspark.sql.conversion import PandasToArrowConversion
    schema = st.StructType([st.StructField(n, t) for n, t in zip(processor.output_names, _spark_types(processor))])
    out = []
    for frame in frames:
        batch = PandasToArrowConversion.convert([frame], st.StructType([st.StructField("_0", schema)]),
                                                timezone="UTC", safecheck=False, arrow_cast=True,
                                                assign_cols_by_name=True)
        out.extend(tuple(d["_0"][n] for n in schema.names) for d in batch.to_pylist())
    return out


def _spark_types(processor):
    from pyspark.sql.pandas.types import from_arrow_type
    return [from_arrow_type(t) for t in processor.output_types]


def as_row(names, values):
    return Row(**dict(zip(names, values)))
