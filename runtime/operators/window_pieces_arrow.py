"""A TUMBLE, HOP or CUMULATE aggregate over one large file read in pieces (window_pieces.py's rows: a pair is late
when window end - 1 <= max(the piece's watermark before the row, the earlier pieces' maximum - delay)), each
piece aggregated with Arrow by the task that reads it and the pieces' groups merged in the driver, which
collects the result anyway (runtime/physical/rules.py chooses it for the functions whole_file_aggregate.py
computes with Arrow, with only Calcs that pick fields between the aggregate and the sink). The same for a
directory read in one pass, its files the pieces (each against its own running maximum, no earlier pieces'
watermark), and `PiecesMerge` finishes a small file's whole-file read too (each task's share of the keys).

Spark's plan for the pieces (window_pieces.py) hands every row of the file from the Python reader to the JVM,
shuffles it to the part of its (window, key), sorts each part by piece for the earlier pieces' maximum and
aggregates there. Here each task reads its pieces (connectors/split_reader.py, the scan's reader: the same rows,
the same `__wm`), assigns each row its windows, drops the pairs late in their own piece and groups the rest by
(window, key) with Arrow: only each piece's groups reach the JVM, as one value of Arrow's bytes a piece with the
piece's number and the watermark after it in its metadata (whole_file.run_in_tasks_as_ipc), and no shuffle
runs. In the driver (`PiecesMerge.finish`, on the pieces' tables collected) a piece's groups whose window the
earlier pieces' watermark had closed are dropped, then the groups of a window several pieces hold are merged
(COUNT and SUM add up, MIN and MAX of the pieces'): a window is contiguous in time, so in a file in time order
only the windows across a cut have more than one piece's groups."""

from dataclasses import dataclass

from ..whole_file import run_in_tasks_as_ipc, shares_of, tables_from_ipc
from .whole_file_aggregate import END, START, WM, calls_of, grouped, groups_schema, windowed, windows_of

PIECE, CLOSES = b"dynsql.piece", b"dynsql.closes_ms"   # a piece's table's metadata: its number; the watermark after it
_MERGE = {"COUNT": "sum", "SUM": "sum", "MIN": "min", "MAX": "max"}
_NARROW = {"TINYINT": "int8", "SMALLINT": "int16", "INT": "int32"}


def aggregate_pieces_with_arrow(ctx, scan, file_columns, node, pieces):
    """-> (a DataFrame of the pieces' groups, the PiecesMerge that finishes them in the driver). `pieces`: (how
    many, bytes each), as the physical plan cut the file; None: the table is a directory whose files are the
    pieces, each read against its own running maximum, shared out over a task a core (no earlier pieces'
    watermark: a streaming read takes them all in its first micro-batch, in parallel)."""
    from ..tables import parallelism, pieces_read_spec, read_spec
    read = set(file_columns.values())
    if pieces is None:
        (spec_json, schema_json), tasks = read_spec(ctx.spark, scan.table, read=read), parallelism(ctx.spark)
    else:
        (spec_json, schema_json), tasks = pieces_read_spec(ctx.spark, scan.table, pieces, read), pieces[0]
    fn = _PieceGroups(spec_json, schema_json, file_columns, list(node.keys), calls_of(node),
                      windows_of(node, node.spec), tasks, pieces is None)
    return run_in_tasks_as_ipc(ctx.spark, fn, tasks), \
        PiecesMerge(node, groups_schema(scan, file_columns, node, node.spec))


@dataclass
class _PieceGroups:
    """The tasks' function (whole_file.run_in_tasks_as_ipc): its input holds the task's share number(s); for each
    it reads the pieces of the file whose number has that remainder by `tasks` and yields each one's groups as a
    table, its metadata the piece's number and the watermark after it (none when the piece has no time).
    `calls`, `windows`: as whole_file_aggregate.grouped and windowed take them."""
    read_spec: str
    schema_json: str
    file_columns: dict          # {field: the file's column}
    keys: list
    calls: list
    windows: tuple
    tasks: int
    files: bool = False         # the pieces are a directory's files

    def __call__(self, batches):
        from ..connectors.filesystem import TableSpec
        from ..connectors.splits import CUT_FORMATS, batch_splits
        source = TableSpec(self.read_spec)
        # cut as the scan's batch read cuts it (connectors/filesystem.py): numbers in the file's order
        splits = batch_splits(source.path, bool(source.partitions), pack=False) if self.files else \
            batch_splits(source.path, bool(source.partitions), source.pieces if source.format in CUT_FORMATS else 1,
                         source.piece_bytes)
        for share in shares_of(batches):
            for number in range(share, len(splits), self.tasks):
                yield self._piece(source, splits[number], number)

    def _piece(self, source, split, number):
        import pyarrow as pa
        import pyarrow.compute as pc
        from ..connectors.filesystem import PIECE_MAXIMUM
        from ..connectors.split_reader import arrow_schema, read_partition
        batches, closes = [], None
        for batch in read_partition(source, split, self.schema_json):
            seq = batch.column("__seq")
            if batch.num_rows == 1 and seq[0].as_py() & PIECE_MAXIMUM == PIECE_MAXIMUM:
                closes = batch.column(WM).cast(pa.int64())[0].as_py() // 1000    # epoch ms, floored
                continue
            batches.append(batch)
        table = pa.Table.from_batches(batches, schema=arrow_schema(self.schema_json))
        rows = pa.table([table.column(f) for f in self.file_columns.values()] + [table.column(WM)],
                        names=list(self.file_columns) + [WM])
        rows = windowed(rows, self.windows, True)
        rows = rows.filter(pc.is_valid(rows.column(START)))     # a row without a time has no window
        groups = grouped(rows, self.keys, self.calls, True)
        about = {PIECE: str(number)}
        if closes is not None:
            about[CLOSES] = str(closes)
        return groups.replace_schema_metadata(about)


class PiecesMerge:
    """The driver's half: `finish(collected)` -> the aggregate's rows from the pieces' groups (the tasks' tables
    as whole_file.run_in_tasks_as_ipc hands them over; `schema`: Spark's schema of one), as Arrow columns named
    after the result's fields; `then(calc)`: the same with a Calc above that picks fields."""

    def __init__(self, node, schema, picks=None, disjoint=False):
        self.node = node
        self.schema = schema
        self.picks = picks if picks is not None else [(n, n) for n in node.field_names]   # (field, aggregate's)
        self.disjoint = disjoint    # no two tables hold the same (window, key): a whole-file read's key shares

    def then(self, calc):
        mine = dict(self.picks)
        return PiecesMerge(self.node, self.schema, [(name, mine[e.field]) for e, name in calc.projections],
                           self.disjoint)

    def finish(self, collected):
        import pyarrow as pa
        import pyarrow.compute as pc
        rows = self._merged(self._on_time(tables_from_ipc(collected)))
        columns = {k: rows.column(k) for k in self.node.keys}
        types = {f.name: f.type.name for f in self.node.fields if f.type is not None}
        for c in self.node.calls:       # a SUM of INTs is an INT, wrapped past 2^31 as Java narrows (translate.py)
            narrow = _NARROW.get(types.get(c.name)) if c.function == "SUM" else None
            columns[c.name] = rows.column(c.name).cast(narrow, safe=False) if narrow else rows.column(c.name)
        start, end = pc.multiply(rows.column(START), 1000), pc.multiply(rows.column(END), 1000)
        for prop, name in self.node.props.items():        # TIMESTAMPs, the windows' UTC wall clock
            bound = start if prop == "start" else end if prop == "end" else pc.subtract(end, 1000)
            columns[name] = bound.cast(pa.timestamp("us"))
        return pa.table([columns[of] for _, of in self.picks], names=[name for name, _ in self.picks])

    @staticmethod
    def _on_time(pieces):
        """The pieces' tables in file order, each less the groups whose window the earlier pieces had closed."""
        import pyarrow.compute as pc
        pieces = sorted(pieces, key=lambda t: int((t.schema.metadata or {}).get(PIECE, 0)))
        out, closed = [], None          # the earlier pieces' watermark (epoch ms)
        for table in pieces:
            if closed is not None and len(table):
                on_time = pc.greater(pc.subtract(table.column(END), 1), closed)
                if not pc.all(on_time).as_py():
                    table = table.filter(on_time)
            out.append(table)
            after = (table.schema.metadata or {}).get(CLOSES)
            if after is not None:
                closed = int(after) if closed is None else max(closed, int(after))
        return out

    def _merged(self, pieces):
        """One table, a row a (window, key): the groups of a window that more than one piece holds merged."""
        import collections
        import pyarrow as pa
        import pyarrow.compute as pc
        from pyspark.sql.pandas.types import to_arrow_schema
        pieces = [t.replace_schema_metadata(None) for t in pieces]
        if not pieces:
            return to_arrow_schema(self.schema, timezone="UTC").empty_table()
        if self.disjoint:
            return pa.concat_tables(pieces, promote_options="permissive")
        held = collections.Counter(s for t in pieces for s in pc.unique(t.column(START)).to_pylist())
        shared = pa.array([s for s, n in held.items() if n > 1], pa.int64())
        if not len(shared):
            return pa.concat_tables(pieces, promote_options="permissive")
        apart, across = [], []
        for table in pieces:
            there = pc.is_in(table.column(START), value_set=shared)
            if pc.any(there).as_py():
                across.append(table.filter(there))
                table = table.filter(pc.invert(there))
            apart.append(table)
        merged = pa.concat_tables(across).group_by(list(self.node.keys) + [START, END]) \
            .aggregate([(c.name, _MERGE[c.function]) for c in self.node.calls])
        named = {"%s_%s" % (c.name, _MERGE[c.function]): c.name for c in self.node.calls}
        merged = merged.rename_columns([named.get(n, n) for n in merged.column_names])
        return pa.concat_tables(apart + [merged.select(pieces[0].schema.names).cast(pieces[0].schema)],
                                promote_options="permissive")
