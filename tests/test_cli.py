"""The `dynsql` command line, spawned for real. Each run with SQL starts Spark (15 s or more), so the
runs are few and each checks several things: -f stops at the first error, -e, --output
tableau|jsonl|csv, -D, --demo from another folder; --version, --help and a bad -D need no Spark. One more
output format is checked through the same entry point (`main`) in this process, on the run's Spark session."""

import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DYNSQL = Path(sys.executable).with_name("dynsql")
COMMAND = [str(DYNSQL)] if DYNSQL.exists() else [sys.executable, "-m", "repl.cli"]


def dynsql(*args, cwd=None, timeout=600):
    return subprocess.run(COMMAND + list(args), capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, cwd=cwd)


def test_version_help_and_a_bad_define(tmp_path):
    from repl import __version__
    out = dynsql("--version", cwd=tmp_path)
    assert out.returncode == 0 and out.stdout.strip() == "dynsql %s" % __version__
    out = dynsql("--help", cwd=tmp_path)
    assert out.returncode == 0
    for flag in ("-f", "-i", "-e", "--output", "--demo", "--master", "--remote", "--resume-job", "-D", "--version",
                 "--conf", "--jars", "--packages", "--py-files"):
        assert flag in out.stdout
    # a --conf key outside spark.* is left out with spark-submit's warning; an unknown spark.* key is passed on
    # (Spark says nothing of it), with a hint when it is close to a key Spark has (-D and SET alike)
    out = dynsql("--conf", "pipeline.name=x", "--conf", "spark.driver.memroy=2g", "-D", "spark.sql.shufle.partitions=3",
                 "--conf", "spark.my.own=1", "--output", "csv", "-e", "SET;", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    warnings = [line for line in out.stderr.splitlines() if not line.startswith("[INFO]")]
    assert warnings == [
        "Warning: Ignoring non-Spark config property: pipeline.name (-D sets dynsql's and Flink's settings)",
        "[WARNING] Spark has no setting 'spark.driver.memroy' (it is passed to Spark, which ignores it): did you "
        "mean 'spark.driver.memory'?",
        "[WARNING] Spark has no setting 'spark.sql.shufle.partitions' (it is passed to Spark, which ignores it): "
        "did you mean 'spark.sql.shuffle.partitions'?"], out.stderr
    listed = dict(csv.reader(out.stdout.splitlines()[1:]))
    assert listed.get("pipeline.name") != "x" and listed["spark.driver.memroy"] == "2g" and listed["spark.my.own"] == "1"
    # spark-submit's flags are Spark settings, listed by SET; (which needs no Spark)
    out = dynsql("--jars", "a.jar,b.jar", "--packages", "org.x:y:1.0", "--py-files", "m.py", "--conf",
                 "spark.jars=c.jar", "--output", "csv", "-e", "SET;", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    listed = dict(csv.reader(out.stdout.splitlines()[1:]))
    assert listed["spark.jars"] == "c.jar,a.jar,b.jar" and listed["spark.jars.packages"] == "org.x:y:1.0"
    assert listed["spark.submit.pyFiles"] == str(tmp_path / "m.py")
    out = dynsql("-D", "no-equals-sign", "-e", "SELECT 1;", cwd=tmp_path)
    assert out.returncode != 0 and "key=value" in out.stderr and out.stdout == ""
    out = dynsql("--output", "xml", "-e", "SELECT 1;", cwd=tmp_path)
    assert out.returncode != 0 and "xml" in out.stderr
    # a -D key of Flink's that means nothing on Spark warns as SET of it does; a script names its Spark log
    out = dynsql("-D", "table.optimizer.join-reorder-enabled=true", "--output", "jsonl", "-e",
                 "SET 'pipeline.name' = 'x';", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert ("[WARNING] 'table.optimizer.join-reorder-enabled' is a Flink option that has no effect in dynsql: "
            "Spark's optimizer plans the query (spark.sql.* keys tune it).") in out.stderr.splitlines()
    assert "WARNING" not in out.stdout and "Spark log" not in out.stdout
    log = re.search(r"^\[INFO\] Spark log: (/\S+/spark-\d{8}-\d{6}-(\d+)\.log)$", out.stderr, re.M)
    assert log, out.stderr


def test_script_stops_at_the_first_error(tmp_path):
    (tmp_path / "a.csv").write_text("1,one\n2,two\n")
    script = tmp_path / "script.sql"
    script.write_text("""-- a streaming query, then a bad one, then one that must not run
CREATE TABLE a (n INT, word STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');
SELECT n, UPPER(word) AS w FROM a;
SELECT nope
  FROM a;
SELECT 'never' AS x;
""" % (tmp_path / "a.csv"))
    out = dynsql("-f", str(script), cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    # Flink's tableau layout for a streaming query: the op column, then the total
    assert "| op |" in out.stdout.replace("  ", " ") or "op" in out.stdout.splitlines()[1]
    assert "| +I |" in out.stdout and "ONE" in out.stdout and "TWO" in out.stdout
    assert "Received a total of 2 rows" in out.stdout
    assert "never" not in out.stdout
    errors = [line for line in out.stderr.splitlines() if line.startswith("[ERROR]")]
    assert len(errors) == 1 and "nope" in errors[0], out.stderr
    assert "Traceback" not in out.stderr
    # the log named at start is the one this run's Spark wrote
    log = re.search(r"^\[INFO\] Spark log: (\S+)$", out.stderr, re.M).group(1)
    assert os.path.getsize(log) > 0 and "log4j" in open(log, errors="replace").read()


@pytest.mark.slow       # 22 s here: `make test-slow` (make test within 25 min on a slow CI machine)
def test_jsonl_csv_define_and_demo_from_another_folder(tmp_path, spark_runtime, capsys, monkeypatch):
    sql = ("SELECT symbol, COUNT(*) AS n, MAX(price) AS hi FROM Ticker GROUP BY symbol; "
           "SELECT `user`, COUNT(*) AS n FROM clicks WHERE `user` = 'Liz' GROUP BY `user`;")
    out = dynsql("--demo", "--output", "jsonl", "-D", "execution.runtime-mode=batch", "-e", sql, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert [json.loads(line) for line in out.stdout.splitlines()] == [
        {"op": "+I", "row": ["ACME", 11, 25]}, {"op": "+I", "row": ["Liz", 1]}], out.stdout
    # --output csv through the command line's own entry point, in this process: its Spark is the run's shared
    # session (a dynsql process of its own started a JVM for it, 15 s or more; the run above is the process)
    from repl.cli import main
    monkeypatch.chdir(tmp_path)
    spark_runtime.session()
    code = main(["--output", "csv", "-D", "execution.runtime-mode=batch",
                 "-e", "SELECT 'a,b' AS s, 1 AS n, CAST(NULL AS INT) AS z;"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert out.out.splitlines()[:2] == ["s,n,z", '"a,b",1,'], out.out


@pytest.mark.parametrize("flag,url,what", [("--remote", "sc://127.0.0.1:%d", "the Spark Connect server"),
                                           ("--master", "spark://127.0.0.1:%d", "the Spark master")])
def test_an_unreachable_cluster_fails_at_once_with_the_cause(tmp_path, flag, url, what):
    """No JVM is started for a master or Connect server that takes no connection: the error names it and why,
    within seconds (Spark retried for minutes, a Connect client waited forever)."""
    import socket
    import time
    with socket.socket() as s:          # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.time()
    out = dynsql(flag, url % port, "-e", "SELECT 1", cwd=tmp_path, timeout=120)
    assert out.returncode != 0
    assert "Cannot reach %s at 127.0.0.1:%d (Connection refused)" % (what, port) in out.stderr
    assert "Java" not in out.stderr and time.time() - started < 30
