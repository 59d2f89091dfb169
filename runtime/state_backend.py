"""Where a streaming query keeps its state, as Flink's `state.backend.type` says:

- `hashmap` (Flink's default, and Spark's): in the executors' memory, Spark's HDFSBackedStateStoreProvider (a
  hash map per state store; each micro-batch's changes go to the checkpoint as a delta file);
- `rocksdb`: in RocksDB on the executors' local disks, Spark's RocksDBStateStoreProvider, for state bigger than
  memory (each micro-batch's changes go to the checkpoint as a changelog file).

Spark's stateful Python API (`transformWithState`, which dynsql's own operators run on) works only on RocksDB:
a query with one of those operators keeps all its state there, whatever the setting. The provider is part of
a query's checkpoint: a job resumed from its checkpoint keeps the provider it started with."""

HASHMAP = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"
ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
PROVIDER_KEY = "spark.sql.streaming.stateStore.providerClass"
# the logical plan node of transformWithState and transformWithStateInPandas
PYTHON_STATE_NODE = "TransformWithStateInPySpark"


def state_store_provider(df, backend):
    """The state store provider class of the streaming query of `df`, under `state.backend.type` = `backend`."""
    if backend == "rocksdb" or runs_python_state(df):
        return ROCKSDB
    return HASHMAP


def runs_python_state(df):
    """The query has an operator on Spark's stateful Python API (when its plan cannot be read: assumed so)."""
    try:
        text = df._jdf.queryExecution().analyzed().toString()
    except Exception:       # Spark Connect: no JVM handle, the server explains the plan
        try:
            text = df._explain_string(extended=True)
        except Exception:
            return True
    return PYTHON_STATE_NODE in text
