"""What a cluster run is given, without a cluster: the executors' Python (`spark.pyspark.python` from -D or
spark-defaults.conf, else $PYSPARK_PYTHON, else this Python only for a local master), the zip of dynsql's
packages that goes to executors, and the command a YARN / Kubernetes job is submitted with."""

import os
import subprocess
import sys
import zipfile
from importlib.metadata import version

from runtime.job_launch import cluster_deploy, spark_submit_command
from runtime.job_registry import JobRecord
from runtime.session import executor_python, package_zip


def test_the_executors_python():
    assert executor_python("spark://h:7077", "/opt/py/bin/python", {"PYSPARK_PYTHON": "/x"}) == "/opt/py/bin/python"
    assert executor_python("spark://h:7077", None, {"PYSPARK_PYTHON": "/x"}) == "/x"
    assert executor_python("spark://h:7077", None, {}) is None        # Spark's default on the workers
    assert executor_python("yarn", None, {}) is None
    assert executor_python("local[2]", None, {}) == sys.executable    # local executors run beside the driver


def test_the_package_zip_holds_dynsql_sqlglot_and_pg8000(tmp_path):
    path = package_zip()
    names = zipfile.ZipFile(path).namelist()
    for module in ("runtime/engine.py", "runtime/sinks/filesystem.py", "planner/expr/types.py", "repl/cli.py",
                   "sqlglot/__init__.py", "pg8000/dbapi.py", "scramp/core.py", "asn1crypto/pem.py"):
        assert module in names
    assert not any("__pycache__" in n for n in names)
    assert package_zip() == path       # named by its content: built once
    # a Python that has only the zip (and the standard library, dateutil: pandas brings it) imports pg8000 from
    # it, and the version pg8000 reads of itself from its METADATA
    import dateutil
    (tmp_path / "dateutil").symlink_to(os.path.dirname(dateutil.__file__))
    code = "import sys; sys.path.insert(0, sys.argv[1]); import pg8000.dbapi, pg8000.core; print(pg8000.core.ver)"
    r = subprocess.run([sys.executable, "-S", "-c", code, path], capture_output=True, text=True,
                       env={"PYTHONPATH": str(tmp_path)})
    assert r.returncode == 0 and r.stdout.strip() == version("pg8000"), r.stderr


def test_cluster_deploy_mode_is_for_yarn_and_kubernetes(tmp_path):
    assert cluster_deploy("yarn") and cluster_deploy("k8s://https://h:6443")
    assert not cluster_deploy("spark://h:7077") and not cluster_deploy("local[2]") and not cluster_deploy(None)
    record = JobRecord(id="j1", name="insert-into_x", inserts=[], statements=[], conf={"spark.executor.memory": "2g",
                       "table.dml-sync": "true"}, master="yarn")
    command = spark_submit_command(record, str(tmp_path), ["python", "-m", "repl.cli", "--job-run"])
    assert command[1:5] == ["--master", "yarn", "--deploy-mode", "cluster"]
    assert "--py-files" in command and command[command.index("--py-files") + 1].endswith(".zip")
    assert ["--conf", "spark.executor.memory=2g"] == command[command.index("--conf"):command.index("--conf") + 2]
    assert command[-2:] == [os.path.join(str(tmp_path), "driver.py"), str(tmp_path)]
    assert "main(['--job-run'] + sys.argv[1:])" in (tmp_path / "driver.py").read_text()
