"""A throwaway PostgreSQL server for the JDBC connector's tests and the demo: `initdb` and `pg_ctl` from Debian's
`postgresql` package in a temporary folder, on a free port of 127.0.0.1, with a user `dynsql` whose password is
checked (scram-sha-256), stopped (and its folder removed) by `stop()`. As root, the server runs as the
`postgres` user (initdb refuses root). `make postgres` installs the packages where they are missing."""

import glob
import os
import re
import shutil
import socket
import subprocess
import tempfile

USER = "dynsql"
PASSWORD = "pg-s3cret-pw"


def postgres_bin(name):
    found = shutil.which(name) or sorted(glob.glob("/usr/lib/postgresql/*/bin/" + name))[-1:]
    if not found:
        raise RuntimeError("PostgreSQL's %s is missing: run `make postgres` (apt-get install postgresql)" % name)
    return found if isinstance(found, str) else found[0]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="dynsql-pg-")
        os.chmod(self.folder, 0o755)
        self.data = os.path.join(self.folder, "data")
        self.port = None
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    @property
    def url(self):
        return "jdbc:postgresql://127.0.0.1:%d/postgres" % self.port

    def start(self):
        pwfile = os.path.join(self.folder, "pw")
        with open(pwfile, "w") as f:
            f.write(PASSWORD + "\n")
        if self.as_user:
            shutil.chown(self.folder, "postgres")
            shutil.chown(pwfile, "postgres")
        self._run([postgres_bin("initdb"), "-D", self.data, "-U", USER, "--pwfile=" + pwfile, "-A", "scram-sha-256",
                   "-E", "UTF8", "--no-sync"])
        os.remove(pwfile)
        return self._start()

    def _start(self):
        self.port = self.port or _free_port()
        self._run([postgres_bin("pg_ctl"), "-D", self.data, "-w", "-l", self.log_path,
                   "-o", "-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50"
                   % (self.port, self.folder), "start"])
        return self

    def restart(self):
        """Start again on the same port after `halt`."""
        return self._start()

    def halt(self):
        """Stop the server at once (as a crash would), keeping its data."""
        self._run([postgres_bin("pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop"], check=False)

    def stop(self):
        if os.path.isdir(self.data):
            self.halt()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _run(self, cmd, check=True):
        r = subprocess.run(self.as_user + cmd, capture_output=True, text=True)
        if check and r.returncode != 0:
            raise RuntimeError("%s failed: %s%s" % (os.path.basename(cmd[0]), r.stdout, r.stderr))
        return r

    @property
    def log_path(self):
        return os.path.join(self.folder, "server.log")

    def log_statements(self, on=True):
        """Log every statement the server runs (log_statement = 'all', sessions already open included), or stop.
        -> the log's size now: `logged_statements` reads from there."""
        self.psql("ALTER SYSTEM SET log_statement = '%s'" % ("all" if on else "none"))
        self.psql("SELECT pg_reload_conf()")
        return os.path.getsize(self.log_path)

    def logged_statements(self, since=0):
        """The statements the server logged from byte `since` of its log on (simple and extended protocol)."""
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            f.seek(since)
            text = f.read()
        return re.findall(r"LOG:\s+(?:statement|execute [^:]*):\s(.*)", text)

    def psql(self, sql):
        """Run SQL with psql -> its rows as lists of text (tab-separated, unaligned)."""
        env = dict(os.environ, PGPASSWORD=PASSWORD)
        r = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, "-d", "postgres",
                            "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                           capture_output=True, text=True, env=env)
        if r.returncode != 0:
            raise RuntimeError("psql: " + r.stderr)
        return [line.split("\t") for line in r.stdout.splitlines() if line]
