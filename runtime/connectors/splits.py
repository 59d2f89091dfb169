"""The driver's side of a filesystem read: which files there are, and each micro-batch's splits. It lists
directories and stats files; it never opens a data file: executors read the splits (split_reader.py).

A split is a run of records of one file: `FileSplit(ordinal, path, row, byte, line, limit, base_max, stop)` reads
at most `limit` records (None: to the end of the file, or to byte `stop`) starting with record `row`, which begins
at byte `byte`, line `line` (byte None: unknown, the reader skips `row` records from the start). `base_max` is the
table's maximum rowtime committed before the split's micro-batch (epoch microseconds, or None): the split's
running maximum starts there. `ordinal` numbers the splits of the read in arrival order (it is the high part of
the rows' `__seq`). A batch read that needs no per-row watermark may cut a large text file into `FilePiece`s, one
a core: the executor finds the records that start in its piece (split_reader.py).

A streaming read's offset is a JSON dict:
  seq      the ordinal of the batch's first split
  splits   the batch's splits: [[path, row, byte, line, limit], ...]
  files    how many files of the manifest (the files found, in the order found) the splits have taken
  read     records read before the batch (pacing)
  max      the table's maximum rowtime committed before the batch (micros or None): every split's base_max
  done     a bounded input read to its end; `sentinel`: the batch ends with the end-of-input row
An offset holds all its batch needs, so a batch replayed from Spark's offset log reads the same rows. To plan
the next batch the planner reads the reports the executors wrote for the previous one (records read, where the
next record starts, the split's running maximum, end of file), from the source's state directory, a folder
under the checkpoint directory: the committed maximum reaches the executors inside the next splits. A
file is read by one split a batch, so one file read in order gives exactly Flink's parallelism-1 watermarks;
the files of one batch are read in parallel, each against its own running maximum; small ones are packed into
groups a task reads one after the other (`packed`, as Spark packs small files), each still its own split."""

import json
import os
import time

from pyspark.sql.datasource import InputPartition

DEFAULT_ROWS_PER_BATCH = 100000       # without 'scan.rows-per-batch': the first micro-batch's records a file,
GROWTH = 10                           # then this many times the records read so far,
MAX_ROWS_PER_BATCH = 1000000          # up to this
WHOLE_FILE_BYTES = 1 << 20            # without the option, a text file this small is read in one micro-batch
SAMPLE_BYTES = 1 << 16                # the head of a text file its record count is estimated from
PIECE_BYTES = 8 << 20                 # a batch read cuts a text file into pieces of at least this many bytes
CUT_FORMATS = ("csv", "json")         # formats whose records are lines (a csv one only outside quotes)


def rows_per_batch(option, read):
    """The most records a micro-batch reads from one file: the table's 'scan.rows-per-batch', else growing with
    the records the read has taken (`read`): a first micro-batch small enough to show changes soon, then large
    ones. Every micro-batch costs about 0.3 s whatever its size (it plans, logs its offsets, commits its state,
    hands its result over): a 1 M-record file read as 100 k + 900 k records takes 1.3 s less through a keyed
    count than read as 100 k + 200 k + 400 k + 300 k."""
    if option:
        return option
    return min(MAX_ROWS_PER_BATCH, max(DEFAULT_ROWS_PER_BATCH, GROWTH * read))


class FileSplit(InputPartition):
    def __init__(self, ordinal, path, row, byte, line, limit, base_max, stop=None):
        self.ordinal, self.path, self.row, self.byte, self.line = ordinal, path, row, byte, line
        self.limit, self.base_max, self.stop = limit, base_max, stop

    def __repr__(self):
        return "FileSplit(%d, %s, row %d, byte %s, limit %s)" % (self.ordinal, self.path, self.row, self.byte,
                                                                 self.limit)


class FilePiece(InputPartition):
    """About bytes [start, end) of a text file (end None: to its end), a share of a batch read: its records are
    those that start in it, found where it is read (split_reader.piece_split)."""

    def __init__(self, ordinal, path, start, end):
        self.ordinal, self.path, self.start, self.end = ordinal, path, start, end

    def __repr__(self):
        return "FilePiece(%d, %s, bytes %d to %s)" % (self.ordinal, self.path, self.start, self.end)


class SplitGroup(InputPartition):
    """Several small splits read one after the other by one task (as Spark packs small files into one
    partition): each keeps its own ordinal, running maximum and report, so the rows are those of its splits
    read apart."""

    def __init__(self, splits):
        self.splits = splits

    def __repr__(self):
        return "SplitGroup(%d splits from %d)" % (len(self.splits), self.splits[0].ordinal)


OPEN_COST_BYTES = 4 << 20             # what opening a file costs, in bytes read (Spark's openCostInBytes)
MAX_GROUP_BYTES = 128 << 20           # the most a group of small splits reads (Spark's maxPartitionBytes)


def packed(splits, parallelism=None):
    """`splits` (FileSplits, in order) with runs of small ones grouped into SplitGroups, sized as Spark sizes the
    partitions of its file sources: each split costs its bytes left plus the cost of opening its file, and a
    group holds at most max(OPEN_COST_BYTES, all costs / parallelism) but MAX_GROUP_BYTES. A directory of
    10,000 one-row files is then a few hundred tasks, not 10,000."""
    if len(splits) < 2:
        return list(splits)
    costs = [_bytes_left(s) for s in splits]
    parallelism = parallelism or os.cpu_count() or 1
    budget = min(MAX_GROUP_BYTES, max(OPEN_COST_BYTES, (sum(costs) + OPEN_COST_BYTES * len(costs)) // parallelism))
    out, group, used = [], [], 0
    for split, cost in zip(splits, costs):
        if group and used + cost > budget:
            out.append(group[0] if len(group) == 1 else SplitGroup(group))
            group, used = [], 0
        group.append(split)
        used += cost + OPEN_COST_BYTES
    out.append(group[0] if len(group) == 1 else SplitGroup(group))
    return out


def _bytes_left(split):
    try:
        return max(0, os.path.getsize(split.path) - (split.byte or 0))
    except OSError:
        return 0


class EndOfInput(InputPartition):
    """The sentinel row's split: one row whose rowtime is END_OF_INPUT."""

    def __init__(self, ordinal):
        self.ordinal = ordinal


def list_files(path, partitioned=False):
    """A table's files: the file at `path`, or a directory's visible files in name order; for a partitioned
    table also those of its partition folders (`key=value/...`), folder by folder in name order."""
    if os.path.isdir(path) and partitioned:
        found = []
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
            found += [os.path.join(root, n) for n in sorted(files) if not n.startswith((".", "_"))]
        return found
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if not n.startswith((".", "_")))
        return [os.path.join(path, n) for n in names if os.path.isfile(os.path.join(path, n))]
    if os.path.isfile(path):
        return [path]
    raise FileNotFoundError("No file or directory at path '%s'" % path)


def batch_splits(path, partitioned=False, pieces=1, piece_bytes=PIECE_BYTES, pack=True):
    """A bounded batch read: one split a file, read to its end, or, with `pieces` > 1 (the format's records are
    lines, and no row's watermark is needed: each piece starts its running maximum anew), a file of at least
    2 * `piece_bytes` cut into up to `pieces` FilePieces of equal size, read in parallel. Ordinals number the
    splits in file order, so that `__seq` stays the rows' order in the files. Small files are packed into
    SplitGroups (`packed`) unless `pack` is false (tasks that share the files out themselves)."""
    splits = []
    for f in list_files(path, partitioned):
        size = os.path.getsize(f) if pieces > 1 else 0
        n = min(pieces, size // max(piece_bytes, 1))
        if n < 2:
            splits.append(FileSplit(len(splits), f, 0, 0, 1, None, None))
            continue
        cuts = [size * k // n for k in range(n)] + [None]
        splits += [FilePiece(len(splits) + k, f, cuts[k], cuts[k + 1]) for k in range(n)]
    return splits if not pack or any(isinstance(s, FilePiece) for s in splits) else packed(splits)


# ---------------------------------------------------------------------------------------- reports
def report_path(state_dir, ordinal):
    return os.path.join(state_dir, "reports", "%d.json" % ordinal)


def write_report(state_dir, ordinal, progress, running_max):
    """An executor, after a split: what the planner needs to plan the file's next split."""
    path = report_path(state_dir, ordinal)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "w") as f:
        json.dump({"rows": progress.records, "byte": progress.byte, "line": progress.line,
                   "eof": progress.eof, "max": running_max}, f)
    os.replace(tmp, path)


def read_report(state_dir, ordinal):
    try:
        with open(report_path(state_dir, ordinal)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


# ---------------------------------------------------------------------------------------- offsets
CHANGED_FILES = "changed-files.jsonl"


def _size_and_mtime(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns)


def changed_files(state_dir):
    """The files a streaming source found changed after it took them: [{'path', 'taken', 'now'}]."""
    try:
        with open(os.path.join(state_dir, CHANGED_FILES)) as f:
            return [json.loads(line) for line in f if line.strip()]
    except (OSError, ValueError):
        return []


def initial_offset():
    return {"seq": 0, "splits": [], "files": 0, "read": 0, "max": None, "done": False}


def partitions_of(start, end):
    """The InputPartitions of the batch (start, end]: everything comes from `end`."""
    if end == start:
        return []
    parts = packed([FileSplit(end["seq"] + k, path, row, byte, line, limit, end["max"])
                    for k, (path, row, byte, line, limit) in enumerate(end["splits"])])
    if end.get("sentinel"):
        parts.append(EndOfInput(end["seq"] + len(end["splits"])))
    return parts


def _larger(a, b):
    return b if a is None else a if b is None else max(a, b)


def _records_in(path, size):
    """About how many records `size` bytes of the text file `path` hold: as many as its head's lines say."""
    try:
        with open(path, "rb") as f:
            head = f.read(SAMPLE_BYTES)
    except OSError:
        return float("inf")
    lines = head.count(b"\n")
    return size * lines / len(head) if lines else float("inf")


def _whole_when_new(path, size, limit):
    """Whether a file not read yet (`size` bytes) is read whole by a micro-batch whose limit is `limit` records
    (see SplitPlanner._to_end_when_near)."""
    return size <= WHOLE_FILE_BYTES or _records_in(path, size) <= MAX_ROWS_PER_BATCH + limit


def first_micro_batch_reads_whole(path, fmt, rows_per_batch_option=None):
    """Whether a streaming read of the one file `path` takes it whole in its first micro-batch."""
    if rows_per_batch_option or fmt == "parquet":
        return False
    return _whole_when_new(path, os.path.getsize(path), rows_per_batch(None, 0))


class SplitPlanner:
    """Plans a streaming read's micro-batches (runs where Spark plans them). Holds the manifest of files
    found (paths, not rows: its size grows with the number of files only)."""

    def __init__(self, spec):
        self.spec = spec
        self.files = []
        self.known = set()
        self.listed_at = None
        self.frozen = False           # Trigger.availableNow: no file found later is read
        self._unsettled = {}          # a watched directory's new files still changing: path -> (size, mtime)
        self._taken = {}              # path -> (size, mtime) when the file was taken, until it is noted changed
        self._ended = set()           # files read to their end (their lines written later are never read)
        self.started = None           # the pacing clock ('replay.rows-per-second')
        self._manifest = os.path.join(spec.state_dir, "files.txt")
        self._noted = {note["path"] for note in changed_files(spec.state_dir)}   # noted before a restart
        if os.path.exists(self._manifest):     # a query restarted from its checkpoint: the files it had found
            with open(self._manifest) as f:
                self._add([line.rstrip("\n") for line in f if line.strip()], persist=False)

    def _add(self, paths, persist=True):
        new = [p for p in paths if p not in self.known]
        self.files.extend(new)
        self.known.update(new)
        for p in new:
            if p not in self._noted:
                self._taken[p] = _size_and_mtime(p)
        if new and persist:
            os.makedirs(self.spec.state_dir, exist_ok=True)
            with open(self._manifest, "a") as f:
                f.write("".join(p + "\n" for p in new))

    def refresh(self, force=False):
        """List the table's path: once for a bounded read, every 'source.monitor-interval' for a watched one."""
        now = time.time()
        if self.listed_at is not None and not force:
            if self.frozen or not self.spec.monitor or now - self.listed_at < self.spec.monitor_interval_s:
                return
        try:
            found = list_files(self.spec.path, bool(self.spec.partitions))
        except FileNotFoundError:
            if not self.spec.monitor:
                raise
            found = []
        self.listed_at = now
        self._add(self._settled(found, now) if self.spec.monitor else found)
        if self.spec.monitor:
            for path in list(self._taken):     # also the files read to their end: what is added is never read
                self._note_if_changed(path)

    def _settled(self, paths, now):
        """The new files of a watched directory that are whole: their size and modification time are those of
        the listing before, or they have not changed for a monitor interval. A file still being copied in (a
        plain `cp` of a large file) is taken once it stops growing, not read to where the copy had got."""
        ready, changing = [], {}
        for path in paths:
            if path in self.known:
                continue
            try:
                st = os.stat(path)
            except OSError:
                continue
            seen = (st.st_size, st.st_mtime_ns)
            if self._unsettled.get(path) == seen or now - st.st_mtime >= self.spec.monitor_interval_s:
                ready.append(path)
            else:
                changing[path] = seen
        self._unsettled = changing
        return ready

    def freeze(self):
        self.refresh(force=True)
        self.frozen = True

    def next_offset(self, start):
        """The end offset of the next micro-batch after `start`, or `start` when there is nothing to read."""
        if start.get("done"):
            return start
        self.refresh()
        state, running, read = self.spec.state_dir, start["max"], start["read"]
        continuing = []
        for k, (path, row, byte, line, limit) in enumerate(start["splits"]):
            report = read_report(state, start["seq"] + k)
            if report is None:        # its report is gone: go on after the rows it was to read
                if limit is not None:
                    continuing.append([path, row + limit, None, None])
                    read += limit
                continue
            running = _larger(running, report["max"])
            read += report["rows"]
            if report["eof"]:
                self._ended.add(path)
            self._note_if_changed(path)
            if not report["eof"]:
                continuing.append([path, row + report["rows"], report["byte"], report["line"]])
        self._clean_reports(start["seq"])
        cap = rows_per_batch(self.spec.rows_per_batch, read)
        continuing = [s + [cap] for s in continuing]
        new = [[path, 0, 0, 1, cap] for path in self.files[start["files"]:]]
        files = len(self.files)
        if self.spec.rows_per_second:
            # paced: one file at a time, as many records as the clock allows
            if self.started is None:   # a resumed read goes on at the pace, not first waiting for what it read
                self.started = time.time() - start["read"] / self.spec.rows_per_second
            budget = int((time.time() - self.started) * self.spec.rows_per_second) + 1 - read
            candidates = continuing + new
            if candidates and budget <= 0:
                return start
            splits = [candidates[0][:4] + [min(cap, budget)]] if candidates else []
            files = start["files"] + (1 if splits and not continuing else 0)
        else:
            splits = [self._to_end_when_near(s) for s in continuing + new]
        seq = start["seq"] + len(start["splits"])
        if not splits and self.spec.monitor:
            return start
        if not splits or (not self.spec.monitor and all(s[4] is None for s in splits)):
            # a bounded input read to its end (already, or by this batch's splits): the batch ends with the
            # end-of-input row when asked for, and no batch follows
            return {"seq": seq, "splits": splits, "files": files, "read": read, "max": running, "done": True,
                    "sentinel": bool(self.spec.sentinel)}
        return {"seq": seq, "splits": splits, "files": files, "read": read, "max": running, "done": False}

    def _note_if_changed(self, path):
        """A file written to after it was taken (appended to, rewritten or truncated while it waits or is read,
        or after it was read to its end): noted once in the state directory's changed-files list, which the
        shell and SHOW JOBS show. While a file is read, complete lines appended to it are read too; once it is
        read to its end (a small file in its first micro-batch), nothing written to it is read: a copy that
        stalled longer than the monitor interval lost its rest. A file removed after it was read to its end
        (moved away once processed) lost nothing: it is watched no more, and not noted."""
        taken = self._taken.get(path)
        if taken is None:
            return
        now = _size_and_mtime(path)
        if now == taken:
            return
        del self._taken[path]
        ended = path in self._ended
        self._ended.discard(path)
        if now is None and ended:
            return
        was = "%d bytes" % taken[0]
        is_now = "gone" if now is None else ("%d bytes" % now[0] if now[0] != taken[0] else "rewritten")
        os.makedirs(self.spec.state_dir, exist_ok=True)
        with open(os.path.join(self.spec.state_dir, CHANGED_FILES), "a") as f:
            f.write(json.dumps({"path": path, "taken": was, "now": is_now}) + "\n")

    def _to_end_when_near(self, split):
        """Without 'scan.rows-per-batch', a split of a text file reads to the file's end when what is left of
        the file is no more bytes than its records so far average for the split's limit. A file not read yet
        is read whole when it has at most WHOLE_FILE_BYTES, or about as many records as a small first
        micro-batch and a largest one would read (estimated from its head): two micro-batches would read it,
        and the first one's fixed cost (0.3 to 0.5 s) is saved. Its micro-batch is then the last when all its
        splits are so, and the end of input needs no micro-batch of its own. Bounded by bytes, such a batch may
        hold more records than the limit."""
        path, row, byte, line, limit = split
        if self.spec.rows_per_batch or self.spec.format == "parquet" or byte is None:
            return split
        try:
            left = os.path.getsize(path) - byte
        except OSError:
            return split
        if row == 0:
            whole = _whole_when_new(path, left, limit)
        else:
            whole = left <= limit * byte / row
        if whole:
            return [path, row, byte, line, None]
        return split

    def _clean_reports(self, below):
        """Reports of batches before `below` are never read again (their offsets carry what they taught)."""
        folder = os.path.dirname(report_path(self.spec.state_dir, 0))
        try:
            names = os.listdir(folder)
        except OSError:
            return
        for name in names:
            ordinal = name.split(".")[0]
            if ordinal.isdigit() and int(ordinal) < below:
                try:
                    os.remove(os.path.join(folder, name))
                except OSError:
                    pass
