"""The runtime's entry point: executes planner plans on the one SparkSession and returns results.

MessagePlan / ListingPlan -> MessageResult / TableResult; QueryRun -> a ChangeStream (streaming) or a
TableResult (batch); ExplainRun -> the plan tree and Spark's physical plan; InsertRun / StatementSetRun -> a
detached job (jobs.py); ShowJobs / StopJob -> the job registry."""

from dataclasses import dataclass, field

from planner import plans
from planner.errors import DynsqlError, RuntimeFailure, UnsupportedError
from planner.expr.types import from_spark as flink_type_of

from . import jobs
from .errors import from_spark
from .result_columns import collect_columns
from .results import ChangeBatch, ChangeStream, Column, MessageResult, TableResult
from .session import SparkRuntime
from .state_backend import PROVIDER_KEY, state_store_provider
from .warm_up import stop_warm_up
from .streaming import AppendSink, ChangelogSink, StreamingRun, UpsertSink

# runtime.tables (and with it pyspark) is imported when the first query is built, not when the shell starts


def is_bounded(table):
    from .tables import is_bounded as check
    return check(table)


def is_paced(table):
    from .tables import is_paced as check
    return check(table)


@dataclass
class ResultFrame:
    """A query's result as Spark computes it, and how to read its rows as changes.

    kind: "append" (every row is +I), "changelog" (rows carry `__op` and `__seq`), or "upsert" (Spark's
    update-mode aggregate: rows keyed by `keys`, with `__visible` false for a key that left the result)."""
    df: object
    columns: list
    streaming: bool
    kind: str = "append"
    keys: list = field(default_factory=list)
    output_mode: str = "append"
    bounded: bool = True
    paced: bool = False
    end_of_input: bool = False
    parse_errors: object = None   # connectors.parse_errors.QueryParseErrors of the tables it reads
    state_store: str = None       # a streaming query's state store provider class (state_backend.py)
    physical: object = None       # its PhysicalPlan (runtime/physical)
    per_batch: object = None      # the part that runs on each micro-batch's rows (runtime/micro_batch_stage.py)
    steps: str = None             # a one pass in pieces, each a step: the piece column (operators/group_pieces.py)
    finish: object = None         # a one pass: the driver's step from the collected Arrow table to the rows


class Engine:
    def __init__(self, spark_runtime=None, settings=None, job_entry=None, job_conf=None):
        """job_entry: the command that runs a job given its folder; job_conf: the settings a job starts with."""
        self.spark_runtime = spark_runtime or SparkRuntime()
        self.settings = settings
        self.jobs = jobs.SessionJobs(self, job_entry, job_conf)

    def status(self):
        return self.spark_runtime.status()

    @property
    def spark(self):
        return self.spark_runtime.session()

    # ------------------------------------------------------------------ dispatch
    def execute(self, plan):
        if isinstance(plan, plans.MessagePlan):
            if plan.spark_conf or plan.spark_conf_unset:
                spark = self.spark
                for k, v in plan.spark_conf.items():
                    try:
                        spark.conf.set(k, v)
                    except Exception as e:
                        raise from_spark(e)
                for k in plan.spark_conf_unset:     # back to the session's own value (dynsql's, -D), if any
                    started = self.spark_runtime.conf.get(k)
                    if started is None:
                        spark.conf.unset(k)
                    else:
                        spark.conf.set(k, started)
            return MessageResult(plan.text)
        if isinstance(plan, plans.ListingPlan):
            return TableResult([Column(n, t) for n, t in plan.columns], plan.rows)
        if isinstance(plan, (plans.QueryRun, plans.InsertRun, plans.StatementSetRun)):
            stop_warm_up()              # the user's work has the cores to itself
        if isinstance(plan, plans.QueryRun):
            return self.run_query(plan.query, plan.batch)
        if isinstance(plan, plans.ExplainRun):
            return self.explain(plan)
        if isinstance(plan, (plans.InsertRun, plans.StatementSetRun)):
            return self.submit_job(plan)
        if isinstance(plan, plans.ShowJobs):
            return self.jobs.show()
        if isinstance(plan, plans.StopJob):
            return self.jobs.stop(plan.job_id, plan.savepoint)
        if isinstance(plan, plans.DropJob):
            return self.jobs.drop(plan.job_id)
        if isinstance(plan, plans.ShowSparkUi):
            return self.show_spark_ui()
        raise UnsupportedError("Cannot run a %s" % type(plan).__name__)

    def show_spark_ui(self):
        """SHOW SPARK UI: the address of the session's Spark web UI (once Spark is up) and its Spark log."""
        from .session import spark_log_path
        self.spark
        runtime = self.spark_runtime
        if runtime.ui_url:
            ui = runtime.ui_url
        elif runtime.is_connect:
            ui = "(the Spark Connect server's)"
        else:
            ui = "(off: spark.ui.enabled is false; --conf spark.ui.enabled=true turns it on)"
        return TableResult([Column("spark ui", "STRING"), Column("spark log", "STRING")],
                           [(ui, None if runtime.is_connect else spark_log_path())], uncut=True)

    # ------------------------------------------------------------------ jobs
    def submit_job(self, plan):
        """INSERT INTO / EXECUTE STATEMENT SET: start a detached job; with 'table.dml-sync', wait for it."""
        inserts = plan.inserts if isinstance(plan, plans.StatementSetRun) else [plan]
        job_id, note = self.jobs.submit(inserts, plan.text, plan.session_statements)
        lines = ["[INFO] %s." % note] if note else []
        if any(p.target.options.get("connector") == "print" for p in inserts):
            lines.append("[INFO] The print sink's rows go to %s" % self.jobs.registry.output(job_id))
        lines += ["[INFO] Submitting SQL update statement to the cluster...",
                  "[INFO] SQL update statement has been successfully submitted to the cluster:",
                  "Job ID: %s" % job_id]
        if self.settings is None or not self.settings.dml_sync:
            return MessageResult("\n".join(lines) + "\n")
        record = self.jobs.wait(job_id)
        if record.status != "FINISHED":
            raise RuntimeFailure("Job %s %s: %s" % (job_id, record.status, record.error or "stopped"),
                                 hint="SHOW JOBS; its output is in %s" % self.jobs.registry.output(job_id))
        return MessageResult("\n".join(lines + ["[INFO] Complete execution of the SQL update statement."]))

    # ------------------------------------------------------------------ queries
    def physical_plan(self, query, batch):
        """The query's physical plan (runtime/physical): every execution choice, made once."""
        from .physical import EngineFacts, plan_physical
        from .tables import parallelism
        return plan_physical(query, batch, self.settings, EngineFacts(
            broadcast_bytes=self._broadcast_bytes(), foreach_batch=not self.spark_runtime.is_connect,
            state_ttl_ms=self.settings.state_ttl_ms if self.settings is not None else 0,
            cores=parallelism(self.spark)))

    def _broadcast_bytes(self):
        """Spark's broadcast limit (`spark.sql.autoBroadcastJoinThreshold`), -1 for never."""
        from planner.settings import parse_size_bytes
        try:
            return parse_size_bytes(self.spark.conf.get("spark.sql.autoBroadcastJoinThreshold"))
        except Exception:       # -1 (Spark's "never broadcast") or a size Spark reads and dynsql does not
            return -1

    def _translate(self, query, physical, versions=None):
        """The plan translated on the choices of `physical`; `versions`: the as-of lookups' collected versions."""
        from .physical.nodes import MICRO_BATCHES
        from .translate import TranslateContext, translate
        if query.python_functions:
            from .python_functions.registration import register_python_functions
            files = (self.settings.get("python.files") or "") if self.settings is not None else ""
            register_python_functions(self.spark, query.python_functions,
                                      [p.strip() for p in files.split(",") if p.strip()])
        streaming = physical.execution == MICRO_BATCHES
        ctx = TranslateContext(self.spark, streaming=streaming,
                               ttl_ms=self.settings.state_ttl_ms if self.settings is not None else 0,
                               event_time=physical.event_time,
                               late_rows=physical.late_rows, physical=physical, versions=versions or {},
                               line=query.line, column=query.column)
        return translate(query.root, ctx), ctx

    def _collect_versions(self, ctx, physical):
        """The versions of each in-memory as-of lookup (a Spark job each, run here, never while translating);
        a lookup whose versions do not fit takes the window plan (said in its physical node)."""
        from .operators.as_of_lookup import collect_versions
        from .physical.nodes import AS_OF_WINDOWS
        force = self.settings.physical_force if self.settings is not None else "auto"
        limit = None if force == "fast" else self._broadcast_bytes()
        versions = {}
        for key, frame in ctx.lookup_versions.items():
            try:
                table, why = collect_versions(frame, limit)
            except Exception:   # reading them failed: the window plan reports it when the query runs
                table, why = None, "reading the versions failed"
            if table is None:
                node = physical.nodes[key]
                node.choice = AS_OF_WINDOWS
                node.because.append(why)
            else:
                versions[key] = table
        return versions

    def result_frame(self, query, batch, physical=None):
        """The query's result as a DataFrame and how to read it (`ResultFrame`): what the shell's result
        stream and an INSERT INTO job's sink both start from. The plan (planner.query_plan.QueryPlan) is
        planned physically (runtime/physical) and translated node by node (runtime/translate.py)."""
        from planner.plan.scan import TableScan
        from .connectors.parse_errors import collecting
        physical = physical or self.physical_plan(query, batch)
        with collecting() as parse_errors:
            stream, ctx = self._translate(query, physical)
        if ctx.lookup_versions:         # the in-memory as-of lookups' versions, then the plan with them
            versions = self._collect_versions(ctx, physical)
            with collecting() as parse_errors:
                stream, ctx = self._translate(query, physical, versions)
        df = stream.df
        types = {f.name: f for f in df.schema.fields}
        columns = [Column(f.name, f.type_text() or flink_type_of(types[f.name].dataType, types[f.name].nullable))
                   for f in query.fields]
        streaming = not batch and df.isStreaming
        kind = "upsert" if stream.upsert_keys is not None else "changelog" if stream.changelog else "append"
        scans = [n for n in query.root.walk() if isinstance(n, TableScan)]
        backend = self.settings.state_backend if self.settings is not None else "hashmap"
        # a provider the user SET by Spark's own key is the query's
        chosen = self.settings.get(PROVIDER_KEY) if self.settings is not None else None
        return ResultFrame(df=df, columns=columns, streaming=streaming, kind=kind, keys=stream.upsert_keys or [],
                           output_mode="update" if kind == "upsert" else "append",
                           bounded=all(is_bounded(n.table) for n in scans),
                           paced=any(is_paced(n.table) for n in scans), end_of_input=ctx.event_time,
                           parse_errors=parse_errors,
                           state_store=(chosen or state_store_provider(df, backend)) if streaming else None,
                           physical=physical, per_batch=stream.per_batch, steps=stream.steps,
                           finish=stream.finished_in_driver.finish if stream.finished_in_driver is not None else None)

    def run_query(self, query, batch):
        result = self.result_frame(query, batch)
        names = [c.name for c in result.columns]
        if result.physical.one_pass:
            from .one_pass import OnePassRun
            stream = ChangeStream(result.columns, description=query.text, note=result.physical.status_note())
            steps = (result.keys, result.steps) if result.steps else None
            return OnePassRun(self.spark, result.df, names, stream, result.parse_errors, steps,
                              finish=result.finish).start().stream
        if not result.streaming:
            try:
                rows = collect_columns(result.df, names).tuples(names)
            except Exception as e:
                raise from_spark(e, query.line, query.column)
            if batch:
                return TableResult(result.columns, rows, is_query=True,
                                   skipped_rows=result.parse_errors.skipped_rows,
                                   nulled_rows=result.parse_errors.nulled_rows)
            # a query over no table (SELECT 1, VALUES ...): a bounded stream of inserts, as Flink's
            stream = ChangeStream(result.columns, description=query.text)
            stream.publish(ChangeBatch([("+I", r) for r in rows]))
            stream.finish()
            return stream
        sink = {"append": lambda: AppendSink(names), "changelog": lambda: ChangelogSink(names),
                "upsert": lambda: UpsertSink(names, result.keys)}[result.kind]()
        stream = ChangeStream(result.columns, description=query.text)
        try:
            StreamingRun(self.spark, result.df, sink, stream, bounded=result.bounded, paced=result.paced,
                         output_mode=result.output_mode, end_of_input=result.end_of_input,
                         parse_errors=result.parse_errors, state_store=result.state_store,
                         per_batch=result.per_batch).start()
        except DynsqlError:
            raise
        except Exception as e:
            raise from_spark(e, query.line, query.column)
        return stream

    def explain(self, plan):
        q = plan.query
        lines = ["== Optimized Physical Plan ==" if plan.changelog_mode else "== Physical Plan =="]
        lines += q.explain(with_modes=plan.changelog_mode)
        from .physical.explain import explain_physical
        physical_plan = self.physical_plan(q, plan.batch)
        stream, _ = self._translate(q, physical_plan)      # no Spark job: the lookups hold no versions yet
        lines += ["", "== Execution Plan =="] + explain_physical(physical_plan)
        try:
            physical = stream.df._jdf.queryExecution().simpleString()
        except Exception:      # Spark Connect has no JVM handle: the dynsql plan alone
            physical = ""
        if physical:
            lines += ["", "== Spark Plan ==", physical.strip()]
        return MessageResult("\n".join(lines))

    def shutdown(self):
        """The session ends; its jobs run on (they are processes of their own)."""
        self.spark_runtime.stop()

