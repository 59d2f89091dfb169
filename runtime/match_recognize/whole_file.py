"""MATCH_RECOGNIZE read as one batch (batch mode, or a one pass: runtime/one_pass.py) straight over one small
bounded file, without a shuffle (runtime/whole_file.py): `match_whole_file(...)`.

The general batch plan (batch.py) shuffles the rows by PARTITION BY, sorts each Spark partition and hands it
back to a Python worker. Here each task reads the whole file, keeps the rows whose PARTITION BY key falls to it,
sorts them with Arrow by (PARTITION BY, ORDER BY, `__seq`), as Spark sorts them there, and runs the same matcher
(batch._ArrowMatch), which in a one pass drops the rows streaming finds late (`__wm`, computed by the reader over
the whole file in order, as in the one pass's scan). Only the matches reach the JVM. Besides runtime/whole_file.py's
conditions on the file, the ORDER BY is ascending, rowtime first, on no floating-point column (Arrow and Spark
order NULLs and NaNs alike there)."""

from planner.expr.types import base_name

from ..lateness import late_array
from ..whole_file import key_shares, read_whole_file, run_in_tasks, shares_of
from ..operators.keyed_state import arrow_key
from .batch import LATE, SEQ, WM, _ArrowMatch, key_columns
from .output_schema import spark_schema

FLOATING = ("FLOAT", "DOUBLE", "REAL")


def whole_file_fields(node):
    """The input columns the Match `node` reads when it can match from its file read in every task; else None
    (whether it does is the physical plan's choice: runtime/physical/rules.py)."""
    from .matcher import columns_read
    spec = node.spec
    if not spec.partition_by or not spec.ordered_by_rowtime():
        return None
    columns = columns_read(spec, node.input_columns)
    types = dict(columns)
    if not all(k.ascending and base_name(types[k.column]) not in FLOATING for k in spec.order_by):
        return None
    return [n for n, _ in columns]


def match_whole_file(spark, read_spec, schema_json, names, spec, columns, tasks, late_rows=False):
    """-> the match's DataFrame (schema: output_schema.spark_schema), `tasks` Spark tasks each reading the file
    (`read_spec`, `schema_json`: runtime.tables.read_spec; `names`: {column: the file's column}) and matching its
    share of the keys. late_rows: drop the rows streaming finds late (a one pass: rowtime <= `__wm`, which the
    reader computes over the whole file in order, as the one pass's scan does), as batch.py does."""
    schema = spark_schema(spec)
    tz = spark.conf.get("spark.sql.session.timeZone")
    fn = _WholeFileMatch(read_spec, schema_json, names, _ArrowMatch(spec, columns, schema, tz, None), tasks,
                         late_rows)
    return run_in_tasks(spark, fn, schema, tasks)


class _WholeFileMatch:
    """The mapInArrow function: its input holds the task's share number(s); it reads the file, keeps the rows
    of its share, sorts them and yields the matcher's output."""

    def __init__(self, read_spec, schema_json, names, matcher, tasks, late_rows):
        self.read_spec = read_spec
        self.schema_json = schema_json
        self.names = names
        self.matcher = matcher
        self.tasks = tasks
        self.late_rows = late_rows

    def __call__(self, batches):
        for share in shares_of(batches):
            rows = self._rows_of(share)
            if rows.num_rows:
                yield from self.matcher(iter(rows.to_batches(max_chunksize=100000)))

    def _rows_of(self, share):
        """The file's rows whose key falls to `share`, in the order the matcher takes them."""
        import pyarrow as pa
        import pyarrow.compute as pc
        spec = self.matcher.spec
        names = [n for n, _ in self.matcher.input_columns]
        keyed = [(p, k) for p, k in zip(spec.partition_by, key_columns(spec, self.matcher.input_columns)) if p != k]
        out = names + [k for _, k in keyed] + ([LATE] if self.late_rows else [])
        kept = []
        for table in read_whole_file(self.read_spec, self.schema_json, self.names,
                                     (SEQ, WM) if self.late_rows else (SEQ,)):
            if self.late_rows:         # as batch.prepare marks them
                table = table.append_column(LATE, late_array(table.column(spec.rowtime), table.column(WM)))
            for p, k in keyed:          # a FLOAT/DOUBLE key by its text, as batch.prepare keys it
                table = table.append_column(k, arrow_key(table.column(p)))
            table = table.select(out + [SEQ])
            kept.append(table.filter(pa.array(key_shares(table, spec.partition_by, self.tasks) == share)))
        if not kept:
            return pa.table({n: [] for n in out})
        rows = pa.concat_tables(kept)
        order = [(k, "ascending", "at_start") for k in key_columns(spec, self.matcher.input_columns)] + \
            [(k.column, "ascending", "at_start") for k in spec.order_by] + [(SEQ, "ascending", "at_start")]
        return rows.take(pc.sort_indices(rows, sort_keys=order)).select(out)
