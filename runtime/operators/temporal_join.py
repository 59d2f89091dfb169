"""TemporalJoin (event time) and DropUpdateBefore on Spark.

Flink's TemporalRowTimeJoinOperator as a keyed event-time operator (runtime/operators/event_time.py): both
inputs unioned and keyed by the join key. A left (probe) row is held until the watermark (Spark's, the
smaller of both inputs') passes its rowtime, then emitted with the version valid at that time: the latest
version with a version time at or before it, if that version is not a retraction (LEFT: NULLs otherwise;
INNER: dropped), keeping the left row's kind. Versions are kept per key by version time (a later row with
the same time replaces the earlier one, as Flink's state does); +I/+U are versions, -D (and -U, where a filter
over updates sends them) end one. Versions older than the newest one the watermark passed can no longer be
chosen and are dropped. Probe rows are never dropped as late (Flink's operator keeps them): their time
travels as a plain value, so Spark's watermark does not filter them either. The rest of the ON condition is
applied to the joined rows (INNER drops a row failing it, LEFT keeps it with NULLs): the version is chosen by
time alone, then tested, as in Flink. Batch mode is refused by the planner, as Flink 2.4 does."""

import bisect

from pyspark.sql import functions as F
from pyspark.sql import types as st

from planner.plan.calc import Calc
from planner.plan.fields import ROWTIME
from planner.plan.node import post_order
from planner.plan.rank import Deduplicate
from planner.plan.temporal_join import DropUpdateBefore, TemporalJoin

from ..translate import TRANSLATORS, Stream, conform, translates
from .event_time import EventTimeProcessor, event_time_column, watermark_delay_ms
from .keyed_state import PickledValueState
from ..connect_shims import portable

LEFT, RIGHT = 0, 1
ACCUMULATE = (0, 2)           # +I and +U are versions; -U and -D retract


class TemporalJoinProcessor(EventTimeProcessor):
    """`newest_only`: the versions are a keep-last-row deduplication's input rows, so a row older than its
    key's newest version is no version (the deduplication would not emit it)."""
    operator_name = "the temporal join"

    def __init__(self, outer, n_left, n_right, output_names, newest_only=False):
        self.outer = outer
        self.n_left, self.n_right = n_left, n_right
        self.output_names = tuple(output_names)
        self.newest_only = newest_only

    def init_state(self, handle):
        self.state = PickledValueState(handle, "versions", dict)     # version time us -> (op, values)
        self.versions = None

    def values(self, row):
        if row["__side"] == LEFT:
            return (LEFT, row["__op"], None, _values(row["__l"]))
        return (RIGHT, row["__op"], row["__vt"], _values(row["__r"]))

    def _table(self):
        if self.versions is None:
            self.versions = self.state.get()
        return self.versions

    # ------------------------------------------------------------------ the base's hooks
    def on_arrival(self, key, rows):
        keys = key if isinstance(key, tuple) else (key,)
        if None in keys:                       # a NULL key equals nothing: it has no versions
            return []
        versions = [(seq, v) for _, seq, v in rows if v[0] == RIGHT and v[2] is not None]
        if versions:
            table = self._table()
            for _, (_, op, time, values) in sorted(versions, key=lambda x: x[0]):
                if self.newest_only and table and time < max(table):
                    continue
                table[time] = (op, values)
        return []

    def on_time(self, key, rows, watermark_us, final):
        table = self._table()
        times = sorted(table)
        nulls = (None,) * self.n_right
        out = []
        for t, seq, (_, op, _, values) in rows:
            i = bisect.bisect_right(times, t) - 1
            version = table[times[i]] if i >= 0 else None
            if version is not None and version[0] in ACCUMULATE:
                out.append(values + version[1] + (op, seq))
            elif self.outer:
                out.append(values + nulls + (op, seq))
        if watermark_us is not None and table:  # versions the watermark passed, but the newest of them, are done
            passed = [t for t in times if t <= watermark_us]
            for t in passed[:-1]:
                del table[t]
        return out

    def finish(self, key):
        if self.versions is not None:
            if self.versions:
                self.state.put(self.versions)
            else:
                self.state.clear()
        self.versions = None


def _values(struct):
    """A struct column's values in field order (the row API hands a struct over as a dict or a Row)."""
    return tuple(struct.values()) if isinstance(struct, dict) else tuple(struct)


def _q(name):
    return "`%s`" % name.replace("`", "``")


# ---------------------------------------------------------------------- the translators
@translates(TemporalJoin)
def translate_temporal_join(node, inputs, ctx):
    left, right = inputs
    right, newest_only = _versions(node.right, right, ctx)
    lnames, rnames = node.left.field_names, node.right.field_names
    ldf, rdf = left.df, right.df
    if right.changelog and not node.right.update_before:
        rdf = rdf.filter(F.col("__op") != F.lit(1))
    lstruct = ldf.select(F.struct(*[F.col(_q(n)) for n in lnames]).alias("s")).schema["s"].dataType
    rstruct = rdf.select(F.struct(*[F.col(_q(n)) for n in rnames]).alias("s")).schema["s"].dataType
    key_types = [ldf.schema[k].dataType for k in node.left_keys]
    keys = ["__k%d" % i for i in range(len(node.left_keys))]

    def op(stream, df):
        return (F.col("__op") if stream.changelog else F.lit(0)).cast("tinyint").alias("__op")
    probe = ldf.select(
        *[F.col(_q(k)).alias(name) for k, name in zip(node.left_keys, keys)],
        F.lit(LEFT).cast("tinyint").alias("__side"), F.unix_micros(F.col(_q(node.left_time))).alias("__t"),
        F.lit(None).cast("long").alias("__vt"), F.col("__seq").cast("long").alias("__seq"),
        F.lit(False).alias("__late"), op(left, ldf),
        F.struct(*[F.col(_q(n)) for n in lnames]).alias("__l"), F.lit(None).cast(rstruct).alias("__r"))
    versions = rdf.select(
        *[F.col(_q(k)).cast(t).alias(name) for k, t, name in zip(node.right_keys, key_types, keys)],
        F.lit(RIGHT).cast("tinyint").alias("__side"), F.lit(None).cast("long").alias("__t"),
        F.unix_micros(F.col(_q(node.right_time))).alias("__vt"), F.col("__seq").cast("long").alias("__seq"),
        F.lit(False).alias("__late"), op(right, rdf),
        F.lit(None).cast(lstruct).alias("__l"), F.struct(*[F.col(_q(n)) for n in rnames]).alias("__r"))
    out_names = node.field_names
    fields = [st.StructField(n, f.dataType, True) for n, f in zip(out_names, list(lstruct.fields) + list(rstruct.fields))]
    schema = st.StructType(fields + [st.StructField("__op", st.ByteType()), st.StructField("__seq", st.LongType())])
    processor = TemporalJoinProcessor(node.kind == "LEFT", len(lnames), len(rnames), schema.fieldNames(), newest_only)
    processor.watermark_delay_us = max(watermark_delay_ms(c) for c in node.inputs) * 1000
    column = event_time_column(node, ctx, node.output_name(0, node.left_time))
    kwargs = {"eventTimeColumnName": column} if column else {}
    joined = probe.unionByName(versions).groupBy(*keys).transformWithState(
        portable(processor), schema, "Append", "EventTime", **kwargs)
    joined = _with_condition(node, joined)
    hidden = [F.col("__seq"), F.lit(None).cast("timestamp").alias("__wm")] + ([F.col("__op")] if left.changelog else [])
    out = joined.select(*[F.col(_q(n)) for n in out_names], *hidden)
    return Stream(conform(out, node.fields), changelog=left.changelog)


def _versions(right, stream, ctx):
    """The versioned side's rows -> (Stream, newest_only). A versioned view (projections over a keep-last-row
    deduplication on a rowtime) is read from the deduplication's input: every row is a version unless it is
    older than its key's newest (the deduplication's changelog row by row; its translated Stream only holds
    each micro-batch's net change, which would skip versions). Otherwise the side's own Stream."""
    chain, n = [], right
    while isinstance(n, Calc) and n.condition is None:
        chain.append(n)
        n = n.input
    if not (isinstance(n, Deduplicate) and n.keep_last and n.time_kind == ROWTIME):
        return stream, False
    done = {}
    for m in post_order(n.input):
        done[id(m)] = TRANSLATORS[type(m)](m, [done[id(c)] for c in m.inputs], ctx)
    s = done[id(n.input)]
    for c in reversed(chain):
        s = TRANSLATORS[Calc](c, [s], ctx)
    return s, True


def _with_condition(node, joined):
    """The ON condition's rest: INNER keeps the rows it holds for; LEFT nulls the version where it fails."""
    if node.condition is None:
        return joined
    holds = F.coalesce(F.expr(node.condition.sql), F.lit(False))
    if node.kind == "INNER":
        return joined.filter(holds)
    nleft = len(node.left.fields)
    cols = [F.col(_q(n)) if i < nleft else F.when(holds, F.col(_q(n))).alias(n)
            for i, n in enumerate(node.field_names)]
    return joined.select(*cols, "__op", "__seq")


@translates(DropUpdateBefore)
def translate_drop_update_before(node, inputs, ctx):
    s = inputs[0]
    if not s.changelog:
        return s
    return Stream(s.df.filter(F.col("__op") != F.lit(1)), changelog=True)
