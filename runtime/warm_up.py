"""A new SparkSession's first streaming query is slow: its first micro-batch of a row through a keyed aggregate
takes about 4 s where later ones take 0.4 s (the JVM loads and compiles the streaming, shuffle and state-store
paths, loads RocksDB's native library, starts the executors' Python workers and the foreachBatch callback
server), and the first query of each other operator family pays again for its own paths (on 1 M rows, a
window aggregate's first run takes 1.3 s more, an event-time operator's on transformWithStateInPandas 1.8 s).
`warm_up(spark)` pays that once, in the background, right after the session starts, with five small queries
of its own shaped like a user's, one after another, each over a small csv file read through dynsql's
filesystem source (its Python readers on the executors), the first three as a stream, and handed to the
driver through Arrow (foreachBatch), as a user's result is:
  keyed count        a keyed aggregate (update mode);
  window count       a 1-minute window aggregate, emitted when the watermark passes (append mode),
                     both with their state where a user's query keeps it by default (in memory);
  event-time counts  a keyed event-time processor on transformWithStateInPandas, its rows packed by key
                     (packed_rows.py), as MATCH_RECOGNIZE and the temporal join get theirs;
  one pass           the same file read by one batch job, as a query over a small file is (one_pass.py): a
                     window count, a pass over each key's rows sorted by time (MATCH_RECOGNIZE's shape), and
                     each key's running last value by time (the temporal join's, as_of_join.py);
  TUMBLE count       a 1-minute TUMBLE count per key over that file, planned and translated as a user's query
                     is (the physical plan's choice for a small file: one pass, each task reading the whole
                     file, operators/whole_file_aggregate.py), its 14,400 rows brought to the driver (the
                     file's times wrap after a day: the later rows are late); the first TUMBLE query of a
                     shell's session (1 M rows, 752,389 rows out) took 1.24 CPU-s more in the JVM than the
                     next without it, 0.57 with it (one sitting each, load 21-24); its Python workers still
                     take about 1 CPU-s more (the pool hands the query workers that have not run it);
and it imports the operators' translators. A user's query typed a few seconds after Spark is ready then starts
warm. A user's query that starts while the warm-up runs stops it and waits until it has stopped
(`stop_warm_up`): the two never run side by side (a query's start changes session settings, which a running
query's tasks read; and they would share the cores), and no further warm-up query starts. The interactive
shell asks for the warm-up (`SparkRuntime(warm_up=True)`); scripts and jobs, which run their statements at
once, do not. A failure here changes nothing: the user's query meets the same problem and reports it."""

import json
import os
import shutil
import tempfile
import threading

from .state_backend import state_store_provider
from .streaming import start_query

ROWS = 1000
# the one pass reads more: the JVM compiles a loop to fast code only after tens of thousands of turns, and a batch
# job of 1,000 rows leaves the paths a user's query over a large file runs (its reader's rows into the JVM, the
# aggregate, the sort, the rows out to the Python workers and to the driver) to be compiled during that query.
# Measured (bench/workloads_bench.py --shell-warm-up, each query's first run; two sittings each, 1,000 rows ->
# 100,000): MATCH_RECOGNIZE in one pass 2.6 and 2.9 s -> 2.0 and 2.5 s, the TUMBLE count 2.5 and 2.0 s -> 1.8 and
# 1.8 s, the temporal join 3.1 and 2.4 s -> 2.8 and 2.3 s; the whole warm-up 11.1 and 10.8 s -> 11.4 and 10.7 s
ONE_PASS_ROWS = 100000
TAG = "dynsql-warm-up"
_LOCK = threading.Lock()
_running = {"query": None, "stopped": False, "thread": None, "spark": None}


def start_warm_up(spark):
    thread = threading.Thread(target=warm_up, args=(spark,), name="dynsql-warm-up", daemon=True)
    with _LOCK:
        _running["thread"] = thread
        _running["spark"] = spark
    thread.start()


def stop_warm_up(timeout=60):
    """A user's query is starting: the warm-up, if it still runs, stops (and does not start any more); returns
    once it has stopped (its running micro-batch ends first)."""
    with _LOCK:
        _running["stopped"] = True
        query, thread, spark = _running["query"], _running["thread"], _running["spark"]
    if query is not None:
        _stop(query)
    if spark is not None:
        try:
            spark.sparkContext.cancelJobsWithTag(TAG)     # the one pass's batch job
        except Exception:
            pass
    if thread is not None and thread is not threading.current_thread():
        thread.join(timeout)


def wait_for_warm_up(timeout=None):
    """Return once the warm-up has run to its end (or stopped); at once when none was started."""
    with _LOCK:
        thread = _running["thread"]
    if thread is not None:
        thread.join(timeout)


def _stop(query):
    try:
        query.stop()
    except Exception:
        pass


def warm_up(spark):
    """Run the warm-up queries one after another, each to its end -> {query: the rows it counted} (None: stopped,
    or a query failed)."""
    folder = tempfile.mkdtemp(prefix="dynsql-warm-up-")
    try:
        path = _write_rows(folder, "rows.csv", ROWS)
        from .translate import load_translators
        load_translators()
        counted = {}
        for name, output_mode, build, column in _queries():
            rows = build(_rows(spark, path, os.path.join(folder, name)))
            n = _run(rows, output_mode, column, os.path.join(folder, name, "checkpoint"))
            if n is None:
                return None
            counted[name] = n
        with _LOCK:
            if _running["stopped"]:
                return None
        n = _one_pass(spark, _write_rows(folder, "more.csv", ONE_PASS_ROWS), os.path.join(folder, "one pass"))
        if n is None:
            return None
        counted["one pass"] = n
        n = _window_query(spark, os.path.join(folder, "more.csv"))
        if n is None:
            return None
        counted["TUMBLE count"] = n
        return counted
    except Exception:
        return None
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _write_rows(folder, name, rows):
    """A csv of `rows` rows (k STRING, v BIGINT, ts TIMESTAMP: one a second from 00:00:00) -> its path."""
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write("".join("k%d,%d,2024-01-01 %02d:%02d:%02d\n" % (i % 10, i, i // 3600 % 24, i // 60 % 60, i % 60)
                        for i in range(rows)))
    return path


def _queries():
    """(name, output mode, the query over the rows, its count column) of each warm-up query, in order."""
    from pyspark.sql import functions as F
    from .operators.packed_rows import pack_by_key
    counter = _keyed_counter()
    return (("keyed count", "update", lambda rows: rows.groupBy("k").count(), "count"),
            ("window count", "append", lambda rows: rows.groupBy(F.window("ts", "1 minute"), "k").count(), "count"),
            ("event-time counts", "append", lambda rows: pack_by_key(rows.select(
                F.col("k").substr(1, 1).alias("k"), "v", "ts"), ["k"]).groupBy("k").transformWithStateInPandas(
                counter(), counter.OUTPUT, "Append", "EventTime"), "n"))


def _rows(spark, path, folder, streaming=True):
    """The csv's rows (k STRING, v BIGINT, ts TIMESTAMP, then the hidden columns): a stream with a watermark, or
    a batch read."""
    from pyspark.sql import types as st
    from .tables import HIDDEN_SCHEMA
    spec = {"path": path, "format": "csv", "columns": [("k", "STRING"), ("v", "BIGINT"), ("ts", "TIMESTAMP(3)")],
            "partitions": [], "options": {"connector": "filesystem", "path": path, "format": "csv"},
            "state_dir": os.path.join(folder, "source") if streaming else None}
    schema = st.StructType([st.StructField("k", st.StringType()), st.StructField("v", st.LongType()),
                            st.StructField("ts", st.TimestampType())] + HIDDEN_SCHEMA)
    if not streaming:
        return spark.read.format("dynsql_filesystem").schema(schema).option("spec", json.dumps(spec)).load()
    return (spark.readStream.format("dynsql_filesystem").schema(schema).option("spec", json.dumps(spec)).load()
            .withWatermark("ts", "1 second"))


def _one_pass(spark, path, folder):
    """The one-pass query: a batch read of the csv, its 1-minute window counts, a count of each key's rows in
    time order and its running last time, brought to the driver -> the rows the three counted (None: stopped,
    or it failed). Its jobs carry the tag TAG: a user's query that stops the warm-up cancels them."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    from .result_columns import collect_columns
    rows = _rows(spark, path, folder, streaming=False)
    windows = rows.groupBy(F.window("ts", "1 minute"), "k").agg(F.count(F.lit(1)).alias("n"))
    ordered = rows.repartition(2, "k").sortWithinPartitions("k", "ts", "__seq").select("k", "ts")
    keyed = ordered.mapInArrow(_count_batches, "n long")
    running = Window.partitionBy("k").orderBy("ts", "__seq").rowsBetween(Window.unboundedPreceding, Window.currentRow)
    last = rows.select(F.last("ts", ignorenulls=True).over(running).alias("t")).filter(F.col("t").isNotNull())
    sc = spark.sparkContext
    sc.addJobTag(TAG)
    try:
        counted = 0
        for frame, column, count in ((windows, "n", sum), (keyed, "n", sum), (last, "t", len)):
            with _LOCK:
                if _running["stopped"]:
                    return None
            counted += count(collect_columns(frame)[column])
        return None if _running["stopped"] else counted
    except Exception:
        return None
    finally:
        sc.removeJobTag(TAG)


def _window_query(spark, path):
    """A TUMBLE count over the csv, planned (runtime/physical) and translated as a user's streaming query over a
    small file is, its rows brought to the driver -> how many (None: stopped, or it failed). Its jobs carry the
    tag TAG."""
    from planner.planner import Planner
    from .physical import EngineFacts, plan_physical
    from .result_columns import collect_columns
    from .translate import TranslateContext, translate
    planner = Planner()
    planner.plan("CREATE TABLE warm_up (k STRING, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL "
                 "'1' SECOND) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')"
                 % path.replace("'", "''"))
    query = planner.plan("SELECT window_start, window_end, k, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE warm_up, "
                         "DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, k").query
    physical = plan_physical(query, False, planner.settings, EngineFacts())
    ctx = TranslateContext(spark, streaming=False, late_rows=physical.late_rows, physical=physical)
    stream = translate(query.root, ctx)
    finish = stream.finished_in_driver.finish if stream.finished_in_driver is not None else None
    sc = spark.sparkContext
    sc.addJobTag(TAG)
    try:
        with _LOCK:
            if _running["stopped"]:
                return None
        n = len(collect_columns(stream.df, finish=finish)["n"])
        return None if _running["stopped"] else n
    except Exception:
        return None
    finally:
        sc.removeJobTag(TAG)


def _count_batches(batches):
    import pyarrow as pa
    for b in batches:
        yield pa.RecordBatch.from_pydict({"n": [b.num_rows]}, schema=pa.schema([("n", pa.int64())]))


def _run(frame, output_mode, column, checkpoint):
    """Run one warm-up query to its end -> the sum of its `column` over its results (None: stopped, or it
    failed)."""
    counted = []
    writer = (frame.writeStream.outputMode(output_mode)
              .foreachBatch(lambda df, _: counted.append(_counted(df, column)))
              .option("checkpointLocation", checkpoint).queryName("dynsql_warm_up").trigger(availableNow=True))
    with _LOCK:
        if _running["stopped"]:
            return None
    query = start_query(frame.sparkSession, writer, False, state_store_provider(frame, "hashmap"))
    with _LOCK:
        _running["query"] = query
        stopped = _running["stopped"]
    try:
        if stopped:
            _stop(query)
            return None
        query.awaitTermination(120)
        query.stop()
        return sum(counted) if query.exception() is None and not _running["stopped"] else None
    finally:
        with _LOCK:
            _running["query"] = None


def _counted(batch_df, column):
    """The micro-batch's `column`, brought to the driver as a user's changes are: its sum."""
    from .result_columns import collect_columns
    return sum(collect_columns(batch_df)[column])


def _keyed_counter():
    """The event-time warm-up query's processor class (pyspark imported only when the warm-up runs)."""
    import pandas as pd
    from pyspark.sql import types as st
    from pyspark.sql.streaming import StatefulProcessor
    from .operators.packed_rows import unpack

    class Counter(StatefulProcessor):
        """Per key: the rows of each call, as one output row (k, n), and the key's running count as state."""
        OUTPUT = st.StructType([st.StructField("k", st.StringType()), st.StructField("n", st.LongType())])
        STATE = st.StructType([st.StructField("n", st.LongType())])

        def init(self, handle):
            self.count = handle.getValueState("n", self.STATE)

        def handleInputRows(self, key, rows, timerValues):
            frame = unpack(list(rows), "UTC")
            n = 0 if frame is None else len(frame)
            before = self.count.get()
            self.count.update(((before[0] if before else 0) + n,))
            yield pd.DataFrame({"k": [key[0]], "n": [n]})

        def close(self):
            pass
    return Counter
