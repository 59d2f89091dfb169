"""The filesystem sink's part files stay hidden until Spark commits their micro-batch: a reader of the table never
sees rows that a crash could still withdraw (Flink's FileSink keeps them pending until its checkpoint)."""

import os

from planner.expr.types import parse_type
from runtime.sinks.filesystem import FileBatchWriter, pending_folder, publish_committed, start_from_checkpoint, \
    table_files
from runtime.sinks.flink_text import describe


def _visible_rows(path):
    rows = []
    for folder, name in table_files(path):
        with open(os.path.join(path, folder, name)) as f:
            rows.extend(line.strip() for line in f if line.strip())
    return sorted(rows)


def test_a_micro_batchs_files_appear_only_once_it_committed(spark, tmp_path):
    source, table, checkpoint = tmp_path / "in", tmp_path / "table", tmp_path / "checkpoint"
    source.mkdir()
    table.mkdir()
    for n in range(3):
        (source / ("f%d.csv" % n)).write_text("%d\n%d\n" % (10 * n, 10 * n + 1))
        os.utime(source / ("f%d.csv" % n), (1_700_000_000 + n, 1_700_000_000 + n))    # Spark takes them by time
    projection = [("v", "v", "INT")]
    writer = FileBatchWriter(str(table), "csv", "w1", projection, [describe(parse_type("INT"))],
                             checkpoint=str(checkpoint))
    seen = []

    def on_batch(df, batch_id):
        writer(df, batch_id)
        # the batch ran, Spark has not committed it yet: its rows are pending, the earlier ones visible
        seen.append((batch_id, _visible_rows(str(table)), os.path.isdir(pending_folder(str(table), "w1", batch_id))))

    stream = (spark.readStream.schema("v INT").option("maxFilesPerTrigger", 1).csv(str(source))
              .writeStream.foreachBatch(on_batch).option("checkpointLocation", str(checkpoint))
              .trigger(availableNow=True).start())
    stream.awaitTermination(300)
    assert [(b, pending) for b, _, pending in seen] == [(0, True), (1, True), (2, True)]
    assert [rows for _, rows, _ in seen] == [[], ["0", "1"], ["0", "1", "10", "11"]]
    assert publish_committed(str(table), "w1", str(checkpoint)) == 2
    assert _visible_rows(str(table)) == ["0", "1", "10", "11", "20", "21"]
    assert not [n for n in os.listdir(table) if n.startswith(".pending-")]


def test_a_restart_publishes_committed_batches_and_drops_the_rest(tmp_path):
    """A kill after a micro-batch's files went pending: committed ones appear, the uncommitted one is dropped
    (Spark runs it again from its offsets)."""
    table, checkpoint = tmp_path / "table", tmp_path / "checkpoint"
    (checkpoint / "commits").mkdir(parents=True)
    (checkpoint / "commits" / "0").write_text("v1\n{}")
    for batch in (0, 1):
        folder = pending_folder(str(table), "w1", batch)
        os.makedirs(folder)
        with open(os.path.join(folder, "part-w1-%05d-000.csv" % batch), "w") as f:
            f.write("row of batch %d\n" % batch)
    start_from_checkpoint(str(checkpoint), str(table), "w1")     # the write starts again (no origin yet: first)
    (checkpoint / "dynsql-sink.json").write_text('{"prefix": "w1", "path": "%s"}' % table)
    start_from_checkpoint(str(checkpoint), str(table), "w2")
    assert _visible_rows(str(table)) == ["row of batch 0"]
    assert sorted(os.listdir(table)) == ["part-w1-00000-000.csv"]
