"""TableScan: a catalog table's rows (runtime/tables.py reads them), its computed columns, and in a
streaming query with event-time operators Spark's watermark on its rowtime. In batch mode a changelog
source is read as the table it describes (its final rows).

Projection push-down (Flink's PushProjectIntoTableSourceScanRule): Spark's Python data sources cannot prune
columns, so under a Calc the scan asks the filesystem source for the columns the Calc reads only (and the
rowtime, and what the computed columns it reads read: the physical pass works them out, physical/projection.py);
the others are typed NULLs in the scan's frame, which nothing reads. The source still parses every column (a bad value anywhere fails as before), but only the
columns read cross into Spark's rows."""

from dataclasses import dataclass, field

from planner.plan.scan import TableScan

from ..physical.nodes import READ_IN_PIECES, READ_IN_PIECES_WITH_MAXIMA, READ_IN_STEPS
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
    # a lookup join's table is read by its join, outside the plan's tree: no physical node of its own
    chosen = ctx.physical.nodes.get(id(node)) if ctx.physical is not None else None
    read = chosen.scan_columns_read if chosen is not None else None
    ref = ScanRef(node.table, computed, watermark_extra_ms=getattr(node, "watermark_extra_ms", 0), read=read)
    # a batch frame whose operators drop no late rows reads no `__wm`: a large file may be read in pieces
    df = table_frame(ctx.spark, ref, ctx.streaming, event_time=ctx.event_time,
                     cut_files=chosen is not None and chosen.choice == READ_IN_PIECES,
                     pieces=chosen.pieces if chosen is not None and
                     chosen.choice in (READ_IN_PIECES, READ_IN_PIECES_WITH_MAXIMA, READ_IN_STEPS) else None,
                     piece_maxima=chosen is not None and chosen.choice == READ_IN_PIECES_WITH_MAXIMA)
    names = node.field_names
    if node.changelog_source and not ctx.streaming:
        df = materialize_changelog(df, names, node.table.primary_key)
    stream = Stream(df, changelog=node.changelog_source and ctx.streaming)
    return Stream(df.select(*stream.columns(names)), changelog=stream.changelog)
