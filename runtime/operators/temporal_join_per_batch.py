"""An event-time temporal join over a versioned view that a streaming SELECT shows, on micro-batches, without
Spark's state store (the physical choice PER_MICRO_BATCH_TEMPORAL_JOIN, runtime/physical/rules.py, which also
says when it applies): Spark's batch as-of join in each micro-batch over the probe rows the watermark passed.

The general path (temporal_join.py) keys both inputs into a Python state operator that holds every probe row
and every version in Spark's state store: over a backlog (files read in micro-batches of 1 M rows) most of the
query's time. Here the streaming frame is stateless: the probe rows and the versions (the versioned view's
input rows), shaped as as_of_join.py's `as_of_sides`, unioned. Each micro-batch, in the result sink:
  1. the watermark W is the smaller of the two sides' watermarks, each the largest `__w` seen so far (a row's
     source's watermark once it arrived: Spark's per-source watermark, max time less the delay), or Spark's
     watermark for the micro-batch if that is later (it knows a side whose input has ended, whose watermark
     has passed every time, as Flink's finished source: the other side's alone then releases probe rows);
  2. the versions are the ones carried and the batch's, as the keep-last-row deduplication takes them
     (as_of_join.keep_last_versions: a row older than its key's newest is none; one time, the last to arrive);
  3. the probe rows held and the batch's with a time at or before W are released (Flink's operator emits a
     probe row when the watermark passes it) and joined with the version valid at their time, the latest at
     or before it: each version valid until its key's next, broadcast and joined by key and interval in the
     JVM when they are few (no shuffle, no Python), else the window plan; probe rows are never late (Flink's
     operator keeps them);
  4. the other probe rows are carried (each micro-batch's rows stay in its local checkpoint, written once,
     until W passes the latest of them), and the versions less those older than each key's newest one W passed
     (none can be chosen any more: Flink's operator drops them too).
At the end of the input every held probe row is released (Flink's final watermark): `flush`. A probe row so
comes in the micro-batch whose watermark passes it, one micro-batch sooner than the general path's."""

from pyspark.sql import Window
from pyspark.sql import functions as F

from ..micro_batch_stage import MicroBatchStage
from ..translate import Stream
from .as_of_join import PROBE, VERSION, as_of_sides, as_of_windows, keep_last_versions

NO_BOUND = -(1 << 63)


def temporal_join_per_batch(node, ldf, rdf, probe_keys, version_keys, key, delays_us, finish, ctx, limit,
                            read=None):
    """The Stream of a temporal join run per micro-batch: both sides' rows as the streaming frame. `finish`:
    the joined rows (node's fields, __op, __seq) -> the node's Stream; `limit`: Spark's broadcast limit (bytes,
    -1: never), the versions' largest size in memory the lookup takes; `read`: the output fields read above it
    or by its condition (None: all): the others are not carried from batch to batch."""
    probe, versions, left, right = as_of_sides(node, ldf, rdf, probe_keys, version_keys, delays_us, read)
    both = probe.unionByName(versions, allowMissingColumns=True)
    joiner = TemporalJoinPerBatch(node, key, left, right, probe.columns, versions.columns, finish, limit)
    return Stream(both, per_batch=MicroBatchStage(joiner, ctx))


class TemporalJoinPerBatch:
    """The join's state between micro-batches: the held probe rows, the versions and the watermark (see the
    module)."""

    def __init__(self, node, key, left, right, probe_columns, version_columns, finish, limit):
        self.node, self.key, self.left, self.right = node, list(key), left, right
        self.probe_columns = [c for c in probe_columns if c != "__w"]
        self.version_columns = [c for c in version_columns if c != "__w"]
        self.finish, self.limit = finish, limit
        self.seen = {}               # side -> the largest __w seen (epoch microseconds)
        self.versions = None         # the versions carried (a locally checkpointed frame), or None
        # [[a micro-batch's probe rows, the time up to which they are released, their latest time]]
        self.held = []
        self.version_bound = 0       # at least as many versions as are carried (all the version rows seen)
        self.cached = None

    def _sides(self, df):
        return (df.filter(F.col("__side") == PROBE).select(*self.probe_columns),
                df.filter(F.col("__side") == VERSION).select(*self.version_columns))

    def over(self, df):
        """The join of a batch frame of both sides' rows (every probe row released) on the window plan."""
        probe, versions = self._sides(df)
        return self.finish(as_of_windows(self.node, probe, versions, self.key, self.left, self.right))

    def batch(self, df, watermark_ms=None):
        self.cached = df.localCheckpoint(eager=True)
        latest = None
        for side, w, n, t in self.cached.groupBy("__side").agg(F.max("__w"), F.count(F.lit(1)),
                                                              F.max("__t")).collect():
            if w is not None and w > self.seen.get(side, NO_BOUND):
                self.seen[side] = w
            if side == VERSION:
                self.version_bound += n
            else:
                latest = t
        watermark = min(self.seen.values()) if len(self.seen) == 2 else None
        if watermark_ms is not None and watermark_ms > 0:      # Spark's: a side at its end has passed every time
            watermark = max(watermark if watermark is not None else NO_BOUND, watermark_ms * 1000)
        probe, new = self._sides(self.cached)
        if latest is not None:
            self.held.append([probe, NO_BOUND, latest])
        versions = new if self.versions is None else self.versions.unionByName(new)
        versions = keep_last_versions(versions, self.key)
        out = self._joined(self._released(watermark), versions)
        self.versions = self._newest_passed(versions, watermark).localCheckpoint(eager=True)
        return out

    def _released(self, watermark):
        """The held probe rows the watermark passed (None: none); each piece then holds only the later ones, and
        a piece none of whose rows is later is dropped."""
        if watermark is None:
            return None
        released, held = [], []
        for piece in self.held:
            rows, after, latest = piece
            if after < watermark:
                released.append(rows.filter((F.col("__t") > F.lit(after)) & (F.col("__t") <= F.lit(watermark))))
                piece[1] = watermark
            if latest > watermark:
                held.append(piece)
        self.held = held
        return _union(released)

    def _newest_passed(self, versions, watermark):
        """The versions less those older than their key's newest one the watermark passed."""
        if watermark is None:
            return versions
        passed = F.max(F.when(F.col("__t") <= F.lit(watermark), F.col("__t"))).over(Window.partitionBy(*self.key))
        versions = versions.withColumn("__passed", passed)
        return versions.filter(F.col("__passed").isNull() | (F.col("__t") >= F.col("__passed"))).drop("__passed")

    def _joined(self, probe, versions):
        """The node's Stream of the released probe rows (None: none) each with its version."""
        if probe is None:       # nothing released: no rows (and no Spark job for the versions)
            return self.finish(as_of_windows(self.node, self._sides(self.cached)[0].limit(0), versions.limit(0),
                                             self.key, self.left, self.right))
        from .as_of_lookup import MAX_VERSIONS
        if 0 <= self.limit and self.version_bound <= MAX_VERSIONS:
            return self.finish(self._in_intervals(probe, versions))
        return self.finish(as_of_windows(self.node, probe, versions, self.key, self.left, self.right))

    def _in_intervals(self, probe, versions):
        """The as-of join in the JVM without a shuffle: each version valid from its time until its key's next
        version's, broadcast (they are few: at most as_of_lookup.MAX_VERSIONS), and each probe row joined with
        the one version of its key whose interval holds its time (INNER: none, no row; LEFT: NULLs)."""
        next_time = F.lead("__t").over(Window.partitionBy(*self.key).orderBy("__t"))
        valid = versions.select(*[F.col(k).alias("__v" + k) for k in self.key], F.col("__t").alias("__from"),
                                next_time.alias("__until"), *self.right)
        on = F.col("__t") >= F.col("__from")
        for k in self.key:
            on = on & (F.col(k) == F.col("__v" + k))
        on = on & (F.col("__until").isNull() | (F.col("__t") < F.col("__until")))
        joined = probe.join(F.broadcast(valid), on, "inner" if self.node.kind == "INNER" else "left")
        names = self.node.field_names
        columns = [F.col(c).alias(n) for c, n in zip(self.left, names)]
        columns += [F.col(c).alias(n) for c, n in zip(self.right, names[len(self.left):])]
        return joined.select(*columns, F.lit(0).cast("tinyint").alias("__op"), "__seq")

    def flush(self):
        rows = _union([rows.filter(F.col("__t") > F.lit(after)) for rows, after, _ in self.held])
        self.held = []
        return None if rows is None else self._joined(rows, self.versions)

    def release(self):
        """(The micro-batch's rows stay in their local checkpoint while held probe rows of it are.)"""
        self.cached = None


def _union(frames):
    if not frames:
        return None
    out = frames[0]
    for frame in frames[1:]:
        out = out.unionByName(frame)
    return out
