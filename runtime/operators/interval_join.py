"""IntervalJoin: Flink's RowTimeIntervalJoin as a keyed event-time operator (runtime/operators/event_time.py);
batch mode: Spark's join with the keys, the time bounds and the rest of the condition.

Both inputs are unioned and keyed by the equi keys (one key for all rows without them). A row pairs, as it
arrives, with every held row of the other side whose time is within the bounds and for which the rest of
the condition holds (runtime/operators/row_condition.py); pairs are emitted at once. A row is then held until
the watermark (Spark's: the smaller of both inputs') passes its time plus how long the other side may still
match it (left: -lowerBound, right: upperBound); when it leaves without having been paired, an outer side's
row is emitted with NULLs. Late rows are not dropped (Flink's operator drops none: the rows' times travel as
plain values, so Spark's watermark does not filter them either): a row whose time plus that span the
watermark has already passed pairs with what is held and leaves at once (NULLs on an outer side), as in
Flink. Flink decides "already passed" per row with the watermark of both inputs at that moment, which
depends on how the two inputs interleave; dynsql decides it with the micro-batch's watermark, so only rows
late by more than their interval may pair differently. The output is insert-only; its watermark is held
back by the larger span (planner IntervalJoin.output_delay_ms), as Flink's."""

from pyspark.sql import functions as F
from pyspark.sql import types as st

from planner.plan.interval_join import IntervalJoin

from ..translate import Stream, conform, q, translates
from .event_time import EventTimeProcessor, watermark_delay_ms
from .group_aggregate import is_negative_zero, sign_keys
from .keyed_state import python_grouped  # noqa: E402
from .row_condition import RowCondition
from ..connect_shims import portable

LEFT, RIGHT = 0, 1
SEQ_STRIDE = 1 << 16          # output __seq: the row that completed the pair's __seq * SEQ_STRIDE + its index
ALL_KEY = "__ij_all"


class IntervalJoinProcessor(EventTimeProcessor):
    """Held rows' values are lists [side, rowtime us, paired, fields]: `paired` is updated in place."""
    operator_name = "the interval join"

    def __init__(self, kind, lower_us, upper_us, n_left, n_right, condition, output_names):
        self.outer = (kind in ("LEFT", "FULL"), kind in ("RIGHT", "FULL"))
        self.lower_us, self.upper_us = lower_us, upper_us
        self.nulls = ((None,) * n_left, (None,) * n_right)
        self.condition = condition
        self.output_names = tuple(output_names)

    def values(self, row):
        side = row["__side"]
        fields = row["__l"] if side == LEFT else row["__r"]
        return [side, row["__rt"], False, tuple(fields.values()) if isinstance(fields, dict) else tuple(fields)]

    def on_arrival(self, key, rows):
        held = ([], [])
        for _, _, v in self.held:
            held[v[0]].append(v)
        out = []
        for t, seq, v in sorted(rows, key=lambda r: r[1]):      # arrival order
            side = v[0]
            n = 0
            for w in held[1 - side] if v[1] is not None else ():
                left, right = (v, w) if side == LEFT else (w, v)
                if self.lower_us <= left[1] - right[1] <= self.upper_us and \
                        (self.condition is None or self.condition(left[3] + right[3])):
                    out.append(left[3] + right[3] + (seq * SEQ_STRIDE + n,))
                    n += 1
                    v[2] = w[2] = True
            if t is not None:
                held[side].append(v)
            elif not v[2] and self.outer[side]:                  # no time, never held: its NULL row now
                out.append(self._padded(v, seq * SEQ_STRIDE + n))
        return out

    def on_time(self, key, rows, watermark_us, final):
        return [self._padded(v, seq * SEQ_STRIDE + SEQ_STRIDE - 1) for _, seq, v in rows
                if not v[2] and self.outer[v[0]]]

    def _padded(self, v, seq):
        if v[0] == LEFT:
            return v[3] + self.nulls[RIGHT] + (seq,)
        return self.nulls[LEFT] + v[3] + (seq,)


# ---------------------------------------------------------------------- the translator
@translates(IntervalJoin)
def translate_interval_join(node, inputs, ctx):
    left, right = inputs
    if not ctx.streaming:
        from .join import native_join
        return native_join(node, left, right, ctx, extra=[p.sql for p in node.time_predicates])
    lnames, rnames = node.left.field_names, node.right.field_names
    ldf, rdf = left.df, right.df
    lstruct = ldf.select(F.struct(*[F.col(q(n)) for n in lnames]).alias("s")).schema["s"].dataType
    rstruct = rdf.select(F.struct(*[F.col(q(n)) for n in rnames]).alias("s")).schema["s"].dataType
    key_types = [ldf.schema[k].dataType for k in node.left_keys]
    keys = ["__k%d" % i for i in range(len(node.left_keys))] or [ALL_KEY]

    def side(df, s, key_cols, time, keep_ms):
        rt = F.unix_micros(F.col(q(time)))
        held = rt + F.lit(keep_ms * 1000)          # NULL for a row without a time: it never pairs
        if key_cols:
            k = [F.col(q(c)).cast(t).alias(name) for c, t, name in zip(key_cols, key_types, keys)]
            k += [is_negative_zero(F.col(q(key_cols[i]))).alias(n) for i, n in sign_keys(key_types, "__ks")]
        else:
            k = [F.lit(0).alias(ALL_KEY)]
        return df.select(
            *k, F.lit(s).cast("tinyint").alias("__side"), held.alias("__t"), F.col("__seq").cast("long").alias("__seq"),
            F.lit(False).alias("__late"), rt.alias("__rt"),
            (F.struct(*[F.col(q(n)) for n in lnames]) if s == LEFT else F.lit(None).cast(lstruct)).alias("__l"),
            (F.struct(*[F.col(q(n)) for n in rnames]) if s == RIGHT else F.lit(None).cast(rstruct)).alias("__r"))
    both = side(ldf, LEFT, node.left_keys, node.left_time, node.left_relative_ms).unionByName(
        side(rdf, RIGHT, node.right_keys, node.right_time, node.right_relative_ms))
    fields = [st.StructField(n, f.dataType, True)
              for n, f in zip(node.field_names, list(lstruct.fields) + list(rstruct.fields))]
    schema = st.StructType(fields + [st.StructField("__seq", st.LongType())])
    condition = RowCondition(node.condition, node.field_names).check(node.position) \
        if node.condition is not None else None
    processor = IntervalJoinProcessor(node.kind, node.lower_ms * 1000, node.upper_ms * 1000, len(lnames),
                                      len(rnames), condition, schema.fieldNames())
    processor.watermark_delay_us = max(watermark_delay_ms(c) for c in node.inputs) * 1000
    # no eventTimeColumnName: pairs are emitted as they are found, behind the watermark (Flink holds the
    # output's watermark back instead: operators above release rows that much later, see watermark_delay_ms)
    signs = [n for _, n in sign_keys(key_types, "__ks")]     # (-0.0 apart from 0.0, as Flink keys them)
    grouped = python_grouped(both, keys, *signs)
    out = grouped.transformWithState(portable(processor), schema, "Append", "EventTime")
    out = out.select(*[F.col(q(n)) for n in node.field_names], F.col("__seq"),
                     F.lit(None).cast("timestamp").alias("__wm"))
    return Stream(conform(out, node.fields))
