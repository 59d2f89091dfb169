"""Partition commit of a partitioned filesystem sink (Flink's `sink.partition-commit.*`): a partition folder
(`dt=2024-06-14/hm=23%3A59`) is committed once no more rows are expected in it, and committing it writes its
success file (`_SUCCESS`, or 'sink.partition-commit.success-file.name'), the 'success-file' policy.

When a partition is committed, as Flink decides it:
  'partition-time' trigger  the watermark passed the partition's time plus 'sink.partition-commit.delay'; the
                            partition's time comes from its values through
                            'partition.time-extractor.timestamp-pattern' ('$dt $hm:00'; without one, the first
                            partition value), read as 'yyyy-MM-dd HH:mm:ss' or 'yyyy-MM-dd'
  'process-time' trigger    (the default) the wall clock passed the partition's first write plus the delay
and every partition written is committed when the write ends cleanly (the end of a bounded input: Flink's
final watermark). The watermark is the largest `__wm` (Flink's watermark before a row) of a micro-batch's
rows. Plain values only: it runs where the sink's foreachBatch runs."""

import datetime as dt
import os
import re
import time
from urllib.parse import unquote

from planner.settings import parse_duration_ms


class PartitionCommitter:
    def __init__(self, path, keys, options, prefix):
        self.path = path
        self.prefix = prefix            # the write's part files are part-<prefix>-...
        self.keys = list(keys)
        self.partition_time = options.get("sink.partition-commit.trigger", "process-time") == "partition-time"
        self.delay_ms = parse_duration_ms(options.get("sink.partition-commit.delay", "0"))
        self.pattern = options.get("partition.time-extractor.timestamp-pattern")
        kinds = options.get("sink.partition-commit.policy.kind", "")
        self.success_file = options.get("sink.partition-commit.success-file.name", "_SUCCESS") \
            if "success-file" in kinds.lower() else None
        self.pending = {}       # partition folder -> first write, wall-clock ms

    def written(self, folders):
        now = time.time() * 1000
        for folder in folders:
            if folder and folder not in self.pending and not self._committed(folder):
                self.pending[folder] = now
        if not self.partition_time:
            self._commit([f for f, first in self.pending.items() if now >= first + self.delay_ms])

    def watermark(self, value):
        """The watermark reached `value` (a datetime, or None): commit the partitions whose time it passed."""
        if value is None or not self.partition_time:
            return
        limit = value - dt.timedelta(milliseconds=self.delay_ms)
        self._commit([f for f in self.pending if (self.time_of(f) or dt.datetime.max) < limit])

    def finish(self):
        """The write ended cleanly: every partition it wrote is complete (found on disk, by its files' prefix:
        under Spark Connect the micro-batches ran on the server, with their own copy of this object)."""
        from .filesystem import table_files
        mine = "part-%s-" % self.prefix
        folders = {folder for folder, name in table_files(self.path) if name.startswith(mine) and folder}
        self._commit(sorted(folders | set(self.pending)))

    def time_of(self, folder):
        """A partition folder's time (its values through the timestamp pattern), or None if it has none."""
        values = dict(unquote(p).split("=", 1) for p in folder.split(os.sep) if "=" in p)
        if self.pattern:
            text = re.sub(r"\$(\w+)", lambda m: values.get(m.group(1), m.group(0)), self.pattern)
        else:
            text = values.get(self.keys[0], "") if self.keys else ""
        for form in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d"):
            try:
                return dt.datetime.strptime(text.strip(), form)
            except ValueError:
                pass
        return None

    def _committed(self, folder):
        return self.success_file is not None and os.path.exists(os.path.join(self.path, folder, self.success_file))

    def _commit(self, folders):
        for folder in folders:
            if self.success_file is not None:
                with open(os.path.join(self.path, folder, self.success_file), "w"):
                    pass
            self.pending.pop(folder, None)
