"""`make demo-jdbc`: a continuous GROUP BY kept in PostgreSQL. Starts a throwaway server (tests/postgres_server.py),
runs a dynsql script that writes `SELECT user, COUNT(url) FROM clicks GROUP BY user` into a jdbc table (an
upsert sink) and waits for the job (`table.dml-sync`), shows the table with psql, then reads it back with a
dynsql scan, and stops the server."""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from postgres_server import PASSWORD, USER, PostgresServer  # noqa: E402

SCRIPT = """
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING) WITH (
  'connector' = 'filesystem', 'path' = '%(demo)s/clicks.csv', 'format' = 'csv');
CREATE TABLE user_counts (`user` STRING, cnt BIGINT, PRIMARY KEY (`user`) NOT ENFORCED) WITH (
  'connector' = 'jdbc', 'url' = '%(url)s', 'table-name' = 'user_counts',
  'username' = '%(user)s', 'password' = '%(password)s');
SET 'table.dml-sync' = 'true';
INSERT INTO user_counts SELECT `user`, COUNT(url) FROM clicks GROUP BY `user`;
SET 'execution.runtime-mode' = 'batch';
SELECT * FROM user_counts;
"""


def main():
    server = PostgresServer().start()
    try:
        print("PostgreSQL on %s (user %s)" % (server.url, USER))
        server.psql("CREATE TABLE user_counts (\"user\" TEXT PRIMARY KEY, cnt BIGINT)")
        with tempfile.TemporaryDirectory(prefix="dynsql-jdbc-demo-") as folder:
            script = os.path.join(folder, "demo.sql")
            with open(script, "w") as f:
                f.write(SCRIPT % {"demo": HERE, "url": server.url, "user": USER, "password": PASSWORD})
            print("-- dynsql: INSERT INTO user_counts SELECT user, COUNT(url) FROM clicks GROUP BY user, then a scan")
            subprocess.run([sys.executable, "-m", "repl.cli", "-D", "dynsql.jobs.dir=" + os.path.join(folder, "jobs"),
                            "-f", script, "--output", "tableau"], cwd=ROOT, check=True)
        print("-- psql: SELECT * FROM user_counts ORDER BY \"user\"")
        for row in server.psql("SELECT * FROM user_counts ORDER BY \"user\""):
            print("   " + " | ".join(row))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
