"""A grouped aggregate over one large file read in one pass, in pieces read in parallel, each piece a step of the
changelog (runtime/physical/rules.py chooses it: RUNNING_AGGREGATE_OF_PIECES over READ_IN_STEPS).

Micro-batches read such a file a run of rows after another and show, after each run, the changes of the keys it
touched: +I for a new key, -U old / +U new for a key whose values changed. Here the runs are the file's pieces,
in file order (the piece of a row is the high part of its `__seq`): Spark's aggregate computes each (piece, key)'s
partial values in one shuffle, then a window function over each key's pieces in file order merges them into the
key's values after each piece (a running COUNT is the sum of the pieces' counts, a running MIN their minimum, an
AVG the running sum over the running count). That frame is small (a row a key and piece it appears in); the
driver shows it piece by piece as the update-mode sink shows a micro-batch (runtime/one_pass.py's StepsRun): the
final rows are a read's from the top, and each key's updates between pieces show.

Only functions whose values merge so run here (`runs_in_pieces`): COUNT, SUM and AVG of integers (SUM of DECIMAL
too), MIN and MAX of integers, DECIMAL, strings, dates and timestamps, none DISTINCT (FILTER is fine), grouped by
keys of those types or BOOLEAN (no floating point: -0.0 and NaN group their own way). The others stay on
micro-batches."""

from .whole_file_aggregate import PIECE

INTEGERS = ("TINYINT", "SMALLINT", "INT", "BIGINT")
ORDERED = INTEGERS + ("DECIMAL", "VARCHAR", "CHAR", "DATE", "TIMESTAMP", "TIMESTAMP_LTZ")
KEY_TYPES = ORDERED + ("BOOLEAN",)


def runs_in_pieces(node):
    """Whether the GroupAggregate `node`'s values merge over pieces (see the module)."""
    types = {f.name: f.type.name if f.type is not None else None for f in node.input.fields}
    return bool(node.keys) and all(types.get(k) in KEY_TYPES for k in node.keys) and \
        all(_merges(c, types) for c in node.calls)


def _merges(call, types):
    if call.distinct or len(call.args) > 1:
        return False
    if call.function == "COUNT":
        return True
    arg = types.get(call.args[0]) if call.args else None
    if call.function == "SUM":
        return arg in INTEGERS + ("DECIMAL",)
    if call.function == "AVG":
        return arg in INTEGERS and call.type is not None and call.type.name in INTEGERS
    return call.function in ("MIN", "MAX") and arg in ORDERED


def running_values(node, df, ctx, chosen):
    """-> Spark's frame of each key's values after each piece it appears in: node.keys, one column per call
    (named after it), and PIECE. The partial values of each (piece, key): `chosen.file` set, each Spark task
    reading its piece of the file and aggregating it with Arrow (whole_file_aggregate.py); else Spark's aggregate
    of `df`, the aggregate's input rows read in pieces (READ_IN_STEPS)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    from ..translate import q
    keys = [F.col(q(k)) for k in node.keys]
    if chosen.file is not None:
        from .whole_file_aggregate import aggregate_whole_file
        partial = aggregate_whole_file(ctx, *chosen.file, node, pieces=chosen.pieces)
        parts = [c.name for c in node.calls]
    else:
        partial, parts = _spark_partials(node, df, keys)
    pieces = Window.partitionBy(*keys).orderBy(PIECE).rowsBetween(Window.unboundedPreceding, Window.currentRow)
    types = {f.name: f.type.name for f in node.input.fields}
    merged = [_merged(c, part, types, pieces).alias(c.name) for c, part in zip(node.calls, parts)]
    return partial.select(*keys, *merged, F.col(PIECE))


def _spark_partials(node, df, keys):
    """(Spark's aggregate of `df` by (piece, key), each call's partial column: a name, or for AVG (sum, count))."""
    from pyspark.sql import functions as F
    from ..translate import q
    from .group_aggregate import aggregate_column, wrapping_sum
    types = {f.name: f.type.name for f in node.input.fields}
    aggregates, parts = [], []
    for i, c in enumerate(node.calls):
        part = "__part%d" % i
        if c.function == "AVG":         # Flink's AVG of integers: the sum over the count, as integers
            arg = F.col(q(c.args[0]))
            if c.filter:
                arg = F.when(F.col(q(c.filter)), arg)
            total = wrapping_sum(arg) if types[c.args[0]] == "BIGINT" else F.sum(arg)
            aggregates += [total.alias(part), F.count(arg).alias(part + "n")]
            parts.append((part, part + "n"))
        else:
            aggregates.append(aggregate_column(c).alias(part))
            parts.append(part)
    grouped = df.withColumn(PIECE, F.shiftright(F.col("__seq"), 32)).groupBy(PIECE, *keys).agg(*aggregates)
    return grouped, parts


def _merged(call, part, types, pieces):
    """A call's value after each piece: its partial values merged over the key's pieces up to it (`pieces`)."""
    from pyspark.sql import functions as F
    from .group_aggregate import running_wrapped_sum
    if call.function == "AVG":
        total, count = F.col(part[0]), F.sum(F.col(part[1])).over(pieces)
        total = running_wrapped_sum(total, pieces) if types[call.args[0]] == "BIGINT" else F.sum(total).over(pieces)
        return F.when(count > 0, F.call_function("div", total, count))
    values = F.col(part)
    if call.function in ("MIN", "MAX"):
        return (F.min if call.function == "MIN" else F.max)(values).over(pieces)
    if call.function == "SUM" and call.type is not None and call.type.name == "BIGINT":
        return running_wrapped_sum(values, pieces)      # wraps past 2^63 as Flink's
    return F.sum(values).over(pieces)                   # COUNT: the sum of the counts; SUM: of the sums
