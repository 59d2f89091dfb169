"""The print sink: Flink's lines, `+I[Mary, 1]` (after `<print-identifier>> ` when the table sets one), one per
change, on the job process's standard output (its output.log in the job registry), or standard error with
'standard-error' = 'true'. Updating queries print their -U/+U/-D as Flink's print sink does.

The changes come through the result stream the shell's queries use (streaming.py: micro-batches read by the
job's driver), with the job's checkpoint; a print sink is for watching a job, not for exactly-once output."""

import sys
import threading

from ..results import ChangeStream
from ..streaming import AppendSink, ChangelogSink, StreamingRun, UpsertSink
from ..values_text import value_text
from . import sink_frame
from .write import SinkWrite


def print_line(prefix, op, row):
    return "%s%s[%s]" % (prefix, op, ", ".join(value_text(v) for v in row))


class PrintWrite(SinkWrite):
    """Prints the changes of a ChangeStream as they come, in a thread of its own."""

    def __init__(self, stream, prefix, out, rows=0):
        self.stream = stream
        self.rows_written = rows
        self._thread = threading.Thread(target=self._print, args=(prefix, out), name="dynsql-print", daemon=True)
        self._thread.start()

    def _print(self, prefix, out):
        try:
            for batch in self.stream:
                for op, row in batch.changes:
                    out.write(print_line(prefix, op, row) + "\n")
                self.rows_written += len(batch.changes)
                out.flush()
        except Exception as e:
            self.error = e
        self.finished = True

    def stop(self):
        self.stream.stop()


def start_print(spark, plan, result, checkpoint, rows=0, output=None):
    options = plan.target.options
    prefix = (options["print-identifier"] + "> ") if options.get("print-identifier") else ""
    out = output or (sys.stderr if options.get("standard-error", "false").lower() == "true" else sys.stdout)
    stream = ChangeStream(result.columns, description=plan.text)
    df, names = result.df, [c.name for c in result.columns]
    if result.kind == "append":   # the sink's types (an INT printed into a DOUBLE: 1.0)
        df = sink_frame(df, plan, result.columns, hidden=True)
        names = [c.name for c in plan.target.physical_columns]
    if not result.streaming:
        threading.Thread(target=_publish_rows, args=(df, names, stream), daemon=True).start()
        return PrintWrite(stream, prefix, out, rows)
    sink = {"append": lambda: AppendSink(names), "changelog": lambda: ChangelogSink(names),
            "upsert": lambda: UpsertSink(names, result.keys)}[result.kind]()
    StreamingRun(spark, df, sink, stream, bounded=result.bounded, paced=result.paced, name="print",
                 output_mode=result.output_mode, end_of_input=result.end_of_input,
                 checkpoint=checkpoint, state_store=result.state_store).start()
    return PrintWrite(stream, prefix, out, rows)


def _publish_rows(df, names, stream):
    from ..errors import from_spark
    from ..map_columns import from_entries, maps_as_entries
    from ..results import ChangeBatch
    try:
        df, map_types = maps_as_entries(df.select(*["`%s`" % n.replace("`", "``") for n in names]))
        stream.publish(ChangeBatch([("+I", tuple(from_entries(v, map_types[i]) if i in map_types else v
                                                 for i, v in enumerate(r))) for r in df.toLocalIterator()]))
        stream.finish()
    except Exception as e:
        stream.fail(from_spark(e))
