"""The shell's handle on the planner and the runtime: split text into statements, plan each, run it.

Data flows one way: text -> planner (plans) -> runtime (results) -> the caller renders them.

The planner (and sqlglot under it), the Spark runtime (even its SparkRuntime handle) and the engine are imported
on first use, so that the shell draws its prompt with none of them loaded; and a set-up script (the demo tables'
DDL) can be run in the background with `load_in_background`: the shell draws its prompt first, and a statement
typed meanwhile waits for the set-up as it waits for the SparkSession.

The client keeps the session's DDL and SET statements in order: an INSERT INTO job runs in a job host
(`dynsql --job-host <host folder>`) or a process of its own (`dynsql --job-run <job folder>`), which re-plans
its INSERTs from them."""

import functools
import sys
import threading

from planner.settings import Settings

# the command that runs a job given its folder (cli.py's --job-run)
JOB_ENTRY = [sys.executable, "-m", "repl.cli", "--job-run"]


class SetupError(Exception):
    """A statement of the background set-up script failed: `statement` is its text."""

    def __init__(self, error, statement):
        super().__init__(str(error))
        self.error = error
        self.statement = statement


class Client:
    def __init__(self, master=None, conf=None, settings=None, spark_runtime=None, remote=None, warm_up=False,
                 ui=False, catalog_store=False):
        """conf: the session's settings (-D, --conf): its spark.* keys start Spark and, with the others, are
        listed by `SET;`. ui: Spark's web UI on by default (the shell's). catalog_store: a user's session (the
        shell, a script), which registers the catalogs of the catalog store (`table.catalog-store.kind`) and keeps
        those CREATE CATALOG adds there; a job's process does not: it replays the session's statements, which
        hold the registrations."""
        spark_conf = {}
        for k, v in (conf or {}).items():
            if k.startswith("spark."):
                spark_conf[k] = v
        self.settings = settings or Settings(conf or {})
        self._spark_runtime = spark_runtime       # made on first use (runtime.session is not imported before)
        self._spark_runtime_args = dict(master=master, conf=spark_conf, remote=remote, warm_up=warm_up, ui=ui)
        self._spark_runtime_lock = threading.Lock()
        self._job_conf = conf
        self._engine = None
        self._engine_lock = threading.Lock()
        self.session_statements = []   # the DDL and SET statements run so far, in order (a job re-plans from them)
        self._planner = None
        self._planner_lock = threading.Lock()
        self._setup = None             # the background set-up thread
        self._setup_failure = None     # SetupError of its failed statement, reported once
        self._catalog_store = catalog_store
        self.notices = []              # warnings for the user (a stored catalog that could not be registered)

    @property
    def spark_runtime(self):
        """The SparkRuntime (runtime/session.py), made on first use; Spark itself starts with `start()`."""
        with self._spark_runtime_lock:
            if self._spark_runtime is None:
                from runtime.session import SparkRuntime
                self._spark_runtime = SparkRuntime(**self._spark_runtime_args)
            return self._spark_runtime

    @property
    def spark_ui_url(self):
        """Spark's web UI once Spark is up with it on, else None (never makes the runtime)."""
        return getattr(self._spark_runtime, "ui_url", None)

    @property
    def engine(self):
        """The runtime's engine, imported and made on first use (it pulls in Spark's Python side, the jobs and the
        sinks: the prompt does not wait for them)."""
        with self._engine_lock:
            if self._engine is None:
                from runtime.engine import Engine
                self._engine = Engine(self.spark_runtime, self.settings, job_entry=JOB_ENTRY, job_conf=self._job_conf)
            return self._engine

    @property
    def engine_loaded(self):
        return self._engine is not None

    @property
    def planner(self):
        with self._planner_lock:
            if self._planner is None:
                from planner.planner import Planner
                planner = Planner(settings=self.settings, warehouse=(self._job_conf or {}).get(
                    "spark.sql.warehouse.dir"))
                if self._catalog_store:
                    self._register_stored_catalogs(planner)
                self._planner = planner
            return self._planner

    def _register_stored_catalogs(self, planner):
        """Register the catalogs of the catalog store, each as its CREATE CATALOG (kept with the session's
        statements, which a job replays); from then on CREATE / DROP CATALOG write to the store of the settings
        of the moment."""
        from planner.catalog_registrations import FileCatalogStore, create_catalog_statement
        from planner.errors import DynsqlError
        path = self.settings.catalog_store_path
        if path is not None:
            kept, problems = FileCatalogStore(path).load()
            self.notices.extend(problems)
            for name, options in kept:
                text = create_catalog_statement(name, options)
                try:
                    planner.plan(text)
                except DynsqlError as e:
                    self.notices.append("[WARNING] The catalog '%s' stored in %s is not registered: %s"
                                        % (name, FileCatalogStore(path).file(name), e.message))
                    continue
                self.session_statements.append(text)

        planner.catalog.registrations = functools.partial(catalog_store_of, self.settings)

    def take_notices(self):
        """The warnings not shown yet, once."""
        notices, self.notices = self.notices, []
        return notices

    @property
    def planner_loaded(self):
        return self._planner is not None

    @property
    def catalog(self):
        return self.planner.catalog

    def start(self):
        self.spark_runtime.start()
        return self

    def status(self):
        if self.setup_running():
            return "loading"
        if self._spark_runtime is None:
            return "stopped"            # as a SparkRuntime not started says
        return self.spark_runtime.status()

    def stage_progress(self):
        """The running Spark stages' tasks (runtime.stage_progress.StageProgress), or None: nothing runs, or
        the engine or its session is not there yet (the shell's wait line asks this twice a second)."""
        if self._engine is None or self.spark_runtime.status() != "ready":
            return None
        from runtime.stage_progress import stage_progress
        return stage_progress(self._engine.spark)

    # --- a set-up script run in the background
    def load_in_background(self, text=None, then=None):
        """In a background thread: load the planner, run the statements of `text` (DDL: nothing is
        shown), then call `then()`. A later `split`/`plan`/`execute` waits for them; the first
        failure is handed out once by `take_setup_failure`."""
        def work():
            statement = None
            try:
                for statement in self.planner.split(text or ""):
                    self._run(statement)
            except Exception as error:
                self._setup_failure = SetupError(error, statement)
            if then is not None:
                then()
        self._setup = threading.Thread(target=work, name="dynsql-setup", daemon=True)
        self._setup.start()

    def setup_running(self):
        return self._setup is not None and self._setup.is_alive()

    @property
    def setup_thread(self):
        """The background set-up's thread (None when there was none)."""
        return self._setup

    def wait_for_setup(self):
        if self._setup is not None:
            self._setup.join()

    def take_setup_failure(self):
        """The background set-up's failure (a SetupError), once; None when it went well or is running."""
        if self.setup_running():
            return None
        failure, self._setup_failure = self._setup_failure, None
        return failure

    # --- statements
    def split(self, text):
        self.wait_for_setup()
        return self.planner.split(text)

    def plan(self, statement):
        self.wait_for_setup()
        return self.planner.plan(statement)

    def execute(self, statement):
        """A Statement (or text of one statement) -> MessageResult | TableResult | ChangeStream."""
        self.wait_for_setup()
        return self._run(statement)

    def _run(self, statement):
        from planner import plans
        plan = self.planner.plan(statement)
        if getattr(plan, "table_ddl", None):       # CREATE TABLE AS SELECT: the table is there from now on
            self.session_statements.append(plan.table_ddl)
        if isinstance(plan, (plans.InsertRun, plans.StatementSetRun)):
            plan.session_statements = list(self.session_statements)
        result = self.engine.execute(plan)
        if isinstance(plan, plans.MessagePlan) and plan.replay:   # DDL, SET, RESET: applied
            self.session_statements.append(statement if isinstance(statement, str) else statement.text)
        return result

    def run_job(self, job_folder, stop_signal=None, output=None):
        """In a job's own process (or its thread of a job host): replay the job's session statements, re-plan its
        INSERTs, run them until they end. -> the job's final status."""
        from planner import plans
        from runtime.jobs import read_job
        record = read_job(job_folder)
        for text in record.statements:
            self._run(text)
        inserts = []
        for text in record.inserts:
            plan = self.planner.plan(text)
            inserts.extend(plan.inserts if isinstance(plan, plans.StatementSetRun) else [plan])
        return self.engine.jobs.run(job_folder, inserts, stop_signal, output)

    def close(self):
        if self._engine is not None:
            self._engine.shutdown()
        elif self._spark_runtime is not None:
            self._spark_runtime.stop()


def catalog_store_of(settings):
    """The FileCatalogStore CREATE / DROP CATALOG write to under `settings` now, or None (kept in memory)."""
    from planner.catalog_registrations import FileCatalogStore
    where = settings.catalog_store_path
    return None if where is None else FileCatalogStore(where)
