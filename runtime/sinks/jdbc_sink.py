"""The `jdbc` sink on PostgreSQL: each micro-batch written exactly once, in one transaction.

Per micro-batch (a foreachBatch): the executors write the batch's changes with Spark's JDBC writer (batches of
`sink.buffer-flush.max-rows` rows, each one multi-row INSERT: PostgreSQL's driver's `reWriteBatchedInserts`,
`sink.parallelism` connections) into the sink's staging table (UNLOGGED,
the target's columns plus `__batch`, `__op`, `__ord`), then the driver applies them in ONE transaction on the
server, set-based:
  with a PRIMARY KEY (an upsert sink, as Flink's): each key's last change of the batch; +I/+U as
      `INSERT ... ON CONFLICT (key) DO UPDATE`, -U/-D as `DELETE` by key (the target needs a unique constraint
      or primary key on those columns, as Flink's PostgreSQL upserts do);
  without one (an append sink, insert-only queries): the rows inserted, in their order;
and in the same transaction records the batch id in `dynsql_sink_batches` (one row a sink, named by its job's
checkpoint) and clears the staging rows. A batch that Spark runs again after a crash (kill -9, a server gone)
finds its id there and is skipped: nothing is lost (the batch is committed in the database or run again) and
nothing is doubled (the append sink's rows go in once; upserts are idempotent anyway). Why not psycopg in
foreachPartition: one transaction per partition could not make a micro-batch atomic without two-phase commit
(which PostgreSQL enables only by configuration), and the executors' Python would need it installed; Spark's
JDBC writer runs in the executors' JVMs with the driver jar Spark already has. The driver's transaction goes
through a Python connection (connectors/pg_client.py, pg8000): the writer is plain values, as foreachBatch
under Spark Connect needs.
`sink.max-retries` retries a micro-batch whose database work failed (a lost connection), 1 s apart, before the
job fails with the cause in words."""

import hashlib
import time

from planner.errors import DynsqlError
from ..connectors.jdbc import connection_options, jdbc_failure
from ..connectors.pg_client import connect, quote_identifier as _q, quote_table as _table
from . import project, sink_projection
from .write import BatchWrite, cancel_spark_jobs, observe_rows, start_streaming

MARKERS = "dynsql_sink_batches"


class JdbcBatchWriter:
    """foreachBatch's function: stage the batch on the executors, apply it on the server in one transaction."""

    def __init__(self, table, projection, kind, sink_id):
        o = table.options
        self.table = table
        self.kind = kind
        self.columns = [name for _, name, _ in projection]
        self.key = list(table.primary_key)
        self.target = _table(o["table-name"])
        self.stage = _q("dynsql_stage_" + sink_id)
        self.sink_id = sink_id
        self.conn_options = connection_options(o)
        # PostgreSQL's driver sends a JDBC batch of inserts as multi-row INSERTs (several times fewer round
        # trips; bench/jdbc_sink_bench.py), unless the url says otherwise
        if "rewritebatchedinserts" not in str(o["url"]).lower():
            self.conn_options["reWriteBatchedInserts"] = "true"
        # Spark's JDBC writer sends the staged rows in JDBC batches of this many (Flink's flush by size;
        # '0', no flush by size, is Spark's default batch of 1000)
        self.flush_rows = int(o.get("sink.buffer-flush.max-rows", 100)) or 1000
        self.parallelism = int(o["sink.parallelism"]) if "sink.parallelism" in o else None
        self.retries = int(o.get("sink.max-retries", 3))
        self.prepared = False

    # ------------------------------------------------------------------ foreachBatch
    def __call__(self, df, batch_id):
        attempt = 0
        while True:
            try:
                return self._write(df, batch_id)
            except DynsqlError:
                raise
            except Exception as e:
                failure = jdbc_failure(e, self.table, "writing")
                attempt += 1
                if attempt > self.retries:
                    raise failure from None
                time.sleep(1)
                self.prepared = False

    def _write(self, df, batch_id):
        self._prepare()
        if self._committed(batch_id):
            return
        self._execute(["DELETE FROM %s WHERE __batch = %d" % (self.stage, batch_id)])
        staged = self._changes(df, batch_id)
        if self.parallelism:
            staged = staged.repartition(self.parallelism)
        writer = staged.write.format("jdbc").mode("append").option("dbtable", self.stage) \
            .option("batchsize", str(self.flush_rows))
        for k, v in self.conn_options.items():
            writer = writer.option(k, v)
        writer.save()
        self._execute(self._apply(batch_id), transaction=True)

    def _changes(self, df, batch_id):
        from pyspark.sql import functions as F
        order = F.monotonically_increasing_id()
        if self.kind == "changelog":
            op = F.col("__op").cast("smallint")
            if "__seq" in df.columns:
                order = F.col("__seq")
        elif self.kind == "upsert":
            op = F.when(F.col("__visible"), F.lit(2)).otherwise(F.lit(3)).cast("smallint")
        else:
            op = F.lit(0).cast("smallint")
        return df.select(*[F.col("`%s`" % c) for c in self.columns], F.lit(batch_id).cast("bigint").alias("__batch"),
                         op.alias("__op"), order.cast("bigint").alias("__ord"))

    def _apply(self, batch_id):
        cols = ", ".join(_q(c) for c in self.columns)
        mine = "%s WHERE __batch = %d" % (self.stage, batch_id)
        statements = []
        if self.key:
            keys = ", ".join(_q(k) for k in self.key)
            last = "(SELECT DISTINCT ON (%s) * FROM %s ORDER BY %s, __ord DESC)" % (keys, mine, keys)
            statements.append("DELETE FROM %s t USING %s l WHERE l.__op IN (1, 3) AND %s"
                              % (self.target, last, " AND ".join("t.%s = l.%s" % (_q(k), _q(k)) for k in self.key)))
            others = [c for c in self.columns if c not in self.key]
            update = ("DO UPDATE SET " + ", ".join("%s = EXCLUDED.%s" % (_q(c), _q(c)) for c in others)) if others \
                else "DO NOTHING"
            statements.append("INSERT INTO %s (%s) SELECT %s FROM %s l WHERE l.__op IN (0, 2) ON CONFLICT (%s) %s"
                              % (self.target, cols, cols, last, keys, update))
        else:
            statements.append("INSERT INTO %s (%s) SELECT %s FROM (SELECT DISTINCT ON (__ord) * FROM %s ORDER BY "
                               "__ord) s WHERE __op = 0 ORDER BY __ord" % (self.target, cols, cols, mine))
        statements.append("DELETE FROM %s WHERE __batch = %d" % (self.stage, batch_id))
        statements.append("INSERT INTO %s (sink, batch) VALUES ('%s', %d) ON CONFLICT (sink) DO UPDATE SET batch = "
                          "EXCLUDED.batch" % (MARKERS, self.sink_id, batch_id))
        return statements

    # ------------------------------------------------------------------ the driver's connection (java.sql)
    def _prepare(self):
        if self.prepared:
            return
        self._execute(["CREATE TABLE IF NOT EXISTS %s (sink TEXT PRIMARY KEY, batch BIGINT NOT NULL)" % MARKERS,
                       "CREATE UNLOGGED TABLE IF NOT EXISTS %s AS SELECT %s FROM %s WITH NO DATA"
                       % (self.stage, ", ".join(_q(c) for c in self.columns), self.target),
                       "ALTER TABLE %s ADD COLUMN IF NOT EXISTS __batch BIGINT, ADD COLUMN IF NOT EXISTS __op SMALLINT,"
                       " ADD COLUMN IF NOT EXISTS __ord BIGINT" % self.stage])
        self.prepared = True

    def _committed(self, batch_id):
        conn = connect(self.table.options)
        try:
            cursor = conn.cursor()
            cursor.execute("SELECT batch FROM %s WHERE sink = %%s" % MARKERS, [self.sink_id])
            row = cursor.fetchone()
            conn.rollback()
            return row is not None and row[0] >= batch_id
        finally:
            conn.close()

    def _execute(self, statements, transaction=False):
        conn = connect(self.table.options)
        try:
            conn.autocommit = not transaction
            cursor = conn.cursor()
            for s in statements:
                cursor.execute(s)
            if transaction:
                conn.commit()
        except Exception:
            if transaction:
                try:
                    conn.rollback()
                except Exception:
                    pass
            raise
        finally:
            try:
                conn.close()
            except Exception:
                pass


def start_jdbc(spark, plan, result, checkpoint):
    target = plan.target
    projection = sink_projection(plan, result.columns)
    sink_id = hashlib.sha1(checkpoint.encode()).hexdigest()[:16]
    if not result.streaming:     # a batch-mode INSERT: the final rows as batch 0
        writer = JdbcBatchWriter(target, projection, "append", sink_id)
        frame = project(result.df, projection)

        def work():
            writer(frame, 0)
            return frame.count()
        return BatchWrite(work, cancel_spark_jobs(spark))
    writer = JdbcBatchWriter(target, projection, result.kind, sink_id)
    frame = observe_rows(project(result.df, projection, hidden=True))
    from ..connect_shims import portable_batch_function
    return start_streaming(spark, result, frame.writeStream.foreachBatch(portable_batch_function(writer)), checkpoint,
                           interval=flush_interval(target.options))


def flush_interval(options):
    """`sink.buffer-flush.interval` as the trigger of an unbounded query (its rows reach the database once a
    micro-batch commits: at most each interval), or None (the default trigger) when not given or '0' (Flink:
    no flush by time)."""
    from planner.settings import parse_duration_ms
    if "sink.buffer-flush.interval" not in options:
        return None
    ms = parse_duration_ms(options["sink.buffer-flush.interval"])
    return "%d milliseconds" % ms if ms else None



