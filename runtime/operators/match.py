"""Match (MATCH_RECOGNIZE): streaming, the keyed event-time `MatchProcessor` (runtime/match_recognize/stream.py)
over the input's rows, keyed by PARTITION BY; batch, the same matcher over each partition's sorted rows
(runtime/match_recognize/batch.py, `mapInArrow`), or, straight over one small file, each task reading the file
and matching its share of the keys (whole_file.py). Whatever the input is (a table, a view, a join's output),
the node's input columns are what the matcher reads; for ONE ROW PER MATCH only those its clauses name
(`columns_read`: the rest is neither shuffled, sorted nor kept). In batch mode no row is late (Flink's batch
mode has no watermarks); a streaming query read in one pass (runtime/one_pass.py) runs the batch matcher,
which drops the rows streaming finds late (rowtime <= `__wm`), and ends the input as the final watermark
does."""

from pyspark.sql import functions as F

from planner.plan.match import Match

from ..match_recognize.batch import match_batch
from ..match_recognize.matcher import columns_read
from ..match_recognize.stream import match_stream
from ..match_recognize.whole_file import match_whole_file
from ..physical.nodes import MATCH_OF_PIECES, WHOLE_FILE
from ..translate import Stream, conform, q, translates
from .event_time import event_time_column, output_rowtime, watermark_delay_ms


@translates(Match)
def translate_match(node, inputs, ctx):
    s = inputs[0]
    spec = node.spec
    columns = columns_read(spec, node.input_columns)
    names = [n for n, _ in columns]
    if not ctx.streaming:
        chosen = ctx.chosen(node)
        if chosen.choice == WHOLE_FILE:
            from ..tables import parallelism, read_spec
            scan, file_columns = chosen.file
            out = match_whole_file(ctx.spark, *read_spec(ctx.spark, scan.table), file_columns, spec, columns,
                                   tasks=parallelism(ctx.spark), late_rows=ctx.late_rows)
        else:
            df = s.df
            if chosen.choice == MATCH_OF_PIECES:      # a file read in pieces: the earlier pieces' watermark too
                from .window_pieces import with_earlier_pieces
                df = with_earlier_pieces(df, [q(k) for k in spec.partition_by])
            df = df.select(*[F.col(q(n)) for n in names], F.col("__seq"),
                             *([F.col("__wm")] if ctx.late_rows else []))
            out = match_batch(df, spec, columns)
        out = out.select(*[F.col(q(n)) for n in node.field_names], F.lit(None).cast("long").alias("__seq"),
                         F.lit(None).cast("timestamp").alias("__wm"))
        return Stream(conform(out, node.fields))
    rowtime = event_time_column(node, ctx, output_rowtime(node)) if node.event_time else None
    df = s.df.select(*[F.col(q(n)) for n in names], F.col("__seq"), F.col("__wm"))
    out = match_stream(df, spec, columns, spec.rowtime, event_time_column=rowtime,
                       watermark_delay_ms=watermark_delay_ms(node.input))
    out = out.select(*[F.col(q(n)) for n in node.field_names], F.col("__seq"),
                     F.lit(None).cast("timestamp").alias("__wm"))
    return Stream(conform(out, node.fields))
