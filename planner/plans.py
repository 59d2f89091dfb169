"""What the planner hands the runtime: one typed plan per statement."""

from dataclasses import dataclass, field


@dataclass
class MessagePlan:
    """Nothing to run: a DDL or SET already applied to the catalog / settings."""
    text: str
    spark_conf: dict = field(default_factory=dict)   # spark.* keys to apply to the session
    spark_conf_unset: list = field(default_factory=list)
    replay: bool = True      # False: its effect is on disk (a persistent catalog), a job must not run it again


@dataclass
class ListingPlan:
    """SHOW / DESCRIBE / SET: rows the planner computed from its catalog and settings."""
    columns: list     # [(name, flink type)]
    rows: list


@dataclass
class QueryRun:
    """Run a query and stream (or, in batch mode, return) its result."""
    query: object     # planner.query_plan.QueryPlan
    batch: bool


@dataclass
class InsertRun:
    """INSERT INTO: a job writing the query's result into a sink table. `session_statements` are the
    session's DDL and SET statements before it (the caller fills them in): a job process re-plans the
    INSERT from them."""
    target: object    # catalog TableDef
    query: object     # QueryPlan
    batch: bool
    text: str = ""
    session_statements: list = field(default_factory=list)
    target_columns: list = None   # INSERT INTO t (a, b): the sink columns the query's columns go to
    overwrite: bool = False       # INSERT OVERWRITE (batch mode): the sink's files are replaced
    target_path: str = None       # the sink's catalog.database.table
    table_ddl: str = None         # CREATE TABLE AS SELECT: the CREATE TABLE of the table it made (a job replays it)


@dataclass
class StatementSetRun:
    """EXECUTE STATEMENT SET BEGIN INSERT ...; INSERT ...; END: several INSERTs as one job."""
    inserts: list     # [InsertRun]
    text: str = ""
    session_statements: list = field(default_factory=list)


@dataclass
class ExplainRun:
    query: object
    changelog_mode: bool
    batch: bool


@dataclass
class ShowJobs:
    pass


@dataclass
class ShowSparkUi:
    pass                      # SHOW SPARK UI: the session's Spark web UI and its Spark log


@dataclass
class DropJob:
    job_id: str               # DROP JOB '<id>': a job that no longer runs, removed with its checkpoint


@dataclass
class StopJob:
    job_id: str
    savepoint: bool = False   # WITH SAVEPOINT: say where the job's checkpoint is
    drain: bool = False
