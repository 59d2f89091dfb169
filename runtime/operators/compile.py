"""Operator tree (planner/operators.py) -> streaming DataFrame of changes.

Every compiled node gives a DataFrame with the node's columns plus `__op` and `__seq`. Stateless `Calc`
nodes run as Spark expressions; stateful nodes run as our keyed processors (`transformWithState`, row
API, RocksDB state). `native_plan` recognises the common case Spark's own streaming aggregate does
correctly: an aggregate (and the projection / HAVING above it) over insert-only input."""

from dataclasses import dataclass

from pyspark.sql import functions as F
from pyspark.sql import types as st

from planner import operators as ops
from planner.errors import UnsupportedError

from ..connect_shims import portable
from ..tables import table_frame
from .group_aggregate import GroupAggregateProcessor, native_aggregate, output_schema
from .join import JoinProcessor
from .rank import RankProcessor

CHANGE_FIELDS = [st.StructField("__op", st.ByteType(), False), st.StructField("__seq", st.LongType(), False)]


def q(name):
    return "`%s`" % name.replace("`", "``")


class Compiler:
    def __init__(self, spark, ttl_ms=0, event_time=False):
        self.spark = spark
        self.ttl_ms = ttl_ms
        self.event_time = event_time
        self.frames = {}

    def time_mode(self):
        return "ProcessingTime" if self.ttl_ms else "None"

    def compile(self, node, parent=None):
        if isinstance(node, ops.Source):
            return self._source(node)
        if isinstance(node, ops.Calc):
            return self._calc(node, self.compile(node.input, node))
        if isinstance(node, ops.GroupAggregate):
            return self._aggregate(node, self.compile(node.input, node))
        if isinstance(node, ops.Join):
            return self._join(node, self.compile(node.left, node), self.compile(node.right, node))
        if isinstance(node, ops.Rank):
            return self._rank(node, self.compile(node.input, node), parent)
        raise UnsupportedError("Operator %s cannot run in streaming mode yet" % type(node).__name__)

    def _source(self, node):
        df = table_frame(self.spark, node.ref, streaming=True, event_time=self.event_time)
        return df.select(*[F.col(q(c)) for c in node.columns], F.col("__op"), F.col("__seq"))

    def _calc(self, node, df):
        if node.condition:
            df = df.filter(F.expr(node.condition))
        return df.select(*[F.expr(s).alias(n) for s, n in node.projections], F.col("__op"), F.col("__seq"))

    def _run(self, grouped, processor, fields):
        schema = st.StructType(fields + CHANGE_FIELDS)
        processor.output_names = tuple(f.name for f in schema.fields)
        return grouped.transformWithState(portable(processor), schema, "Append", self.time_mode())

    def _keyed(self, df, keys):
        if keys:
            return df, [q(k) for k in keys]
        return df.withColumn("__g", F.lit(0)), ["__g"]

    def _aggregate(self, node, df):
        fields = output_schema(df.schema, node.keys, node.aggregates)
        df, keys = self._keyed(df, node.keys)
        processor = GroupAggregateProcessor(node.keys, node.aggregates, self.ttl_ms)
        return self._run(df.groupBy(*keys), processor, fields)

    def _join(self, node, left, right):
        lcols, rcols = node.left.columns, node.right.columns
        ltypes = {f.name: f.dataType for f in left.schema.fields}
        rtypes = {f.name: f.dataType for f in right.schema.fields}
        lpack = ["__l%d" % i for i in range(len(lcols))]
        rpack = ["__r%d" % i for i in range(len(rcols))]

        def pack(df, side, keys):
            cols = [F.col(q(k)).alias("__jk%d" % i) for i, k in enumerate(keys)]
            for i, c in enumerate(lcols):
                cols.append((F.col(q(c)) if side == 0 else F.lit(None).cast(ltypes[c])).alias(lpack[i]))
            for i, c in enumerate(rcols):
                cols.append((F.col(q(c)) if side == 1 else F.lit(None).cast(rtypes[c])).alias(rpack[i]))
            return df.select(*cols, F.lit(side).cast("tinyint").alias("__side"), F.col("__op"), F.col("__seq"))

        both = pack(left, 0, node.left_keys).unionByName(pack(right, 1, node.right_keys))
        keys = ["__jk%d" % i for i in range(len(node.left_keys))]
        out = [st.StructField(n, ltypes[c], True) for n, c in zip(node.columns[:len(lcols)], lcols)]
        out += [st.StructField(n, rtypes[c], True) for n, c in zip(node.columns[len(lcols):], rcols)]
        processor = JoinProcessor(node.kind, lpack, rpack, self.ttl_ms)
        return self._run(both.groupBy(*keys), processor, out)

    def _rank(self, node, df, parent):
        with_rank = node.rank_column is not None and parent is not None and isinstance(parent, ops.Calc) \
            and any(node.rank_column in s for s, _ in parent.projections)
        cols = list(node.input.columns)
        types = {f.name: f for f in df.schema.fields}
        fields = [st.StructField(c, types[c].dataType, True) for c in cols]
        if node.rank_column:
            fields.append(st.StructField(node.rank_column, st.LongType(), True))
        processor = RankProcessor(cols, node.order, node.function, node.limit, with_rank,
                                  node.input.mode.insert_only, self.ttl_ms,
                                  rank_slot=node.rank_column is not None)
        keyed, keys = self._keyed(df, node.partition)
        return self._run(keyed.groupBy(*keys), processor, fields)


@dataclass
class NativeAggregatePlan:
    """An aggregate over insert-only input that Spark's native streaming aggregate runs (update mode)."""
    frame: object
    names: list
    keys: list


def native_plan(spark, root, event_time=False):
    """If `root` is [Calc over] GroupAggregate over insert-only input, return the native plan, else None."""
    top = root
    calc = None
    if isinstance(top, ops.Calc) and isinstance(top.input, ops.GroupAggregate):
        calc, agg = top, top.input
    elif isinstance(top, ops.GroupAggregate):
        agg = top
    else:
        return None
    if not agg.input.mode.insert_only or any(not n.mode.insert_only for n in ops.walk(agg.input)):
        return None
    if any(a.distinct for a in agg.aggregates):
        return None   # Spark has no streaming distinct aggregate
    if any(isinstance(n, (ops.GroupAggregate, ops.Rank, ops.Join)) for n in ops.walk(agg.input)):
        return None
    compiler = Compiler(spark, event_time=event_time)
    df = compiler.compile(agg.input, agg)
    out = native_aggregate(df, agg.keys, agg.aggregates)
    key_cols = ["__key%d" % i for i in range(len(agg.keys))]
    keyed = [F.col(q(k)).alias(kc) for k, kc in zip(agg.keys, key_cols)]
    if calc is None:
        frame = out.select(*[F.col(q(c)) for c in agg.columns], *keyed, F.lit(True).alias("__visible"))
        return NativeAggregatePlan(frame, list(agg.columns), key_cols)
    visible = F.expr(calc.condition) if calc.condition else F.lit(True)
    frame = out.select(*[F.expr(s).alias(n) for s, n in calc.projections], *keyed,
                       F.coalesce(visible, F.lit(False)).alias("__visible"))
    return NativeAggregatePlan(frame, [n for _, n in calc.projections], key_cols)
