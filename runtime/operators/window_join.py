"""Window join: a keyed event-time operator (runtime/operators/event_time.py) over the union of both sides,
keyed by the window bounds and the equi-join keys. A window's rows of both sides are held until the watermark
(the smaller of the two inputs') passes its end, then joined once: pairs, and for LEFT / RIGHT / FULL the rows
without a partner padded with NULLs. A row whose window had fired when it arrived (by its own input's
watermark) is dropped. A remaining non-equi condition filters an inner join's pairs; outer joins with one are
not supported yet. In batch mode: Spark's join on the bounds and keys."""

from pyspark.sql import functions as F
from pyspark.sql import types as st

from planner.errors import UnsupportedError
from planner.plan.window import WindowJoin
from planner.expr.functions.math import join_condition_sql

from ..translate import Stream, conform, q, translates
from .event_time import EventTimeProcessor
from .group_aggregate import is_negative_zero, sign_keys
from .keyed_state import python_grouped  # noqa: E402
from ..lateness import window_fired
from .window import bound_ms
from ..connect_shims import portable


class WindowJoinProcessor(EventTimeProcessor):
    operator_name = "a window join"
    value_columns = ("__side", "__l", "__r")

    def __init__(self, kind, left_width, right_width):
        self.kind = kind
        self.left_pad = (None,) * left_width
        self.right_pad = (None,) * right_width

    def on_time(self, key, rows, watermark_us, final):
        lefts = [(seq, _packed(v[1])) for _, seq, v in rows if v[0] == 0]
        rights = [(seq, _packed(v[2])) for _, seq, v in rows if v[0] == 1]
        out = []
        for lseq, l in lefts:
            for rseq, r in rights:
                out.append(l + r + (max(lseq or 0, rseq or 0),))
        if not rights and self.kind in ("LEFT", "FULL"):
            out += [l + self.right_pad + (seq,) for seq, l in lefts]
        if not lefts and self.kind in ("RIGHT", "FULL"):
            out += [self.left_pad + r + (seq,) for seq, r in rights]
        return out


def _packed(value):
    """A side's packed row as the processor receives it (a dict of a struct, or a Row) -> its values."""
    return tuple(value.values()) if isinstance(value, dict) else tuple(value)


def _side(node, stream, side, key_names, key_types, schemas):
    """One input as rows of the union: its fields packed in `__l` / `__r`, the join keys as `__k<i>`
    (`key_types`: the left side's Spark types of them; `schemas`: each side's StructFields)."""
    inp = node.inputs[side]
    w = node.left_window if side == 0 else node.right_window
    keys = [w.start, w.end] + (node.left_keys if side == 0 else node.right_keys)
    df = stream.df
    end_ms = bound_ms(F.col(q(w.end)), w.spec)        # the instant window_end (a wall-clock time) stands for
    packed = F.struct(*[F.col(q(n)) for n in inp.field_names])
    other_type = st.StructType([st.StructField(f.name, f.dataType, True) for f in schemas[1 - side]])
    cols = [F.lit(side).alias("__side")]
    cols += [packed.alias("__l"), F.lit(None).cast(other_type).alias("__r")] if side == 0 else \
        [F.lit(None).cast(other_type).alias("__l"), packed.alias("__r")]
    cols += [F.col(q(k)).cast(key_types[i]).alias(key_names[i]) for i, k in enumerate(keys)]
    cols += [is_negative_zero(F.col(q(keys[i]))).alias(n) for i, n in sign_keys(key_types, "__ks")]
    cols += [((end_ms - 1) * 1000).alias("__t"), F.coalesce(window_fired(end_ms), F.lit(False)).alias("__late"),
             F.col("__seq")]
    return df.select(*cols)


@translates(WindowJoin)
def translate_window_join(node, inputs, ctx):
    if not ctx.streaming:
        return _batch(node, inputs)
    if node.condition is not None and node.kind != "INNER":
        raise UnsupportedError("A %s window join with a condition besides equalities is not supported yet"
                               % node.kind, *node.position)
    schemas = [[next(f for f in s.df.schema.fields if f.name == name) for name in n.field_names]
               for s, n in zip(inputs, node.inputs)]
    left_types = {f.name: f.dataType for f in schemas[0]}
    lw = node.left_window
    key_types = [left_types[k] for k in [lw.start, lw.end] + node.left_keys]
    key_names = ["__k%d" % i for i in range(len(key_types))]
    union = _side(node, inputs[0], 0, key_names, key_types, schemas).unionByName(
        _side(node, inputs[1], 1, key_names, key_types, schemas))
    processor = WindowJoinProcessor(node.kind, len(schemas[0]), len(schemas[1]))
    fields = [st.StructField(f.name, src.dataType, True) for f, src in zip(node.fields, schemas[0] + schemas[1])]
    fields.append(st.StructField("__seq", st.LongType(), True))
    processor.output_names = tuple(f.name for f in fields)
    time = node.window_ref().time if node.window_ref() is not None else None
    signs = [n for _, n in sign_keys(key_types, "__ks")]     # (-0.0 apart from 0.0, as Flink keys them)
    grouped = python_grouped(union, key_names, *signs)
    out = grouped.transformWithState(portable(processor), st.StructType(fields), "Append",
                                                                "EventTime",
                                                       eventTimeColumnName=time or "")
    if node.condition is not None:
        out = out.filter(F.expr(node.condition.sql))
    out = out.withColumn("__wm", F.lit(None).cast("timestamp"))
    return Stream(conform(out, node.fields))


def _batch(node, inputs):
    names = node.field_names
    nl = len(node.left.fields)
    left = inputs[0].df.select(*[F.col(q(n)).alias(names[i]) for i, n in enumerate(node.left.field_names)],
                               F.col("__seq").alias("__lseq"))
    right = inputs[1].df.select(*[F.col(q(n)).alias(names[nl + i]) for i, n in enumerate(node.right.field_names)],
                                F.col("__seq").alias("__rseq"))
    lw, rw = node.left_window, node.right_window
    pairs = [(lw.start, rw.start), (lw.end, rw.end)] + list(zip(node.left_keys, node.right_keys))
    cond = None
    for a, b in pairs:
        lc, rc = F.col(q(node.output_name(0, a))), F.col(q(node.output_name(1, b)))
        c = lc == rc
        if isinstance(left.schema[node.output_name(0, a)].dataType, (st.DoubleType, st.FloatType)):
            c = c & ~F.isnan(lc)            # Flink's batch join: Java's == (a NaN matches nothing)
        cond = c if cond is None else cond & c
    spark = join_condition_sql(node.condition.sql, left.columns, right.columns, inner=node.kind == "INNER") \
        if node.condition is not None else None
    if spark is not None:           # java.lang.Math's functions below the join, or over the joined rows
        left = left.select("*", *[F.expr(e).alias(n) for n, e in spark.left])
        right = right.select("*", *[F.expr(e).alias(n) for n, e in spark.right])
        if spark.sql is not None:
            cond = cond & F.expr(spark.sql)
    how = {"INNER": "inner", "LEFT": "left", "RIGHT": "right", "FULL": "full"}[node.kind]
    out = left.join(right, cond, how)
    if spark is not None and spark.after is not None:
        out = out.filter(F.expr(spark.after))
    out = out.select(*[F.col(q(n)) for n in names], F.greatest("__lseq", "__rseq").alias("__seq"),
                     F.lit(None).cast("timestamp").alias("__wm"))
    return Stream(conform(out, node.fields))
