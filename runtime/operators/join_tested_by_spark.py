"""A streaming outer, semi or anti join whose condition calls java.lang.Math (EXP, LN, LOG*, POWER), in two keyed
steps with Spark between them: Flink calls java.lang.Math, which only the JVM computes as Flink does (Python's
math module is the C library's, Spark's EXP etc. StrictMath's: both differ from it in the last digit for some
inputs), and Spark refuses a reflection call in a join condition.

1. `PairsProcessor`, keyed by the join key: every pair of rows of both sides with equal keys, as a changelog
   (+I when a pair forms, -D when one of its rows goes), and each input row passed on as it came;
2. Spark evaluates the condition over each pair (its own translation, java.lang.Math through reflection);
3. keyed by the join key again, the key's rows of both sides and its pairs for which the condition is TRUE:
   `TestedPairsProcessor`'s result is those pairs and each row without one padded with NULLs (LEFT, RIGHT,
   FULL), `TestedSemiProcessor`'s the left rows with one (semi) or without (anti), recomputed after each
   micro-batch and diffed, as JoinProcessor and SemiJoinProcessor give them."""

from collections import Counter

from pyspark.sql import functions as F
from pyspark.sql import types as st

from ..translate import q
from .join import SidesState, TwoSidedProcessor
from .keyed_state import add, freeze, run_keyed, weight

PAIR = 2      # `__side` of a pair in the first step's output (0, 1: an input row passed on)


def calls_java_math(node):
    """Whether `node`'s condition calls java.lang.Math (planner/expr/functions/math.py: Spark's reflection), which
    Python would compute as the C library does."""
    return node.condition is not None and "java_method(" in node.condition.sql.lower()


class PairsProcessor(TwoSidedProcessor):
    """Step 1: the key's pairs (a changelog of them) and its input rows passed on."""

    def __init__(self, key_columns, left_columns, right_columns, ttl_ms=0, frozen=False, null_keys=False):
        super().__init__(left_columns, right_columns, ttl_ms, None, frozen)
        self.key_columns = key_columns      # the input's key columns, passed on to step 3
        self.null_keys = null_keys          # (semi joins) rows have `__nk`: a NULL where `=` compares

    def note(self, state, row):
        if self.null_keys:
            state.null_key = bool(row["__nk"])

    def apply(self, state, rows):
        self.key = tuple(rows[0][k] for k in self.key_columns)     # (a key's rows: one key)
        self.passed = [(r["__op"], tuple(r[c] for c in self.left_columns + self.right_columns), r["__side"])
                       for r in rows]
        return super().apply(state, rows)

    def result(self, state):
        if state.null_key:
            return []
        left = [row for row, c in state.left.items() for _ in range(max(c, 0))]
        right = [row for row, c in state.right.items() for _ in range(max(c, 0))]
        return [a + b for a in left for b in right]

    def emit(self, old, new):
        out = [(op, self.key + values + (side,)) for op, values, side in self.passed]
        out += [(op, self.key + row + (PAIR,)) for op, row in super().emit(old, new)]
        return out


class TestedState(SidesState):
    __slots__ = ("pairs",)

    def __init__(self):
        super().__init__()
        self.pairs = Counter()      # the pairs the condition holds for


class TestedPairsProcessor(TwoSidedProcessor):
    """Step 3: the pairs the condition holds for, and the rows without one padded with NULLs."""

    def __init__(self, kind, left_columns, right_columns, ttl_ms=0, frozen=False):
        super().__init__(left_columns, right_columns, ttl_ms, None, frozen)
        self.kind = kind            # LEFT, RIGHT or FULL

    def empty(self):
        return TestedState()

    def is_empty(self, state):
        return not state.left and not state.right and not state.pairs

    def apply(self, state, rows):
        sides = [r for r in rows if r["__side"] != PAIR]
        super().apply(state, sides)
        for r in rows:
            if r["__side"] == PAIR and r["__holds"]:
                row = tuple(r[c] for c in self.left_columns + self.right_columns)
                add(state.pairs, freeze(row) if self.frozen else row, weight(r["__op"]))
        return state

    def result(self, state):
        from .join import outer_rows
        width = len(self.left_columns)
        out = [row for row, c in state.pairs.items() for _ in range(max(c, 0))]
        left = [row for row, c in state.left.items() for _ in range(max(c, 0))]
        right = [row for row, c in state.right.items() for _ in range(max(c, 0))]
        paired_left = {row[:width] for row in out}
        paired_right = {row[width:] for row in out}
        return out + outer_rows(self.kind, left, right, lambda i, a: a in paired_left,
                                lambda j, b: b in paired_right, width, len(self.right_columns))


class TestedSemiProcessor(TestedPairsProcessor):
    """Step 3 of a semi (anti) join: the left rows with a pair the condition holds for (without one)."""

    def __init__(self, anti, left_columns, right_columns, ttl_ms=0, frozen=False):
        super().__init__(None, left_columns, right_columns, ttl_ms, frozen)
        self.anti = anti

    def result(self, state):
        width = len(self.left_columns)
        paired = {row[:width] for row, c in state.pairs.items() if c > 0}
        return [row for row, c in state.left.items() for _ in range(max(c, 0)) if (row in paired) != self.anti]


def join_tested_by_spark(node, left, right, ctx):
    """`node` (an outer join, calls_java_math) over the streams `left` and `right`."""
    from .join import both_sides
    sides = both_sides(node, left, right, ctx)
    processor = TestedPairsProcessor(node.kind, sides.left_packed, sides.right_packed, ctx.ttl_ms, sides.frozen)
    return tested_by_spark(sides.df, sides.keys, sides.left_packed + sides.right_packed, sides.fields,
                           node.condition.sql, processor, sides.fields, ctx, sides.frozen)


def tested_by_spark(both, keys, packed, pair_fields, condition, processor, out_fields, ctx, frozen,
                    null_keys=False):
    """Steps 1 to 3 over `both` (both inputs' rows as one stream, keyed by `keys`, their fields `packed`, a
    joined row's fields `pair_fields`, which Spark SQL `condition` reads); `processor` is step 3, its output
    `out_fields`."""
    key_fields = sorted([f for f in both.schema.fields if f.name in keys], key=lambda f: keys.index(f.name))
    step1_fields = key_fields + [st.StructField(p, f.dataType, True) for p, f in zip(packed, pair_fields)] + \
        [st.StructField("__side", st.ByteType(), False)]
    width = len(processor.left_columns)
    pairs = PairsProcessor(keys, packed[:width], packed[width:], ctx.ttl_ms, frozen, null_keys)
    step1 = run_keyed(both, keys, pairs, step1_fields, ctx)
    holds = F.coalesce(F.expr(condition), F.lit(False))
    tested = step1.select(*[F.col(f.name) for f in key_fields],
                          *[F.col(p).alias(f.name) for p, f in zip(packed, pair_fields)], "__side", "__op", "__seq")
    tested = tested.select("*", F.when(F.col("__side") == PAIR, holds).otherwise(F.lit(False)).alias("__holds"))
    tested = tested.select(*[F.col(f.name) for f in key_fields],
                           *[F.col(q(f.name)).alias(p) for p, f in zip(packed, pair_fields)],
                           "__side", "__holds", "__op", "__seq")
    return run_keyed(tested, keys, processor, out_fields, ctx)
