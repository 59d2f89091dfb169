"""Rank over a partition (Top-N, deduplication, RANK / DENSE_RANK / ROW_NUMBER without a limit) over a
changelog, keyed by the partition columns.

The partition's rows are kept as a multiset; after each batch its ranked result (rows with rank <= N,
each with its rank number when the query shows it) is recomputed and compared position by position:
a changed position is -U old / +U new, a new one +I, a vanished one -D. Ties in ROW_NUMBER keep arrival
order (Flink's). Over insert-only input with ROW_NUMBER and a limit, only the top N rows are kept."""

from collections import Counter

from .keyed_state import NAN, KeyedChangelogProcessor, add, freeze, thaw, update_pair, weight
from ..sort_keys import Descending


class RankState:
    __slots__ = ("rows", "arrival")

    def __init__(self):
        self.rows = Counter()       # row -> signed count
        self.arrival = {}           # row -> first arrival seq (tie-break)


def _sort_value(v, ascending):
    """Flink's order: NULLs first for ASC, last for DESC. A NaN above every number (Flink's streaming Top-N
    compares with Java's `<` and `>`, for which a NaN equals every value: where it lands depends on its TreeMap;
    dynsql ranks it as Double.compare does, as Flink's batch sort); -0.0 and 0.0 are equal (arrival order)."""
    v = _ordered(v)
    if ascending:
        return (0, None) if v is None else (1, v)
    return (1, None) if v is None else (0, Descending(v))


def _ordered(v):
    if v is NAN or (isinstance(v, float) and v != v):
        return (1, 0.0)
    return (0, v) if isinstance(v, float) else v


class RankProcessor(KeyedChangelogProcessor):
    def __init__(self, columns, order, function, limit, with_rank, insert_only_input, ttl_ms=0, rank_slot=False):
        self.columns = columns                # input columns (the row kept)
        self.order = [(columns.index(c), asc) for c, asc in order]
        self.function = function
        self.limit = limit
        self.with_rank = with_rank
        self.rank_slot = rank_slot          # the output has a rank column (NULL when not shown)
        self.prune = insert_only_input and function == "ROW_NUMBER" and limit is not None
        self.ttl_ms = ttl_ms

    def empty(self):
        return RankState()

    def is_empty(self, state):
        return not state.rows

    def apply(self, state, rows):
        for r in rows:
            row = freeze(tuple(r[c] for c in self.columns))
            if row not in state.arrival:
                state.arrival[row] = r["__seq"]
            add(state.rows, row, weight(r["__op"]))
        if self.prune:
            ranked = self._ranked(state)
            keep = Counter()
            for row, _ in ranked:
                keep[row] += 1
            state.rows = keep
        state.arrival = {row: s for row, s in state.arrival.items() if row in state.rows}
        return state

    def _sort_key(self, state):
        def key(row):
            return tuple(_sort_value(row[i], asc) for i, asc in self.order) + (state.arrival.get(row, 0),)
        return key

    def _ranked(self, state):
        live = [row for row, c in state.rows.items() for _ in range(max(c, 0))]
        live.sort(key=self._sort_key(state))
        out = []
        prev_key, rank, dense = None, 0, 0
        for pos, row in enumerate(live, start=1):
            k = tuple(_ordered(row[i]) for i, _ in self.order)
            if self.function == "ROW_NUMBER":
                rank = pos
            elif k != prev_key:
                rank = pos if self.function == "RANK" else dense + 1
                dense += 1
            prev_key = k
            if self.limit is not None and rank > self.limit:
                break
            out.append((row, rank))
        return out

    def result(self, state):
        return self._ranked(state)

    def emit(self, old, new):
        return [(op, thaw(row)) for op, row in self._changes(old, new)]

    def _changes(self, old, new):
        out = []
        if self.with_rank:
            # position by position (the rank number is part of the row)
            for i in range(max(len(old), len(new))):
                a = old[i][0] + (old[i][1],) if i < len(old) else None
                b = new[i][0] + (new[i][1],) if i < len(new) else None
                out.extend(update_pair(a, b))
            return _cancel(out)
        for i in range(max(len(old), len(new))):
            a = old[i][0] if i < len(old) else None
            b = new[i][0] if i < len(new) else None
            out.extend(update_pair(a, b))
        out = _cancel(out)
        if self.rank_slot:
            out = [(op, row + (None,)) for op, row in out]
        return out


def _cancel(changes):
    """Drop a retraction and an insertion of the same row within one emission (a row that only moved)."""
    adds = Counter(row for op, row in changes if op in (0, 2))
    dels = Counter(row for op, row in changes if op in (1, 3))
    both = adds & dels
    if not both:
        return changes
    out = []
    skip_add, skip_del = Counter(both), Counter(both)
    for op, row in changes:
        if op in (0, 2) and skip_add[row]:
            skip_add[row] -= 1
            continue
        if op in (1, 3) and skip_del[row]:
            skip_del[row] -= 1
            continue
        out.append((op, row))
    return out


# ---------------------------------------------------------------------- the translators
from pyspark.sql import Window  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402
from pyspark.sql import types as st  # noqa: E402

from planner.plan.calc import Calc  # noqa: E402
from planner.plan.fields import PROCTIME, ROWTIME  # noqa: E402
from planner.plan.rank import Deduplicate, Rank  # noqa: E402

from ..translate import Stream, conform, q, translates  # noqa: E402
from .event_time import EventTimeProcessor, event_time_columns  # noqa: E402
from .keyed_state import PickledValueState, run_keyed  # noqa: E402

ARRIVAL = "__arrival"     # a row's arrival order, ranked on where the order is arrival (proctime, LIMIT)


def _rank_shown(node, ctx):
    """The rank number reaches the result (else a row moving between ranks is not an update)."""
    if node.rank_field is None:
        return False
    read = ctx.chosen(node).fields_read_above      # (a Calc right above it reads these; None: all)
    return read is None or node.rank_field in read


def ranked_stream(node, stream, ctx, partition, order, function, limit, rank_field, shown):
    """Rank rows per `partition` by `order` ([(column, ascending)]; ARRIVAL allowed) with RankProcessor."""
    df = stream.df
    cols = list(node.input.field_names)
    if any(c == ARRIVAL for c, _ in order):
        df = df.withColumn(ARRIVAL, F.col("__seq"))
        cols.append(ARRIVAL)
    if not stream.changelog:
        df = df.withColumn("__op", F.lit(0).cast("tinyint"))
    types = {f.name: f.dataType for f in df.schema.fields}
    fields = [st.StructField(c, types[c], True) for c in cols]
    if rank_field:
        fields.append(st.StructField(rank_field, st.LongType(), True))
    processor = RankProcessor(cols, order, function, limit, shown, node.input.insert_only, ctx.ttl_ms,
                              rank_slot=rank_field is not None)
    out = run_keyed(df, partition, processor, fields, ctx)
    if ARRIVAL in cols:
        out = out.drop(ARRIVAL)
    return Stream(conform(out, node.fields), changelog=True)


def _batch_rank(node, stream, partition, order, function, limit):
    from .sort import sort_columns
    from .sorted_partitions import PARTITION, floating, sorted_partitions
    df, first = stream.df, []
    if partition and floating(df, partition):   # Flink's runs of sorted rows: the partition keys' order first
        df, first = sorted_partitions(df, partition)
        partition = [PARTITION]
    w = Window.partitionBy(*[F.col(q(p)) for p in partition]) if partition else Window.partitionBy()
    w = w.orderBy(*first, *sort_columns(df, order))
    fn = {"ROW_NUMBER": F.row_number, "RANK": F.rank, "DENSE_RANK": F.dense_rank}[function]
    df = df.withColumn("__rank", fn().over(w))
    if limit is not None:
        df = df.filter(F.col("__rank") <= limit)
    return df


@translates(Rank)
def translate_rank(node, inputs, ctx):
    s = inputs[0]
    if not ctx.streaming:
        df = _batch_rank(node, s, node.partition, node.order, node.function, node.rank_end)
        if node.rank_field:
            df = df.withColumn(node.rank_field, F.col("__rank"))
        return Stream(conform(df.select(*[F.col(q(n)) for n in node.field_names], "__seq", "__wm"), node.fields))
    return ranked_stream(node, s, ctx, node.partition, node.order, node.function, node.rank_end, node.rank_field,
                         _rank_shown(node, ctx))


class FirstRowProcessor(EventTimeProcessor):
    """Keep-first-row deduplication on a rowtime (Flink 2.3, insert-only): a key's rows wait for the watermark;
    the first one it passes (the earliest rowtime, then the earliest arrival) is emitted, once; rows behind
    the watermark are dropped by the base."""
    operator_name = "Deduplicate"

    def __init__(self, columns):
        self.value_columns = tuple(columns)

    def init_state(self, handle):
        self.emitted = PickledValueState(handle, "emitted", bool)

    def on_time(self, key, rows, watermark_us, final):
        if not rows or self.emitted.get():
            return []
        self.emitted.put(True)
        t, seq, values = rows[0]
        return [tuple(values) + (0, seq)]


@translates(Deduplicate)
def translate_deduplicate(node, inputs, ctx):
    s = inputs[0]
    order = [(ARRIVAL if node.time_kind == PROCTIME else node.order_field, not node.keep_last)]
    if not ctx.streaming:
        if order[0][0] == ARRIVAL:
            order = [("__seq", not node.keep_last)]
        df = _batch_rank(node, s, node.keys, order, "ROW_NUMBER", 1)
        return Stream(df.select(*[F.col(q(n)) for n in node.field_names], "__seq", "__wm"))
    if node.time_kind == ROWTIME and not node.keep_last:
        names = node.input.field_names
        types = {f.name: f.dataType for f in s.df.schema.fields}
        fields = [st.StructField(n, types[n], True) for n in names]
        df = event_time_columns(s.df, node.order_field)
        out = run_keyed(df, node.keys, FirstRowProcessor(names), fields, ctx, time_mode="EventTime")
        return Stream(conform(out.select(*[F.col(q(n)) for n in names], "__seq", "__wm"), node.fields))
    return ranked_stream(node, s, ctx, node.keys, order, "ROW_NUMBER", 1, None, False)
