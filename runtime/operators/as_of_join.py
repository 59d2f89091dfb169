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
field equals a NULL (Flink 2.3's operator keys both sides by the key's binary form: a probe row with a NULL key
takes the version of the NULL key). When the versions fit under Spark's broadcast
limit, each probe batch looks its versions up instead, in the task that reads it (as_of_lookup.py); when the
probe rows are one small file's (runtime/whole_file.py), that task reads its pieces of the file itself, and the
probe rows never enter the JVM (as_of_lookup.FileProbeLookup)."""

from pyspark.sql import Window
from pyspark.sql import functions as F
from pyspark.sql import types as st

from ..translate import q

VERSION, PROBE = 0, 1


def as_of_join(node, ldf, rdf, probe_keys, version_keys, key, chosen, ctx, read=None):
    """The joined rows (node's fields, __op, __seq) of the probe frame `ldf` and the versions' frame `rdf` (the
    deduplication's insert-only input). `probe_keys` / `version_keys`: each side's key columns, never NULL, and
    `__knull` (which key fields are NULL: temporal_join._null_fields), named as `key` says. `chosen`: the node's
    physical choice, the lookup (AS_OF_LOOKUP; its probe_file: (the TableScan, {left field: the file's column})
    when the probe rows are one file's: the lookup then reads them in its tasks, as_of_lookup.FileProbeLookup, and
    they never enter the JVM; its `pieces`: (how many, bytes each) the file is cut in, a task each, else a task a
    core) or the window plan.
    `read`: the output fields anything reads (None: all); the others are typed NULLs, never carried."""
    probe, versions, left, right = as_of_sides(node, ldf, rdf, probe_keys, version_keys, read=read)
    if chosen.probe_file is not None and any(
            isinstance(ldf.schema[k].dataType, (st.DoubleType, st.FloatType)) for k in node.left_keys):
        chosen.probe_file = None        # the file's FLOAT/DOUBLE key is not keyed as `probe_keys` key it (its text)
        chosen.because.append("probe rows through Spark: a FLOAT/DOUBLE key")
    looked_up = _looked_up(node, probe, versions, key, left, right, chosen, ctx, read)
    if looked_up is not None:
        return looked_up
    return as_of_windows(node, probe, versions, key, left, right)


def as_of_sides(node, ldf, rdf, probe_keys, version_keys, delays_us=None, read=None):
    """(probe rows, version rows, the left value columns, the right value columns): each side's key columns,
    `__side` (PROBE, VERSION), `__t` (its time in epoch microseconds), `__seq` and its fields as `__l<i>` /
    `__r<i>`; rows without a time dropped.
    `delays_us`: (the probe side's, the versions' watermark delay): each row also has `__w`, its source's
    watermark once it has arrived (epoch microseconds: its `__wm`, or its own time less the delay if later).
    `read`: the output fields anything reads (None: all); the others' columns are typed NULLs, carried for
    nothing."""

    def value(df, name, out, column):
        if read is None or out in read:
            return F.col(q(name)).alias(column)
        return F.lit(None).cast(df.schema[name].dataType).alias(column)

    def side(df, keys, kind, time, values):
        t = F.unix_micros(F.col(q(time)))
        w = [] if delays_us is None else [
            F.greatest(F.unix_micros(F.col("__wm")), t - F.lit(delays_us[kind == VERSION])).alias("__w")]
        return df.select(*keys, F.lit(kind).cast("tinyint").alias("__side"), t.alias("__t"),
                         F.col("__seq").cast("long").alias("__seq"), *values, *w).filter(F.col("__t").isNotNull())
    lnames, rnames = node.left.field_names, node.right.field_names
    left = ["__l%d" % i for i in range(len(lnames))]
    right = ["__r%d" % i for i in range(len(rnames))]
    outs = node.field_names
    probe = side(ldf, probe_keys, PROBE, node.left_time,
                 [value(ldf, n, o, c) for n, o, c in zip(lnames, outs, left)])
    versions = side(rdf, version_keys, VERSION, node.right_time,
                    [value(rdf, n, o, c) for n, o, c in zip(rnames, outs[len(lnames):], right)])
    return probe, versions, left, right


def as_of_windows(node, probe, versions, key, left, right):
    """The window plan: each probe row with the last version of its key at or before its time, among the
    versions the keep-last-row deduplication takes of `versions` (as_of_sides' frames)."""
    versions = keep_last_versions(versions, key)
    # each right field in a struct of its own: never NULL on a version, so `last` skips only the probe rows; and
    # a field nothing reads is pruned with its window function
    versions = versions.select(*[c for c in versions.columns if c not in right],
                               *[F.struct(F.col(c).alias("v")).alias(c) for c in right])
    running = Window.partitionBy(*key).orderBy("__t", "__side", "__seq").rowsBetween(Window.unboundedPreceding,
                                                                                      Window.currentRow)
    found = [F.last(c, ignorenulls=True).over(running).alias("__v%d" % i) for i, c in enumerate(right)]
    joined = probe.unionByName(versions, allowMissingColumns=True).select("*", *found)
    joined = joined.filter(F.col("__side") == PROBE)
    if node.kind == "INNER":
        joined = joined.filter(F.col("__v0").isNotNull())
    names = node.field_names
    columns = [F.col(c).alias(n) for c, n in zip(left, names)]
    columns += [F.col("__v%d.v" % i).alias(n) for i, n in enumerate(names[len(left):])]
    return joined.select(*columns, F.lit(0).cast("tinyint").alias("__op"), "__seq")


def keep_last_versions(versions, key):
    """The rows the keep-last-row deduplication takes as versions: not older than an earlier row of their key
    (arrival order), and the last of their key's rows with their time."""
    earlier = Window.partitionBy(*key).orderBy("__seq").rowsBetween(Window.unboundedPreceding, -1)
    versions = versions.withColumn("__newest", F.max("__t").over(earlier))
    versions = versions.filter(F.col("__newest").isNull() | (F.col("__t") >= F.col("__newest")))
    versions = versions.withColumn("__last", F.max("__seq").over(Window.partitionBy(*key, "__t")))
    return versions.filter(F.col("__seq") == F.col("__last")).drop("__newest", "__last")


def _looked_up(node, probe, versions, key, left, right, chosen, ctx, read):
    """The joined rows by as_of_lookup.py when the physical plan chose the lookup, else None (the window plan).
    The versions frame is left in `ctx.lookup_versions` for the engine to collect before the query runs; until
    then (EXPLAIN) the lookup holds none. Only the fields `read` (None: all) cross from the lookup into the JVM."""
    from ..physical.nodes import AS_OF_LOOKUP, AS_OF_WINDOWS
    from .as_of_lookup import FileProbeLookup, lookup_takes, no_versions
    if chosen.choice != AS_OF_LOOKUP:
        return None
    names = node.field_names
    outputs = dict(zip(left + right, names))
    fields_of = dict(zip(left, node.left.field_names))
    left, right = [[c for c in side if read is None or outputs[c] in read] for side in (left, right)]
    frame = versions.select(*key, "__t", "__seq", *right)
    if not lookup_takes(frame, key, right):
        chosen.choice = AS_OF_WINDOWS
        chosen.because.append("a key or value type the lookup does not take (floating-point, nested)")
        return None
    ctx.lookup_versions[id(node)] = frame
    table = ctx.versions.get(id(node))
    lookup, schema = as_of_lookup(node, probe, versions, table if table is not None else no_versions(frame), key,
                                  left, right, [outputs[c] for c in left + right])
    if lookup is None:
        chosen.choice = AS_OF_WINDOWS
        chosen.because.append("the versions' keys and times do not fit one int64 code")
        return None
    spark = probe.sparkSession
    if chosen.probe_file is None:
        joined = probe.select(*key, "__t", "__seq", *left).mapInArrow(lookup, schema)
    else:
        from ..tables import parallelism, read_spec
        from ..whole_file import run_in_tasks
        scan, file_columns = chosen.probe_file
        tasks, piece_bytes = chosen.pieces if chosen.pieces is not None else (parallelism(spark), None)
        columns = {**dict(zip(key[:-1], (file_columns[k] for k in node.left_keys))),
                   **{c: file_columns[fields_of[c]] for c in left},
                   "__time": file_columns[node.left_time]}
        joined = run_in_tasks(spark, FileProbeLookup(*read_spec(spark, scan.table, piece_bytes), columns, lookup,
                                                     tasks), schema, tasks)
    types = {outputs[c]: t.dataType for c, t in zip(probe.columns + versions.columns,
                                                     probe.schema.fields + versions.schema.fields) if c in outputs}
    return joined.select(*[F.col(q(n)) if n in schema.fieldNames() else F.lit(None).cast(types[n]).alias(n)
                           for n in names], "__op", "__seq")


def as_of_lookup(node, probe, versions, table, key, left, right, names):
    """(the lookup, the joined rows' Spark schema: `names`, the output fields of the `left` and `right` value
    columns) of the versions `table` (a pyarrow Table of the versions frame's key columns, __t, __seq and right
    values), or (None, None) when its keys and times do not fit one int64 code (as_of_lookup.AsOfLookup); the
    caller maps the probe rows with it (`mapInArrow`)."""
    from pyspark.sql.pandas.types import to_arrow_schema
    from .as_of_lookup import AsOfLookup
    fields = [st.StructField(n, f.dataType, True) for n, f in
              zip(names, [probe.schema[c] for c in left] + [versions.schema[c] for c in right])]
    schema = st.StructType(fields + [st.StructField("__op", st.ByteType()), st.StructField("__seq", st.LongType())])
    zone = probe.sparkSession.conf.get("spark.sql.session.timeZone")
    try:
        return AsOfLookup(table, key, right, left, to_arrow_schema(schema, timezone=zone), node.kind == "INNER"), schema
    except OverflowError:
        return None, None
