"""The Python processes Spark starts import pyspark from its installed package, not from Spark's zip
(runtime/worker_startup/sitecustomize.py): the installed package's bytecode is cached, the zip's never is."""

import os
import subprocess
import sys

import pyspark

from runtime.session import WORKER_STARTUP

SPARK_LIB = os.path.join(os.path.dirname(pyspark.__file__), "python", "lib")


def test_python_workers_import_the_installed_pyspark(spark):
    where = spark.range(1).rdd.map(lambda _: __import__("pyspark").__file__).collect()
    assert where == [pyspark.__file__]


def run_python(pythonpath, code):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(pythonpath))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.split()


def test_the_zips_leave_the_path_and_a_shadowed_sitecustomize_still_runs(tmp_path):
    (tmp_path / "sitecustomize.py").write_text("import builtins\nbuiltins.SHADOWED_RAN = 'yes'\n")
    zips = sorted(os.path.join(SPARK_LIB, name) for name in os.listdir(SPARK_LIB) if name.endswith(".zip"))
    assert any(z.endswith("pyspark.zip") for z in zips)
    out = run_python(zips + [WORKER_STARTUP, str(tmp_path)],
                     "import sys, pyspark, py4j, builtins\n"
                     "print(pyspark.__file__, py4j.__file__.endswith('.zip'), SHADOWED_RAN)\n"
                     "print(*[p for p in sys.path if p.startswith(%r)])" % SPARK_LIB)
    assert out == [pyspark.__file__, "False", "yes"]


def test_a_zip_with_no_installed_package_beside_it_stays(tmp_path):
    lonely = tmp_path / "lib" / "pyspark.zip"
    lonely.parent.mkdir()
    lonely.write_bytes(b"")
    out = run_python([str(lonely), WORKER_STARTUP], "import sys\nprint(%r in sys.path)" % str(lonely))
    assert out == ["True"]


def test_the_daemon_that_forks_python_workers_has_loaded_what_they_import(spark):
    """Spark's workers are forked from `python -m pyspark.daemon`, which imported pandas, pyarrow and dynsql's
    operators at its start: a new worker has them loaded (the daemon itself never runs a task)."""
    def daemon_has(_):
        import os
        with open("/proc/%d/maps" % os.getppid()) as f:
            maps = f.read()
        with open("/proc/%d/cmdline" % os.getppid()) as f:
            command = f.read().split("\0")
        return "pyspark.daemon" in command, "/pandas/_libs/" in maps, "/pyarrow/" in maps

    assert spark.range(1).rdd.map(daemon_has).collect() == [(True, True, True)]
