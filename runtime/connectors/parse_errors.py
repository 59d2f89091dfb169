"""Counting, per query, the rows that 'csv.ignore-parse-errors' / 'json.ignore-parse-errors' let through.

For a table whose format ignores parse errors the driver makes two accumulators (`new_counters`) and names
them in the table's read spec; the executors add to them (`add_on_executor`) the rows they skipped (a csv row
with too many fields, a line that is not a JSON object or not UTF-8...) and the rows they kept with NULLs
(a value that did not parse, a short csv row). `collecting()` gathers the counters of the tables one query
reads, so that its run can show the sums, and the state directories of its streaming file sources, where
their planners list the files that changed after they were taken (splits.changed_files). Nothing here reads
data."""

import contextlib
import os
import threading

_active = threading.local()


class QueryParseErrors:
    """The parse-error counters of the tables one query reads."""

    def __init__(self):
        self.sources = []      # [(skipped accumulator, nulled accumulator)]
        self.state_dirs = []   # the streaming file sources' state directories
        self._changed = {}     # path -> {'path', 'taken', 'now'}: kept, as a source removes its folder at the end

    @property
    def changed_files(self):
        """The files the sources found changed after they took them (see splits.SplitPlanner)."""
        from .splits import changed_files
        for folder in self.state_dirs:
            for note in changed_files(folder):
                self._changed.setdefault(note["path"], note)
        return list(self._changed.values())

    @property
    def skipped_rows(self):
        return sum(skipped.value for skipped, _ in self.sources)

    @property
    def nulled_rows(self):
        return sum(nulled.value for _, nulled in self.sources)


def changed_files_under(checkpoint):
    """The changed files the streaming sources of a job's INSERTs noted in its checkpoint folder
    (`<checkpoint>/<insert>/sources/<n>`, tables.sources_kept_in), each path once, in the order noted."""
    import glob

    from .splits import changed_files
    notes = {}
    for state_dir in sorted(glob.glob(os.path.join(glob.escape(checkpoint), "*", "sources", "*"))):
        for note in changed_files(state_dir):
            notes.setdefault(note["path"], note)
    return list(notes.values())


def changed_files_note(changed):
    """'Input: <path> changed after it was taken (108 bytes then, 137 bytes now)...' for a list of
    changed_files' notes, or '' for none."""
    if not changed:
        return ""
    first = changed[0]
    return ("Input: %s changed after it was taken (%s then, %s now)%s: what was written to it after that may be "
            "missing or cut; write files elsewhere and move them into the directory" % (
                first["path"], first["taken"], first["now"],
                " and %d more file%s" % (len(changed) - 1, "" if len(changed) == 2 else "s")
                if len(changed) > 1 else ""))


@contextlib.contextmanager
def collecting():
    """`with collecting() as counts:` build a query; `counts` sums the counters its tables made."""
    previous = getattr(_active, "counts", None)
    _active.counts = QueryParseErrors()
    try:
        yield _active.counts
    finally:
        _active.counts = previous


def new_counters(spark):
    """Two accumulators (skipped, nulled) for one table read -> their ids, for the read spec (or None when
    the session has no SparkContext, as under Spark Connect)."""
    try:
        sc = spark.sparkContext
    except Exception:
        return None
    skipped, nulled = sc.accumulator(0), sc.accumulator(0)
    counts = getattr(_active, "counts", None)
    if counts is not None:
        counts.sources.append((skipped, nulled))
    return [skipped.aid, nulled.aid]


def watch_state_dir(state_dir):
    """A streaming file source of the query being built keeps its state in `state_dir`."""
    counts = getattr(_active, "counts", None)
    if counts is not None and state_dir:
        counts.state_dirs.append(state_dir)


def add_on_executor(ids, skipped, nulled):
    """In a task: add a split's counts to the accumulators the driver named."""
    if not ids or not (skipped or nulled):
        return
    from pyspark.accumulators import INT_ACCUMULATOR_PARAM, _deserialize_accumulator
    for aid, n in zip(ids, (skipped, nulled)):
        if n:
            _deserialize_accumulator(aid, 0, INT_ACCUMULATOR_PARAM).add(n)
