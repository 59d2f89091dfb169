"""A grouped aggregate or a window aggregate (TUMBLE, HOP, CUMULATE) read as one batch (batch mode, or a one
pass: runtime/one_pass.py) straight over one small file, without a shuffle (runtime/whole_file.py):
`aggregate_whole_file(...)`.

Spark's plan for them reads the file into Spark's rows, aggregates each task's part, shuffles the partial
results by key and merges them. Here each task reads the whole file, assigns each row its windows (Flink's
assigners' arithmetic, as window.py's `assign_windows`: a row in as many (row, window) pairs as it has windows;
under HOP and CUMULATE a row without a time in none), drops in a one pass the pairs whose window had fired when
the row arrived (window.py's `fired`, by the row's `__wm`), keeps the rows whose grouping key falls to it and
groups them with Arrow; only the groups reach the JVM.

Only what Arrow computes as Spark does runs so: COUNT(*) and COUNT(x), SUM of integers, MIN and MAX of
integers, strings, dates and timestamps (no DISTINCT, no FILTER), grouped by keys of those types (no floating
point: Arrow and Spark group NaN and -0.0 each their own way); a grouped aggregate has keys (over no rows a
batch aggregate without keys gives a row). Everything else, SESSION windows and windows read from the input's
window_start / window_end included, runs on Spark's aggregate (group_aggregate.py, window.py)."""

from ..whole_file import key_shares, read_whole_file, run_in_tasks, run_in_tasks_as_ipc, shares_of

INTEGERS = ("TINYINT", "SMALLINT", "INT", "BIGINT")
ORDERED = INTEGERS + ("VARCHAR", "CHAR", "DATE", "TIMESTAMP", "TIMESTAMP_LTZ")
KEY_TYPES = ORDERED + ("BOOLEAN",)
ASSIGNED = ("TUMBLE", "HOP", "CUMULATE")
START, END, WM = "__start_ms", "__end_ms", "__wm"
PIECE = "__piece"       # a grouped aggregate in pieces: the piece of each group's rows (operators/group_pieces.py)


def whole_file_fields(node, window=None):
    """The input fields the aggregate `node` (a GroupAggregate, or with `window` a WindowAggregate's window spec)
    reads when it can compute from its file read in every task; else None (whether it does is the physical
    plan's choice: runtime/physical/rules.py)."""
    if not (node.keys or window):
        return None
    if window is not None and (window.kind not in ASSIGNED or node.time_field is None
                               or window.time_zone not in (None, "UTC")):       # local windows: window.py
        return None
    types = {f.name: f.type.name for f in node.input.fields}
    if any(types[k] not in KEY_TYPES for k in node.keys) or not all(_in_arrow(c, types) for c in node.calls):
        return None
    return list(dict.fromkeys(list(node.keys) + [a for c in node.calls for a in c.args] +
                              ([node.time_field] if window is not None else [])))


def _in_arrow(call, types):
    if call.distinct or call.filter or len(call.args) > 1:
        return False
    if call.function == "COUNT":
        return True
    arg = types[call.args[0]] if call.args else None
    return (call.function == "SUM" and arg in INTEGERS) or (call.function in ("MIN", "MAX") and arg in ORDERED)


def aggregate_whole_file(ctx, scan, file_columns, node, window=None, pieces=None, to_driver=False):
    """-> a DataFrame of node.keys, one column per call (COUNT and SUM as BIGINT, MIN and MAX in their argument's
    type) and, with `window`, `__start_ms` and `__end_ms` (epoch milliseconds), computed by Spark tasks (one a
    core) each reading the file and aggregating its share of the keys. A one
    pass (ctx.late_rows) drops the late (row, window) pairs (see the module). `pieces` (how many, bytes each): the
    file cut so, a task a piece aggregating all its keys, each group with its piece's number in PIECE
    (a grouped aggregate read in pieces, operators/group_pieces.py). `to_driver`: the tasks' groups as Arrow
    values for the driver to finish (whole_file.run_in_tasks_as_ipc; window_pieces_arrow.PiecesMerge)."""
    from ..tables import parallelism, read_spec
    spark, tasks = ctx.spark, parallelism(ctx.spark) if pieces is None else pieces[0]
    spec_json, schema_json = read_spec(spark, scan.table, read=set(file_columns.values()))
    fn = _WholeFileAggregate(spec_json, schema_json, file_columns, list(node.keys), calls_of(node),
                             windows_of(node, window), ctx.late_rows, tasks, pieces)
    if to_driver:
        return run_in_tasks_as_ipc(spark, fn.tables, tasks)
    return run_in_tasks(spark, fn, groups_schema(scan, file_columns, node, window, pieces is not None), tasks)


def groups_schema(scan, file_columns, node, window=None, pieces=False):
    """Spark's schema of `grouped`'s tables: the keys, the calls (COUNT and SUM as BIGINT, MIN and MAX in their
    argument's type), with `window` `__start_ms` and `__end_ms`, with `pieces` the piece's number (PIECE)."""
    from pyspark.sql import types as st
    from ..tables import source_schema
    source = {f.name: f.dataType for f in source_schema(scan.table).fields}
    fields = [st.StructField(k, source[file_columns[k]]) for k in node.keys]
    for c in node.calls:
        counted = c.function in ("COUNT", "SUM")
        fields.append(st.StructField(c.name, st.LongType() if counted else source[file_columns[c.args[0]]]))
    if window is not None:
        fields += [st.StructField(START, st.LongType()), st.StructField(END, st.LongType())]
    if pieces:
        fields.append(st.StructField(PIECE, st.LongType()))
    return st.StructType(fields)


def calls_of(node):
    """The aggregate's calls as `grouped` takes them: (function, argument or None, output name)."""
    return [(c.function, c.args[0] if c.args else None, c.name) for c in node.calls]


def windows_of(node, window):
    """A window spec as `windowed` takes it: (kind, size, slide, offset, time field), or None."""
    return (window.kind, window.size_ms, window.slide_ms, window.offset_ms, node.time_field) \
        if window is not None else None


class _WholeFileAggregate:
    """The mapInArrow function: its input holds the task's share number(s); it reads the file, keeps the rows
    of its share and yields their groups. `calls`: (function, argument or None, output name); `windows`: (kind,
    size, slide, offset, time field) or None."""

    def __init__(self, read_spec, schema_json, file_columns, keys, calls, windows, late_rows, tasks, pieces=None):
        self.read_spec = read_spec
        self.schema_json = schema_json
        self.file_columns = file_columns
        self.keys = keys
        self.calls = calls
        self.windows = windows
        self.late_rows = late_rows
        self.tasks = tasks
        self.pieces = pieces

    def __call__(self, batches):
        for groups in self.tables(batches):
            yield from groups.to_batches(max_chunksize=100000)

    def tables(self, batches):
        """The share's groups as one table a share."""
        for share in shares_of(batches):
            groups = self._groups(share)
            if groups is not None:
                yield groups

    def _groups(self, share):
        import pyarrow as pa
        by = self.keys or [START]           # a window aggregate without keys: shared by window
        kept = []
        piece = (share, self.tasks) if self.pieces is not None else None
        for table in read_whole_file(self.read_spec, self.schema_json, self.file_columns,
                                     (WM,) if self.late_rows and self.windows else (), piece=piece,
                                     piece_bytes=self.pieces[1] if self.pieces is not None else None):
            if self.windows:
                table = windowed(table, self.windows, self.late_rows)
            kept.append(table if piece is not None else
                        table.filter(pa.array(key_shares(table, by, self.tasks) == share)))
        if not kept:
            return None
        out = grouped(pa.concat_tables(kept), self.keys, self.calls, self.windows is not None)
        if self.pieces is not None:
            out = out.append_column(PIECE, pa.array([share] * out.num_rows, type=pa.int64()))
        return out


def grouped(rows, keys, calls, windows):
    """Arrow's groups of `rows` by `keys` (and, `windows`: `__start_ms`, `__end_ms`): a table of the keys, one
    column per call (`calls`: (function, argument or None, output name)), then the window's two columns."""
    import pyarrow as pa
    columns, aggregations = {}, []
    for i, (function, arg, name) in enumerate(calls):
        if arg is None:
            aggregations.append(([], "count_all"))
            columns[name] = "count_all"
            continue
        column = "__arg%d" % i
        rows = rows.append_column(column, rows.column(arg))
        kind = {"COUNT": "count", "SUM": "sum", "MIN": "min", "MAX": "max"}[function]
        aggregations.append((column, kind))
        columns[name] = "%s_%s" % (column, kind)
    by = keys + ([START, END] if windows else [])
    groups = rows.group_by(by).aggregate(aggregations)
    names = keys + [n for _, _, n in calls] + ([START, END] if windows else [])
    return pa.table([groups.column(columns.get(n, n)) for n in names], names=names)


def windowed(table, windows, late_rows):
    """`table`'s (row, window) pairs, each window as `__start_ms`, `__end_ms` (`windows`: (kind, size, slide,
    offset, time field)); with `late_rows` (a one pass), the pairs late by the rows' `__wm` dropped."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    kind, size, slide, offset, time_field = windows
    micros = pc.cast(table.column(time_field), pa.int64())
    no_time = micros.is_null().to_numpy(zero_copy_only=False)
    ms = np.floor_divide(micros.fill_null(0).to_numpy(), 1000)
    rows, start, end = assign_windows(ms, kind, size, slide, offset)
    if rows is not None:        # HOP, CUMULATE: Spark explodes no window out of a row without a time
        keep = ~no_time[rows]
        rows, start, end = rows[keep], start[keep], end[keep]
        table, no_time = table.take(pa.array(rows)), no_time[rows]
    table = table.append_column(START, pa.array(start, mask=no_time)) \
        .append_column(END, pa.array(end, mask=no_time))
    if not late_rows:
        return table
    from ..lateness import window_pairs_kept
    wm = pc.cast(table.column(WM), pa.int64())
    no_wm = wm.is_null().to_numpy(zero_copy_only=False)
    wm_ms = np.floor_divide(wm.fill_null(0).to_numpy(), 1000)
    return table.filter(pa.array(window_pairs_kept(end, no_time, wm_ms, no_wm)))     # window.py's filter


def assign_windows(ms, kind, size, slide, offset):
    """numpy: each (row, window) pair of the rows' times `ms` (epoch milliseconds) as (row index, window start,
    window end), as window.py's `assign_windows` explodes them; TUMBLE: (None, start, end), a window a row."""
    import numpy as np
    n = len(ms)

    def aligned(unit):      # the start of the row's `unit`-long period, counted from the offset
        return ms - np.mod(ms - offset, unit)
    if kind == "TUMBLE":
        start = aligned(size)
        return None, start, start + size
    count = -(-size // slide)
    rows = np.tile(np.arange(n), count)
    if kind == "HOP":       # from the last start down, while start > ts - size
        start = np.concatenate([aligned(slide) - k * slide for k in range(count)])
        keep = start > np.tile(ms, count) - size
        return rows[keep], start[keep], start[keep] + size
    # CUMULATE: one start per size; ends step by step from the row's step up to the size
    first = aligned(size)
    end = np.concatenate([aligned(slide) + (k + 1) * slide for k in range(count)])
    start = np.tile(first, count)
    keep = end <= start + size
    return rows[keep], start[keep], end[keep]
