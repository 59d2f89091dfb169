"""Semi and anti joins (`SemiJoin`: IN / EXISTS / NOT IN / NOT EXISTS subqueries, INTERSECT, EXCEPT).

Batch: Spark's `left_semi` / `left_anti` join on the keys (`<=>` for a null-safe pair) and the condition.
Streaming: both inputs as one stream keyed by the join keys (none: one key for all rows, as Flink runs a join
without equalities on one task); the state holds the multisets of both sides' rows, the key's result (the left
rows that some right row matches, or that none does) is recomputed after each micro-batch and diffed: a left
row comes (+I) and goes (-D) as its matches come and go, on either side's changes."""

from .join import TwoSidedProcessor


class SemiJoinProcessor(TwoSidedProcessor):
    def __init__(self, anti, left_columns, right_columns, ttl_ms=0, condition=None, frozen=False):
        super().__init__(left_columns, right_columns, ttl_ms, condition, frozen)
        self.anti = anti

    def note(self, state, row):
        state.null_key = bool(row["__nk"])

    def result(self, state):
        rights = [] if state.null_key else [row for row, c in state.right.items() if c > 0]
        cond = self.condition
        out = []
        for row, c in state.left.items():
            if c <= 0:
                continue
            if cond is None:
                matched = bool(rights)
            else:
                matched = any(self.matches(row + r) for r in rights)
            if matched != self.anti:
                out.extend([row] * c)
        return out


# ---------------------------------------------------------------------- the translator
from pyspark.sql import functions as F  # noqa: E402
from pyspark.sql import types as st  # noqa: E402

from planner.errors import UnsupportedError  # noqa: E402
from planner.plan.semi_join import SemiJoin  # noqa: E402
from planner.expr.functions.math import join_condition_sql  # noqa: E402

from ..translate import Stream, conform, q, translates  # noqa: E402
from .group_aggregate import is_negative_zero, sign_keys  # noqa: E402
from .join import holds_collections, packed_sides  # noqa: E402
from .join_tested_by_spark import TestedSemiProcessor, calls_java_math, tested_by_spark  # noqa: E402
from .keyed_state import run_keyed  # noqa: E402
from .row_condition import RowCondition  # noqa: E402

_INTEGRAL = (st.ByteType, st.ShortType, st.IntegerType, st.LongType)
_NUMERIC = _INTEGRAL + (st.FloatType, st.DoubleType, st.DecimalType)


def key_types(left_types, right_types):
    """One Spark type per key pair that both sides' key columns are cast to (Spark groups by equal values)."""
    out = []
    for a, b in zip(left_types, right_types):
        if a == b:
            out.append(a)
        elif isinstance(a, _INTEGRAL) and isinstance(b, _INTEGRAL):
            out.append(st.LongType())
        elif isinstance(a, _NUMERIC) and isinstance(b, _NUMERIC):
            out.append(st.DoubleType())
        else:
            out.append(a)
    return out


@translates(SemiJoin)
def translate_semi_join(node, inputs, ctx):
    left, right = inputs
    if not ctx.streaming or not right.df.isStreaming:      # a static right side (VALUES) never changes: each
        return _batch(node, left, right)                   # left change is kept or dropped on its own
    if not left.df.isStreaming:
        raise UnsupportedError("A semi or anti join of constant rows (VALUES) with a streaming subquery is not "
                               "supported yet", *node.position)
    # java.lang.Math: the pairs tested by Spark (join_tested_by_spark.py); else tested while paired
    tested = calls_java_math(node)
    condition = RowCondition(node.condition, node.joined_names).check(node.position) \
        if node.condition is not None and not tested else None
    lcols, rcols = node.left.field_names, node.right.field_names
    ltypes = {f.name: f.dataType for f in left.df.schema.fields}
    rtypes = {f.name: f.dataType for f in right.df.schema.fields}
    lpack = ["__l%d" % i for i in range(len(lcols))]
    rpack = ["__r%d" % i for i in range(len(rcols))]
    keys = ["__jk%d" % i for i in range(len(node.left_keys))]
    types = key_types([ltypes[k] for k in node.left_keys], [rtypes[k] for k in node.right_keys])
    # a FLOAT/DOUBLE key by its binary form, as Flink's streaming join keys it: -0.0 apart from 0.0 (a NaN
    # matches a NaN: Spark groups them)
    signs = sign_keys(types, "__jks")

    def pack(s, side, join_keys):
        cols = [F.col(q(k)).cast(types[i]).alias(keys[i]) for i, k in enumerate(join_keys)]
        cols += [is_negative_zero(F.col(q(join_keys[i]))).alias(n) for i, n in signs]
        nulls = [F.col(q(k)).isNull() for k, safe in zip(join_keys, node.null_safe) if not safe]
        null_key = F.lit(False)
        for n in nulls:
            null_key = null_key | n
        cols += packed_sides(side, (lcols, rcols), (ltypes, rtypes), (lpack, rpack))
        op = F.col("__op") if s.changelog else F.lit(0).cast("tinyint")
        return s.df.select(*cols, null_key.alias("__nk"), F.lit(side).cast("tinyint").alias("__side"),
                           op.alias("__op"), F.col("__seq"))

    both = pack(left, 0, node.left_keys).unionByName(pack(right, 1, node.right_keys))
    out_fields = [st.StructField(n, ltypes[c], True) for n, c in zip(node.field_names, lcols)]
    frozen = holds_collections(list(ltypes.values()) + list(rtypes.values()))
    if tested:
        pair_fields = [st.StructField(n, t[c], True) for n, t, c in zip(
            node.joined_names, [ltypes] * len(lcols) + [rtypes] * len(rcols), lcols + rcols)]
        processor = TestedSemiProcessor(node.anti, lpack, rpack, ctx.ttl_ms, frozen)
        out = tested_by_spark(both, keys + [n for _, n in signs], lpack + rpack, pair_fields, node.condition.sql,
                              processor, out_fields, ctx, frozen, null_keys=True)
        return Stream(conform(out, node.fields), changelog=True)
    processor = SemiJoinProcessor(node.anti, lpack, rpack, ctx.ttl_ms, condition, frozen)
    out = run_keyed(both, keys + [n for _, n in signs], processor, out_fields, ctx)
    return Stream(conform(out, node.fields), changelog=True)


def _batch(node, left, right, left_keys=None, right_keys=None, null_safe=None):
    """Spark's left semi / anti join: the left rows (with their hidden columns) that some / no right row matches
    (on the node's keys, or those given)."""
    hidden = [F.col(h) for h in left.hidden()]
    l_df = left.df.select(*[F.col(q(c)) for c in node.left.field_names], *hidden)
    r_df = right.df.select(*[F.col(q(c)).alias(node.joined_name(1, c)) for c in node.right.field_names])
    spark = join_condition_sql(node.condition.sql, l_df.columns, r_df.columns, inner=not l_df.isStreaming) \
        if node.condition is not None else None
    if spark is not None:           # java.lang.Math's functions below the join
        l_df = l_df.select("*", *[F.expr(e).alias(n) for n, e in spark.left])
        r_df = r_df.select("*", *[F.expr(e).alias(n) for n, e in spark.right])
    cond = None
    pairs = zip(left_keys if left_keys is not None else node.left_keys,
                right_keys if right_keys is not None else node.right_keys,
                null_safe if null_safe is not None else node.null_safe)
    for a, b, safe in pairs:
        lc, rc = l_df[q(a)], r_df[q(node.joined_name(1, b))]
        c = lc.eqNullSafe(rc) if safe else lc == rc
        floating = [l_df.schema[a].dataType, r_df.schema[node.joined_name(1, b)].dataType]
        if not safe and any(isinstance(t, (st.DoubleType, st.FloatType)) for t in floating):
            c = c & ~F.isnan(lc) & ~F.isnan(rc)     # Flink's batch join: Java's == (a NaN matches nothing)
        cond = c if cond is None else cond & c
    if spark is not None and spark.sql is not None:
        c = F.expr(spark.sql)
        cond = c if cond is None else cond & c
    how = "left_anti" if node.anti else "left_semi"
    if spark is not None and spark.after is not None:
        # java.lang.Math over both sides (Spark refuses reflection in a join condition): the pairs `cond` joins,
        # filtered by it, then the left rows in some / none of them (told apart by an id of their own)
        l_df = l_df.withColumn("__lid", F.monotonically_increasing_id())
        pairs = (l_df.join(r_df, on=cond, how="inner") if cond is not None else l_df.crossJoin(r_df)) \
            .filter(F.expr(spark.after))
        out = l_df.join(pairs.select("__lid"), on="__lid", how=how)
    else:
        out = l_df.join(r_df, on=cond if cond is not None else F.lit(True), how=how)
    out = out.select(*[F.col(q(c)).alias(n) for c, n in zip(node.left.field_names, node.field_names)],
                     *[F.col(h) for h in left.hidden()])
    return Stream(conform(out, node.fields), changelog=left.changelog)
