"""The one statistics function over the scans: what every physical choice (rules.py) reads of a table.

`scan_statistics(scan)` -> ScanStatistics: where the rows come from (a filesystem path: one file or a
directory, how many files, how many bytes), whether the input ends (bounded) and whether it is paced or
watched, and whether a streaming read takes each file whole in its first micro-batch (connectors/splits.py's
rule: a directory's files are then all read in that micro-batch, each against its own running maximum). Nothing here reads a row: only the file system's sizes and the head of one file."""

import os
from dataclasses import dataclass


@dataclass
class ScanStatistics:
    table: str
    connector: str
    path: str = None
    files: int = None              # filesystem: how many files the path holds (1: the path is a file)
    bytes: int = None              # filesystem: their size
    bounded: bool = True
    paced: bool = False
    partitioned: bool = False
    changelog: bool = False        # a changelog format (debezium, canal, ...): updates, not rows
    ignores_parse_errors: bool = False
    whole_first_micro_batch: bool = False   # files a streaming read takes whole, each, in its first micro-batch

    @property
    def plain_files(self):
        """Files read as they stand: filesystem, not partitioned, not a changelog, neither paced nor watched."""
        return (self.connector == "filesystem" and bool(self.files) and self.path is not None and self.bounded
                and not self.partitioned and not self.changelog and not self.paced)

    @property
    def one_file(self):
        """One file read as it stands: filesystem, not partitioned, not a changelog, neither paced nor watched."""
        return (self.connector == "filesystem" and self.files == 1 and self.path is not None
                and os.path.isfile(self.path) and not self.partitioned and not self.changelog and not self.paced)

    def describe(self):
        """`1 file, 2.3 KB, bounded, whole in the first micro-batch` (EXPLAIN)."""
        parts = []
        if self.files is not None:
            parts.append("%d file%s, %s" % (self.files, "" if self.files == 1 else "s", size_text(self.bytes or 0)))
        parts.append("bounded" if self.bounded else "unbounded")
        if self.paced:
            parts.append("paced")
        if self.partitioned:
            parts.append("partitioned")
        if self.changelog:
            parts.append("changelog")
        if self.whole_first_micro_batch:
            parts.append("whole in the first micro-batch")
        return "%s: %s" % (self.connector, ", ".join(parts))


WHOLE_CHECK_FILES = 1000       # a directory of more files is not checked (each may need its head read)


def size_text(n):
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return "%.1f %s" % (n / size, unit)
    return "%d B" % n


def scan_statistics(scan):
    """The statistics of a TableScan (see the module)."""
    from ..tables import is_bounded, is_paced
    table = scan.table
    o = table.options
    stats = ScanStatistics(table=table.name, connector=o.get("connector", "?"), bounded=is_bounded(table),
                           paced=is_paced(table), partitioned=bool(table.partition_keys),
                           changelog=bool(scan.changelog_source),
                           ignores_parse_errors=any(k.endswith("ignore-parse-errors") and v.lower() == "true"
                                                    for k, v in o.items()))
    if stats.connector != "filesystem":
        return stats
    path = stats.path = o.get("path", "")
    if os.path.isfile(path):
        stats.files, stats.bytes = 1, os.path.getsize(path)
    elif os.path.isdir(path):
        sizes = [os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs
                 if not f.startswith((".", "_"))]
        stats.files, stats.bytes = len(sizes), sum(sizes)
    else:
        stats.files, stats.bytes = 0, 0
    if stats.plain_files and stats.files <= WHOLE_CHECK_FILES:
        from ..connectors.splits import first_micro_batch_reads_whole, list_files
        stats.whole_first_micro_batch = all(first_micro_batch_reads_whole(f, o.get("format"),
                                                                          o.get("scan.rows-per-batch"))
                                            for f in list_files(path))
    return stats
