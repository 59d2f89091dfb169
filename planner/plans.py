"""What the planner hands the runtime: one typed plan per statement."""

from dataclasses import dataclass, field


@dataclass
class MessagePlan:
    """Nothing to run: a DDL or SET already applied to the catalog / settings."""
    text: str
    spark_conf: dict = field(default_factory=dict)   # spark.* keys to apply to the session
    spark_conf_unset: list = field(default_factory=list)


@dataclass
class ListingPlan:
    """SHOW / DESCRIBE / SET: rows the planner computed from its catalog and settings."""
    columns: list     # [(name, flink type)]
    rows: list


@dataclass
class QueryRun:
    """Run a query and stream (or, in batch mode, return) its result."""
    query: object     # planner.query.QueryPlan
    batch: bool


@dataclass
class InsertRun:
    """INSERT INTO: a background job writing the query's result into a sink table."""
    target: object    # catalog TableDef
    query: object     # QueryPlan
    batch: bool
    text: str = ""


@dataclass
class ExplainRun:
    query: object
    changelog_mode: bool
    batch: bool


@dataclass
class ShowJobs:
    pass


@dataclass
class StopJob:
    job_id: str
