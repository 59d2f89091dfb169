"""The shell as a Spark user runs it, in a pseudo-terminal: its Spark log named at start, the Spark UI on (on
loopback only) with its address on the status line (tests/repl/test_toolbar.py) and from SHOW SPARK UI, spark-defaults.conf from $SPARK_CONF_DIR under --conf,
--py-files passed to Spark, and `SET;` listing the --conf keys. What Spark took is read back from the UI's own
REST API."""

import json
import os
import sys
import urllib.request
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

DYNSQL = Path(sys.executable).with_name("dynsql")
PROMPT = "Flink SQL>"


def listening_addresses(port):
    """The local addresses (hex, as /proc/net/tcp writes them) of the sockets listening on `port`."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, state = row.split()[1], row.split()[3]
            address, _, hex_port = local.rpartition(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.append(address)
    return found


@pytest.mark.slow       # 20 s here: `make test-slow` (make test within 25 min on a slow CI machine)
def test_spark_ui_log_and_settings_as_spark_users_expect(tmp_path):
    conf_dir = tmp_path / "conf"
    conf_dir.mkdir()
    (conf_dir / "spark-defaults.conf").write_text(
        "# as spark-submit reads it\nspark.app.name   from-spark-defaults\nspark.sql.shuffle.partitions=5\n")
    shipped = tmp_path / "shipped.py"
    shipped.write_text("X = 1\n")
    env = dict(os.environ, SPARK_CONF_DIR=str(conf_dir), DYNSQL_HISTORY=str(tmp_path / "history"),
               PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm-256color", COLUMNS="200", LINES="40")
    env.pop("SPARK_LOCAL_IP", None)
    command = str(DYNSQL) if DYNSQL.exists() else sys.executable
    args = ([] if DYNSQL.exists() else ["-m", "repl.cli"]) + [
        "--conf", "spark.sql.shuffle.partitions=3", "--py-files", str(shipped)]
    child = pexpect.spawn(command, args, cwd=str(tmp_path), env=env, encoding="utf-8", dimensions=(40, 200),
                          timeout=300)
    try:
        child.expect(r"\[INFO\] Spark log: (\S+)", timeout=30)
        log = child.match.group(1)
        assert log.endswith("-%d.log" % child.pid)        # this process's own
        child.expect(PROMPT, timeout=30)
        child.send("SHOW SPARK UI;\r")       # waits for Spark (the status line shows the address as well)
        child.expect(r"(http://127\.0\.0\.1:(\d+))\s*\|\s*(\S+)")
        url, port = child.match.group(1), int(child.match.group(2))
        assert child.match.group(3) == log and os.path.exists(log)
        child.expect(PROMPT)
        assert listening_addresses(port) and set(listening_addresses(port)) <= {
            "0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000"}   # 127.0.0.1, ::1
        with urllib.request.urlopen(url + "/api/v1/applications", timeout=180) as r:
            [app] = json.load(r)
        assert app["name"] == "from-spark-defaults"
        with urllib.request.urlopen(url + "/api/v1/applications/%s/environment" % app["id"], timeout=180) as r:
            spark = dict(json.load(r)["sparkProperties"])
        assert spark["spark.sql.shuffle.partitions"] == "3"          # --conf over spark-defaults.conf
        assert spark["spark.submit.pyFiles"].endswith("shipped.py")
        assert spark["spark.ui.enabled"] == "true"

        child.send("SET;\r")                   # its rows in key order
        child.expect(r"spark\.sql\.shuffle\.partitions\s*\|\s*3\s*\|")
        child.expect(r"spark\.submit\.pyFiles\s*\|\s*\S*shipped\.py")
        child.expect(PROMPT)
        child.send("QUIT;\r")
        child.expect(pexpect.EOF, timeout=60)
    finally:
        if child.isalive():
            child.terminate(force=True)
