"""Spark Connect: dynsql's Python data sources and stateful processors, shipped so that a streaming query's
Python workers on the server can load them.

The client ships dynsql's packages to the server as an artifact (`addArtifacts(zip, pyfile=True)`). A batch
query's Python workers get the session's artifacts on their path. A streaming query's do not (Spark 4.3):
its source runner works in the server's files folder "streaming_job", and the read tasks it plans cannot
unpickle the reader either, nor its transformWithState driver worker a processor ("No module named
'runtime'"). So under Connect each source is registered as a shim built here, inside functions, which
cloudpickle therefore ships by value, and each processor goes as such a shim (`portable`). A shim finds the
zip under
the worker's SparkFiles root (the artifact sits in a folder named after the session, beside
"streaming_job"), puts it on sys.path, then delegates to the real source; the stream reader and its
partitions it hands out travel as the real ones' pickled bytes inside such shims, revived only after the
zip is on the path. Classic sessions use the real classes and processors."""

from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow
from pyspark.sql.streaming.stateful_processor import StatefulProcessor

PACKAGES_ZIP = None    # (file name, SHA-256 of its bytes) once a Spark Connect session shipped it (session.py)


def _loaders(package):
    """(ensure_packages, packed, unpacked), made here so that they travel by value. `package`: the shipped zip's
    (file name, SHA-256): a file of that name is imported only when it is the server user's own and its bytes
    are the ones shipped, so that a zip another user planted under a temporary folder is never run."""
    zip_name, zip_digest = package

    def ensure_packages():
        import glob
        import hashlib
        import os
        import sys
        try:
            import runtime  # noqa: F401
            return
        except ImportError:
            pass

        def shipped(path):
            try:
                if os.stat(path).st_uid != os.getuid():
                    return False
                with open(path, "rb") as f:
                    return hashlib.sha256(f.read()).hexdigest() == zip_digest
            except OSError:
                return False
        found = [p for p in sorted(p for folder in _places() for p in glob.glob(os.path.join(folder, zip_name)))
                 if shipped(p)]
        if not found:
            raise ImportError("dynsql's packages (%s, as this client shipped them) are not in the Spark Connect "
                              "server's files: the session's artifacts did not arrive" % zip_name)
        sys.path.insert(0, found[0])

    def _places():
        """Where the server keeps a session's artifacts: its files folder (SparkFiles) and the folders in it
        (one per session, "streaming_job"); where a worker knows no SparkFiles root (a transformWithState
        driver worker), the files folders of the Spark applications under the local folders."""
        import glob
        import os
        import tempfile
        try:
            from pyspark import SparkFiles
            root = SparkFiles.getRootDirectory()
            return [root, os.path.join(root, "*"), os.path.join(os.path.dirname(root), "*")]
        except Exception:
            local = os.environ.get("SPARK_LOCAL_DIRS", "").split(",") + [tempfile.gettempdir()]
            bases = [b for d in local if d for b in (d, os.path.dirname(d))]
            return [p for b in bases for pattern in (("spark-*", "userFiles-*", "*"), ("userFiles-*", "*"))
                    for p in glob.glob(os.path.join(b, *pattern))]

    def packed(obj):
        from pyspark import cloudpickle
        return cloudpickle.dumps(obj)

    def unpacked(data):
        from pyspark import cloudpickle
        ensure_packages()
        return cloudpickle.loads(data)

    return ensure_packages, packed, unpacked


def source_shim(real_module, real_class, package):
    """A DataSource class that loads `real_module.real_class` from dynsql's zip (`package`: see `_loaders`)."""
    ensure_packages, packed, unpacked = _loaders(package)

    def load():
        import importlib
        ensure_packages()
        return getattr(importlib.import_module(real_module), real_class)

    class ShimPartition(InputPartition):
        def __init__(self, real):
            self.real = real

        def __reduce__(self):
            return revive_partition, (packed(self.real),)

    def revive_partition(data):
        return ShimPartition(unpacked(data))

    def revive_reader(data):
        return stream_reader_shim(unpacked(data))

    def stream_reader_shim(real):
        bases = (DataSourceStreamReader,) + ((SupportsTriggerAvailableNow,)
                                             if isinstance(real, SupportsTriggerAvailableNow) else ())

        class ShimStreamReader(*bases):
            def __init__(self, real):
                self.real = real

            def __reduce__(self):
                return revive_reader, (packed(self.real),)

            def initialOffset(self):
                return self.real.initialOffset()

            def latestOffset(self, start=None, limit=None):
                return self.real.latestOffset(start, limit)

            def getDefaultReadLimit(self):
                return self.real.getDefaultReadLimit()

            def prepareForTriggerAvailableNow(self):
                return self.real.prepareForTriggerAvailableNow()

            def partitions(self, start, end):
                return [ShimPartition(p) for p in self.real.partitions(start, end)]

            def read(self, partition):
                return self.real.read(partition.real if isinstance(partition, ShimPartition) else partition)

            def commit(self, end):
                return self.real.commit(end)

            def stop(self):
                return self.real.stop()

        return ShimStreamReader(real)

    class Shim(DataSource):
        @classmethod
        def name(cls):
            return load().name()

        # the real source is made again in each call: a shim instance is pickled to other workers, where the
        # real class could not be unpickled before ensure_packages() ran
        def schema(self):
            return load()(self.options).schema()

        def reader(self, schema):
            return load()(self.options).reader(schema)

        def streamReader(self, schema):
            return stream_reader_shim(load()(self.options).streamReader(schema))

    Shim.__name__ = Shim.__qualname__ = real_class + "ConnectShim"
    return Shim


def portable(processor):
    """A transformWithState processor as it can go to a Spark Connect server: the processor itself in a
    classic session, else a shim that revives it once dynsql's zip is on the worker's path."""
    if PACKAGES_ZIP is None:
        return processor
    _, packed, unpacked = _loaders(PACKAGES_ZIP)

    class ShimProcessor(StatefulProcessor):
        def __init__(self, data):
            self.data = data
            self.real = None

        def __getstate__(self):
            return {"data": self.data, "real": None}

        def _real(self):
            if self.real is None:
                self.real = unpacked(self.data)
            return self.real

        def init(self, handle):
            return self._real().init(handle)

        def handleInputRows(self, key, rows, timerValues):
            return self._real().handleInputRows(key, rows, timerValues)

        def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
            return self._real().handleExpiredTimer(key, timerValues, expiredTimerInfo)

        def handleInitialState(self, key, initialState, timerValues):
            return self._real().handleInitialState(key, initialState, timerValues)

        def close(self):
            return self._real().close()

    ShimProcessor.__name__ = ShimProcessor.__qualname__ = type(processor).__name__ + "ConnectShim"
    return ShimProcessor(packed(processor))


def portable_batch_function(function):
    """A foreachBatch function (a sink's writer) as it can go to a Spark Connect server, where Spark runs it in
    a Python process of the server's: the function itself in a classic session, else a function made here
    (so it travels by value) that revives it once dynsql's zip is on that process's path."""
    if PACKAGES_ZIP is None:
        return function
    _, packed, unpacked = _loaders(PACKAGES_ZIP)
    data = packed(function)
    real = []

    def on_batch(batch_df, batch_id):
        if not real:
            real.append(unpacked(data))
        return real[0](batch_df, batch_id)

    return on_batch


def portable_map_function(function):
    """A mapInArrow function (an object called with an iterator of Arrow batches) as it can go to a Spark
    Connect server's Python workers: the function itself in a classic session, else a function made here (so
    it travels by value) that revives it once dynsql's zip is on the worker's path."""
    if PACKAGES_ZIP is None:
        return function
    ensure_packages, packed, unpacked = _loaders(PACKAGES_ZIP)
    data = packed(function)

    def on_batches(batches):
        return unpacked(data)(batches)

    return on_batches
