"""Where a streaming query keeps its state: `state.backend.type` = 'hashmap' (Flink's default: the executors'
memory) or 'rocksdb'; dynsql's own stateful operators (on Spark's stateful Python API) keep theirs in RocksDB
whatever the setting. The changelog is the same either way."""

import threading
import time
from collections import Counter

import pytest
from pyspark.sql.streaming import StreamingQueryListener
from test_changelog_property import materialize

CLICKS = "".join("%s,2024-01-01 12:00:%02d,./p%d\n" % (u, i, i % 3)
                 for i, u in enumerate(["Mary", "Bob", "Mary", "Liz", "Bob", "Mary"]))


class StateStores(StreamingQueryListener):
    """The state store providers of the queries that report progress: HDFSBacked (memory) or RocksDB, told by
    the metrics each reports."""

    def __init__(self):
        self.started = set()     # the ids of the queries started since `of` began
        self.seen = []
        self.lock = threading.Lock()

    def onQueryStarted(self, event):
        with self.lock:
            self.started.add(str(event.id))

    def onQueryProgress(self, event):
        for op in event.progress.stateOperators:
            metrics = op.customMetrics
            kind = "rocksdb" if any(k.startswith("rocksdb") for k in metrics) else \
                "hashmap" if "loadedMapCacheHitCount" in metrics else "?"
            with self.lock:
                if str(event.progress.id) in self.started:
                    self.seen.append(kind)

    def onQueryIdle(self, event):
        pass

    def onQueryTerminated(self, event):
        pass

    def of(self, run):
        """(what `run()` returns, the providers of the query it starts and drains); the listener's events come
        asynchronously."""
        with self.lock:
            self.started.clear()
            self.seen.clear()
        result = run()
        deadline = time.time() + 30
        while time.time() < deadline:
            with self.lock:
                if self.seen:
                    return result, set(self.seen)
            time.sleep(0.1)
        return result, set()


@pytest.fixture
def state_stores(spark):
    listener = StateStores()
    spark.streams.addListener(listener)
    yield listener
    spark.streams.removeListener(listener)


def clicks(client, tmp_path):
    (tmp_path / "clicks.csv").write_text(CLICKS)
    client.execute("CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, "
                   "WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv')" % (tmp_path / "clicks.csv"))


COUNTS = "SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`"
COUNTED = Counter({("Mary", 3): 1, ("Bob", 2): 1, ("Liz", 1): 1})


def test_a_group_aggregate_keeps_its_state_in_memory_by_default_and_in_rocksdb_when_set(client, tmp_path,
                                                                                      state_stores):
    clicks(client, tmp_path)
    rows, stores = state_stores.of(lambda: materialize(client.execute(COUNTS)))
    assert rows == COUNTED and stores == {"hashmap"}
    client.execute("SET 'state.backend.type' = 'rocksdb'")
    rows, stores = state_stores.of(lambda: materialize(client.execute(COUNTS)))
    assert rows == COUNTED and stores == {"rocksdb"}
    client.execute("RESET 'state.backend.type'")
    # Spark's streaming window aggregate (a SELECT's window aggregate runs per micro-batch by default, with no
    # state store: runtime/operators/window_per_batch.py)
    client.execute("SET 'dynsql.window-aggregate.per-micro-batch' = 'false'")
    window = ("SELECT window_start, `user`, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), "
              "INTERVAL '3' SECOND)) GROUP BY window_start, window_end, `user`")
    rows, stores = state_stores.of(lambda: materialize(client.execute(window)))
    assert stores == {"hashmap"}
    assert sorted((str(t)[-8:], u, n) for (t, u, n) in rows) == [
        ("12:00:00", "Bob", 1), ("12:00:00", "Mary", 2), ("12:00:03", "Bob", 1), ("12:00:03", "Liz", 1),
        ("12:00:03", "Mary", 1)]


def test_dynsqls_own_stateful_operators_keep_their_state_in_rocksdb(client, tmp_path, state_stores):
    """A count over a deduplication (each user's last click) runs on dynsql's processors: RocksDB, under the
    hashmap default too."""
    clicks(client, tmp_path)
    last = ("SELECT url, COUNT(*) AS n FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY `user` ORDER BY cTime DESC) "
            "AS rn FROM clicks) WHERE rn = 1 GROUP BY url")
    rows, stores = state_stores.of(lambda: materialize(client.execute(last)))
    assert rows == Counter({("./p0", 1): 1, ("./p1", 1): 1, ("./p2", 1): 1}) and stores == {"rocksdb"}


def test_a_provider_set_by_sparks_own_key_is_the_querys(client, tmp_path, state_stores):
    clicks(client, tmp_path)
    client.execute("SET 'spark.sql.streaming.stateStore.providerClass' = "
                   "'org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider'")
    rows, stores = state_stores.of(lambda: materialize(client.execute(COUNTS)))
    assert rows == COUNTED and stores == {"rocksdb"}
    client.execute("SET 'spark.sql.shuffle.partitions' = '3'")
    client.execute("RESET")     # Spark's keys go back to the session's values, not to Spark's defaults
    spark = client.engine.spark
    assert spark.conf.get("spark.sql.shuffle.partitions") == "2"
    assert spark.conf.get("spark.sql.streaming.stateStore.providerClass").endswith("RocksDBStateStoreProvider")
