"""Event-time temporal join on a streaming DataFrame: `temporal_join(derived, left_df, right_df)`.

Flink's TemporalRowTimeJoinOperator on Spark: the left (probe) rows and the versioned side's rows are
unioned and keyed by the join key (`groupBy(keys).transformWithState`, row API, event-time mode). Per
key the operator keeps
  - `left`: probe rows the join's watermark has not passed yet, in arrival order;
  - `right`: the versions, by version time (a later row with the same time replaces the earlier one,
    as Flink's state does). A -D row is kept as the end of the version before it; -U rows are
    dropped (Flink's temporal join reads only inserts, +U and -D of its versioned side).
When the watermark (Spark's global one: the minimum of both inputs' watermarks) reaches a probe
row's time, the row is emitted joined with the latest version at or before that time, if that version
is not a delete; a LEFT join emits the row with NULLs otherwise, an INNER join drops it. Versions
older than the newest one the watermark passed can no longer be chosen and are dropped. A versioned
view (a last-row deduplication) ignores a row older than its key's newest version, as Flink's
deduplication does. At the end of a bounded input the watermark jumps to the sentinel's time and
every pending probe row is emitted. The output is insert-only.

Probe rows are not dropped as late (Flink's operator does not drop them either): the time the
operator compares is a copy of the rowtime (unix microseconds) without Spark's watermark marker, so
Spark does not filter them before the operator sees them. The rest of the ON condition (beyond the
key equalities) is applied to the joined rows afterwards: INNER drops a row failing it, LEFT keeps
the probe row with NULLs. Batch mode is refused by the planner (as Flink does)."""

import bisect

from pyspark.sql import Row
from pyspark.sql import functions as F
from pyspark.sql import types as st
from pyspark.sql.streaming import StatefulProcessor

from .connect_shims import portable
from .operators.keyed_state import PickledValueState

_LEFT, _RIGHT = 0, 1
_RETRACT_BEFORE = 1
_KEEPS_VERSION = (0, 2)          # +I and +U start a version; -D ends one


def temporal_join(derived, left_df, right_df):
    """-> a streaming DataFrame: the left table's columns, then the versioned side's (renamed with the
    spec's right_prefix), one row per probe row (INNER: per probe row with a valid version)."""
    spec = derived.spec
    left_names = [n for n, _ in spec.left_columns]
    right_names = [n for n, _ in spec.right_columns]
    right = versioned_rows(spec, right_df)
    if spec.left_sql:                         # a view or subquery over the probe table
        from planner.temporal_join import PROBE_SUFFIX
        left_df.createOrReplaceTempView(derived.input.view + PROBE_SUFFIX)
        left_df = left_df.sparkSession.sql(spec.left_sql)
    left = left_df.select(*[F.col(_q(n)) for n in left_names], "__seq")
    left_struct = left.select(F.struct(*[F.col(_q(n)) for n in left_names]).alias("s")).schema["s"].dataType
    right_struct = right.select(F.struct(*[F.col(_q(n)) for n in right_names]).alias("s")).schema["s"].dataType
    key_types = [left.schema[k].dataType for k in spec.left_keys]
    keys = ["__k%d" % i for i in range(len(spec.left_keys))]
    probe = left.select(
        *[F.col(_q(k)).alias(name) for k, name in zip(spec.left_keys, keys)],
        F.lit(_LEFT).alias("__side"), F.expr("unix_micros(%s)" % _q(spec.left_time)).alias("__t"),
        F.col("__seq").cast("long").alias("__seq"), F.lit(0).cast("tinyint").alias("__op"),
        F.struct(*[F.col(_q(n)) for n in left_names]).alias("__l"), F.lit(None).cast(right_struct).alias("__r"))
    versions = right.select(
        *[F.col(_q(k)).cast(t).alias(name) for k, t, name in zip(spec.right_keys, key_types, keys)],
        F.lit(_RIGHT).alias("__side"), F.expr("unix_micros(%s)" % _q(spec.right_time)).alias("__t"),
        F.col("__seq").cast("long").alias("__seq"), F.col("__op").cast("tinyint").alias("__op"),
        F.lit(None).cast(left_struct).alias("__l"), F.struct(*[F.col(_q(n)) for n in right_names]).alias("__r"))
    out_fields = [st.StructField(f.name, f.dataType, True) for f in left_struct.fields] + \
        [st.StructField(spec.right_prefix + f.name, f.dataType, True) for f in right_struct.fields]
    schema = st.StructType(out_fields)
    processor = TemporalJoinProcessor(outer=spec.kind == "LEFT", n_left=len(left_names), n_right=len(right_names),
                                      newest_only=spec.newest_only, output_schema=schema)
    joined = probe.unionByName(versions).groupBy(*keys).transformWithState(portable(processor), schema, "Append",
                                                                           "EventTime")
    return with_condition(joined, spec, left_names, right_names)


def versioned_rows(spec, right_df):
    """The versioned side's rows (its columns, __seq, __op) from its table's DataFrame: a versioned view's
    projections and filters applied; -U rows dropped."""
    df = right_df.withColumn("__op", F.coalesce(F.col("__op"), F.lit(0)).cast("tinyint"))
    for step in spec.right_steps:
        if step.rank_column:                  # every row is a version: its rank in the deduplication is 1
            df = df.withColumn(step.rank_column, F.lit(1).cast("long"))
            continue
        if step.condition:
            df = df.filter(F.expr(step.condition))
        df = df.select(*[F.expr(sql).alias(name) for sql, name in step.projections], "__seq", "__op")
    df = df.select(*[F.col(_q(n)) for n, _ in spec.right_columns], "__seq", "__op")
    return df.filter(F.col("__op") != F.lit(_RETRACT_BEFORE))


def with_condition(joined, spec, left_names, right_names):
    """The ON condition's rest: INNER keeps the rows it holds for; LEFT nulls the version where it fails."""
    if not spec.condition:
        return joined
    holds = F.coalesce(F.expr(spec.condition), F.lit(False))
    if spec.kind == "INNER":
        return joined.filter(holds)
    renamed = [spec.right_prefix + n for n in right_names]
    return joined.select(*[F.col(_q(n)) for n in left_names],
                         *[F.when(holds, F.col(_q(n))).alias(n) for n in renamed])


def _values(struct):
    """A struct column's values in field order (the row API hands a struct over as a dict or a Row)."""
    return tuple(struct.values()) if isinstance(struct, dict) else tuple(struct)


def _q(name):
    return "`%s`" % name.replace("`", "``")


class TemporalJoinProcessor(StatefulProcessor):
    def __init__(self, outer, n_left, n_right, newest_only, output_schema):
        self.outer = outer
        self.n_left, self.n_right = n_left, n_right
        self.newest_only = newest_only
        self.output_schema = output_schema
        self.names = [f.name for f in output_schema.fields]

    def init(self, handle):
        self.handle = handle
        self.left = PickledValueState(handle, "left", list)     # [(seq, time us, values)]
        self.right = PickledValueState(handle, "right", dict)   # time us -> (op, values)

    def handleInputRows(self, key, rows, timerValues):
        probes, versions = [], []
        for r in rows:
            if r["__t"] is None:               # no time: no version applies and no watermark passes it
                continue
            if r["__side"] == _LEFT:
                probes.append((r["__seq"], r["__t"], _values(r["__l"])))
            else:
                versions.append((r["__seq"], r["__t"], r["__op"], _values(r["__r"])))
        key_values = key if isinstance(key, tuple) else (key,)
        return iter(self._process(probes, versions, None in key_values, timerValues.getCurrentWatermarkInMs()))

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        return iter(self._process([], [], False, timerValues.getCurrentWatermarkInMs()))

    def close(self):
        pass

    def _process(self, probes, versions, null_key, watermark_ms):
        pending = self.left.get()
        table = self.right.get()
        if not null_key:                        # a NULL key equals nothing: it has no versions
            for seq, t, op, values in sorted(versions):
                if self.newest_only and table and t < max(table):
                    continue                    # the deduplication keeps the newest row of the key
                table[t] = (op, values)
        pending.extend(probes)
        out = []
        wm_us = watermark_ms * 1000 if watermark_ms is not None and watermark_ms > 0 else None
        if wm_us is not None and pending:
            released = sorted(p for p in pending if p[1] <= wm_us)
            pending = [p for p in pending if p[1] > wm_us]
            times = sorted(table)
            nulls = (None,) * self.n_right
            for _, t, values in released:
                i = bisect.bisect_right(times, t) - 1
                version = table[times[i]] if i >= 0 else None
                if version is not None and version[0] in _KEEPS_VERSION:
                    out.append(Row(**dict(zip(self.names, values + version[1]))))
                elif self.outer:
                    out.append(Row(**dict(zip(self.names, values + nulls))))
        if wm_us is not None and table:         # versions the watermark passed, but the newest of them, are done
            passed = [t for t in table if t <= wm_us]
            for t in sorted(passed)[:-1]:
                del table[t]
        for state, value in ((self.left, pending), (self.right, table)):
            if value:
                state.put(value)
            else:
                state.clear()
        for t in list(self.handle.listTimers()):
            self.handle.deleteTimer(t)
        if pending:
            self.handle.registerTimer(-(-min(p[1] for p in pending) // 1000))
        return out
