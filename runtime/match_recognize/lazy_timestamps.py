"""TIMESTAMP columns as the matcher reads them, kept as epoch microseconds (batch and streaming).

`LazyTimestamps` is a column (a list of ints, None for NULL) that turns a value into a UTC datetime only when
DEFINE or MEASURES reads it: most rows' timestamps are never read, and building a million datetimes costs
a second. It does not convert whole columns and holds no time zone but UTC (the Spark session's)."""

import datetime as _dt

_EPOCH_UTC = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


class LazyTimestamps:
    """A TIMESTAMP column kept as epoch microseconds; values become datetimes only when read."""
    __slots__ = ("us",)

    def __init__(self, us):
        self.us = us

    def __len__(self):
        return len(self.us)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return LazyTimestamps(self.us[i])
        v = self.us[i]
        return None if v is None else _EPOCH_UTC + _dt.timedelta(microseconds=v)

    def __iter__(self):
        return (self[i] for i in range(len(self.us)))

    def extend(self, other):
        self.us.extend(other.us if isinstance(other, LazyTimestamps) else other)
