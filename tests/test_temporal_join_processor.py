"""The event-time temporal join's pandas processor without Spark: frames in as Spark 4.3's pandas worker hands
them over, a fake state handle and timers (match_recognize/fake_state.py), and the output converted to Arrow
as the worker does, so what Spark would receive is what is checked. Version choice, replacement, retractions,
newest-only versions, NULL keys and values, the watermark, timers and the end of input."""

import datetime as dt
import math
import sys
import os

import pandas as pd
import pytest
from pyspark.sql import types as st
from pyspark.sql.conversion import PandasToArrowConversion

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "match_recognize"))
from fake_state import FakeHandle, _Timer  # noqa: E402

from runtime.operators.columnar_event_time import NO_TIME  # noqa: E402
from runtime.operators.event_time import END_WATERMARK_MS  # noqa: E402
from runtime.operators.pandas_values import RowColumns  # noqa: E402
from runtime.operators.temporal_join import LEFT, RIGHT, TemporalJoinProcessor  # noqa: E402

LEFT_FIELDS = RowColumns("__l", [st.StringType(), st.LongType(), st.TimestampType()], skip=[2])   # id, amount, rowtime
RIGHT_FIELDS = RowColumns("__r", [st.DoubleType(), st.TimestampType()], skip=[1])                # rate, rowtime
OUTPUT = st.StructType([st.StructField("id", st.StringType()), st.StructField("amount", st.LongType()),
                        st.StructField("order_time", st.TimestampType()), st.StructField("rate", st.DoubleType()),
                        st.StructField("rate_time", st.TimestampType()), st.StructField("__op", st.ByteType()),
                        st.StructField("__seq", st.LongType())])
COLUMNS = ["__k0", "__knull", "__side", "__t", "__seq", "__op", "__l0", "__l1", "__lnulls0", "__r0", "__rnulls0"]
BIG = 2 ** 62 + 1


def ms(seconds):
    return int(seconds * 1000)


def us(seconds):
    return int(seconds * 1_000_000)


def order(seq, seconds, oid, amount=1, op=0):
    """A probe row as RowColumns carries it: amount's NULL flag is bit 0 of __lnulls0; the rowtime is __t."""
    return {"__side": LEFT, "__t": us(seconds), "__seq": seq, "__op": op, "__l0": oid, "__l1": amount or 0,
            "__lnulls0": int(amount is None), "__r0": 0.0, "__rnulls0": 1}


def rate(seq, seconds, value, op=0):
    return {"__side": RIGHT, "__t": us(seconds), "__seq": seq, "__op": op, "__l0": None, "__l1": 0, "__lnulls0": 1,
            "__r0": 0.0 if value is None else value, "__rnulls0": int(value is None)}


class Join:
    """One processor and its fake handle; `batch` runs one micro-batch's rows of one key at a watermark."""

    def __init__(self, outer=False, newest_only=False):
        self.p = TemporalJoinProcessor(outer, LEFT_FIELDS, RIGHT_FIELDS, 2, 1, OUTPUT.fieldNames(), newest_only)
        self.p.input_columns = tuple(COLUMNS)
        self.handle = FakeHandle()
        self.p.init(self.handle)

    def batch(self, rows, watermark_ms, key="EUR", null_key=False):
        self.handle.key = (key, null_key)
        frame = pd.DataFrame([{"__k0": key, "__knull": null_key, **r} for r in rows], columns=COLUMNS)
        frame.columns = ["_%d" % i for i in range(len(frame.columns))]      # the worker's positional names
        return arrow_rows(self.p.handleInputRows((key, null_key), iter([frame]), _Timer(watermark_ms)))

    def timer(self, watermark_ms, key="EUR", null_key=False):
        """The key's expired timers fire, each deleted after its call as Spark does."""
        self.handle.key = (key, null_key)
        out = []
        for expired in [t for t in self.timers(key, null_key) if t <= watermark_ms]:
            out += arrow_rows(self.p.handleExpiredTimer((key, null_key), _Timer(watermark_ms), Expired(expired)))
            self.handle.deleteTimer(expired)
        return out

    def timers(self, key="EUR", null_key=False):
        return sorted(self.handle.timers.get((key, null_key), ()))


class Expired:
    def __init__(self, ms):
        self.ms = ms

    def getExpiryTimeInMs(self):
        return self.ms


def arrow_rows(frames):
    """The processor's output as the pandas worker converts it for Spark."""
    out = []
    for frame in frames:
        batch = PandasToArrowConversion.convert([frame], st.StructType([st.StructField("_0", OUTPUT)]),
                                                timezone="UTC", arrow_cast=True, assign_cols_by_name=True)
        out += [tuple(r.values()) for r in batch.column(0).to_pylist()]
    return out


def t(seconds):
    return dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(seconds=seconds)


def test_each_order_takes_the_version_valid_at_its_time_once_the_watermark_passes_it():
    j = Join()
    assert j.batch([rate(1, 10, 1.5), rate(2, 20, 2.5), order(3, 15, "a"), order(4, 25, "b"), order(5, 5, "c")],
                   watermark_ms=-1) == []
    assert j.timers() == [5000]
    assert j.batch([], ms(20)) == [("a", 1, t(15), 1.5, t(10), 0, 3)]      # c: before the first version
    assert j.timers() == [25000]
    assert j.timer(ms(30)) == [("b", 1, t(25), 2.5, t(20), 0, 4)]
    assert j.timers() == []


def test_left_join_gives_nulls_before_the_first_version_and_keeps_the_orders_kind():
    j = Join(outer=True)
    out = j.batch([rate(1, 10, 1.5), order(2, 5, "early", op=2), order(3, 10, "at", op=3)], END_WATERMARK_MS)
    assert out == [("early", 1, t(5), None, None, 2, 2), ("at", 1, t(10), 1.5, t(10), 3, 3)]


def test_a_later_version_with_the_same_time_replaces_the_earlier():
    j = Join()
    assert j.batch([rate(1, 10, 1.5), rate(2, 10, 1.75), order(3, 12, "a")], END_WATERMARK_MS) == \
        [("a", 1, t(12), 1.75, t(10), 0, 3)]


@pytest.mark.parametrize("op", [1, 3])
def test_a_retraction_ends_the_version(op):
    rows = [rate(1, 10, 1.5), rate(2, 20, 1.5, op=op), order(3, 15, "before"), order(4, 25, "after")]
    assert Join().batch(rows, END_WATERMARK_MS) == [("before", 1, t(15), 1.5, t(10), 0, 3)]
    assert Join(outer=True).batch(rows, END_WATERMARK_MS) == \
        [("before", 1, t(15), 1.5, t(10), 0, 3), ("after", 1, t(25), None, None, 0, 4)]


def test_newest_only_ignores_a_version_older_than_the_keys_newest():
    rows = [rate(1, 20, 2.5), rate(2, 10, 1.5), order(3, 15, "a"), order(4, 25, "b")]
    assert Join(newest_only=True).batch(rows, END_WATERMARK_MS) == [("b", 1, t(25), 2.5, t(20), 0, 4)]
    assert Join().batch(rows, END_WATERMARK_MS) == \
        [("a", 1, t(15), 1.5, t(10), 0, 3), ("b", 1, t(25), 2.5, t(20), 0, 4)]


def test_newest_only_still_replaces_a_version_of_the_same_time():
    rows = [rate(1, 20, 2.5), rate(2, 20, 3.0), order(3, 25, "b")]
    assert Join(newest_only=True).batch(rows, END_WATERMARK_MS) == [("b", 1, t(25), 3.0, t(20), 0, 3)]


def test_a_null_key_finds_the_null_keys_version():
    """Flink 2.3's temporal join keys a NULL as a value: a probe row with a NULL key takes the NULL key's version."""
    rows = [rate(1, 10, 1.5), order(2, 15, "a")]
    assert Join().batch(rows, END_WATERMARK_MS, key="", null_key=True) == [("a", 1, t(15), 1.5, t(10), 0, 2)]
    assert Join(outer=True).batch(rows, END_WATERMARK_MS, key="", null_key=True) == \
        [("a", 1, t(15), 1.5, t(10), 0, 2)]


def test_nulls_big_integers_and_nan_survive():
    out = Join(outer=True).batch([rate(1, 10, None), rate(2, 20, float("nan")), order(3, 15, None, amount=None),
                                  order(4, 25, "big", amount=BIG)], END_WATERMARK_MS)
    assert out[0] == (None, None, t(15), None, t(10), 0, 3)
    assert out[1][:3] == ("big", BIG, t(25)) and math.isnan(out[1][3])


def test_versions_the_watermark_passed_but_the_newest_are_dropped_so_a_late_order_misses_them():
    j = Join()
    assert j.batch([rate(1, 10, 1.5), rate(2, 20, 2.5), order(3, 21, "a")], ms(30)) == \
        [("a", 1, t(21), 2.5, t(20), 0, 3)]
    assert j.batch([order(4, 12, "late")], ms(30)) == []        # the version of 10 s is gone (as before)


def test_an_order_without_a_time_is_never_emitted():
    row = dict(order(2, 15, "a"), __t=NO_TIME)
    assert Join(outer=True).batch([rate(1, 10, 1.5), row], END_WATERMARK_MS) == []


def test_a_timer_at_the_expiring_time_is_not_kept_as_before():
    """A row whose microseconds lie past the expiring timer's millisecond (a watermark delay's doing): the timer
    at its millisecond is registered again and deleted by Spark after the call, as when each call deleted and
    registered every timer; the row waits for the key's next rows or the end of input."""
    j = Join()
    j.p.watermark_delay_us = 500
    assert j.batch([rate(1, 1, 1.5), order(2, 2.0004, "a")], -1) == []
    assert j.timers() == [2000]
    assert j.timer(2000) == [] and j.timers() == []
    assert j.batch([], END_WATERMARK_MS) == [("a", 1, t(2.0004), 1.5, t(1), 0, 2)]


def test_state_survives_between_batches():
    j = Join()
    assert j.batch([rate(1, 10, 1.5)], -1) == []
    assert j.batch([order(2, 15, "a")], ms(12)) == []
    assert j.batch([rate(3, 14, 9.0)], ms(16)) == [("a", 1, t(15), 9.0, t(14), 0, 2)]


def test_null_flags_of_many_fields_take_several_words():
    types = [st.LongType()] * 70 + [st.StringType()]
    fields = RowColumns("__v", types)
    row = {"__v%d" % i: i for i in range(70)}
    row.update({"__v70": None, "__vnulls0": 1 << 62, "__vnulls1": 1 << 3})          # fields 62 and 66 are NULL
    values = fields.read(pd.DataFrame([row]))
    assert [i for i in range(70) if values[i].nulls[0]] == [62, 66]
    assert values[5].values[0] == 5 and values[70].values[0] is None
