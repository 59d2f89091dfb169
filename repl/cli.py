"""The `dynsql` command: the interactive shell, or a script / statement run without one.

  dynsql                       the shell
  dynsql --demo                the shell, after demo_data/demo.sql created the demo tables
  dynsql -f script.sql         run a script; stop at the first error with a non-zero exit
  dynsql -i init.sql           run a script, then the shell
  dynsql -e 'SELECT ...;'      run statements given on the command line
  --output tableau|jsonl|csv   how non-interactive runs print results (jsonl: one change per line)
  --master URL                 Spark master (default local[*]), e.g. spark://host:7077, yarn, k8s://...
  --remote URL                 a Spark Connect server, e.g. sc://host:15002
  -D key=value                 a session setting (Flink keys, spark.* keys)
  --conf key=value             a Spark setting, as spark-submit's (--jars, --packages, --py-files too); with
                               spark-defaults.conf ($SPARK_CONF_DIR) under them
  --resume-job ID              start a stopped or failed INSERT INTO job again from its checkpoint

An INSERT INTO starts a job of its own and returns, as Flink's SQL client does (in scripts too); with
SET 'table.dml-sync' = 'true' it waits for the job to finish. `--job-run FOLDER` is how a job's own
process starts (not for users)."""

import argparse
import os
import shutil
import signal
import sys

from . import __version__

DEMO_SQL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "demo_data", "demo.sql")


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="dynsql", description="Flink SQL's streaming semantics on Apache Spark.")
    ap.add_argument("-f", "--file", help="run the statements of FILE, then exit")
    ap.add_argument("-i", "--init", help="run the statements of FILE, then start the shell")
    ap.add_argument("-e", "--execute", help="run the given statements, then exit")
    ap.add_argument("--output", choices=("tableau", "jsonl", "csv"), default="tableau",
                    help="result format of -f / -e runs (default tableau)")
    ap.add_argument("--demo", action="store_true", help="create the demo tables first (demo_data/demo.sql)")
    ap.add_argument("--master", help="Spark master URL (default local[*]), e.g. spark://host:7077")
    ap.add_argument("--remote", help="Spark Connect server URL, e.g. sc://host:15002")
    ap.add_argument("--resume-job", metavar="ID", help="start a stopped or failed job again from its checkpoint")
    ap.add_argument("--job-run", metavar="FOLDER", help=argparse.SUPPRESS)
    ap.add_argument("--job-host", metavar="FOLDER", help=argparse.SUPPRESS)
    ap.add_argument("-D", dest="defines", action="append", default=[], metavar="KEY=VALUE",
                    help="a session setting, e.g. -D execution.runtime-mode=batch or -D spark.driver.memory=4g")
    ap.add_argument("--conf", dest="spark_conf", action="append", default=[], metavar="KEY=VALUE",
                    help="a Spark setting, as spark-submit's --conf (over spark-defaults.conf)")
    ap.add_argument("--jars", metavar="JARS", help="comma-separated jars for the driver and executors (spark.jars)")
    ap.add_argument("--packages", metavar="COORDINATES",
                    help="comma-separated Maven coordinates of jars, group:artifact:version (spark.jars.packages)")
    ap.add_argument("--py-files", metavar="PY_FILES",
                    help="comma-separated .zip, .egg or .py files for the Python workers (spark.submit.pyFiles)")
    ap.add_argument("--version", action="version", version="dynsql %s" % __version__)
    return ap.parse_args(argv)


def _defines(items):
    conf = {}
    for item in items:
        if "=" not in item:
            raise SystemExit("dynsql: -D takes key=value, got %r" % item)
        k, v = item.split("=", 1)
        conf[k.strip()] = v.strip()
    return conf


SPARK_FLAGS = (("jars", "spark.jars"), ("packages", "spark.jars.packages"), ("py_files", "spark.submit.pyFiles"))


def _spark_flags(args):
    """The Spark settings of --conf, --jars, --packages and --py-files, as spark-submit takes them (a --jars list
    joins a spark.jars of --conf)."""
    conf = {}
    for item in args.spark_conf:
        if "=" not in item:
            raise SystemExit("dynsql: --conf takes key=value, got %r" % item)
        k, v = (p.strip() for p in item.split("=", 1))
        if not k.startswith("spark."):      # spark-submit's words, and it goes on without the key
            print("Warning: Ignoring non-Spark config property: %s (-D sets dynsql's and Flink's settings)" % k,
                  file=sys.stderr)
            continue
        conf[k] = v
    for flag, key in SPARK_FLAGS:
        value = getattr(args, flag)
        if value:
            given = [p for p in (conf.get(key, "") + "," + value).split(",") if p.strip()]
            if flag == "py_files":     # the Python workers and the job host's processes resolve them anywhere
                given = [os.path.abspath(p) if "://" not in p else p for p in given]
            conf[key] = ",".join(given)
    return conf


def check_java():
    if os.environ.get("JAVA_HOME") and os.path.exists(os.path.join(os.environ["JAVA_HOME"], "bin", "java")):
        return None
    if shutil.which("java"):
        return None
    return "dynsql needs Java 17 or 21: install a JDK (e.g. 'apt-get install openjdk-17-jre-headless') or set JAVA_HOME"


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    problem = check_java()
    if problem:
        print("[ERROR] " + problem, file=sys.stderr)
        return 2
    try:
        conf = {**_spark_flags(args), **_defines(args.defines)}
    except SystemExit as e:
        print(str(e), file=sys.stderr)
        return 2
    if args.master and args.remote:
        print("[ERROR] --master and --remote exclude each other: Spark Connect's server has its own master",
              file=sys.stderr)
        return 2
    if args.job_run:
        return run_job_process(args.job_run)
    if args.job_host:
        return run_job_host(args.job_host)
    script = init = None               # read before Spark starts: a bad file fails at once
    if args.file:
        script = _read(args.file)
        if script is None:
            return 2
    if args.init:
        init = _read(args.init)
        if init is None:
            return 2
    from planner.errors import DynsqlError
    from .client import Client
    if args.resume_job:
        return resume_job(Client(master=args.master, conf=conf, remote=args.remote), args.resume_job)
    try:
        # the interactive shell warms Spark up while its user types; a script runs its statements at once
        # a script starts Spark when a statement first needs it: one of DDL and INSERT INTO jobs needs none (a
        # job host runs the jobs); the shell starts Spark once its prompt is up
        client = Client(master=args.master, conf=conf, remote=args.remote,
                        warm_up=not (args.file or args.execute), ui=not (args.file or args.execute),
                        catalog_store=True)
    except DynsqlError as e:
        print("[ERROR] " + e.render(), file=sys.stderr)
        return 2
    for warning in client.settings.warnings:      # -D keys of Flink's that mean nothing on Spark, as SET says
        print(warning, file=sys.stderr)
    from runtime.spark_log import spark_log_path  # named at start, as Spark starts later (if a statement needs it)
    try:
        demo = None
        if args.demo:
            demo = demo_script()
            if demo is None:
                return 2
        if args.file or args.execute:
            print("[INFO] Spark log: %s" % spark_log_path(), file=sys.stderr)    # stdout holds the results
            if demo is not None:
                code = run_script(client, demo, "tableau", quiet=True)
                if code:
                    return code
            return run_script(client, script if args.file else args.execute, args.output)
        from .shell import run_shell
        print("[INFO] Spark log: %s" % spark_log_path())
        # the demo tables are created in the background once the prompt is up
        return run_shell(client, init_statements=init, setup_script=demo) or 0
    finally:
        try:
            client.close()
        except Exception:
            pass


def run_job_process(folder):
    """The process of one INSERT INTO job: re-plan it from its session's statements, run it until it ends."""
    from runtime.jobs import mark_failed, read_job
    from .client import Client
    from .errors import error_text
    from runtime.jobs import run_lock
    record = read_job(folder)
    if record is None or record.status == "DAMAGED":
        print("[ERROR] No job in %s" % folder if record is None else "[ERROR] " + record.error, file=sys.stderr)
        return 2
    lock = run_lock(folder)
    if not lock.take():       # held until this process ends
        print("[ERROR] Job %s is already running in another process: it is not started twice" % record.id,
              file=sys.stderr)
        return 2
    if record.cwd and os.path.isdir(record.cwd):
        os.chdir(record.cwd)       # the session's relative table paths
    client = Client(master=record.master, conf=record.conf, remote=record.remote)
    try:
        status = client.run_job(folder)
    except Exception as e:   # the statements no longer plan, Spark did not start...
        text = error_text(e, False)
        print(text, file=sys.stderr)
        mark_failed(folder, text)
        return 1
    finally:
        client.close()
    print("[INFO] Job %s: %s" % (record.id, status), file=sys.stderr)
    return 0 if status in ("FINISHED", "CANCELED") else 1


def run_job_host(folder):
    """A job host's process (runtime/job_host.py): one SparkContext, each job handed to it re-planned from its
    session's statements and run on a SparkSession of its own."""
    from runtime.job_host import serve
    from runtime.session import SparkRuntime
    return serve(folder, _run_hosted_job, lambda master, conf: SparkRuntime(master=master, conf=conf))


def _run_hosted_job(job_folder, spark_runtime, stop_signal, output):
    from runtime.jobs import mark_failed, read_job
    from runtime.session import SparkRuntime
    from .client import Client
    from .errors import error_text
    record = read_job(job_folder)
    if record is None or record.status == "DAMAGED":
        return "FAILED"
    client = Client(conf=record.conf, spark_runtime=SparkRuntime(parent=spark_runtime))
    try:
        return client.run_job(job_folder, stop_signal, output)
    except Exception as e:   # the statements no longer plan, Spark did not start...
        text = error_text(e, False)
        print(text, file=output, flush=True)
        mark_failed(job_folder, text)
        return "FAILED"


def resume_job(client, job_id):
    from .errors import error_text
    try:
        record, note = client.engine.jobs.resume(job_id)
    except Exception as e:
        print(error_text(e, False), file=sys.stderr)
        return 1
    if note:
        print("[INFO] %s." % note)
    print("[INFO] Job %s resumes from its checkpoint %s" % (record.id, client.engine.jobs.registry.checkpoint(job_id)))
    return 0


def demo_script():
    """demo_data/demo.sql with '${DEMO_DIR}' replaced by the demo folder's absolute path, so that
    `dynsql --demo` works from any working directory."""
    text = _read(DEMO_SQL)
    return None if text is None else text.replace("${DEMO_DIR}", os.path.dirname(DEMO_SQL))


def _read(path):
    """A script's text (UTF-8, a byte-order mark dropped); None after an [ERROR] on stderr saying why
    it cannot be read: the system's reason, or where the first byte that is not UTF-8 is."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        print("[ERROR] Cannot read %s: %s" % (path, e.strerror or e), file=sys.stderr)
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[line_start:e.start].decode("utf-8", errors="replace")) + 1
        print("[ERROR] Cannot read %s: it is not UTF-8 text (byte 0x%02x at byte offset %d, line %d, column %d)"
              % (path, data[e.start], e.start, line, column), file=sys.stderr)
        return None


def run_script(client, text, output="tableau", quiet=False):
    """Run every statement; stop at the first error (exit 1). Messages go to stderr in jsonl/csv."""
    from planner.errors import DynsqlError
    from .render import print_result
    from .errors import error_text
    interrupted = {"flag": False}

    def on_sigint(signum, frame):
        interrupted["flag"] = True
    previous = signal.signal(signal.SIGINT, on_sigint)
    out = sys.stdout
    try:
        statements = client.split(text)
        for notice in client.take_notices():    # a stored catalog that could not be registered
            print(notice, file=sys.stderr)
        for stmt in statements:
            try:
                result = client.execute(stmt)
                if quiet and not hasattr(result, "poll"):
                    continue
                print_result(result, out, client.settings, output, stop_check=lambda: interrupted["flag"])
            except Exception as e:  # every failure is reported, never a traceback unless verbose
                print(error_text(e, client.settings.verbose, stmt), file=sys.stderr)
                return 1
            if interrupted["flag"]:
                print("[INFO] Interrupted.", file=sys.stderr)
                return 130
        return 0   # INSERT INTO jobs run on (SET 'table.dml-sync' = 'true' waits for each)
    finally:
        signal.signal(signal.SIGINT, previous)


if __name__ == "__main__":
    sys.exit(main())
