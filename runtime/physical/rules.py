"""The physical planning pass: `plan_physical(query, batch, settings, facts)` -> PhysicalPlan. Every execution
choice dynsql makes is made here, once, from the scans' statistics (statistics.py), the session's settings and
what the engine knows of Spark (EngineFacts):

- how the query runs: batch mode; micro-batches; or, for a streaming SELECT over bounded files whose result one
  Spark batch job gives as micro-batches would (see runtime/one_pass.py), one pass, up to
  `dynsql.one-pass.max-input-size` in all (past it, a window aggregate or MATCH_RECOGNIZE over one text file
  reads it in pieces of `dynsql.one-pass.piece-size`; an event-time temporal join reads its probe file so, past
  it or where micro-batches would split it, its versions whole), unless `dynsql.one-pass.enabled` is false; a
  grouped aggregate over one text file past that limit or that micro-batches would split reads it in pieces too,
  each piece a step of the changelog;
- a grouped aggregate: Spark's update-mode aggregate (insert-only input, functions whose result does not depend
  on the rows' order, only projections above) or dynsql's keyed aggregate; read as one batch: Spark's aggregate,
  or each task reading the whole file (up to `dynsql.whole-file.max-size`) and computing its share of the keys;
- a window aggregate and MATCH_RECOGNIZE read as one batch: the whole-file read, or Spark's plan; a TUMBLE, HOP or
  CUMULATE aggregate a SELECT shows on micro-batches: Spark's batch aggregate per micro-batch over the windows the
  watermark closed (`dynsql.window-aggregate.per-micro-batch`), else Spark's streaming aggregate;
- an event-time temporal join read as one batch: the in-memory as-of lookup when the versions' files fit under
  Spark's broadcast limit (`spark.sql.autoBroadcastJoinThreshold`, its tasks reading the probe file a piece
  each when it is read in pieces), else the as-of join on window functions; one
  over a versioned view that a SELECT shows on micro-batches: Spark's as-of join per micro-batch over the probe
  rows the watermark passed (`dynsql.temporal-join.per-micro-batch`), else dynsql's temporal join operator;
- a regular join: Spark's join (insert-only inputs, only projections above) or dynsql's keyed join;
- a scan: micro-batches; in pieces a core; or top to bottom (one split a file) where a one pass decides
  lateness by the per-row watermark `__wm`; on micro-batches with event-time operators, a table's watermark is a
  node of its own above the scan (nodes.py's WatermarkAssigner: Spark's watermark).

`dynsql.physical.force` overrides the size limits to test every path on the same rows: `general` takes no fast
path (micro-batches, dynsql's own operators, Spark's shuffles, the window plan, Spark's streaming window
aggregate and dynsql's temporal join operator rather than their per-micro-batch runs), `one-pass` reads in one pass
wherever its semantics allow with the general operators inside, `fast` takes every fast path wherever its
semantics allow, whatever the sizes; `auto` (the default) decides by the statistics."""

from dataclasses import dataclass

from planner.errors import UnsupportedError
from planner.plan.aggregate import GroupAggregate
from planner.plan.calc import Calc
from planner.plan.expand import Expand
from planner.plan.fields import PROCTIME
from planner.plan.join import Join
from planner.plan.match import Match
from planner.plan.node import post_order
from planner.plan.scan import TableScan
from planner.plan.sink import CollectSink, TableSink
from planner.plan.temporal_join import TemporalJoin, versioned_view
from planner.plan.window import GroupWindowAggregate, WindowAggregate, WindowTableFunction

from . import nodes as P
from .projection import columns_read
from .statistics import scan_statistics, size_text


@dataclass
class EngineFacts:
    """What the engine knows of Spark that a choice depends on."""
    broadcast_bytes: int = 10 << 20     # spark.sql.autoBroadcastJoinThreshold (-1: never)
    foreach_batch: bool = True          # the result sink runs in the driver (not under Spark Connect)
    cores: int = 2                      # the cores Spark's tasks run on (runtime/tables.parallelism): a file's
                                        # pieces are a multiple of them
    state_ttl_ms: int = 0


def plan_physical(query, batch, settings=None, facts=None, statistics=scan_statistics):
    """The physical plan of `query` (a planner QueryPlan; `batch`: batch mode)."""
    return _Planner(query, batch, settings, facts or EngineFacts(), statistics).plan()


class _Planner:
    def __init__(self, query, batch, settings, facts, statistics):
        self.query, self.batch, self.settings, self.facts = query, batch, settings, facts
        self.force = settings.physical_force if settings is not None else "auto"
        self.stats = {id(n): statistics(n) for n in query.root.walk() if isinstance(n, TableScan)}
        self.pieces = self.pieces_scan = self.pieces_aggregate = None     # an operator over a file in pieces

    def plan(self):
        root = self.query.root
        nodes = {}
        for n in post_order(root):
            nodes[id(n)] = P.PhysicalNode(n, [nodes[id(c)] for c in n.inputs])
            if isinstance(n, TemporalJoin):
                self._versions_read(n, nodes)
        self._above(nodes[id(root)])
        execution, because = self._execution()
        plan = P.PhysicalPlan(nodes[id(root)], execution, because, nodes=nodes)
        if plan.one_pass:
            plan.late_rows = any(isinstance(n, (WindowAggregate, GroupWindowAggregate, Match)) for n in root.walk())
            if isinstance(self.pieces_aggregate, GroupAggregate):
                plan.steps = self.pieces[0]
            else:
                plan.hides_updates = any(isinstance(n, GroupAggregate) for n in root.walk())
        one_batch = execution != P.MICRO_BATCHES
        for p in post_order(plan.root):
            self._choose(p, one_batch, plan)
        plan.event_time = not one_batch and any(getattr(n, "event_time", False) for n in root.walk())
        if plan.event_time:
            self._watermarks(plan.root)
        return plan

    @staticmethod
    def _watermarks(root):
        """A WatermarkAssigner over each scan of a table with a watermark (nodes.py)."""
        for parent in post_order(root):
            for i, p in enumerate(parent.inputs):
                if isinstance(p.logical, TableScan) and p.logical.table.watermark is not None:
                    assigner = P.PhysicalNode(P.WatermarkAssigner(p.logical), [p], choice=P.SPARK_WATERMARK)
                    assigner.only_projections_above = p.only_projections_above
                    assigner.event_time_above = p.event_time_above
                    parent.inputs[i] = assigner

    @staticmethod
    def _versions_read(join, nodes):
        """A temporal join over a versioned view reads the view's input rows as its versions and keeps each key's
        latest itself (runtime/operators/temporal_join.py): the view's Deduplicate never runs, so it is not in the
        physical tree; the view's projections read the deduplication's input."""
        deduplication, projections = versioned_view(join.right)
        if deduplication is None:
            return
        below = nodes.pop(id(deduplication)).inputs[0]
        for c in reversed(projections):
            below = nodes[id(c)] = P.PhysicalNode(c, [below])
        nodes[id(join)].inputs[1] = below
        nodes[id(join)].versions_of_view = True

    # ------------------------------------------------------------------ what the nodes above ask
    def _above(self, root):
        """Top-down over the physical tree: each node's only_projections_above, event_time_above and
        fields_read_above."""
        stack = [(root, True, False)]
        while stack:
            parent, projections_only, event_time = stack.pop()
            n = parent.logical
            for p in parent.inputs:
                c = p.logical
                p.only_projections_above = projections_only and isinstance(n, (Calc, CollectSink, TableSink))
                p.event_time_above = event_time or bool(getattr(n, "event_time", False))
                if isinstance(n, Calc):
                    used = set()
                    for e, _ in n.projections:
                        used.update(e.refs)
                    if n.condition is not None:
                        used.update(n.condition.refs)
                    p.fields_read_above = frozenset(used)
                    if isinstance(c, TableScan):
                        p.scan_columns_read = columns_read(c, n)
                stack.append((p, p.only_projections_above, p.event_time_above))

    # ------------------------------------------------------------------ micro-batches or one pass
    def _execution(self):
        if self.batch:
            return P.BATCH, ["execution.runtime-mode = batch"]
        s = self.settings
        if s is not None and not s.one_pass_enabled:
            return P.MICRO_BATCHES, ["dynsql.one-pass.enabled = false"]
        if self.force == "general":
            return P.MICRO_BATCHES, ["dynsql.physical.force = general"]
        scans = []
        limit = s.one_pass_max_bytes if s is not None else 0
        if not self._in_one_pass(self.query.root, scans, False):
            steps = self._grouped_in_steps(limit)
            if steps is not None:
                return steps
            pieces = self._temporal_join_in_pieces() if limit > 0 else None
            if pieces is not None:
                size = self.stats[id(self.pieces_scan)].bytes
                return P.ONE_PASS, [self._pieces_text(pieces, "not read whole by the first micro-batch%s" % (
                    ", > dynsql.one-pass.max-input-size %s" % size_text(limit) if size > limit else ""))]
            return P.MICRO_BATCHES, ["an input or an operator that a single batch job would not give streaming's rows"]
        total = sum(self.stats[id(c)].bytes for c in scans)
        if self.force in ("one-pass", "fast"):
            return P.ONE_PASS, ["%s in %s, dynsql.physical.force = %s" % (size_text(total), self._files(scans),
                                                                          self.force)]
        if limit <= 0 or total > limit:
            steps = self._grouped_in_steps(limit)
            if steps is not None:
                return steps
            pieces = self._in_pieces() if limit > 0 else None
            if pieces is not None:
                return P.ONE_PASS, [self._pieces_text(pieces, "> dynsql.one-pass.max-input-size %s" %
                                                      size_text(limit))]
            pieces = self._temporal_join_in_pieces() if limit > 0 else None
            if pieces is not None:
                return P.ONE_PASS, [self._pieces_text(pieces, "%s in all > dynsql.one-pass.max-input-size %s" % (
                    size_text(total), size_text(limit)))]
            return P.MICRO_BATCHES, ["%s in all > dynsql.one-pass.max-input-size %s" % (size_text(total),
                                                                                        size_text(limit))]
        return P.ONE_PASS, ["%s in %s <= dynsql.one-pass.max-input-size %s" % (
            size_text(total), self._files(scans), size_text(limit))]

    def _pieces_text(self, pieces, why):
        """EXPLAIN's reason for a one pass over a file read in pieces (self.pieces_scan's): its size, `why` it
        is not read as a whole, the pieces."""
        stats = self.stats[id(self.pieces_scan)]
        join = isinstance(self.pieces_aggregate, TemporalJoin)
        return "%s%s in 1 file%s%s: %d pieces of %s read in parallel (dynsql.one-pass.piece-size %s%s)%s" % (
            "probe rows of %s: " % self.pieces_scan.table.name if join else "", size_text(stats.bytes),
            ", " if join else " ", why, pieces[0], size_text(pieces[1]), size_text(self.settings.one_pass_piece_bytes),
            ", a multiple of %d cores" % self.facts.cores if join else "",
            "; versions whole in the first micro-batch" if join else "")

    def _files(self, scans):
        n = sum(self.stats[id(c)].files for c in scans)
        return "%d file%s" % (n, "" if n == 1 else "s")

    def _shown_operator(self):
        """The node under the projections and filters of a SELECT (None: not a SELECT)."""
        node = self.query.root
        if not isinstance(node, CollectSink) or self.facts is None:
            return None
        node = node.input
        while isinstance(node, Calc):
            node = node.input
        return node

    def _in_pieces(self):
        """A SELECT of a TUMBLE, HOP or CUMULATE aggregate or of an event-time MATCH_RECOGNIZE over one csv or json
        file larger than the one pass's limit, with only projections between the scan and the operator (every
        row the scan reads reaches it, the row with its piece's maximum too): (pieces, bytes each) to read it
        in, in parallel, each row's lateness decided by its piece's running maximum and the earlier pieces'
        maximum (runtime/operators/window_pieces.py); else None."""
        node = self._shown_operator()
        if not ((isinstance(node, WindowAggregate) and node.spec.kind != "SESSION" and node.time_kind != PROCTIME)
                or (isinstance(node, Match) and node.event_time)):
            return None
        aggregate = node
        node = node.input
        while (isinstance(node, Calc) and node.condition is None) or (
                isinstance(node, WindowTableFunction) and node.spec.kind != "SESSION"):
            node = node.input
        if not (isinstance(node, TableScan) and node.insert_only and not node.changelog_source
                and self._bounded_files(node) and node.table.watermark is not None):
            return None
        return self._cut(node, aggregate, self.facts.cores)

    def _temporal_join_in_pieces(self):
        """A SELECT of an event-time temporal join of a versioned view (INNER or LEFT, only projections and
        filters above it) whose probe rows are one csv or json file read as it stands (no
        `scan.rows-per-batch`: the micro-batches a user asked for keep their own changelog) through projections,
        and whose versions a streaming read takes whole in its first micro-batch: (pieces, bytes each) to read
        the probe file in, in parallel, a multiple of the cores; else None. Every version then arrives before
        the watermark moves, as when micro-batches read the probe file whole in their first one (the one pass
        of a file under the limits, runtime/one_pass.py): each probe row meets the version valid at its time
        among all the versions, whichever piece it is in, and no probe row is late (as_of_join.py), so the
        pieces need no watermark of the earlier pieces."""
        node = self._shown_operator()
        if not (isinstance(node, TemporalJoin) and node.insert_only):
            return None
        join = node
        deduplication, _ = versioned_view(join.right)
        if deduplication is None or not self._first_micro_batch_reads_all((deduplication.input,), []):
            return None
        node = join.left
        while isinstance(node, Calc) and node.insert_only:
            node = node.input
        if not (isinstance(node, TableScan) and node.insert_only and not node.changelog_source
                and self.stats[id(node)].plain_files and not node.table.options.get("scan.rows-per-batch")
                and not any(c.is_proctime for c in node.table.columns)):
            return None
        return self._cut(node, join, self.facts.cores)

    def _cut(self, scan, operator, cores):
        """(pieces, bytes each) to read `scan`'s one csv or json file in for `operator`, at least two and a
        multiple of `cores`, of about `dynsql.one-pass.piece-size` each; None when it cannot be cut."""
        from ..connectors.splits import CUT_FORMATS
        stats = self.stats[id(scan)]
        piece = self.settings.one_pass_piece_bytes if self.settings is not None else 0
        if not (stats.one_file and scan.table.options.get("format") in CUT_FORMATS and piece > 0
                and not stats.ignores_parse_errors):
            return None
        count = max(2, -(-stats.bytes // piece))
        count = -(-count // max(1, cores)) * max(1, cores)
        self.pieces, self.pieces_scan, self.pieces_aggregate = (count, max(1, stats.bytes // count)), scan, operator
        return self.pieces

    def _grouped_in_steps(self, limit):
        """A SELECT of a grouped aggregate whose functions merge (group_pieces.py's runs_in_pieces), with only
        projections and filters above it and below it, over one csv or json file larger than `limit` (the one
        pass's), or that micro-batches would read in several runs of their own choosing (the first does not take
        it whole; a table's 'scan.rows-per-batch' keeps its micro-batches): one pass, the file read in pieces
        in parallel, each piece a step of the changelog (runtime/operators/group_pieces.py); else None. The
        pieces are as many as `dynsql.one-pass.piece-size` gives (at least two), rounded up to a multiple of
        the cores. -> (ONE_PASS, because), self.pieces (how many, bytes each)."""
        from ..operators.group_pieces import runs_in_pieces
        node = self._shown_operator()
        if limit <= 0 or self.facts.state_ttl_ms or not (isinstance(node, GroupAggregate) and runs_in_pieces(node)):
            return None
        aggregate = node
        node = node.input
        while isinstance(node, Calc) and node.insert_only:
            node = node.input
        if not (isinstance(node, TableScan) and node.insert_only and not node.changelog_source
                and self._bounded_files(node)):
            return None
        stats = self.stats[id(node)]
        if stats.bytes > limit:
            why = "%s in 1 file > dynsql.one-pass.max-input-size %s" % (size_text(stats.bytes), size_text(limit))
        elif not stats.whole_first_micro_batch and not node.table.options.get("scan.rows-per-batch"):
            why = "%s in 1 file, more than one micro-batch reads" % size_text(stats.bytes)
        else:
            return None
        if self._cut(node, aggregate, self.facts.cores) is None:
            return None
        return P.ONE_PASS, ["%s: %d pieces of %s read in parallel, each a step of the changelog "
                            "(dynsql.one-pass.piece-size %s)" % (why, self.pieces[0], size_text(self.pieces[1]),
                                                                 size_text(self.settings.one_pass_piece_bytes))]

    def _in_one_pass(self, node, scans, stateful_above):
        """Whether `node` and the nodes below it keep their streaming results in one pass (runtime/one_pass.py
        says why); collects the scans. `stateful_above`: a node other than a projection or the sink is above."""
        if isinstance(node, TemporalJoin):
            return not stateful_above and node.insert_only and self._temporal_join_in_one_pass(node, scans)
        if isinstance(node, GroupAggregate):
            return not stateful_above and self._group_aggregate_in_one_pass(node, scans)
        if not (node.insert_only or isinstance(node, (Calc, CollectSink))) or not self._keeps_streaming(node):
            return False
        if isinstance(node, TableScan):
            scans.append(node)
        above = stateful_above or not isinstance(node, (Calc, CollectSink))
        return all(self._in_one_pass(c, scans, above) for c in node.inputs)

    def _keeps_streaming(self, node):
        if isinstance(node, (CollectSink, Calc, Expand)):
            return True
        if isinstance(node, TableScan):
            return self._bounded_files(node)
        if isinstance(node, (WindowTableFunction, WindowAggregate)):
            return node.spec.kind != "SESSION" and node.time_kind != PROCTIME
        if isinstance(node, GroupWindowAggregate):
            return node.spec.kind != "SESSION" and node.time_kind != PROCTIME and not node.updating
        if isinstance(node, Match):
            return node.event_time
        return False

    def _temporal_join_in_one_pass(self, join, scans):
        deduplication, _ = versioned_view(join.right)
        return deduplication is not None and self._first_micro_batch_reads_all((join.left, deduplication.input),
                                                                               scans)

    def _group_aggregate_in_one_pass(self, aggregate, scans):
        from ..operators.group_aggregate import ONE_PASS_FUNCTIONS
        if not aggregate.keys or any(c.function not in ONE_PASS_FUNCTIONS or c.distinct
                                     for c in aggregate.calls):
            return False
        return self._first_micro_batch_reads_all((aggregate.input,), scans)

    def _first_micro_batch_reads_all(self, inputs, scans):
        mine = []
        for node in inputs:
            while isinstance(node, (Calc, Expand)) and node.insert_only:     # (an Expand: GROUPING SETS)
                node = node.input
            if not (isinstance(node, TableScan) and node.insert_only and self._bounded_files(node)):
                return False
            mine.append(node)
        scans.extend(mine)
        return all(self.stats[id(s)].whole_first_micro_batch for s in mine)

    def _bounded_files(self, scan):
        """One unpaced, unwatched file, or a directory of such files that a streaming read takes all whole in
        its first micro-batch (each file against its own running maximum, as a batch read of one split a file
        reads them), insert-only, whose rowtime (if any) is a physical column (a computed rowtime has no per-row
        `__wm`)."""
        stats = self.stats[id(scan)]
        if not (stats.plain_files and (stats.one_file or stats.whole_first_micro_batch)):
            return False
        table = scan.table
        if any(c.is_proctime for c in table.columns):
            return False
        wm = table.watermark
        return wm is None or not any(c.name == wm.column and c.computed is not None for c in table.columns)

    # ------------------------------------------------------------------ each node's choice
    def _choose(self, p, one_batch, plan):
        n = p.logical
        if self.pieces is not None and isinstance(self.pieces_aggregate, TemporalJoin) and (
                n is self.pieces_scan or n is self.pieces_aggregate):
            self._temporal_join_of_pieces(p)
            return
        if self.pieces is not None and (n is self.pieces_scan or n is self.pieces_aggregate):
            p.stats = self.stats.get(id(n))
            p.pieces = self.pieces
            if isinstance(self.pieces_aggregate, GroupAggregate):
                p.choice = P.READ_IN_STEPS if n is self.pieces_scan else P.RUNNING_AGGREGATE_OF_PIECES
                p.because = [p.stats.describe()] if p.stats is not None else [
                    "functions that merge: %s" % ", ".join(sorted({c.function for c in n.calls}))]
                if n is self.pieces_aggregate:
                    self._pieces_in_tasks(p)
                return
            p.choice = P.READ_IN_PIECES_WITH_MAXIMA if n is self.pieces_scan else \
                P.MATCH_OF_PIECES if isinstance(n, Match) else P.AGGREGATE_OF_PIECES
            p.because = [p.stats.describe()] if p.stats is not None else [
                "late when %s <= max(the piece's watermark before the row, the earlier pieces' maximum - delay)" % (
                    "its rowtime" if isinstance(n, Match) else "window end - 1")]
            if p.choice == P.AGGREGATE_OF_PIECES:
                self._arrow_pieces(p)
            return
        if isinstance(n, TableScan):
            p.stats = self.stats[id(n)]
            p.because = [p.stats.describe()]
            p.choice = (P.READ_IN_MICRO_BATCHES if not one_batch else
                        P.READ_TOP_TO_BOTTOM if plan.late_rows else P.READ_IN_PIECES)
        elif isinstance(n, GroupAggregate):
            self._group_aggregate(p, one_batch)
        elif isinstance(n, WindowAggregate):
            p.choice = P.SPARK_WINDOW_AGGREGATE
            if one_batch:
                from ..operators.whole_file_aggregate import whole_file_fields
                if plan.one_pass:
                    self._arrow_files(p)
                if p.choice != P.ARROW_AGGREGATE_OF_FILES:
                    self._whole_file(p, n.input, whole_file_fields(n, n.spec))
                if p.choice == P.WHOLE_FILE and plan.one_pass and self._arrow_aggregate_file(n) is not None:
                    p.groups_to_driver = True
                    p.because.append("the groups handed to the driver as Arrow values")
            else:
                self._per_micro_batch(p)
        elif isinstance(n, GroupWindowAggregate):
            p.choice = P.SPARK_WINDOW_AGGREGATE
            if not one_batch and n.updating and not p.only_projections_above:
                raise UnsupportedError("A group window with early or late firing can only be followed by "
                                       "projections and filters", *n.position)
        elif isinstance(n, Match):
            p.choice = P.STREAMING_MATCHER if not one_batch else P.BATCH_MATCHER
            if one_batch:
                from ..match_recognize.whole_file import whole_file_fields
                self._whole_file(p, n.input, whole_file_fields(n))
        elif isinstance(n, TemporalJoin):
            self._temporal_join(p, one_batch)
        elif isinstance(n, Join):
            native = one_batch or (n.kind == "INNER" and n.inputs[0].insert_only and n.inputs[1].insert_only
                                   and p.only_projections_above and _sides_equated(n))
            if native and not one_batch and self.force == "general":
                native, p.because = False, ["dynsql.physical.force = general"]
            p.choice = P.SPARK_JOIN if native else P.KEYED_JOIN

    def _pieces_in_tasks(self, p):
        """A grouped aggregate read in pieces whose partial values Arrow computes as Spark does (the whole-file
        read's functions and keys: whole_file_aggregate.py) over columns of the file: each Spark task reads its
        piece of the file itself and aggregates it, only the groups reaching the JVM (`p.file`); else Spark's
        aggregate of the scan's rows. `dynsql.physical.force = one-pass` takes Spark's."""
        from ..operators.whole_file_aggregate import whole_file_fields
        from ..whole_file import file_columns_under
        n = p.logical
        if self.force == "one-pass":
            p.because.append("partial values: Spark's aggregate of the scan's rows, dynsql.physical.force = one-pass")
            return
        needed = whole_file_fields(n)
        found = file_columns_under(n.input, needed) if needed is not None else None
        if found is None:
            p.because.append("partial values: Spark's aggregate of the scan's rows (functions or fields Arrow does "
                             "not compute as Spark)")
            return
        p.file = found
        p.because.append("partial values: each task aggregating its piece of %s with Arrow" % found[0].table.name)

    def _arrow_pieces(self, p):
        """The window aggregate over a file in pieces: each piece aggregated with Arrow by its task and the
        groups merged in the driver (runtime/operators/window_pieces_arrow.py) when Arrow computes its functions
        as Spark does (whole_file_aggregate.py), it reads the file's columns through Calcs that only pick fields,
        and only such Calcs are above it (the driver's merge gives the sink the result's rows)."""
        found = self._arrow_aggregate_file(p.logical)
        if found is not None:
            p.choice, p.file = P.ARROW_AGGREGATE_OF_PIECES, found

    def _arrow_files(self, p):
        """A one pass's window aggregate over a directory of files, each read against its own running maximum:
        each file aggregated with Arrow by a task and the files' groups merged in the driver, on the terms of
        `_arrow_pieces`, where the files are read as they stand (no parse errors skipped)."""
        found = self._arrow_aggregate_file(p.logical)
        if found is None:
            return
        stats = self.stats[id(found[0])]
        if stats.one_file or not stats.plain_files or stats.ignores_parse_errors:
            return
        if self.force in ("general", "one-pass"):
            p.because = ["dynsql.physical.force = %s" % self.force]
            return
        p.choice, p.file = P.ARROW_AGGREGATE_OF_FILES, found
        p.because = ["%d files, each read against its own running maximum" % stats.files]

    def _arrow_aggregate_file(self, n):
        """(the TableScan, {field: the file's column}) when Arrow can compute the window aggregate `n` in the
        tasks that read its file(s) and the driver give the sink its rows (see _arrow_pieces); else None."""
        from ..operators.whole_file_aggregate import whole_file_fields
        from ..whole_file import file_columns_under
        needed = whole_file_fields(n, n.spec)
        found = file_columns_under(n.input, needed) if needed is not None else None
        above = self.query.root.input
        while above is not n and isinstance(above, Calc) and above.condition is None and \
                all(e.field is not None for e, _ in above.projections):
            above = above.input
        return found if above is n else None

    def _per_micro_batch(self, p):
        """A TUMBLE, HOP or CUMULATE aggregate on event time that a SELECT shows (only projections above it) over
        rows whose per-row watermark `__wm` comes from a filesystem scan: Spark's batch aggregate per micro-batch
        (runtime/operators/window_per_batch.py), unless `dynsql.window-aggregate.per-micro-batch` is false or the
        result sink does not run in the driver (Spark Connect)."""
        n = p.logical
        if not (isinstance(self.query.root, CollectSink) and p.only_projections_above and self.facts.foreach_batch
                and n.spec.kind != "SESSION" and n.time_kind != PROCTIME and self._watermarked_rows(n.input)):
            return
        if self._no_per_micro_batch(p, self.settings is not None and not self.settings.window_per_micro_batch,
                                    "dynsql.window-aggregate.per-micro-batch = false"):
            return
        p.choice = P.PER_MICRO_BATCH_WINDOW_AGGREGATE
        p.because = ["a SELECT's result on micro-batches"]

    def _temporal_join_per_micro_batch(self, p):
        """An event-time temporal join over a versioned view that a SELECT shows (only projections above it), its
        probe rows and the view's input rows each from a filesystem scan with a per-row watermark `__wm`: Spark's
        as-of join per micro-batch (runtime/operators/temporal_join_per_batch.py), unless
        `dynsql.temporal-join.per-micro-batch` is false or the result sink does not run in the driver."""
        n = p.logical
        deduplication, _ = versioned_view(n.right)
        if not (isinstance(self.query.root, CollectSink) and p.only_projections_above and self.facts.foreach_batch
                and n.left.insert_only and deduplication is not None):
            return
        scans = [self._watermarked_rows(side) for side in (n.left, deduplication.input)]
        if not all(scans):
            return
        if self._no_per_micro_batch(p, self.settings is not None and not self.settings.temporal_join_per_micro_batch,
                                    "dynsql.temporal-join.per-micro-batch = false"):
            return
        p.choice = P.PER_MICRO_BATCH_TEMPORAL_JOIN
        p.watermark_delays_ms = tuple(P.watermark_delay_ms(s) for s in scans)
        p.versions_limit = self.facts.broadcast_bytes
        p.because = ["a SELECT's result on micro-batches"]

    def _no_per_micro_batch(self, p, turned_off, setting):
        """A per-micro-batch choice is a fast path: `general` takes none; its own setting turns it off."""
        if self.force == "general":
            p.because = ["dynsql.physical.force = general"]
        elif turned_off:
            p.because = [setting]
        return self.force == "general" or turned_off

    def _watermarked_rows(self, node):
        """The scan of one filesystem table with a watermark on a physical column whose rows `node` are, through
        Calcs and window table functions (each row's `__wm` is the source's watermark before it: what
        window_per_batch.py closes by), or None."""
        while isinstance(node, (Calc, WindowTableFunction)) and node.insert_only:
            if isinstance(node, WindowTableFunction) and node.spec.kind == "SESSION":
                return None
            node = node.inputs[0]
        if not (isinstance(node, TableScan) and node.insert_only and not node.changelog_source):
            return None
        table = node.table
        wm = table.watermark
        if (self.stats[id(node)].connector == "filesystem" and wm is not None
                and not any(c.is_proctime for c in table.columns)
                and not any(c.name == wm.column and c.computed is not None for c in table.columns)):
            return node
        return None

    def _group_aggregate(self, p, one_batch):
        from ..operators.accumulators import FUNCTIONS
        from ..operators.group_aggregate import NATIVE_STREAMING_FUNCTIONS, ONE_PASS_FUNCTIONS
        from ..operators.moments_in_order import folds_in_order
        n = p.logical
        folded = sorted({c.function for c in n.calls if folds_in_order(c)})
        if one_batch:
            p.choice = P.SPARK_AGGREGATE
            from ..operators.whole_file_aggregate import whole_file_fields
            self._whole_file(p, n.input, whole_file_fields(n))
            if folded:
                p.because = ["%s: each group's rows sorted by arrival and folded, (n, mean, m2) at a time" %
                             ", ".join(folded)]
            return
        plain = (n.input.insert_only and not self.facts.state_ttl_ms and p.only_projections_above
                 and not any(c.distinct for c in n.calls))
        native = plain and all(c.function in NATIVE_STREAMING_FUNCTIONS for c in n.calls)
        if folded and plain and all(c.function in ONE_PASS_FUNCTIONS for c in n.calls):
            # Spark's streaming aggregate would keep every value of a key, to fold them in arrival order
            p.because = ["%s: (n, mean, m2) a key, folded in arrival order" % ", ".join(folded)]
        if native and self.force == "general":
            from planner.python_functions.aggregate_calls import python_function
            if all(c.function in FUNCTIONS or python_function(c) is not None for c in n.calls):
                p.choice, p.because = P.KEYED_AGGREGATE, ["dynsql.physical.force = general"]
                return
        p.choice = P.NATIVE_UPDATE_AGGREGATE if native else P.KEYED_AGGREGATE

    def _temporal_join(self, p, one_batch, whole_file=True):
        n = p.logical
        if not one_batch:
            p.choice = P.TEMPORAL_JOIN_PROCESSOR
            self._temporal_join_per_micro_batch(p)
            return
        p.choice = P.AS_OF_WINDOWS
        if self.force in ("general", "one-pass"):
            p.because = ["dynsql.physical.force = %s" % self.force]
            return
        deduplication, _ = versioned_view(n.right)
        source = deduplication.input if deduplication is not None else n.right
        scans = [m for m in source.walk() if isinstance(m, TableScan)]
        if not scans or any(self.stats[id(s)].bytes is None for s in scans):
            p.because = ["the versions are not files"]
            return
        total = sum(self.stats[id(s)].bytes for s in scans)
        limit = self.facts.broadcast_bytes
        if self.force != "fast" and (limit < 0 or total > limit):
            p.because = ["versions %s > spark.sql.autoBroadcastJoinThreshold %s" % (
                size_text(total), "-1" if limit < 0 else size_text(limit))]
            return
        p.choice = P.AS_OF_LOOKUP
        p.because = ["versions %s%s" % (size_text(total), ", dynsql.physical.force = fast" if self.force == "fast"
                                         else " <= spark.sql.autoBroadcastJoinThreshold %s" % size_text(limit))]
        if not whole_file:
            return
        probe = P.PhysicalNode(None)
        self._whole_file(probe, n.left, n.left.field_names)
        if probe.file is not None:
            p.probe_file = probe.file
            p.because.append("probe rows: " + probe.because[0])

    def _temporal_join_of_pieces(self, p):
        """The probe scan of a temporal join whose probe file is read in pieces (_temporal_join_in_pieces) and
        the join: the in-memory as-of lookup, its tasks reading a piece each of the file, or the as-of join on
        window functions over Spark's scan of the pieces."""
        n = p.logical
        p.pieces = self.pieces
        if n is self.pieces_scan:
            p.stats = self.stats[id(n)]
            p.choice = P.READ_IN_PIECES
            p.because = [p.stats.describe(), "%d pieces of %s" % (self.pieces[0], size_text(self.pieces[1]))]
            return
        self._temporal_join(p, True, whole_file=False)
        if p.choice != P.AS_OF_LOOKUP:
            return
        from ..whole_file import file_columns_under
        found = file_columns_under(n.left, n.left.field_names)
        if found is not None:
            p.probe_file = found
            p.because.append("probe rows: %d pieces of the file read in the lookup's tasks" % self.pieces[0])

    def _whole_file(self, p, input_node, needed):
        """Make `p` a WHOLE_FILE read of the file under `input_node` when `needed` (its fields the operator
        reads; None: the operator cannot compute from a file) are that file's columns and its size allows. A
        directory of plain files counts as its files' total: each task reads them all, one after another, each
        against its own running maximum, as the scan reads them (runtime/whole_file.py)."""
        from ..whole_file import file_columns_under
        if needed is None:
            return
        found = file_columns_under(input_node, needed)
        if found is None:
            return
        stats = self.stats[id(found[0])]
        if not (stats.one_file or stats.plain_files) or stats.ignores_parse_errors:
            return
        if self.force in ("general", "one-pass"):
            p.because = ["dynsql.physical.force = %s" % self.force]
            return
        limit = self.settings.whole_file_max_bytes if self.settings is not None else 0
        read = "file %s" % size_text(stats.bytes) if stats.one_file else \
            "%d files, %s in all" % (stats.files, size_text(stats.bytes))
        if self.force != "fast" and (limit <= 0 or stats.bytes > limit):
            p.because = ["%s > dynsql.whole-file.max-size %s" % (read, size_text(limit))]
            return
        p.choice, p.file = P.WHOLE_FILE, found
        p.because = ["%s%s" % (read, ", dynsql.physical.force = fast" if self.force == "fast"
                               else " <= dynsql.whole-file.max-size %s" % size_text(limit))]


def _sides_equated(join):
    """Whether a join equates the two sides (keys, or a conjunct of its Spark SQL that is an equality of expressions
    over one side each), as Spark's stream-stream join needs: one without is dynsql's."""
    if join.left_keys:
        return True
    if join.condition is None:
        return False
    import sqlglot
    from sqlglot import exp
    left = set(join.field_names[:len(join.left.fields)])
    right = set(join.field_names[len(join.left.fields):])

    def names(tree):        # a column's own name: `bid`.`bidder` (a ROW's field) reads the column bid
        return {c.parts[0].name for c in tree.find_all(exp.Column)}
    stack = [sqlglot.parse_one(join.condition.sql, read="spark")]
    while stack:
        c = stack.pop()
        if isinstance(c, (exp.Paren, exp.And)):
            stack.extend(c.iter_expressions())
        elif isinstance(c, exp.EQ):
            a, b = names(c.this), names(c.expression)
            if a and b and (a <= left and b <= right or a <= right and b <= left):
                return True
    return False
