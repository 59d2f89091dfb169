"""One SparkSession for the whole pytest run, started the way dynsql starts it (local[2], 2 shuffle
partitions, UTC); `client` gives each test a fresh catalog and settings on it."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFORMANCE = os.path.join(os.path.dirname(ROOT), "shared", "conformance")

# Every JVM of the run (the shared session's, and those of the dynsql processes and job hosts the tests start,
# which inherit this environment: Spark's launcher adds SPARK_SUBMIT_OPTS to the driver's java command) compiles
# with the JIT's first tier only (C1). The tests run thousands of small queries, each plan for a micro-batch or
# two: on 2 loaded cores the optimizing compiler's (C2) threads took the CPU the queries needed, for code that
# rarely ran again. Three streaming statements run four times in one session, in turns in one sitting (load
# 20-30): 228 and 225 s with the JVM's defaults, 151 and 148 s with C1 only. The bytecode run is the same; only
# how the JVM compiles it differs (dynsql itself keeps its JVM options: runtime/session.py). A run can choose
# otherwise: a SPARK_SUBMIT_OPTS with its own -XX:TieredStopAtLevel is left as it is
# (`SPARK_SUBMIT_OPTS=-XX:TieredStopAtLevel=4`: the JVM's default).
if "TieredStopAtLevel" not in os.environ.get("SPARK_SUBMIT_OPTS", ""):
    os.environ["SPARK_SUBMIT_OPTS"] = (os.environ.get("SPARK_SUBMIT_OPTS", "") + " -XX:TieredStopAtLevel=1").strip()


@pytest.fixture(scope="session")
def spark_runtime():
    import pyspark.sql  # noqa: F401  (before the session starts in a thread that imports it: two threads
    #                    importing pyspark.sql's circular modules at once can see one partly initialized)
    from runtime.session import SparkRuntime
    # a JVM option of the user's, as -D spark.driver.extraJavaOptions=... gives it: dynsql's own JVM options
    # stay (tests/test_jvm_options.py)
    rt = SparkRuntime(master="local[2]", conf={"spark.driver.extraJavaOptions": "-Ddynsql.tests=on"}).start()
    yield rt
    rt.stop()


@pytest.fixture(scope="session")
def spark(spark_runtime):
    return spark_runtime.session()


# every client of the run on one physical path: DYNSQL_PHYSICAL=general|one-pass|fast (make test-paths runs the
# .sqltest files and the conformance cases on each, with the same rows expected); unset: as the statistics choose
FORCED_PATH = os.environ.get("DYNSQL_PHYSICAL")
FORCED = {"dynsql.physical.force": FORCED_PATH} if FORCED_PATH else {}


@pytest.fixture(scope="session")
def shared_jobs_dir(tmp_path_factory):
    """The job registry of the run's clients (but those of tests marked `own_job_registry`): their INSERT INTO
    jobs go to one job host (runtime/job_host.py), started by the first and kept for the next, rather than a
    JVM and SparkSession a test (15-20 s each). Its hosts are stopped at the end of the run."""
    folder = str(tmp_path_factory.mktemp("jobs"))
    yield folder
    from job_hosts import stop_job_hosts
    stop_job_hosts(folder)


@pytest.fixture
def client(spark_runtime, tmp_path_factory, request):
    """A client on the shared session; its INSERT INTO jobs go to the run's registry (a test marked
    `own_job_registry`: a registry of its own), and those still running at the end of the test are stopped. Its
    streaming queries run on micro-batches, the operators the tests are about, even where a bounded file would be
    read in one pass (`one_pass_client`: as by default)."""
    c = _client(spark_runtime, tmp_path_factory, request, {"dynsql.one-pass.max-input-size": "0", **FORCED})
    yield c
    _stop_jobs(c)


@pytest.fixture
def one_pass_client(spark_runtime, tmp_path_factory, request):
    """A client with dynsql's default settings: a streaming query over one small bounded file is read in one
    pass (runtime/one_pass.py)."""
    c = _client(spark_runtime, tmp_path_factory, request, dict(FORCED))
    yield c
    _stop_jobs(c)


def _client(spark_runtime, tmp_path_factory, request, conf):
    from repl.client import Client
    if request.node.get_closest_marker("own_job_registry"):
        jobs = {"dynsql.jobs.dir": str(tmp_path_factory.mktemp("jobs"))}
    else:
        jobs = {"dynsql.jobs.dir": request.getfixturevalue("shared_jobs_dir"), "dynsql.job-host.idle-timeout": "120 s"}
    return Client(spark_runtime=spark_runtime, conf={**jobs,
                                                     # the catalogs it creates are stored in a folder of its own,
                                                     # not in the checkout's .dynsql/catalogs
                                                     "table.catalog-store.file.path": str(tmp_path_factory.mktemp(
                                                         "catalogs")), **conf})


def _stop_jobs(c):
    for record in c.engine.jobs.registry.all():     # its jobs, and those a dynsql process of the test started
        if record.status in ("INITIALIZING", "RUNNING"):
            try:
                c.engine.jobs.stop(record.id)
            except Exception:
                pass


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # tests' own helper modules
# the job hosts the tests' INSERT INTO jobs start (runtime/job_host.py) exit soon after their last job; the host
# of the run's registry (`shared_jobs_dir`) waits longer for the next test's job
os.environ.setdefault("DYNSQL_JOB_HOST_IDLE_TIMEOUT", "10 s")


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL server for the run (postgres_server.py), stopped at its end."""
    from postgres_server import PostgresServer
    server = PostgresServer().start()
    yield server
    server.stop()
