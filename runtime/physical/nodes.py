"""Physical nodes: each logical node with the execution choice made for it (rules.py), the statistics behind
the choice, and what the nodes above it ask of it. The translators read these; EXPLAIN prints them."""

from dataclasses import dataclass, field

# how the query as a whole runs
BATCH = "batch"                         # batch mode: final rows
MICRO_BATCHES = "micro-batches"         # Spark Structured Streaming
ONE_PASS = "one pass"                   # a streaming query over bounded files as one Spark batch job

# a node's choice
NATIVE_UPDATE_AGGREGATE = "Spark's update-mode aggregate"
KEYED_AGGREGATE = "dynsql's keyed aggregate"
SPARK_AGGREGATE = "Spark's aggregate"
WHOLE_FILE = "whole-file read"          # each task reads the whole file and computes its share of the keys
SPARK_WINDOW_AGGREGATE = "Spark's window aggregate"
# Spark's batch aggregate in each micro-batch over the windows the watermark closed (runtime/operators/
# window_per_batch.py): no state store; the nodes above it run per micro-batch too
PER_MICRO_BATCH_WINDOW_AGGREGATE = "Spark's aggregate per micro-batch, open windows carried"
STREAMING_MATCHER = "dynsql's streaming matcher"
BATCH_MATCHER = "dynsql's batch matcher"
TEMPORAL_JOIN_PROCESSOR = "dynsql's temporal join"
# Spark's batch as-of join in each micro-batch over the probe rows the watermark passed (runtime/operators/
# temporal_join_per_batch.py): no state store; the nodes above it run per micro-batch too
PER_MICRO_BATCH_TEMPORAL_JOIN = "Spark's as-of join per micro-batch, held probe rows carried"
AS_OF_LOOKUP = "in-memory as-of lookup"
AS_OF_WINDOWS = "as-of join on Spark's window functions"
SPARK_JOIN = "Spark's join"
KEYED_JOIN = "dynsql's keyed join"
READ_IN_MICRO_BATCHES = "read in micro-batches"
READ_IN_PIECES = "read in pieces"
READ_TOP_TO_BOTTOM = "read top to bottom"     # one split a file: its per-row watermark `__wm` as streaming's
# one file cut into pieces read in parallel, each piece's rows with the watermark of its own running maximum and,
# after them, a row with the piece's maximum (runtime/operators/window_pieces.py): the earlier pieces' maximum is
# applied by the window aggregate above
READ_IN_PIECES_WITH_MAXIMA = "read in pieces, each piece's maximum rowtime reported"
# a window aggregate over such pieces: the pairs on time in their piece, less those whose window the earlier
# pieces' maximum had closed, aggregated (runtime/operators/window_pieces.py)
AGGREGATE_OF_PIECES = "Spark's aggregate of the pieces, each pair's lateness by the earlier pieces too"
# the same rows from each piece aggregated with Arrow by its task, the pieces' groups merged in the driver
# (runtime/operators/window_pieces_arrow.py)
ARROW_AGGREGATE_OF_PIECES = "each piece aggregated with Arrow in its task, the pieces' groups merged in the driver"
# a one pass's window aggregate over a directory of files, each read against its own running maximum: each file
# aggregated so by a task (runtime/operators/window_pieces_arrow.py), the files' groups merged in the driver
ARROW_AGGREGATE_OF_FILES = "each file aggregated with Arrow in a task, the files' groups merged in the driver"
# MATCH_RECOGNIZE over such pieces: each row's `__wm` raised to the earlier pieces' watermark, then the batch matcher
MATCH_OF_PIECES = "dynsql's batch matcher, each row's lateness by the earlier pieces too"
# one file cut into pieces read in parallel, each piece a step of the changelog (its rows' `__seq` say which)
READ_IN_STEPS = "read in pieces, each piece a step of the changelog"
# a grouped aggregate over such pieces: Spark's aggregate of each (piece, key), then each key's values over the
# pieces up to each one (runtime/operators/group_pieces.py); the driver shows the changes piece by piece
RUNNING_AGGREGATE_OF_PIECES = "the aggregate of each (piece, key), then each key's running values piece by piece"


SPARK_WATERMARK = "Spark's watermark"


def watermark_delay_ms(scan):
    """The delay of the watermark on a scan's rowtime: its table's (WATERMARK FOR t AS t - delay) and what the
    plan adds (a legacy group window's allowed lateness: the scan's watermark_extra_ms)."""
    return (scan.table.watermark.delay_ms or 0) + getattr(scan, "watermark_extra_ms", 0)


class WatermarkAssigner:
    """Flink's WatermarkAssigner over a scan of a table with a watermark, a node of the physical tree only (the
    logical plan keeps the watermark in the table): on micro-batches with event-time operators, Spark's watermark
    on the rowtime with the table's delay, and the source's end-of-input row dropped once it has carried the
    watermark past every time (runtime/operators/watermark.py). Each row's own watermark `__wm` (what lateness
    is decided by, runtime/lateness.py) comes from the source, which computes it as it reads."""
    name = "WatermarkAssigner"

    def __init__(self, scan):
        self.scan = scan
        self.inputs = [scan]
        self.position = scan.position
        self.fields = scan.fields
        self.kinds, self.update_before, self.upsert_key = scan.kinds, scan.update_before, scan.upsert_key
        self.rowtime = scan.table.watermark.column
        self.delay_ms = watermark_delay_ms(scan)

    @property
    def field_names(self):
        return [f.name for f in self.fields]

    @property
    def insert_only(self):
        return self.scan.insert_only

    def explain_name(self):
        return "%s(rowtime=[%s], delay=[%d ms])" % (self.name, self.rowtime, self.delay_ms)


@dataclass
class PhysicalNode:
    logical: object
    inputs: list = field(default_factory=list)
    choice: str = None
    because: list = field(default_factory=list)     # the statistics and settings that chose it
    stats: object = None                             # a scan's ScanStatistics
    # WHOLE_FILE, ARROW_AGGREGATE_OF_PIECES and _OF_FILES: (the TableScan, {field: the file's column})
    file: tuple = None
    probe_file: tuple = None                         # AS_OF_LOOKUP whose probe rows are read from one file
    watermark_delays_ms: tuple = None                # PER_MICRO_BATCH_TEMPORAL_JOIN: (probe, versions) tables'
    versions_limit: int = -1                         # ... and the versions' size its lookup takes (-1: none)
    # a TemporalJoin over a versioned view: its versions are the view's input rows, each key's latest kept by the
    # join (the view's Deduplicate is not in the physical tree: it never runs)
    versions_of_view: bool = False
    # a one pass's WHOLE_FILE window aggregate under Calcs that only pick fields: its tasks hand their groups to
    # the driver as Arrow values, which gives the sink the rows (runtime/operators/window_pieces_arrow.py)
    groups_to_driver: bool = False
    # READ_IN_PIECES_WITH_MAXIMA, and a temporal join's probe file read in pieces (its scan's READ_IN_PIECES, the
    # join's AS_OF_LOOKUP: a task a piece): (how many, bytes each)
    pieces: tuple = None
    # what the nodes above ask of this one (decided top-down: a translator never looks at its parent)
    only_projections_above: bool = False             # nothing but Calcs between this node and the sink
    event_time_above: bool = False                   # an event-time operator above reads its rowtime
    fields_read_above: frozenset = None              # a Calc right above reads these fields (None: all)
    scan_columns_read: frozenset = None              # a scan under a Calc: the columns read (projection.py)


@dataclass
class PhysicalPlan:
    root: PhysicalNode
    execution: str
    because: list = field(default_factory=list)
    late_rows: bool = False          # ONE_PASS: operators drop the rows streaming finds late (by `__wm`)
    # MICRO_BATCHES with event-time operators: the sources end with the end-of-input row, and each scan of a table
    # with a watermark is under a WatermarkAssigner (Spark's watermark)
    event_time: bool = False
    hides_updates: bool = False      # ONE_PASS over an updating operator: final rows only, no -U/+U
    steps: int = 0                   # ONE_PASS of a grouped aggregate in pieces: the changelog in this many steps
    nodes: dict = field(default_factory=dict)        # id(logical node) -> PhysicalNode

    def of(self, logical):
        return self.nodes[id(logical)]

    @property
    def one_pass(self):
        return self.execution == ONE_PASS

    def status_note(self):
        """What the result view's status line says of a one pass (None otherwise)."""
        if not self.one_pass:
            return None
        if self.steps:
            return ("one pass in %d pieces: the changes piece by piece, as micro-batches of them would show them "
                    "(SET 'dynsql.one-pass.enabled' = 'false' for micro-batches)" % self.steps)
        if self.hides_updates:
            return "one pass: final rows only, no -U/+U (SET 'dynsql.one-pass.enabled' = 'false' to see them)"
        return "one pass: rows shown at the end of the input (SET 'dynsql.one-pass.enabled' = 'false')"
