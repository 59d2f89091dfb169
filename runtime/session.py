"""The one long-lived SparkSession of a dynsql process, started in a background thread.

`SparkRuntime.start()` returns at once; `session()` waits for Spark (the shell shows the status). The JVM's
output goes to a log file, never to the terminal the shell runs in."""

import os
import sys
import tempfile
import threading
import time

DEFAULT_CONF = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "2",
    "spark.default.parallelism": "2",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.caseSensitive": "true",
    "spark.sql.streaming.stateStore.providerClass":
        "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider",
    "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled": "true",
    "spark.driver.extraJavaOptions": "-Xss16m -Duser.timezone=UTC",
    "spark.executor.extraJavaOptions": "-Duser.timezone=UTC",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.python.worker.reuse": "true",
    "spark.sql.adaptive.enabled": "false",
    "spark.sql.streaming.forceDeleteTempCheckpointLocation": "true",
    "spark.driver.memory": "2g",
    "spark.sql.ansi.enabled": "true",
    # dynsql decides late rows per row itself (__wm, see DESIGN 3): Spark's check against chaining stateful
    # operators under one global watermark refuses valid plans (a group aggregate over a window aggregate)
    "spark.sql.streaming.statefulOperator.checkCorrectness.enabled": "false",
}


def log_dir():
    d = os.environ.get("DYNSQL_LOG_DIR") or os.path.join(tempfile.gettempdir(), "dynsql-%d" % os.getuid())
    os.makedirs(d, exist_ok=True)
    return d


class SparkRuntime:
    def __init__(self, master=None, conf=None):
        self.master = master or "local[*]"
        self.conf = dict(DEFAULT_CONF)
        self.conf.update(conf or {})
        self._spark = None
        self._error = None
        self._ready = threading.Event()
        self._thread = None
        self._owns = False      # False when it joined a session this process already had
        self.started_at = None
        self.ready_after = None

    def start(self):
        if self._thread is None:
            self.started_at = time.time()
            self._thread = threading.Thread(target=self._start, name="spark-start", daemon=True)
            self._thread.start()
        return self

    def _start(self):
        try:
            with _START_LOCK:   # one SparkContext a process: the second runtime joins the first
                active = _active_session()
                self._owns = active is None
                self._spark = active if active is not None else _create_session(self.master, self.conf)
            self.ready_after = time.time() - self.started_at
        except BaseException as e:  # reported by status() and session()
            self._error = e
        finally:
            self._ready.set()

    def status(self):
        if self._thread is None:
            return "stopped"
        if not self._ready.is_set():
            return "starting"
        if self._error is not None:
            return "failed: %s" % _one_line(self._error)
        return "ready"

    def session(self, timeout=None):
        self.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("Spark did not start within %s s" % timeout)
        if self._error is not None:
            from planner.errors import RuntimeFailure
            raise RuntimeFailure("Spark could not start: %s" % _one_line(self._error),
                                 hint="dynsql needs Java 17 or 21 (java on PATH or JAVA_HOME); "
                                      "the Spark log is in %s" % log_dir())
        return self._spark

    @property
    def is_ready(self):
        return self._ready.is_set() and self._error is None

    def stop(self):
        if self._spark is not None and self._owns:
            try:
                self._spark.stop()
            except Exception:
                pass


def _one_line(e):
    text = str(e).strip().splitlines()
    return text[0][:300] if text else type(e).__name__


_START_LOCK = threading.Lock()


def _active_session():
    """The process's running SparkSession, if another SparkRuntime started one (one JVM per process)."""
    import sys as _sys
    if "pyspark" not in _sys.modules:
        return None
    from pyspark import SparkContext
    from pyspark.sql import SparkSession
    sc = SparkContext._active_spark_context
    return SparkSession(sc) if sc is not None else None


def _create_session(master, conf):
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    os.environ.setdefault("PYARROW_IGNORE_TIMEZONE", "1")
    # Python workers import our modules (sources, operators): make the project importable for them.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = [root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway
    from pyspark.sql import SparkSession

    import logging
    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        logging.getLogger(name).disabled = True   # PySpark logs every SQL error to stderr; we report it
    spark_conf = SparkConf().setMaster(master).setAppName("dynsql")
    for k, v in conf.items():
        spark_conf.set(k, v)
    log_path = os.path.join(log_dir(), "spark.log")
    log = open(log_path, "ab")
    gateway = launch_gateway(spark_conf, popen_kwargs={"stdout": log, "stderr": log, "stdin": None})
    sc = SparkContext(conf=spark_conf, gateway=gateway)
    sc.setLogLevel("ERROR")
    spark = SparkSession(sc)
    from .connectors.filesystem import FilesystemSource
    from .connectors.datagen import DatagenSource
    spark.dataSource.register(FilesystemSource)
    spark.dataSource.register(DatagenSource)
    from .connectors.nexmark import NexmarkSource
    spark.dataSource.register(NexmarkSource)
    return spark
