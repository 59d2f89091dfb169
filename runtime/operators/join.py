"""Regular INNER / LEFT / RIGHT / FULL equi-joins over changelogs, keyed by the join key.

Both inputs arrive as one stream (`__side` 0 = left, 1 = right) so one keyed state holds the multisets
of both sides' rows. The key's joined result is recomputed after each batch and diffed: a left row padded
with NULLs is retracted (-D) when its first match arrives, and comes back when the last match leaves.
The rest of the ON condition (beyond the key equalities) decides which pairs match: an INNER join's result
is filtered by Spark; an outer join tests it while pairing (runtime/operators/row_condition.py), since a row
without a matching partner is padded with NULLs."""

from collections import Counter
from typing import NamedTuple

from .keyed_state import KeyedChangelogProcessor, add, freeze, multiset_diff, thaw, weight


class SidesState:
    __slots__ = ("left", "right", "null_key")

    def __init__(self):
        self.left = Counter()
        self.right = Counter()
        self.null_key = False       # (semi joins) the key has a NULL where `=` compares: nothing matches


class TwoSidedProcessor(KeyedChangelogProcessor):
    """A key's state is the multisets of both sides' rows (`__side` 0 left, 1 right, each side's fields packed
    in `left_columns` / `right_columns`); `result` pairs them."""

    def __init__(self, left_columns, right_columns, ttl_ms=0, condition=None, frozen=False):
        self.left_columns = left_columns      # names of the packed left columns in the input rows
        self.right_columns = right_columns
        self.ttl_ms = ttl_ms
        self.condition = condition            # RowCondition over a joined row, or None
        self.frozen = frozen                  # rows hold ARRAY, MAP or ROW values: kept frozen (keyed_state.freeze)

    def empty(self):
        return SidesState()

    def is_empty(self, state):
        return not state.left and not state.right

    def apply(self, state, rows):
        for r in rows:
            w = weight(r["__op"])
            self.note(state, r)
            row = tuple(r[c] for c in (self.left_columns if r["__side"] == 0 else self.right_columns))
            if self.frozen:
                row = freeze(row)
            add(state.left if r["__side"] == 0 else state.right, row, w)
        return state

    def matches(self, joined):
        """Whether the condition holds for a joined row (of the state's values)."""
        return self.condition(thaw(joined) if self.frozen else joined)

    def emit(self, old, new):
        changes = multiset_diff(old, new)
        return [(op, thaw(row)) for op, row in changes] if self.frozen else changes

    def note(self, state, row):
        """What a processor keeps of an input row besides its side's multiset (nothing here)."""


class JoinProcessor(TwoSidedProcessor):
    def __init__(self, kind, left_columns, right_columns, ttl_ms=0, condition=None, frozen=False):
        super().__init__(left_columns, right_columns, ttl_ms, condition, frozen)
        self.kind = kind

    def result(self, state):
        left = [row for row, c in state.left.items() for _ in range(max(c, 0))]
        right = [row for row, c in state.right.items() for _ in range(max(c, 0))]
        out = []
        paired_left, paired_right = set(), set()
        cond = self.condition is not None
        for i, a in enumerate(left):
            for j, b in enumerate(right):
                if not cond or self.matches(a + b):
                    out.append(a + b)
                    paired_left.add(i)
                    paired_right.add(j)
        return out + outer_rows(self.kind, left, right, lambda i, a: i in paired_left, lambda j, b: j in paired_right,
                                len(self.left_columns), len(self.right_columns))


def outer_rows(kind, left, right, left_paired, right_paired, left_width, right_width):
    """The rows of an outer join `kind` that are padded with NULLs: each row of `left` (`right`: lists of a key's
    rows) for which `left_paired(i, row)` (`right_paired`) is false."""
    out = []
    if kind in ("LEFT", "FULL"):
        out.extend(a + (None,) * right_width for i, a in enumerate(left) if not left_paired(i, a))
    if kind in ("RIGHT", "FULL"):
        out.extend((None,) * left_width + b for j, b in enumerate(right) if not right_paired(j, b))
    return out


# ---------------------------------------------------------------------- the translator
from pyspark.sql import functions as F  # noqa: E402
from pyspark.sql import types as st  # noqa: E402

from planner.plan.join import Join  # noqa: E402
from planner.expr.functions.math import join_condition_sql  # noqa: E402
from .group_aggregate import is_negative_zero  # noqa: E402

from ..translate import Stream, conform, q, translates  # noqa: E402
from .keyed_state import run_keyed  # noqa: E402
from .row_condition import RowCondition  # noqa: E402
from ..map_columns import has_map  # noqa: E402
from ..physical.nodes import SPARK_JOIN  # noqa: E402


def _renamed(node, side, stream):
    """Input `side`'s field columns renamed to the join's output names."""
    child = node.inputs[side]
    return [F.col(q(c)).alias(node.output_name(side, c)) for c in child.field_names]


@translates(Join)
def translate_join(node, inputs, ctx):
    left, right = inputs
    if ctx.chosen(node).choice == SPARK_JOIN:
        return native_join(node, left, right, ctx)
    paired = node.condition is not None and node.kind != "INNER"
    from .join_tested_by_spark import calls_java_math, join_tested_by_spark
    if paired and calls_java_math(node):
        return Stream(conform(join_tested_by_spark(node, left, right, ctx), node.fields), changelog=True)
    condition = RowCondition(node.condition, node.field_names).check(node.position) if paired else None
    out = _processor_join(node, left, right, ctx, condition)
    if node.condition is not None and not paired:
        out = out.filter(F.expr(node.condition.sql))
    return Stream(conform(out, node.fields), changelog=True)


def native_join(node, left, right, ctx, extra=()):
    """Spark's join of `node`'s inputs on its keys, its condition and the `extra` conditions (Spark SQL)."""
    l_df = left.df.select(*_renamed(node, 0, left), F.col("__seq"))
    r_df = right.df.select(*_renamed(node, 1, right))
    conditions = ([node.condition.sql] if node.condition is not None else []) + list(extra)
    static = not l_df.isStreaming and not r_df.isStreaming     # (an outer join's pairs tested after: below)
    spark = join_condition_sql(" AND ".join("(%s)" % c for c in conditions), l_df.columns, r_df.columns,
                               inner=node.kind == "INNER" or static) if conditions else None
    if spark is not None:           # java.lang.Math's functions below the join, or over the joined rows
        l_df = l_df.select("*", *[F.expr(e).alias(n) for n, e in spark.left])
        r_df = r_df.select("*", *[F.expr(e).alias(n) for n, e in spark.right])
    cond = None
    for a, b in zip(node.left_keys, node.right_keys):
        lk, rk = l_df[q(node.output_name(0, a))], r_df[q(node.output_name(1, b))]
        c = lk == rk
        if isinstance(l_df.schema[node.output_name(0, a)].dataType, (st.DoubleType, st.FloatType)):
            c = c & _floating_keys_match(lk, rk, ctx.streaming)
        cond = c if cond is None else cond & c
    if spark is not None and spark.sql is not None:
        cond = F.expr(spark.sql) if cond is None else cond & F.expr(spark.sql)
    how = {"INNER": "inner", "LEFT": "left", "RIGHT": "right", "FULL": "full"}[node.kind]
    if spark is not None and spark.after is not None and node.kind != "INNER":
        joined = _outer_tested_after(node.kind, l_df, r_df, cond, spark.after)
    else:
        joined = l_df.join(r_df, on=cond, how=how) if cond is not None else l_df.crossJoin(r_df)
        if spark is not None and spark.after is not None:
            joined = joined.filter(F.expr(spark.after))
    out = joined.select(*[F.col(q(n)) for n in node.field_names], F.col("__seq"),
                        F.lit(None).cast("timestamp").alias("__wm"))
    return Stream(conform(out, node.fields))


def _outer_tested_after(kind, l_df, r_df, cond, after):
    """An outer join (of static inputs) whose condition `after` calls java.lang.Math over both sides (Spark refuses
    reflection in a join condition): the pairs that `cond` joins, filtered by `after`, then each row of the outer
    side(s) in none of them, padded with NULLs (rows told apart by an id of their own)."""
    l_df = l_df.withColumn("__lid", F.monotonically_increasing_id())
    r_df = r_df.withColumn("__rid", F.monotonically_increasing_id())
    pairs = (l_df.join(r_df, on=cond, how="inner") if cond is not None else l_df.crossJoin(r_df)).filter(F.expr(after))
    out = pairs
    if kind in ("LEFT", "FULL"):
        alone = l_df.join(pairs.select("__lid"), on="__lid", how="left_anti")
        out = out.unionByName(alone, allowMissingColumns=True)
    if kind in ("RIGHT", "FULL"):
        alone = r_df.join(pairs.select("__rid"), on="__rid", how="left_anti")
        out = out.unionByName(alone, allowMissingColumns=True)
    return out


def _floating_keys_match(lk, rk, streaming):
    """What Flink asks of two FLOAT/DOUBLE join keys besides Spark's `=` (which matches NaN with NaN and -0.0
    with 0.0): its batch join compares them with Java's `==` (a NaN matches nothing), its streaming join by
    their binary form (a NaN matches a NaN, -0.0 does not match 0.0)."""
    if streaming:
        return is_negative_zero(lk) == is_negative_zero(rk)
    return ~F.isnan(lk)


def _processor_join(node, left, right, ctx, condition=None):
    """Both inputs as one keyed stream (`__side` 0/1, every field of both sides packed in), joined by
    JoinProcessor per join key (`condition`: tested while pairing)."""
    sides = both_sides(node, left, right, ctx)
    processor = JoinProcessor(node.kind, sides.left_packed, sides.right_packed, ctx.ttl_ms, condition, sides.frozen)
    return run_keyed(sides.df, sides.keys, processor, sides.fields, ctx)


class BothSides(NamedTuple):
    df: object              # both inputs' rows as one stream: keys, packed fields, __jn, __side, __op, __seq
    keys: list              # the columns the stream is keyed by
    left_packed: list       # the packed names of the left fields, then of the right ones
    right_packed: list
    fields: list            # the joined row's StructFields (named as the join's output)
    frozen: bool            # rows hold ARRAY, MAP or ROW values (holds_collections)


def both_sides(node, left, right, ctx):
    """`node`'s inputs as one stream keyed by the join key, for a processor that pairs them."""
    lcols, rcols = node.left.field_names, node.right.field_names
    ltypes = {f.name: f.dataType for f in left.df.schema.fields}
    rtypes = {f.name: f.dataType for f in right.df.schema.fields}
    lpack = ["__l%d" % i for i in range(len(lcols))]
    rpack = ["__r%d" % i for i in range(len(rcols))]
    keys = ["__jk%d" % i for i in range(len(node.left_keys))]
    floating = [i for i, k in enumerate(node.left_keys)
                if isinstance(ltypes[k], (st.DoubleType, st.FloatType))]      # (see _floating_keys_match)
    signs = ["__jks%d" % i for i in floating] if ctx.streaming else []

    def pack(s, side, join_keys):
        df = s.df
        cols = [F.col(q(k)).alias(keys[i]) for i, k in enumerate(join_keys)]
        cols += [is_negative_zero(F.col(q(join_keys[i]))).alias(n) for i, n in zip(floating, signs)]
        cols += packed_sides(side, (lcols, rcols), (ltypes, rtypes), (lpack, rpack))
        op = F.col("__op") if s.changelog else F.lit(0).cast("tinyint")
        # a NULL key equals nothing: such a row is keyed by its side and content, alone (its retraction with it)
        null_key = None
        for i, k in enumerate(join_keys):
            matches_nothing = F.col(q(k)).isNull()
            if i in floating and not ctx.streaming:        # (a NaN in batch: Java's ==)
                matches_nothing = matches_nothing | F.isnan(F.col(q(k)))
            null_key = matches_nothing if null_key is None else null_key | matches_nothing
        hashable = [F.col(q(c)) for c in s_cols[side] if not has_map((ltypes, rtypes)[side][c])]
        alone = F.when(null_key, F.xxhash64(F.lit(side), *hashable)) \
            if null_key is not None else F.lit(None).cast("long")
        return df.select(*cols, alone.alias("__jn"), F.lit(side).cast("tinyint").alias("__side"), op.alias("__op"),
                         F.col("__seq"))

    s_cols = (lcols, rcols)
    both = pack(left, 0, node.left_keys).unionByName(pack(right, 1, node.right_keys))
    out_fields = [st.StructField(n, ltypes[c], True) for n, c in zip(node.field_names[:len(lcols)], lcols)]
    out_fields += [st.StructField(n, rtypes[c], True) for n, c in zip(node.field_names[len(lcols):], rcols)]
    keys += signs
    frozen = holds_collections(list(ltypes.values()) + list(rtypes.values()))
    return BothSides(both, keys + ["__jn"] if keys else keys, lpack, rpack, out_fields, frozen)


def holds_collections(types):
    """Whether values of these Spark types include ARRAY, MAP (MULTISET) or ROW values, which a processor keeps
    frozen (Python's lists and dicts are no dict keys)."""
    return any(isinstance(t, (st.ArrayType, st.MapType, st.StructType)) for t in types)


def packed_sides(side, columns, types, packed):
    """The columns of a row of input `side` in the one stream of both sides: each side's fields under its
    packed names (`packed` = (left names, right names)), the other side's NULL."""
    return [(F.col(q(c)) if side == s else F.lit(None).cast(types[s][c])).alias(packed[s][i])
            for s in (0, 1) for i, c in enumerate(columns[s])]
