"""Starting a job, detached from the session that submits it (quitting or killing the shell leaves the job
running):

- local masters and Spark standalone: handed to a job host (job_host.py), a long-lived process on this machine
  whose one JVM runs several jobs, each on a SparkSession of its own; the host is started when none lives.
  Spark standalone runs Python applications in client deploy mode only, so there too the job's driver runs
  here, detached.
- Spark Connect: a process of its own on this machine (its own session, its output in the job's output.log)
  that re-plans the job's statements and runs them.
- YARN and Kubernetes: `spark-submit --deploy-mode cluster` with dynsql's packages as --py-files; the job's
  driver runs in the cluster and must see the job registry's folder (a shared filesystem).

`entry` is the command that runs one job given its folder (the repl's `dynsql --job-run`): the runtime
does not know the command line. Does not plan or run anything itself (job_run.py runs a job)."""

import os
import shlex
import subprocess
import sys
import threading

from .job_host import hand_over, hosted
from .private_files import open_private

STANDALONE_NOTE = ("Spark standalone runs Python applications in client deploy mode only: the job's driver runs "
                   "detached on this machine")


def cluster_deploy(master):
    """True when the master runs a Python driver in the cluster (spark-submit --deploy-mode cluster)."""
    return bool(master) and (master.startswith("yarn") or master.startswith("k8s://"))


def launch(registry, record, entry):
    """Start the job of `record` (already in the registry); its record gets the pid. -> (pid, note for the user
    or None)."""
    folder = registry.folder(record.id)
    if hosted(record):
        # the repl's command with --job-host in place of --job-run: a host process given its folder
        pid = hand_over(registry, record, list(entry[:-1]) + ["--job-host"])
        return pid, STANDALONE_NOTE if (record.master or "").startswith("spark://") else None
    if cluster_deploy(record.master):
        command = spark_submit_command(record, folder, entry)
        note = "the job's driver runs in the cluster (spark-submit --deploy-mode cluster)"
    else:
        command = list(entry) + [folder]
        note = STANDALONE_NOTE if (record.master or "").startswith("spark://") else None
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"
    with open_private(registry.output(record.id)) as out:
        out.write(("\n--- %s\n" % " ".join(shlex.quote(c) for c in command)).encode())
        out.flush()
        process = subprocess.Popen(command, cwd=record.cwd or None, stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True, env=env)
    # reap it when it ends while this session still runs (no zombie); after the session it belongs to init
    threading.Thread(target=process.wait, name="dynsql-job-reaper", daemon=True).start()
    registry.update(record.id, pid=process.pid, job_host=None)
    return process.pid, note


def spark_submit_command(record, folder, entry):
    """spark-submit of the job's driver (YARN / Kubernetes, cluster deploy mode)."""
    from .session import package_zip, spark_home
    driver = os.path.join(folder, "driver.py")
    with open_private(driver, "w") as f:
        f.write("import sys\nfrom repl.cli import main\nsys.exit(main(%r + sys.argv[1:]))\n" % list(entry[-1:]))
    command = [os.path.join(spark_home(), "bin", "spark-submit"), "--master", record.master,
               "--deploy-mode", "cluster", "--name", "dynsql-" + record.name, "--py-files", package_zip()]
    for k, v in sorted(record.conf.items()):
        if k.startswith("spark."):
            command += ["--conf", "%s=%s" % (k, v)]
    return command + [driver, folder]


def resume_command(registry_root, job_id, default_root):
    """The shell command that resumes a job from its checkpoint (run in the session's working folder)."""
    command = ["dynsql"]
    if os.path.abspath(registry_root) != os.path.abspath(os.path.expanduser(default_root)):
        command += ["-D", "dynsql.jobs.dir=%s" % registry_root]
    return " ".join(shlex.quote(c) for c in command + ["--resume-job", job_id])
