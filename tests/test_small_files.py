"""A directory of many small files is read by a few tasks, each reading a group of files one after the other
(as Spark packs small files into a partition), with the rows and watermarks of the files read apart."""

import json

from runtime.connectors.filesystem import FilesystemBatchReader, TableSpec
from runtime.connectors.splits import FileSplit, SplitGroup, packed, partitions_of


def _directory(tmp_path, n):
    folder = tmp_path / "events"
    folder.mkdir()
    for k in range(n):
        (folder / ("part-%04d.csv" % k)).write_text("%d,2024-01-01 00:%02d:%02d\n" % (k, k // 60 % 60, k % 60))
    return folder


def test_small_files_are_packed_into_few_partitions(tmp_path):
    folder = _directory(tmp_path, 300)
    spec = TableSpec(json.dumps({"path": str(folder), "format": "csv", "columns": [["id", "INT"], ["ts", "TIMESTAMP(3)"]],
                                 "options": {"connector": "filesystem", "path": str(folder), "format": "csv"}}))
    parts = FilesystemBatchReader(spec, "{}").partitions()
    assert 1 < len(parts) <= 20
    ordinals = [s.ordinal for p in parts for s in (p.splits if isinstance(p, SplitGroup) else [p])]
    assert ordinals == list(range(300))          # every file once, in order, each its own split
    end = {"seq": 7, "splits": [[str(folder / ("part-%04d.csv" % k)), 0, 0, 1, None] for k in range(300)],
           "max": None, "files": 300, "read": 0}
    streamed = partitions_of({"seq": 0, "splits": []}, end)
    assert len(streamed) == len(parts)
    assert [s.ordinal for p in streamed for s in p.splits] == list(range(7, 307))


def test_large_files_stay_a_partition_each(tmp_path):
    folder = tmp_path / "big"
    folder.mkdir()
    splits = []
    for k in range(3):
        path = folder / ("f%d.csv" % k)
        with open(path, "wb") as f:
            f.truncate(200 << 20)         # sparse: 200 MB each, more than a group holds
        splits.append(FileSplit(k, str(path), 0, 0, 1, None, None))
    assert [type(p) for p in packed(splits)] == [FileSplit] * 3


def test_a_directory_of_small_files_gives_every_row(client, tmp_path):
    folder = _directory(tmp_path, 240)
    client.execute("CREATE TABLE events (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
                   "WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % folder)
    for mode in ("streaming", "batch"):
        client.settings.set("execution.runtime-mode", mode)
        result = client.execute("SELECT id FROM events")
        rows = [row for batch in result for _, row in batch.changes] if mode == "streaming" else list(result.rows)
        assert sorted(r[0] for r in rows) == list(range(240)), mode
