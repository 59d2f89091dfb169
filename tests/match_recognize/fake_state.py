"""A stand-in for Spark's transformWithState handle (value/list state, event-time timers) and a driver
that replays micro-batches the way Spark does (watermark = max event time of earlier batches - delay,
timers fire once the watermark passes them), so the streaming operator's logic is testable in plain
Python. Test support only."""

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


def replay(processor, batches, key_of, rowtime_of, delay_ms, end=True):
    """batches: lists of Rows (with __seq/__wm). Returns all output Rows."""
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
        groups = {}
        for r in batch:
            groups.setdefault(key_of(r), []).append(r)
        for key, rows in groups.items():
            handle.key = key
            out.extend(processor.handleInputRows(key, iter(rows), _Timer(wm)))
        for key in list(handle.timers):
            for t in sorted(handle.timers.get(key, set())):
                if t <= wm and key not in groups:
                    handle.key = key
                    handle.timers[key].discard(t)
                    out.extend(processor.handleExpiredTimer(key, _Timer(wm), None))
        for r in batch:
            ms = int((rowtime_of(r) - dt.datetime(1970, 1, 1)).total_seconds() * 1000)
            top = ms if top is None or ms > top else top
        if top is not None and not (end and k == len(all_batches) - 1):
            wm = max(wm, top - delay_ms)
    return out


def as_row(names, values):
    return Row(**dict(zip(names, values)))
