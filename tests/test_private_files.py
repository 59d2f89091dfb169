"""What another local user must not do to a dynsql session: plant a working folder (and a packages zip in it) that
dynsql trusts, point its log at another file through a symlink, read its folders, or reach the JVM's ports from
another machine."""

import os
import subprocess
import sys

import pytest

from runtime.private_files import UnsafeFolder, open_private, private_folder
from runtime.session import listen_settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OTHER_USER = 65534      # nobody


def test_a_new_folder_is_owner_only(tmp_path):
    folder = private_folder(str(tmp_path / "work"))
    assert os.stat(folder).st_mode & 0o777 == 0o700


def test_an_open_folder_of_ones_own_is_closed(tmp_path):
    folder = tmp_path / "work"
    folder.mkdir(mode=0o777)
    os.chmod(folder, 0o777)
    private_folder(str(folder))
    assert os.stat(folder).st_mode & 0o777 == 0o700


def test_a_symlinked_folder_is_refused(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", tmp_path / "work")
    with pytest.raises(UnsafeFolder, match="symbolic link"):
        private_folder(str(tmp_path / "work"))


@pytest.mark.skipif(os.getuid() != 0, reason="making a folder of another user needs root")
def test_another_users_folder_is_refused(tmp_path):
    folder = tmp_path / "work"
    folder.mkdir()
    os.chown(folder, OTHER_USER, OTHER_USER)
    with pytest.raises(UnsafeFolder, match="another user"):
        private_folder(str(folder))


def test_a_private_file_is_owner_only_and_never_written_through_a_link(tmp_path):
    with open_private(str(tmp_path / "spark.log")) as f:
        f.write(b"one\n")
    with open_private(str(tmp_path / "spark.log")) as f:
        f.write(b"two\n")
    assert (tmp_path / "spark.log").read_bytes() == b"one\ntwo\n"
    assert os.stat(tmp_path / "spark.log").st_mode & 0o777 == 0o600
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    os.symlink(victim, tmp_path / "linked.log")
    with pytest.raises(OSError):
        open_private(str(tmp_path / "linked.log"))
    assert victim.read_text() == "mine\n"


@pytest.mark.skipif(os.getuid() != 0, reason="planting a folder of another user needs root")
def test_a_planted_working_folder_is_not_used(tmp_path):
    """Another user created $TMPDIR/dynsql-<uid> first and put a packages zip in it: dynsql works in a private
    folder of its own, and the zip it ships is the one it built."""
    planted = tmp_path / ("dynsql-%d" % os.getuid())
    planted.mkdir(mode=0o777)
    os.chmod(planted, 0o777)
    os.chown(planted, OTHER_USER, OTHER_USER)
    code = ("import os, zipfile; from runtime.session import log_dir, package_zip; z = package_zip(); "
            "print(log_dir()); print(z); print(oct(os.stat(log_dir()).st_mode & 0o777)); "
            "print('runtime/session.py' in zipfile.ZipFile(z).namelist())")
    env = dict(os.environ, TMPDIR=str(tmp_path), PYTHONPATH=ROOT)
    env.pop("DYNSQL_LOG_DIR", None)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    folder, zip_path, mode, has_session = out
    assert folder != str(planted) and os.path.dirname(folder) == str(tmp_path)
    assert zip_path.startswith(folder + os.sep)
    assert mode == "0o700" and has_session == "True"
    assert os.listdir(planted) == []


def _zip_of_runtime(path, who):
    """A stand-in for dynsql's packages zip: a `runtime` package that says whose it is."""
    import zipfile
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("runtime/__init__.py", "WHO = %r\n" % who)
    return path


def _connect_worker_loads(tmp_path, package):
    """What a Spark Connect server's Python worker does with a source shim: in a process that cannot import
    dynsql, unpickle the loader the client shipped by value and call it; its temporary folder is tmp/local.
    -> (return code, whose `runtime` it imported or the error)."""
    import pyspark
    from pyspark import cloudpickle

    from runtime.connect_shims import _loaders
    shipped = tmp_path / "loader.pickle"
    shipped.write_bytes(cloudpickle.dumps(_loaders(package)[0]))
    code = ("import sys; from pyspark import cloudpickle; cloudpickle.loads(open(sys.argv[1], 'rb').read())(); "
            "import runtime; print(runtime.WHO)")
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": os.path.dirname(os.path.dirname(pyspark.__file__)),
           "SPARK_LOCAL_DIRS": str(tmp_path / "local"), "TMPDIR": str(tmp_path / "local")}
    out = subprocess.run([sys.executable, "-S", "-c", code, str(shipped)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    return out.returncode, (out.stdout.strip() or out.stderr.strip().splitlines()[-1])


def test_a_connect_worker_imports_only_the_zip_the_client_shipped(tmp_path):
    """Under Spark Connect a shim finds dynsql's packages among the server's files by the zip's name, which anyone
    can compute: a zip of that name planted by another user, or holding other bytes, is never imported, even
    where it sorts first; the one with the shipped bytes is."""
    import hashlib
    name = "dynsql-packages-0123.zip"
    ours = _zip_of_runtime(tmp_path / "built" / name, "shipped")
    package = (name, hashlib.sha256(ours.read_bytes()).hexdigest())
    (tmp_path / "local").mkdir()
    _zip_of_runtime(tmp_path / "local" / "spark-a" / "userFiles-a" / "s1" / name, "planted")
    if os.getuid() == 0:             # the shipped bytes, but another user's file
        theirs = tmp_path / "local" / "spark-a" / "userFiles-a" / "s0" / name
        theirs.parent.mkdir()
        theirs.write_bytes(ours.read_bytes())
        os.chown(theirs, OTHER_USER, OTHER_USER)
    code, said = _connect_worker_loads(tmp_path, package)
    assert code != 0 and said == ("ImportError: dynsql's packages (%s, as this client shipped them) are not in the "
                                  "Spark Connect server's files: the session's artifacts did not arrive" % name)
    placed = tmp_path / "local" / "spark-b" / "userFiles-b" / "s2" / name
    placed.parent.mkdir(parents=True)
    placed.write_bytes(ours.read_bytes())
    assert _connect_worker_loads(tmp_path, package) == (0, "shipped")


def test_the_driver_listens_on_loopback_unless_the_cluster_is_elsewhere():
    assert listen_settings("local[2]", {}) == {"spark.driver.bindAddress": "127.0.0.1",
                                               "spark.driver.host": "127.0.0.1"}
    assert listen_settings("spark://127.0.0.1:7077", {})["spark.driver.host"] == "127.0.0.1"
    assert listen_settings("spark://localhost:7077", {})["spark.driver.bindAddress"] == "127.0.0.1"
    assert listen_settings("spark://192.0.2.10:7077", {}) == {}      # executors there connect back
    assert listen_settings("yarn", {}) == {}
    assert listen_settings("local[2]", {"spark.driver.host": "10.0.0.5"}) == {"spark.driver.bindAddress": "127.0.0.1"}


def _listening_sockets(pid):
    """{port: [local address (hex, as /proc/net/tcp{,6} gives it)]} of the sockets process `pid` listens on."""
    inodes = set()
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    found = {}
    for table in ("/proc/%d/net/tcp" % pid, "/proc/%d/net/tcp6" % pid):
        with open(table) as f:
            for line in f.readlines()[1:]:
                cols = line.split()
                address, hex_port = cols[1].split(":")
                if cols[3] == "0A" and cols[9] in inodes:
                    found.setdefault(int(hex_port, 16), []).append(address)
    return found


def test_the_sessions_ports_take_no_connection_from_another_machine(spark):
    """Every port the session's JVM listens on (the driver's RPC, its block manager, py4j) is bound to loopback."""
    sc = spark.sparkContext
    listening = _listening_sockets(sc._gateway.proc.pid)
    assert int(sc.getConf().get("spark.driver.port")) in listening
    assert len(listening) >= 2, listening
    for port, addresses in listening.items():
        assert all(a in ("0100007F", "0000000000000000FFFF00000100007F") for a in addresses), (port, addresses)


def test_secrets_are_masked_in_statements_and_settings():
    from runtime.redaction import MASK, redact_conf, redact_statement
    assert redact_statement("SET 'fs.s3a.secret.key' = 'abc''d'") == "SET 'fs.s3a.secret.key' = '%s'" % MASK
    assert redact_statement("SET spark.hadoop.fs.s3a.access.key = AKIA123") == \
        "SET spark.hadoop.fs.s3a.access.key = '%s'" % MASK
    create = ("CREATE TABLE t (a INT) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://h/db',\n"
              "  'username' = 'me', 'password' = 'hunter2')")
    masked = redact_statement(create)
    assert "hunter2" not in masked and "'username' = 'me'" in masked and "'url' = 'jdbc:postgresql://h/db'" in masked
    assert redact_statement("SET 'parallelism.default' = '2'") == "SET 'parallelism.default' = '2'"
    assert redact_conf({"spark.app.name": "x", "spark.hadoop.fs.s3a.secret.key": "s",
                        "sql-client.token": "t"}) == {"spark.app.name": "x", "spark.hadoop.fs.s3a.secret.key": MASK,
                                                      "sql-client.token": MASK}


def test_a_jobs_record_is_owner_only_and_masks_its_secrets(tmp_path):
    """job.json masks the secret; the job still gets the statements as typed (secrets.json, owner-only)."""
    from runtime.job_registry import JobRecord, JobRegistry
    registry = JobRegistry(str(tmp_path / "jobs"))
    statements = ["SET 'fs.s3a.secret.key' = 'top-secret'", "CREATE TABLE t (a INT) WITH ('connector' = 'blackhole')"]
    registry.create(JobRecord(id="j1", name="insert-into_t", inserts=["INSERT INTO t SELECT 1"],
                              statements=statements, conf={"spark.hadoop.fs.s3a.secret.key": "top-secret-2"}))
    registry.update("j1", status="RUNNING")
    for path in (tmp_path / "jobs", tmp_path / "jobs" / "j1"):
        assert os.stat(path).st_mode & 0o777 == 0o700
    for name in ("job.json", "secrets.json"):
        assert os.stat(tmp_path / "jobs" / "j1" / name).st_mode & 0o777 == 0o600
    assert "top-secret" not in (tmp_path / "jobs" / "j1" / "job.json").read_text()
    record = registry.get("j1")
    assert record.statements == statements and record.status == "RUNNING"
    assert record.conf == {"spark.hadoop.fs.s3a.secret.key": "top-secret-2"}


def test_the_history_file_masks_secrets_and_is_owner_only(tmp_path):
    from repl.shell import PrivateHistory
    path = tmp_path / "history"
    path.write_text("")
    os.chmod(path, 0o644)
    history = PrivateHistory(str(path))
    assert os.stat(path).st_mode & 0o777 == 0o600
    history.append_string("SET 'sink.password' = 'hunter2';")
    history.append_string("SELECT 1;")
    text = path.read_text()
    assert "hunter2" not in text and "+SELECT 1;" in text and "'sink.password' = '******'" in text
    assert list(history.get_strings())[-2] == "SET 'sink.password' = 'hunter2';"    # this session's, as typed


def test_a_secret_setting_reaches_spark_but_not_the_jvms_command_line():
    code = ("from runtime.session import SparkRuntime\n"
            "rt = SparkRuntime(master='local[1]', conf={'spark.hadoop.fs.s3a.secret.key': 'sEcReT-42'}).start()\n"
            "sc = rt.session().sparkContext\n"
            "print(sc.getConf().get('spark.hadoop.fs.s3a.secret.key'))\n"
            "print('sEcReT-42' in open('/proc/%d/cmdline' % sc._gateway.proc.pid, 'rb').read().decode())\n"
            "rt.stop()\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                         capture_output=True, text=True, timeout=300)
    assert out.stdout.split() == ["sEcReT-42", "False"], out.stdout + out.stderr[-2000:]
