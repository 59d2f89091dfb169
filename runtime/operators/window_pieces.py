"""A TUMBLE, HOP or CUMULATE aggregate over one large file read in one pass, in pieces read in parallel
(runtime/physical/rules.py chooses it: AGGREGATE_OF_PIECES over READ_IN_PIECES_WITH_MAXIMA).

Read top to bottom, a (row, window) pair is late when the window had fired at the watermark just before the row:
end - 1 <= max(rowtimes of the earlier rows) - delay. Cut into pieces, the earlier rows are those of the earlier
pieces (their maximum P) and the piece's own earlier rows (its running maximum, whose watermark the piece's
reader gives each row as `__wm`), so the pair is late when end - 1 <= max(P - delay, `__wm`): late in its own
piece, or its window closed by the earlier pieces, which depends on the piece and the window only. Each piece's
reader ends it with a row holding the piece's maximum (connectors/split_reader.piece_maximum_batch; its `__wm` is
the watermark after the piece). In one projection of the scan's rows (two would read the file twice), a pair on
time in its piece goes to the part of its (window, key), a piece's maximum to every part; in each part, sorted
by piece, Spark's window function gives each pair the largest watermark the pieces before its own reached, the
pairs whose window that closed are dropped, and Spark's aggregate groups the rest by (part, window, key): one
shuffle, any aggregate function, the driver collects only the result, as every one pass does. The rows are those
a parallelism-1 read from the top gives (Flink reading the file with one source task), and micro-batches too."""

from pyspark.sql import Window
from pyspark.sql import functions as F

from ..connectors.filesystem import PIECE_MAXIMUM
from ..lateness import window_fired
from ..translate import q
from .window import WINDOW, _aggregates, assigned_pairs

PART, CLOSED = "__part", "__closed_us"


def _is_maximum():
    return F.col("__seq").bitwiseAND(F.lit(PIECE_MAXIMUM)) == F.lit(PIECE_MAXIMUM)


def _spread(df, part, keep):
    """The rows `keep` selects to their `part` (an int column), each piece's maximum row to every part, in one
    projection of `df` (two branches of it would read the file twice) and one shuffle; in each part, in piece
    order, Spark's window function gives each row CLOSED: the watermark (epoch microseconds) that the pieces before
    its own had reached when they ended. The maximum rows are dropped."""
    parts = int(df.sparkSession.conf.get("spark.sql.shuffle.partitions"))
    maximum = _is_maximum()
    to = F.when(maximum, F.sequence(F.lit(0), F.lit(parts - 1))) \
        .when(keep, F.array(F.pmod(part, F.lit(parts)))).otherwise(F.array().cast("array<int>"))
    rows = df.withColumn(PART, F.explode(to)).repartition(parts, F.col(PART))
    earlier = Window.partitionBy(PART).orderBy(F.shiftright(F.col("__seq"), 32)) \
        .rangeBetween(Window.unboundedPreceding, -1)
    closed = F.max(F.when(maximum, F.unix_micros(F.col("__wm")))).over(earlier)
    return rows.withColumn(CLOSED, closed).filter(~maximum)


def with_earlier_pieces(df, keys):
    """The rows of pieces (READ_IN_PIECES_WITH_MAXIMA) with `__wm` the watermark before each row in a read from
    the top: the larger of its piece's and the earlier pieces' (for an operator that decides lateness per row
    by `__wm`: MATCH_RECOGNIZE), hash-partitioned by `keys` (its PARTITION BY, for the matcher's shuffle)."""
    part = F.hash(*[F.col(k) for k in keys]) if keys else F.lit(0)
    rows = _spread(df, part, F.lit(True))
    return rows.withColumn("__wm", F.greatest(F.col("__wm"), F.timestamp_micros(F.col(CLOSED)))) \
        .drop(PART, CLOSED)


def aggregate_pieces(node, s):
    """-> Spark's grouped result: the keys, the calls, `__window` (start, end), as window._aggregate gives."""
    df = assigned_pairs(node, s.df)
    keys = [F.col(q(k)) for k in node.keys]
    # the pairs on time in their own piece (the others need no shuffle), to the part of their (window, key)
    on_time = F.col("__start_ms").isNotNull() & ~window_fired(F.col("__end_ms"))
    rows = _spread(df, F.hash(F.col("__start_ms"), F.col("__end_ms"), *keys), on_time)
    closed_ms = F.unix_millis(F.timestamp_micros(F.col(CLOSED)))
    kept = rows.filter(F.col(CLOSED).isNull() | (F.col("__end_ms") - 1 > closed_ms))
    aggs, finish = _aggregates(node.calls, False, F.col("__seq") if "__seq" in kept.columns else None)
    # grouped by the part too (a function of the window and the key): no shuffle after the part's
    grouped = kept.groupBy(PART, "__start_ms", "__end_ms", *keys).agg(*(aggs or [F.count(F.lit(1)).alias("__n")]))
    window = F.struct(F.timestamp_millis(F.col("__start_ms")).alias("start"),
                      F.timestamp_millis(F.col("__end_ms")).alias("end")).alias(WINDOW)
    return grouped.select(*keys, *finish, window)
