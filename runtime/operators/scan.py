"""TableScan: a catalog table's rows (runtime/tables.py reads them), its computed columns, and in a
streaming query with event-time operators Spark's watermark on its rowtime. In batch mode a changelog
source is read as the table it describes (its final rows).

Projection push-down (Flink's PushProjectIntoTableSourceScanRule): Spark's Python data sources cannot prune
columns, so under a Calc the scan asks the filesystem source for the columns the Calc reads only (and the
rowtime, and what the computed columns it reads read); the others are typed NULLs in the scan's frame, which
nothing reads. The source still parses every column (a bad value anywhere fails as before), but only the
columns read cross into Spark's rows."""

import re
from dataclasses import dataclass, field

from planner.plan.calc import Calc
from planner.plan.scan import TableScan

from ..physical.nodes import READ_IN_PIECES
from ..translate import Stream, translates


@dataclass
class ScanRef:
    """What runtime.tables.table_frame reads of a scan: the table and its computed columns as Spark SQL."""
    table: object
    computed: dict = field(default_factory=dict)
    watermark_extra_ms: int = 0
    read: frozenset = None      # the columns the query reads (projection push-down); None: all


@translates(TableScan)
def translate_table_scan(node, inputs, ctx):
    from ..tables import materialize_changelog, table_frame
    computed = {n: e.sql for n, e in node.computed.items()}
    computed.update({c.name: "current_timestamp()" for c in node.table.columns if c.is_proctime})   # PROCTIME()
    read = columns_read(node, ctx.parent(node))
    ref = ScanRef(node.table, computed, watermark_extra_ms=getattr(node, "watermark_extra_ms", 0), read=read)
    if read is not None:
        ctx.notes.append("projection push-down: the scan of %s hands Spark %s of its columns"
                         % (node.table.name, ", ".join(n for n in node.field_names if n in read)))
    # a batch frame whose operators drop no late rows reads no `__wm`: a large file may be read in pieces
    df = table_frame(ctx.spark, ref, ctx.streaming, event_time=ctx.event_time,
                     cut_files=ctx.chosen(node).choice == READ_IN_PIECES)
    names = node.field_names
    if node.changelog_source and not ctx.streaming:
        df = materialize_changelog(df, names, node.table.primary_key)
    stream = Stream(df, changelog=node.changelog_source and ctx.streaming)
    return Stream(df.select(*stream.columns(names)), changelog=stream.changelog)


_QUOTED = re.compile(r"`((?:[^`]|``)+)`")


def columns_read(scan, parent):
    """The scan's columns the query reads, when `parent` is a Calc (which then reads all it needs of the scan):
    the fields its expressions refer to, the rowtime, and the fields the computed columns among them refer to.
    None (read all) for other parents, a table other than a plain filesystem one (partitions, metadata
    columns, a changelog format), or when every column is read."""
    table = scan.table
    if not isinstance(parent, Calc) or scan.changelog_source or table.partition_keys or \
            table.options.get("connector") != "filesystem" or any(c.metadata is not None for c in table.columns):
        return None
    wanted = set()
    for e in [e for e, _ in parent.projections] + ([parent.condition] if parent.condition is not None else []):
        wanted.update(_referred(e))
    if table.watermark is not None:
        wanted.add(table.watermark.column)
    for name, e in scan.computed.items():
        if name in wanted:
            wanted.update(_referred(e))
    names = {c.name for c in table.columns}
    wanted &= names                  # (a backticked name that is no column is no field of the scan)
    return None if wanted == names else frozenset(wanted)


def _referred(e):
    """The input fields an Expr reads: its refs, and (to be safe) every backticked name in its Spark SQL."""
    names = set(e.refs or ())
    if e.field is not None:
        names.add(e.field)
    names.update(m.replace("``", "`") for m in _QUOTED.findall(e.sql or ""))
    return names
