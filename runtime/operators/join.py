"""Regular INNER / LEFT / RIGHT / FULL equi-joins over changelogs, keyed by the join key.

Both inputs arrive as one stream (`__side` 0 = left, 1 = right) so one keyed state holds the multisets
of both sides' rows. The key's joined result is recomputed after each batch and diffed: a left row padded
with NULLs is retracted (-D) when its first match arrives, and comes back when the last match leaves.
The rest of the ON condition (beyond the key equalities) decides which pairs match: an INNER join's result
is filtered by Spark; an outer join tests it while pairing (runtime/operators/row_condition.py), since a row
without a matching partner is padded with NULLs."""

from collections import Counter

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
        null_right = (None,) * len(self.right_columns)
        null_left = (None,) * len(self.left_columns)
        if self.kind in ("LEFT", "FULL"):
            out.extend(a + null_right for i, a in enumerate(left) if i not in paired_left)
        if self.kind in ("RIGHT", "FULL"):
            out.extend(null_left + b for j, b in enumerate(right) if j not in paired_right)
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
    spark = join_condition_sql(" AND ".join("(%s)" % c for c in conditions), l_df.columns, r_df.columns,
                               inner=node.kind == "INNER") if conditions else None
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
    joined = l_df.join(r_df, on=cond, how=how) if cond is not None else l_df.crossJoin(r_df)
    if spark is not None and spark.after is not None:
        joined = joined.filter(F.expr(spark.after))
    out = joined.select(*[F.col(q(n)) for n in node.field_names], F.col("__seq"),
                        F.lit(None).cast("timestamp").alias("__wm"))
    return Stream(conform(out, node.fields))


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
    processor = JoinProcessor(node.kind, lpack, rpack, ctx.ttl_ms, condition,
                              holds_collections(list(ltypes.values()) + list(rtypes.values())))
    keys += signs
    return run_keyed(both, keys + ["__jn"] if keys else keys, processor, out_fields, ctx)


def holds_collections(types):
    """Whether values of these Spark types include ARRAY, MAP (MULTISET) or ROW values, which a processor keeps
    frozen (Python's lists and dicts are no dict keys)."""
    return any(isinstance(t, (st.ArrayType, st.MapType, st.StructType)) for t in types)


def packed_sides(side, columns, types, packed):
    """The columns of a row of input `side` in the one stream of both sides: each side's fields under its
    packed names (`packed` = (left names, right names)), the other side's NULL."""
    return [(F.col(q(c)) if side == s else F.lit(None).cast(types[s][c])).alias(packed[s][i])
            for s in (0, 1) for i, c in enumerate(columns[s])]
