"""A new SparkSession's first streaming query is slow: its first micro-batch of a row through a keyed aggregate
takes about 4 s where later ones take 0.4 s (the JVM compiles the streaming, shuffle and state-store paths,
loads RocksDB's native library, starts the executors' Python workers and the foreachBatch callback server).
`warm_up(spark)` pays that once, in the background, right after the session starts, with a query of its own
shaped like a user's: a small csv file read as a stream through dynsql's filesystem source (its Python
readers on the executors), a keyed aggregate over RocksDB state, a foreachBatch hand-off to the driver through
Arrow; and it imports the operators' translators. A user's first query typed a few seconds after Spark is
ready then starts warm. A user's query that starts while the warm-up runs stops it and waits until it has
stopped (`stop_warm_up`): the two never run side by side (a query's start changes session settings, which
a running query's tasks read; and they would share the cores). The interactive shell asks for the warm-up
(`SparkRuntime(warm_up=True)`); scripts and jobs, which run their statements at once, do not. A failure here changes nothing: the user's query meets the same
problem and reports it."""

import json
import os
import shutil
import tempfile
import threading

ROWS = 1000
_LOCK = threading.Lock()
_running = {"query": None, "stopped": False, "thread": None}


def start_warm_up(spark):
    thread = threading.Thread(target=warm_up, args=(spark,), name="dynsql-warm-up", daemon=True)
    with _LOCK:
        _running["thread"] = thread
    thread.start()


def stop_warm_up(timeout=60):
    """A user's query is starting: the warm-up, if it still runs, stops (and does not start any more); returns
    once it has stopped (its running micro-batch ends first)."""
    with _LOCK:
        _running["stopped"] = True
        query, thread = _running["query"], _running["thread"]
    if query is not None:
        _stop(query)
    if thread is not None and thread is not threading.current_thread():
        thread.join(timeout)


def _stop(query):
    try:
        query.stop()
    except Exception:
        pass


def warm_up(spark):
    """Run the warm-up query to its end -> the rows it counted (None: stopped, or it failed)."""
    folder = tempfile.mkdtemp(prefix="dynsql-warm-up-")
    try:
        data = os.path.join(folder, "data")
        os.makedirs(data)
        with open(os.path.join(data, "rows.csv"), "w") as f:
            f.write("".join("k%d,%d\n" % (i % 10, i) for i in range(ROWS)))
        from .tables import HIDDEN_SCHEMA
        from .translate import load_translators
        from pyspark.sql import types as st
        load_translators()
        path = os.path.join(data, "rows.csv")
        spec = {"path": path, "format": "csv", "columns": [("k", "STRING"), ("v", "BIGINT")], "partitions": [],
                "options": {"connector": "filesystem", "path": path, "format": "csv"},
                "state_dir": os.path.join(folder, "source")}
        schema = st.StructType([st.StructField("k", st.StringType()), st.StructField("v", st.LongType())]
                               + HIDDEN_SCHEMA)
        rows = spark.readStream.format("dynsql_filesystem").schema(schema).option("spec", json.dumps(spec)).load()
        counts = rows.groupBy("k").count()
        counted = []
        writer = (counts.writeStream.outputMode("update").foreachBatch(lambda df, _: counted.append(_counted(df)))
                  .option("checkpointLocation", os.path.join(folder, "checkpoint"))
                  .queryName("dynsql_warm_up").trigger(availableNow=True))
        if _running["stopped"]:
            return None
        query = writer.start()
        with _LOCK:
            _running["query"] = query
            stopped = _running["stopped"]
        if stopped:
            _stop(query)
            return None
        query.awaitTermination(120)
        query.stop()
        return sum(counted) if query.exception() is None and not _running["stopped"] else None
    except Exception:
        return None
    finally:
        with _LOCK:
            _running["query"] = None
        shutil.rmtree(folder, ignore_errors=True)


def _counted(batch_df):
    """The micro-batch's updated counts, brought to the driver as a user's changes are: their sum."""
    from .result_columns import collect_columns
    return sum(collect_columns(batch_df)["count"])
