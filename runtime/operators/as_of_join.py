"""An event-time temporal join of a whole bounded input at once (one pass, runtime/one_pass.py): an as-of join
on Spark's native window functions.

When every row of both inputs arrives before the watermark moves, which is what micro-batches do when the first
one reads each file whole (the only case one pass takes, see one_pass.py), the streaming operator
(temporal_join.py) holds every probe row until the end of the input, then joins it with the version valid at
its time among all the versions: the latest with a version time at or before it. Here both inputs are unioned,
sorted per key by time (at one time a version before a probe row: a version is valid from its time on), and
the last version so far is carried to each probe row (`last(..., ignorenulls)` over a running frame): one
shuffle and one sort, no Python. The versions are the versioned view's input rows as its keep-last-row
deduplication takes them: a row older than an earlier row of its key is none, and of a key's rows with one
time the last to arrive is the version. A row without a time is neither a probe row nor a version; a NULL key
joins nothing (INNER drops the row, LEFT pads it with NULLs)."""

from pyspark.sql import Window
from pyspark.sql import functions as F

from ..translate import q

VERSION, PROBE = 0, 1


def as_of_join(node, ldf, rdf, probe_keys, version_keys, key):
    """The joined rows (node's fields, __op, __seq) of the probe frame `ldf` and the versions' frame `rdf` (the
    deduplication's insert-only input). `probe_keys` / `version_keys`: each side's key columns, never NULL, and
    `__knull` (a key field is NULL), named as `key` says."""

    def side(df, keys, kind, time, values):
        return df.select(*keys, F.lit(kind).cast("tinyint").alias("__side"),
                         F.unix_micros(F.col(q(time))).alias("__t"), F.col("__seq").cast("long").alias("__seq"),
                         *values).filter(F.col("__t").isNotNull())
    lnames, rnames = node.left.field_names, node.right.field_names
    probe = side(ldf, probe_keys, PROBE, node.left_time,
                 [F.col(q(n)).alias("__l%d" % i) for i, n in enumerate(lnames)])
    # each right field in a struct of its own: never NULL on a version, so `last` skips only the probe rows; and
    # a field nothing reads is pruned with its window function
    versions = side(rdf, version_keys, VERSION, node.right_time,
                    [F.struct(F.col(q(n)).alias("v")).alias("__r%d" % i) for i, n in enumerate(rnames)])
    versions = _newest_versions(versions.filter(~F.col("__knull")), key)
    running = Window.partitionBy(*key).orderBy("__t", "__side", "__seq").rowsBetween(Window.unboundedPreceding,
                                                                                      Window.currentRow)
    found = [F.last("__r%d" % i, ignorenulls=True).over(running).alias("__v%d" % i) for i in range(len(rnames))]
    joined = probe.unionByName(versions, allowMissingColumns=True).select("*", *found)
    joined = joined.filter(F.col("__side") == PROBE)
    if node.kind == "INNER":
        joined = joined.filter(F.col("__v0").isNotNull())
    names = node.field_names
    columns = [F.col("__l%d" % i).alias(n) for i, n in enumerate(names[:len(lnames)])]
    columns += [F.col("__v%d.v" % i).alias(n) for i, n in enumerate(names[len(lnames):])]
    return joined.select(*columns, F.lit(0).cast("tinyint").alias("__op"), "__seq")


def _newest_versions(versions, key):
    """The rows the keep-last-row deduplication takes as versions: not older than an earlier row of their key
    (arrival order), and the last of their key's rows with their time."""
    earlier = Window.partitionBy(*key).orderBy("__seq").rowsBetween(Window.unboundedPreceding, -1)
    versions = versions.withColumn("__newest", F.max("__t").over(earlier))
    versions = versions.filter(F.col("__newest").isNull() | (F.col("__t") >= F.col("__newest")))
    versions = versions.withColumn("__last", F.max("__seq").over(Window.partitionBy(*key, "__t")))
    return versions.filter(F.col("__seq") == F.col("__last")).drop("__newest", "__last")
