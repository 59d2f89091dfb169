"""The one long-lived SparkSession of a dynsql process, started in a background thread.

`SparkRuntime.start()` returns at once; `session()` waits for Spark (the shell shows the status). The JVM's
output goes to a log file, never to the terminal the shell runs in.

Where the executors run:
- a local master: executors are threads of this JVM; their Python workers run this Python and import dynsql
  from the checkout;
- a cluster master (`spark://`, `yarn`, `k8s://`): executors see nothing of this machine but the tables'
  paths, so dynsql's packages go to them as a zip (`addPyFile`), and their Python is `spark.pyspark.python`
  (from -D, else spark-defaults.conf, else $PYSPARK_PYTHON, else Spark's default `python3`);
- Spark Connect (`remote`): the server runs everything; the packages go to it as artifacts (`addArtifacts`)."""

import hashlib
import os
import sys
import threading
import time
import zipfile

from .private_files import open_private
from .spark_log import log_dir, spark_log_path  # noqa: F401  (named here before: callers import them from here)
from .redaction import SPARK_REDACTION_REGEX, is_sensitive
from .state_backend import PROVIDER_KEY, ROCKSDB

DEFAULT_CONF = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "2",
    "spark.default.parallelism": "2",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.caseSensitive": "true",
    # the session's; each query sets its own (state_backend.py): RocksDB is the one Spark's stateful Python API
    # runs on
    PROVIDER_KEY: ROCKSDB,
    "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled": "true",
    # Spark's default (FileContext) renames each checkpoint file through Hadoop's AbstractFileSystem, which on a
    # local file system runs `readlink` in a new process for the source and the target: a fork of the JVM per
    # file, 30 to 90 ms of every micro-batch (each offset and commit log entry, each state store's changelog).
    # The FileSystem-based manager renames with File.renameTo, atomic on a POSIX file system.
    "spark.sql.streaming.checkpointFileManagerClass":
        "org.apache.spark.sql.execution.streaming.checkpointing.FileSystemBasedCheckpointFileManager",
    # counting the state's rows costs a read before every write; nothing of dynsql reads the count
    "spark.sql.streaming.stateStore.rocksdb.trackTotalNumberOfRows": "false",
    # The driver JVM's memory stays flat over a long stream (`make soak`: an hour of files into a watched folder):
    # -Xms512m -XX:+AlwaysPreTouch: 512 MB of heap committed and touched at start (a fraction of a second). Under
    #   CPU contention G1 grew the heap from ~190 MB to 350-460 MB mid-stream (its GC time over its goal), a step
    #   of the RSS at any minute; 512 MB resident from the start was not outgrown in 22 minutes at load 20-29.
    # -XX:ReservedCodeCacheSize=64m: the JIT's code cache (JDK 17 reserves 240 MB). A stream keeps compiling the
    #   methods its micro-batches run a few times each: with 240 MB nothing is cold enough to flush, and the code
    #   grew ~1 MB a minute after minute 10 (37 -> 48 MB by minute 22), most of the rest of the growth; with a
    #   64 MB cache the JVM flushes cold code sooner: 32 -> 48 MB from minute 9 to 60, the cap never reached.
    # make soak with both (load 26 -> 3): 1027 MB at minute 10, 1045 MB at minute 60 (+1.8 %); with the code
    # cache alone, 699 -> 754 MB (+7.9 %), G1 growing then shrinking its heap mid-stream.
    # Spark puts the default options before the extra ones: a user's spark.driver.extraJavaOptions (-D, --conf,
    # spark-defaults.conf) adds to these rather than replacing them, and its flags win where both set one.
    "spark.driver.defaultJavaOptions": "-Xss16m -Duser.timezone=UTC -Xms512m -XX:+AlwaysPreTouch "
                                       "-XX:ReservedCodeCacheSize=64m",
    "spark.executor.defaultJavaOptions": "-Duser.timezone=UTC",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    # the rows in an Arrow batch to and from Python workers (Spark's default 10,000): fewer, larger batches cut
    # the per-batch work of transformWithStateInPandas (1 M rows: MATCH_RECOGNIZE 10.2 -> 9.0 s, the temporal
    # join 9.0 -> 7.9 s, first runs)
    "spark.sql.execution.arrow.maxRecordsPerBatch": "100000",
    "spark.python.worker.reuse": "true",
    # PySpark's DataFrame debugging (Spark 4's default: on) walks the Python stack and makes four py4j calls for
    # every Column and DataFrame call (the call site, for the "DataFrame query context" of Spark's error text,
    # which dynsql never shows: it says its own errors). dynsql builds its plans out of such calls, for each
    # statement and each micro-batch: `(F.col('a') + 1) == F.lit(3)` 14 -> ~3 ms (load 7-8)
    "spark.python.sql.dataFrameDebugging.enabled": "false",
    "spark.sql.adaptive.enabled": "false",
    "spark.sql.streaming.forceDeleteTempCheckpointLocation": "true",
    "spark.driver.memory": "2g",
    "spark.sql.ansi.enabled": "true",
    # dynsql decides late rows per row itself (__wm, see DESIGN 3): Spark's check against chaining stateful
    # operators under one global watermark refuses valid plans (a group aggregate over a window aggregate)
    "spark.sql.streaming.statefulOperator.checkCorrectness.enabled": "false",
}


class SparkRuntime:
    def __init__(self, master=None, conf=None, remote=None, warm_up=False, parent=None, ui=False):
        """parent: a runtime whose SparkContext this one shares, on a SparkSession of its own (`newSession()`:
        its own SQL settings and data sources), as each job of a job host runs (job_host.py). ui: Spark's web UI
        on unless the settings say otherwise (the shell's). The settings: dynsql's defaults, then
        spark-defaults.conf ($SPARK_CONF_DIR, else Spark's conf folder), then `conf` (-D, --conf)."""
        self.parent = parent
        if parent is not None:
            master, conf, remote = parent.master, parent.conf, parent.remote
        self.remote = remote
        self.warm_up = warm_up      # run runtime/warm_up.py's query once the session is up (the shell)
        self.master = None if remote else (master or "local[*]")
        self.conf = dict(DEFAULT_CONF)
        if ui:
            self.conf["spark.ui.enabled"] = "true"
        self.conf.update(spark_defaults() if parent is None else {})
        self.conf.update(conf or {})
        self.ui_url = None          # Spark's web UI, once the session is up with it on
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
            if self.parent is not None:
                self._spark = self.parent.session().newSession()
                _register_sources(self._spark)
                self.ready_after = time.time() - self.started_at
                return
            with _START_LOCK:   # one SparkContext a process: the second runtime joins the first
                active = _active_session()
                self._owns = active is None
                if active is None:
                    check_reachable(self.master, self.remote)
                if active is not None:
                    self._spark = active
                elif self.remote:
                    self._spark = _create_connect_session(self.remote, self.conf)
                else:
                    self._spark = _create_session(self.master, self.conf)
                    self.ui_url = self._spark.sparkContext.uiWebUrl
            self.ready_after = time.time() - self.started_at
            if self.warm_up and self._owns and not self.remote and is_local(self.master):
                from .warm_up import start_warm_up
                start_warm_up(self._spark)
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
        if isinstance(self._error, UnreachableError):
            raise self._error.error
        if self._error is not None:
            from planner.errors import RuntimeFailure
            raise RuntimeFailure("Spark could not start: %s" % _one_line(self._error),
                                 hint="dynsql needs Java 17 or 21 (java on PATH or JAVA_HOME); "
                                      "the Spark log is %s" % spark_log_path())
        return self._spark

    @property
    def is_connect(self):
        return bool(self.remote)

    @property
    def is_ready(self):
        return self._ready.is_set() and self._error is None

    def stop(self):
        if self._spark is not None and self._owns:
            try:
                self._spark.stop()
            except Exception:
                pass
            _stop_worker_forks()


def spark_defaults(environ=os.environ):
    """The settings of spark-defaults.conf in $SPARK_CONF_DIR, else in $SPARK_HOME/conf (else pyspark's own conf
    folder), as spark-submit reads it: `key value`, `key=value` or `key: value` a line, # comments. {} when
    there is no such file."""
    folder = environ.get("SPARK_CONF_DIR")
    if not folder:
        home = environ.get("SPARK_HOME")
        if not home:
            import importlib.util
            spec = importlib.util.find_spec("pyspark")     # found, not imported
            home = os.path.dirname(spec.origin) if spec and spec.origin else None
        folder = os.path.join(home, "conf") if home else None
    path = os.path.join(folder, "spark-defaults.conf") if folder else None
    settings = {}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, TypeError):
        return settings
    import re
    for line in lines:
        line = line.strip()
        if not line or line.startswith(("#", "!")):
            continue
        m = re.match(r"([^\s=:]+)\s*[\s=:]\s*(.*)$", line)
        if m and m.group(1).startswith("spark."):      # spark-submit ignores any other key
            settings[m.group(1)] = m.group(2).strip()
    return settings


REACH_TIMEOUT_S = 10


def check_reachable(master, remote):
    """Before any JVM starts: a `spark://` master or a Spark Connect server that takes no connection fails at
    once, naming the address and the system's reason (Spark would retry for minutes, a Connect client forever)."""
    from urllib.parse import urlsplit
    if remote:
        where = urlsplit(remote if "://" in remote else "sc://" + remote)
        addresses, what = [(where.hostname or "localhost", where.port or 15002)], "the Spark Connect server"
    elif master and master.startswith("spark://"):
        addresses = []
        for part in master[len("spark://"):].split(","):
            host = urlsplit("spark://" + part)
            addresses.append((host.hostname, host.port or 7077))
        what = "the Spark master"
    else:
        return
    import socket
    problems = []
    for host, port in addresses:
        try:
            socket.create_connection((host, port), timeout=REACH_TIMEOUT_S).close()
            return              # one master of a list answering is enough
        except OSError as e:
            problems.append("%s:%d (%s)" % (host, port, e.strerror or e))
    from planner.errors import ConfigError
    raise UnreachableError(ConfigError("Cannot reach %s at %s" % (what, ", ".join(problems)),
                                       hint="check that it runs and that this machine may connect to it"))


class UnreachableError(Exception):
    """Carries the ConfigError that `session()` raises as it is (no 'needs Java' hint: Java is not the cause)."""

    def __init__(self, error):
        super().__init__(error.message)
        self.error = error


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


def is_connect(spark):
    """True for a Spark Connect session (a client of a server that runs everything)."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


def is_local(master):
    return master is None or master == "local" or master.startswith("local[") or master.startswith("local-")


def appended(conf, key, sep, items):
    """Setting `key` of `conf` (a list joined by `sep`) with `items` appended: its own entries kept, none twice."""
    old = [p for p in conf.get(key, "").split(sep) if p]
    return sep.join(old + [i for i in items if i not in old])


def executor_python(master, explicit, environ=os.environ):
    """The Python the executors run: `spark.pyspark.python` (-D or spark-defaults.conf), else $PYSPARK_PYTHON,
    else this Python for a local master (its executors are on this machine), else None (Spark's default,
    `python3` on the workers): never this machine's path on a cluster unless asked for."""
    if explicit:
        return explicit
    if environ.get("PYSPARK_PYTHON"):
        return environ["PYSPARK_PYTHON"]
    return sys.executable if is_local(master) else None


LOOPBACK = {"spark.driver.bindAddress": "127.0.0.1", "spark.driver.host": "127.0.0.1"}


def listen_settings(master, conf):
    """The driver's listening address: loopback (its RPC and block manager ports take no authentication, so no
    other machine may reach them) unless the master is on another host, whose executors must connect back, or
    the settings name an address themselves."""
    if not (is_local(master) or _on_loopback(master)):
        return {}
    return {k: v for k, v in LOOPBACK.items() if k not in conf}


def _on_loopback(master):
    """A `spark://host:port` master on this machine's loopback (127.x, localhost, ::1)."""
    import ipaddress
    import socket
    from urllib.parse import urlsplit
    if not master.startswith("spark://"):
        return False
    hosts = [urlsplit("spark://" + part).hostname for part in master[len("spark://"):].split(",")]
    try:
        return all(h and ipaddress.ip_address(socket.gethostbyname(h)).is_loopback for h in hosts)
    except (OSError, ValueError):
        return False


def _create_session(master, conf):
    listen = listen_settings(master, conf)
    if listen == LOOPBACK and "SPARK_LOCAL_IP" not in os.environ:
        os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"      # where Spark's web UI listens (else every address)
    conf = {**listen, **conf}
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    os.environ.setdefault("PYARROW_IGNORE_TIMEZONE", "1")
    # Python workers on this machine (local executors, the Python data sources' planning, transformWithState's
    # driver worker) import our modules; on a cluster they run the executors' Python, which may lack our
    # dependencies (sqlglot): the zip the executors get has them
    # and the Python processes this JVM starts begin with worker_startup/sitecustomize.py (pyspark from its
    # installed package, whose bytecode is cached, rather than from Spark's zip: 0.35 s less a process)
    paths = [SOURCE_ROOT, WORKER_STARTUP] + ([] if is_local(master) else [package_zip()])
    paths += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway
    from pyspark.sql import SparkSession

    import logging
    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        logging.getLogger(name).disabled = True   # PySpark logs every SQL error to stderr; we report it
    conf = {"spark.redaction.regex": SPARK_REDACTION_REGEX, **conf}
    from .connectors.jdbc_driver import classpath_conf
    conf.update(classpath_conf(conf))     # the JDBC drivers (connectors/jdbc_driver.py)
    from .local_filesystem import local_filesystem_conf
    conf.update(local_filesystem_conf(master, conf))     # no `chmod` process per checkpoint file
    spark_conf = SparkConf().setMaster(master).setAppName(conf.get("spark.app.name", "dynsql"))
    # the JVM's command line (which any local user can read) gets no secret: those reach it through py4j, in
    # the SparkContext's configuration, before the context starts
    launch_conf = SparkConf().setMaster(master).setAppName(conf.get("spark.app.name", "dynsql"))
    for k, v in conf.items():
        spark_conf.set(k, v)
        if not is_sensitive(k):
            launch_conf.set(k, v)
    log = open_private(spark_log_path())
    _start_worker_forks(master, conf, log)
    gateway = launch_gateway(launch_conf, popen_kwargs={"stdout": log, "stderr": log, "stdin": None})
    # the JVM's configuration: -D settings over spark-defaults.conf (spark-submit read it)
    jvm_conf = SparkConf(_jvm=gateway.jvm)
    python = executor_python(master, jvm_conf.get("spark.pyspark.python", None))
    if python:
        os.environ["PYSPARK_PYTHON"] = python   # pyspark hands this to every Python worker Spark starts
    sc = SparkContext(conf=spark_conf, gateway=gateway)
    sc.setLogLevel("ERROR")
    if not is_local(master):
        sc.addPyFile(package_zip())
        # java.lang.Math's functions in the Python workers (java_math.py) run this jar, which a worker that cannot
        # see the checkout finds among the session's files (SparkFiles)
        from .java_math import JAR
        sc.addFile(JAR)
    _import_hot_classes(gateway)
    spark = SparkSession(sc)
    _register_sources(spark)
    return spark


def _import_hot_classes(gateway):
    """PySpark names some JVM classes without their package (`sc._jvm.functions` for a Column's operators,
    `sc._jvm.PythonUtils` for a list of columns): py4j then tries java.lang and each package pyspark imported
    with a `*` in turn, and every miss is a search of the ~250 jars on the classpath (11 % of the JVM's samples
    in a streaming .sqltest run). Imported by name, each is found at once."""
    from py4j.java_gateway import java_import
    for name in ("org.apache.spark.sql.functions", "org.apache.spark.api.python.PythonUtils",
                 "org.apache.spark.sql.api.python.PythonSQLUtils"):
        java_import(gateway.jvm, name)


_WORKER_FORKS = []     # the fork server this process started (worker_startup/worker_forks.py): (Popen, folder)


def _start_worker_forks(master, conf, log):
    """A local master's driver starts a Python process for each stream a streaming query reads and each of its
    stateful Python operators, ~0.3 s apiece before the query's first batch: with a fork server beside the JVM
    (its children find it by $DYNSQL_WORKER_FORKS), they start in milliseconds. Not for a cluster's driver, nor
    where the executors' Python is another than this one (the forks would be this one's)."""
    from .worker_startup.worker_forks import ENV, start_server
    os.environ.pop(ENV, None)
    explicit = conf.get("spark.pyspark.python") or spark_defaults().get("spark.pyspark.python") or \
        os.environ.get("PYSPARK_PYTHON")
    if not is_local(master) or (explicit and os.path.realpath(explicit) != os.path.realpath(sys.executable)):
        return
    try:
        proc, folder = start_server(sys.executable, os.environ, log)
    except OSError:
        return
    _WORKER_FORKS.append((proc, folder))
    os.environ[ENV] = folder


def _stop_worker_forks():
    import shutil
    while _WORKER_FORKS:
        proc, folder = _WORKER_FORKS.pop()
        proc.terminate()
        try:
            proc.wait(5)
        except Exception:
            proc.kill()
        shutil.rmtree(folder, ignore_errors=True)


def _create_connect_session(remote, conf):
    """A Spark Connect session: our settings where the server lets a session change them, our packages as
    artifacts, our Python data sources registered."""
    os.environ.setdefault("PYARROW_IGNORE_TIMEZONE", "1")
    from pyspark.sql import SparkSession
    spark = SparkSession.builder.remote(remote).getOrCreate()
    for k, v in conf.items():
        if k.startswith("spark.sql.") or k not in DEFAULT_CONF:
            try:
                spark.conf.set(k, v)
            except Exception as e:
                if k not in DEFAULT_CONF:
                    from planner.errors import ConfigError
                    raise ConfigError("The Spark Connect server refused the setting '%s': %s" % (k, _one_line(e)),
                                      hint="set it where the server starts (its spark-defaults.conf or --conf)")
    packages = package_zip()
    spark.addArtifacts(packages, pyfile=True)
    from . import connect_shims
    from .connect_shims import source_shim
    with open(packages, "rb") as f:
        connect_shims.PACKAGES_ZIP = (os.path.basename(packages), hashlib.sha256(f.read()).hexdigest())
    for module, name in SOURCES:
        spark.dataSource.register(source_shim(module, name, connect_shims.PACKAGES_ZIP))
    from .json_kernels import register_udfs
    register_udfs(spark)
    from .connectors import map_order
    map_order.register_udfs(spark)
    return spark


SOURCES = (("runtime.connectors.filesystem", "FilesystemSource"), ("runtime.connectors.datagen", "DatagenSource"),
           ("runtime.connectors.nexmark", "NexmarkSource"))


def _register_sources(spark):
    import importlib
    for module, name in SOURCES:
        spark.dataSource.register(getattr(importlib.import_module(module), name))
    from .json_kernels import register_udfs      # the JSON functions' Python kernels
    register_udfs(spark)
    from .connectors import map_order            # the HashMap order of the maps Spark builds
    map_order.register_udfs(spark)


# ---------------------------------------------------------------------- dynsql's packages for executors
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("repl", "planner", "runtime", "dynsql")
WORKER_STARTUP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker_startup")


def package_zip():
    """A zip of dynsql's packages (and the pure-Python libraries its executors import: sqlglot, which the
    runtime's MATCH_RECOGNIZE compiler imports, and pg8000 with scramp and asn1crypto, which the jdbc lookup
    join and sink use, with their METADATA, which they read their versions from) for executors and Spark
    Connect servers that cannot see this checkout; named by a hash of the files' content (not their names or
    times), built once, in the owner-only working folder: no other user can plant a zip of that name there."""
    files = []
    for root_dir, package in _package_roots():
        for folder, dirs, names in os.walk(os.path.join(root_dir, package)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(names):
                if name.endswith(".py") or name == "METADATA" and package.endswith(".dist-info"):
                    path = os.path.join(folder, name)
                    files.append((path, os.path.relpath(path, root_dir)))
    return content_named_zip(files, "dynsql-packages-%s.zip", 24)


def content_named_zip(files, name, digits):
    """A zip of `files` ([(path, name in the zip)]) in the owner-only working folder, named `name` % the first
    `digits` hex digits of a hash of the names and contents; built once (a zip of that name holds them)."""
    digest = hashlib.sha256()
    for path, arcname in files:
        with open(path, "rb") as f:
            content = f.read()
        digest.update(b"%s %d\n" % (arcname.encode(), len(content)))
        digest.update(content)
    target = os.path.join(log_dir(), name % digest.hexdigest()[:digits])
    if not os.path.exists(target):
        tmp = "%s.%d.tmp" % (target, os.getpid())
        with open_private(tmp, "wb") as out, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for path, arcname in files:
                z.write(path, arcname)
        os.replace(tmp, target)
    return target


# (distribution, its top-level package) of the libraries the zip carries
BUNDLED_LIBRARIES = (("sqlglot", "sqlglot"), ("pg8000", "pg8000"), ("scramp", "scramp"), ("asn1crypto", "asn1crypto"))


def _package_roots():
    import importlib.metadata
    import importlib.util
    roots = [(SOURCE_ROOT, p) for p in PACKAGES]
    for distribution, package in BUNDLED_LIBRARIES:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            continue
        root_dir = os.path.dirname(list(spec.submodule_search_locations)[0])
        roots.append((root_dir, package))
        try:
            dist = importlib.metadata.distribution(distribution)
        except importlib.metadata.PackageNotFoundError:
            continue
        for f in dist.files or ():
            info = os.path.dirname(str(dist.locate_file(f)))     # its .dist-info folder
            if f.name == "METADATA" and os.path.dirname(info) == root_dir:
                roots.append((root_dir, os.path.basename(info)))
    return roots


def spark_home():
    """Spark's home: $SPARK_HOME, else the pyspark package (pip installs Spark's jars and scripts there)."""
    if os.environ.get("SPARK_HOME"):
        return os.environ["SPARK_HOME"]
    import pyspark
    return os.path.dirname(os.path.abspath(pyspark.__file__))
