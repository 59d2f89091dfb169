"""The matcher core: a validated spec compiled once, then run over the sorted rows of one partition.

`CompiledMatch(spec, columns)` compiles DEFINE and MEASURES and the pattern (Flink's automaton for
spec.semantics == 'flink', the standard's preference-ordered VM otherwise). `PartitionRun` walks the
partition's start rows one after another, applies AFTER MATCH SKIP (raising the standard's runtime
errors: skipping to the first row of the match, or to a variable with no row), numbers the matches and
turns each into output rows (ONE ROW PER MATCH, or ALL ROWS PER MATCH with SHOW/OMIT EMPTY MATCHES and
WITH UNMATCHED ROWS). It can stop at the end of the rows it has and resume later (streaming). With Flink's
semantics it first rules out, in one numpy pass (next_rows.py), the start rows whose next rows (s+1 .. s+d,
those that are there) no way on can take: they fail as match_from would fail them. Plain Python: no Spark here."""

from planner.errors import RuntimeFailure
from planner.match_recognize.pattern import flat_elements
from runtime.match_recognize import flink_automaton, next_rows
from runtime.match_recognize.compiler import ExpressionCompiler
from runtime.match_recognize.paths import PathFactory
from runtime.match_recognize.standard_vm import Program, StandardMatcher


def columns_read(spec, input_columns):
    """The input columns [(name, type)] a match reads, in input order: PARTITION BY, ORDER BY, the rowtime, and
    those the DEFINE and MEASURES expressions read; all of them for ALL ROWS PER MATCH, which outputs them. The
    others need not reach the matcher (nor be shuffled, sorted or kept in its state)."""
    if spec.rows_per_match == "ALL":
        return list(input_columns)
    compiled = CompiledMatch(spec, [n for n, _ in input_columns])
    keep = set(spec.partition_by) | {k.column for k in spec.order_by} | {spec.rowtime} | compiled.names_read
    return [(n, t) for n, t in input_columns if n in keep]


class CompiledMatch:
    def __init__(self, spec, columns):
        """spec: validated MatchRecognizeSpec; columns: names of the partition data lists, in order."""
        self.spec = spec
        self.columns = list(columns)
        self.variables = spec.variables()
        self.next_rows = None
        subsets = {s.name: s.variables for s in spec.subsets}
        comp = ExpressionCompiler(self.variables, subsets, self.columns, spec.rowtime)
        self.defines = []
        for v in self.variables:
            d = spec.definition(v)
            self.defines.append(None if d is None else comp.compile_define(d.expr, v, "define_%d" % len(self.defines)))
        self.measures = [comp.compile(m.expr, "measure_%d" % i) for i, m in enumerate(spec.measures)]
        self.names_read = comp.names_read
        self.factory = PathFactory(len(self.variables), comp.slots)
        self.empty = self.factory.root
        self.max_prev = comp.max_prev
        var_ids = {v: i for i, v in enumerate(self.variables)}
        self.var_ids = var_ids
        if spec.semantics == "flink":
            elements = [(var_ids[name], lo, hi, greedy) for name, lo, hi, greedy, _ in flat_elements(spec.pattern)]
            self.engine = flink_automaton.FlinkMatcher(flink_automaton.build(elements), self.defines, self.factory)
            # start rows whose next rows no way on can take fail without trying them (one numpy test)
            self.next_rows = next_rows.compile_test(spec, self.columns, self.engine, comp.slots)
        else:
            self.engine = StandardMatcher(Program(spec.pattern, var_ids), self.defines, self.factory)
        am = spec.after_match
        self.skip_kind = am.kind
        self.skip_vars = None
        if am.variable is not None:
            if am.variable in var_ids:
                self.skip_vars = frozenset([var_ids[am.variable]])
            else:
                self.skip_vars = frozenset(var_ids[v] for v in spec.subset(am.variable).variables)
        self.within_us = spec.within_ms * 1000 if spec.within_ms is not None else None
        names = self.columns
        self.partition_idx = [names.index(p) for p in spec.partition_by]
        order_cols = [k.column for k in spec.order_by if k.column not in spec.partition_by]
        self.order_idx = [names.index(c) for c in order_cols]
        used = set(spec.partition_by) | set(order_cols) | {m.name for m in spec.measures}
        self.rest_idx = [names.index(c) for c, _ in spec.input_columns if c not in used and c in names]

    def run_partition(self, data, ts, key_values, final=True):
        """All output rows of one whole partition (batch)."""
        run = PartitionRun(self, key_values)
        return run.advance(data, ts, len(data[0]) if data else 0, final=final)


class PartitionRun:
    """Matching state of one partition: the first row not yet decided, the match count, rows covered."""

    def __init__(self, compiled, key_values, start=0, match_number=0, covered=0, origin=0):
        self.c = compiled
        self.origin = origin            # partition index of data[0] (a streaming buffer drops old rows)
        self.key_values = list(key_values)
        self.start = start
        self.match_number = match_number
        self.covered = covered          # rows below this index belong to some match
        self.blocked = False            # Flink: a start row never resolved at the end of input

    def advance(self, data, ts, n, final=False, watermark=None):
        """Match from self.start over rows [start, n); returns output rows; keeps state for a later call.
        final: no more rows will come. watermark: event time (same unit as ts) no later row can precede."""
        c = self.c
        out = []
        s = self.start
        engine = c.engine
        engine.origin = self.origin
        flink = c.spec.semantics == "flink"
        within = c.within_us
        unmatched_rows = c.spec.rows_per_match == "ALL" and c.spec.empty_matches == "UNMATCHED"
        # cannot[s - lo]: start row s fails by one of its next rows (only rows < n: more rows may come)
        lo = s
        cannot = c.next_rows.cannot_take(data, ts, lo, n, within) if c.next_rows is not None else None
        last = lo + len(cannot) if cannot is not None else lo
        while s < n and not self.blocked:
            if s < last and cannot[s - lo]:
                if not unmatched_rows:          # the whole run of such start rows fails: go past it
                    s = _next_maybe(cannot, s - lo, lo, last)
                    continue
                kind, step = "fail", None
            elif flink:
                kind, step = engine.match_from(s, n, data, ts, within, self.match_number + 1)
            else:
                kind, step = engine.match_from(s, n, data, ts, within, self.match_number + 1, final)
            if kind == "match":
                self.match_number += 1
                self._emit(out, s, step, data)
                s = self._next_start(s, step)
            elif kind == "fail":
                if unmatched_rows:
                    self._unmatched(out, s, data)
                s += 1
            else:  # pending: rows ran out while paths are alive
                expired = within is not None and (final or (watermark is not None and watermark - ts[s] >= within))
                if expired:
                    self._unmatched(out, s, data)
                    s += 1
                elif final and flink:
                    self.blocked = True     # Flink keeps this partial match forever: later matches never emit
                else:
                    break
        self.start = s
        return out

    def _next_start(self, s, step):
        kind = self.c.skip_kind
        if step is None:                 # empty match: resume at the next row
            return s + 1
        if kind == "PAST_LAST_ROW":
            return step.row + 1
        if kind == "NEXT_ROW":
            return s + 1
        rows = [st.row for st in step.steps() if st.var in self.c.skip_vars]
        name = self.c.spec.after_match.variable
        if not rows:
            raise RuntimeFailure("Could not skip to %s. No such element in the found match (AFTER MATCH SKIP TO "
                                 "%s %s: no row of the match is mapped to %s)" % (name, kind[3:], name, name))
        target = rows[0] if kind == "TO_FIRST" else rows[-1]
        if target == s:
            raise RuntimeFailure("Could not skip to first element of a match. (AFTER MATCH SKIP TO %s %s would "
                                 "resume matching at the first row of the match, an endless loop)" % (kind[3:], name))
        return target

    def _emit(self, out, s, step, data):
        c = self.c
        m = self.match_number
        spec = c.spec
        if spec.rows_per_match == "ONE":
            last = step if step is not None else c.empty
            out.append(tuple(self.key_values) + tuple(f(last, s, m, last, data) for f in c.measures))
            if step is not None:
                self.covered = max(self.covered, step.row + 1)
            return
        if step is None:                 # empty match
            if spec.empty_matches != "OMIT":
                e = c.empty
                row = s
                out.append(self._all_rows_row(row, tuple(f(e, s, m, e, data) for f in c.measures), data))
            return
        for st in step.steps():
            if st.excluded:
                continue
            out.append(self._all_rows_row(st.row, tuple(f(st, s, m, step, data) for f in c.measures), data))
        self.covered = max(self.covered, step.row + 1)

    def _unmatched(self, out, s, data):
        c = self.c
        if c.spec.rows_per_match == "ALL" and c.spec.empty_matches == "UNMATCHED" and s >= self.covered:
            out.append(self._all_rows_row(s, (None,) * len(c.measures), data))
            self.covered = s + 1

    def _all_rows_row(self, r, measures, data):
        c = self.c
        return (tuple(self.key_values) + tuple(data[i][r] for i in c.order_idx) + measures
                + tuple(data[i][r] for i in c.rest_idx))


def _next_maybe(cannot, i, lo, last):
    """The first start row from lo + i on that `cannot` does not rule out (`last`: none before it)."""
    try:
        return lo + cannot.index(False, i)
    except ValueError:
        return last
