"""The filesystem sink: each micro-batch's rows become part files in the table's folder, exactly once.

Spark's own streaming file sink keeps one commit log per output folder (`_spark_metadata`), and a second query
writing into the same folder has its first micro-batches skipped as "already committed" (measured: a second
query's 7 rows into a folder where a first query had written 5 added nothing). Flink lets any number of jobs
append to a table, one after the other or at once. So each micro-batch is written by Spark's batch file
writer (in a `foreachBatch`) into a hidden staging folder, and its files are then renamed into the table's
folder under names that say which write and which micro-batch they hold:

    part-<write prefix>-<batch id, 5 digits>-<n, 3 digits>.<csv|json|parquet>

Exactly once, and nothing seen before it is committed: a streaming write's micro-batch files first go to a
hidden pending folder of the table (`.pending-<write prefix>-<batch id>`, which readers skip, as Flink's
FileSink keeps pending files until its checkpoint completes); they are renamed into the table once Spark's
commit log holds the micro-batch (at the next micro-batch, at the job's next poll, at the write's end, or when
a restarted write finds them). Spark's checkpoint runs a micro-batch that did not commit again with the same
input; its earlier pending files are replaced. A write that starts from an existing checkpoint (a restarted
job, or a savepoint another job left) publishes the pending files of the micro-batches that checkpoint has
committed and removes the others (and any visible file of an uncommitted one), then continues. A kill leaves
at most hidden folders, which readers skip and the next start resolves. A batch-mode write (one batch, no
commit log) renames its files in when Spark's write has ended.

csv and json lines are Flink's (flink_text.py), made on the executors (`mapInArrow`); parquet is Spark's.
Paths are local filesystem paths (as dynsql's sources read them)."""

import functools
import json
import os
import shutil

from . import project, sink_projection
from .flink_text import describe, lines_of_batches
from .partition_commit import PartitionCommitter
from .write import BatchWrite, cancel_spark_jobs, start_streaming

ORIGIN = "dynsql-sink.json"     # in a write's checkpoint folder: the prefix and folder its files have
ROWS = "dynsql-rows"            # ... and a folder with each micro-batch's row count


class FileBatchWriter:
    """Writes one DataFrame (a micro-batch, or a batch-mode result) as the part files of one batch id.
    Plain values only: under Spark Connect it runs on the server (foreachBatch)."""

    def __init__(self, path, fmt, prefix, projection, type_descs, overwrite=False, rows_dir=None,
                 partition_keys=(), default_partition="__DEFAULT_PARTITION__", committer=None, checkpoint=None):
        self.path = path
        self.checkpoint = checkpoint  # a streaming write's: its files wait in pending folders until Spark commits
        self.unreported = {}          # batch id -> [partition folders, watermark] not yet told to the committer
        self.partition_keys = list(partition_keys)   # PARTITIONED BY: key=value folders, left out of the files
        self.default_partition = default_partition
        self.committer = committer    # partition_commit.PartitionCommitter: _SUCCESS files as partitions close
        self.rows_dir = rows_dir      # one file a batch id holding its row count (in the write's checkpoint)
        self.fmt = fmt
        self.prefix = prefix
        self.projection = projection
        self.type_descs = type_descs
        self.overwrite = overwrite

    def __call__(self, batch_df, batch_id):
        from pyspark.sql import Observation
        from pyspark.sql import functions as F
        self.publish()                # the micro-batches before this one have committed
        watermark = None
        if self.committer is not None and self.committer.partition_time and "__wm" in batch_df.columns:
            watermark = Observation("dynsql_wm_%s_%d" % (self.prefix, batch_id))
            batch_df = batch_df.observe(watermark, F.max("__wm").alias("wm"))
        self.write(project(batch_df, self.projection), batch_id)
        if watermark is not None and batch_id in self.unreported:
            self.unreported[batch_id][1] = watermark.get.get("wm")

    def publish(self):
        """Rename the committed micro-batches' pending files into the table; tell the partition committer
        about the committed batches this writer wrote (their partitions, then their watermark), in order."""
        if self.checkpoint is None:
            return
        committed = publish_committed(self.path, self.prefix, self.checkpoint)
        for batch_id in sorted(b for b in self.unreported if b <= committed):
            folders, watermark = self.unreported.pop(batch_id)
            if self.committer is not None:
                self.committer.written(folders)
                self.committer.watermark(watermark)

    def write(self, df, batch_id):
        """Write `df` as the files of `batch_id`, replacing any earlier attempt's. -> its row count."""
        from pyspark.sql import Observation
        from pyspark.sql import functions as F
        staging = os.path.join(self.path, ".staging-%s-%d" % (self.prefix, batch_id))
        shutil.rmtree(staging, ignore_errors=True)
        seen = Observation("dynsql_rows_%s_%d" % (self.prefix, batch_id))
        df = df.observe(seen, F.count(F.lit(1)).alias("n"))
        keys = self.partition_keys
        if self.fmt == "parquet":
            if keys:
                df = df.select(*[F.coalesce(F.col("`%s`" % c).cast("string"), F.lit(self.default_partition)).alias(c)
                                 if c in keys else F.col("`%s`" % c) for c in df.columns])
            df.write.partitionBy(*keys).mode("overwrite").parquet(staging)
        else:
            names = [name for _, name, _ in self.projection]
            lines = functools.partial(lines_of_batches, fmt=self.fmt, names=names, descs=self.type_descs,
                                      partitions=tuple(keys), default_partition=self.default_partition)
            schema = ", ".join(["value string"] + ["`%s` string" % k for k in keys])
            df.mapInArrow(lines, schema).write.partitionBy(*keys).mode("overwrite").text(staging)
        parts = sorted((folder, name) for folder, name in table_files(staging)
                       if name.startswith("part-") and _has_rows(os.path.join(staging, folder, name)))
        mine = "part-%s-%05d-" % (self.prefix, batch_id)
        if self.overwrite:
            for name in os.listdir(self.path):
                if not name.startswith((".", "_")):
                    _remove(os.path.join(self.path, name))
        for folder, name in table_files(self.path):
            if name.startswith(mine):
                _remove(os.path.join(self.path, folder, name))
        # a streaming micro-batch's files wait hidden until it commits; a batch-mode write's go in now
        target = self.path if self.checkpoint is None else pending_folder(self.path, self.prefix, batch_id)
        if target != self.path:
            _remove(target)           # an earlier attempt's (the batch did not commit)
        for n, (folder, name) in enumerate(parts):
            os.makedirs(os.path.join(target, folder), exist_ok=True)
            os.replace(os.path.join(staging, folder, name),
                       os.path.join(target, folder, "%s%03d.%s" % (mine, n, self.fmt)))
        shutil.rmtree(staging, ignore_errors=True)
        folders = sorted({folder for folder, _ in parts})
        if self.checkpoint is not None:
            self.unreported[batch_id] = [folders, None]
        elif self.committer is not None:
            self.committer.written(folders)
        rows = int(seen.get.get("n", 0))
        if self.rows_dir is not None:     # before Spark commits the batch: the count survives a kill
            os.makedirs(self.rows_dir, exist_ok=True)
            with open(os.path.join(self.rows_dir, "%d.tmp" % batch_id), "w") as f:
                f.write(str(rows))
            os.replace(os.path.join(self.rows_dir, "%d.tmp" % batch_id), os.path.join(self.rows_dir, str(batch_id)))
        return rows


def pending_folder(path, prefix, batch_id):
    """Where a streaming write's micro-batch files wait for Spark's commit: a hidden folder of the table."""
    return os.path.join(path, ".pending-%s-%d" % (prefix, batch_id))


def publish_committed(path, prefix, checkpoint):
    """Rename the files of the write's pending micro-batches that the checkpoint's commit log holds into the
    table (a rename interrupted by a kill is finished by the next call). -> the last committed batch id."""
    committed = last_committed_batch(checkpoint)
    start = ".pending-%s-" % prefix
    try:
        names = os.listdir(path)
    except OSError:
        return committed
    for name in sorted(n for n in names if n.startswith(start) and n[len(start):].isdigit()):
        if int(name[len(start):]) > committed:
            continue
        pending = os.path.join(path, name)
        for folder, file_name in list(table_files(pending)):
            os.makedirs(os.path.join(path, folder), exist_ok=True)
            try:
                os.replace(os.path.join(pending, folder, file_name), os.path.join(path, folder, file_name))
            except FileNotFoundError:
                pass            # moved by the other caller (the job's poll and the next micro-batch)
        shutil.rmtree(pending, ignore_errors=True)
    return committed


def table_files(path):
    """(folder relative to `path`, file name) of every file of a table's folder, partition folders
    (`key=value/...`) included; hidden folders and files ('.', '_': staging, _SUCCESS) left out."""
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
        folder = os.path.relpath(root, path)
        for name in sorted(files):
            if not name.startswith((".", "_")):
                yield ("" if folder == "." else folder), name


def _has_rows(path):
    if path.endswith(".parquet"):
        import pyarrow.parquet as pq
        return pq.read_metadata(path).num_rows > 0
    return os.path.getsize(path) > 0


def _remove(path):
    if os.path.isdir(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass


def start_files(spark, plan, result, checkpoint, prefix):
    """Start writing `result` into the plan's filesystem table -> a SinkWrite."""
    from planner.expr.types import parse_type
    target = plan.target
    path = os.path.abspath(target.options["path"])
    os.makedirs(path, exist_ok=True)
    projection = sink_projection(plan, result.columns)
    descs = [describe(parse_type(type_text)) for _, _, type_text in projection]
    keys = target.partition_keys
    committer = PartitionCommitter(path, keys, target.options, prefix) if keys else None
    writer = FileBatchWriter(path, target.options["format"], prefix, projection, descs,
                             overwrite=getattr(plan, "overwrite", False), rows_dir=os.path.join(checkpoint, ROWS),
                             partition_keys=keys, committer=committer,
                             default_partition=target.options.get("partition.default-name", "__DEFAULT_PARTITION__"))
    if not result.streaming:    # a batch-mode INSERT: the whole result as batch 0 (run again, it replaces its files)
        write = BatchWrite(functools.partial(writer.write, project(result.df, projection), 0), cancel_spark_jobs(spark),
                           on_finish=committer.finish if committer else None)
        return write
    writer.checkpoint = checkpoint
    start_from_checkpoint(checkpoint, path, prefix)
    writer.projection = [(name, name, type_text) for _, name, type_text in projection]
    frame = project(result.df, projection, hidden=committer is not None)
    from ..connect_shims import portable_batch_function
    on_batch = portable_batch_function(writer)      # under Spark Connect it runs on the server
    write = start_streaming(spark, result, frame.writeStream.foreachBatch(on_batch), checkpoint)
    write.count_rows = functools.partial(rows_written, checkpoint)
    # the last micro-batch's files appear once it has committed, not only when another batch comes
    write.on_poll = functools.partial(publish_committed, path, prefix, checkpoint)
    write.on_finish = functools.partial(_finish_files, writer, committer)
    return write


def _finish_files(writer, committer):
    """The write ended cleanly: its committed micro-batches' files into the table, then every partition it
    wrote committed."""
    writer.publish()
    if committer is not None:
        committer.finish()


def rows_written(checkpoint):
    """The rows of the micro-batches the write's checkpoint has committed (their counts, kept per batch)."""
    committed = last_committed_batch(checkpoint)
    total = 0
    try:
        names = os.listdir(os.path.join(checkpoint, ROWS))
    except OSError:
        return 0
    for name in names:
        if name.isdigit() and int(name) <= committed:
            with open(os.path.join(checkpoint, ROWS, name)) as f:
                total += int(f.read() or 0)
    return total


def start_from_checkpoint(checkpoint, path, prefix):
    """Before a write starts: if its checkpoint was left by a write (this one before a crash, or another
    job's), remove that write's files of micro-batches the checkpoint has not committed and its staging
    folders; then record this write's prefix and folder in the checkpoint."""
    origin = _read_origin(checkpoint)
    if origin is not None and os.path.isdir(origin["path"]):
        committed = publish_committed(origin["path"], origin["prefix"], checkpoint)
        old = "part-%s-" % origin["prefix"]
        for name in os.listdir(origin["path"]):
            if name.startswith((".staging-%s-" % origin["prefix"], ".pending-%s-" % origin["prefix"])):
                _remove(os.path.join(origin["path"], name))
        for folder, name in list(table_files(origin["path"])):
            if name.startswith(old):
                batch = name[len(old):].split("-", 1)[0]
                if batch.isdigit() and int(batch) > committed:
                    _remove(os.path.join(origin["path"], folder, name))
    os.makedirs(checkpoint, exist_ok=True)
    with open(os.path.join(checkpoint, ORIGIN + ".tmp"), "w", encoding="utf-8") as f:
        json.dump({"prefix": prefix, "path": path}, f)
    os.replace(os.path.join(checkpoint, ORIGIN + ".tmp"), os.path.join(checkpoint, ORIGIN))


def _read_origin(checkpoint):
    try:
        with open(os.path.join(checkpoint, ORIGIN), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def last_committed_batch(checkpoint):
    """The highest micro-batch id in the checkpoint's commit log (-1 when none committed)."""
    try:
        names = os.listdir(os.path.join(checkpoint, "commits"))
    except OSError:
        return -1
    return max((int(n) for n in names if n.isdigit()), default=-1)
