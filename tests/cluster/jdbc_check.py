"""The `jdbc` connector where the executors cannot see the checkout (`make connect-jdbc`, and part of `make
cluster-test`): a throwaway PostgreSQL (tests/postgres_server.py) and one dynsql script, through a Spark Connect
server (`--remote`) or on a standalone cluster (`--master spark://...`), that reads a table partitioned in
streaming and batch mode, writes an updating query with deletes into an upsert sink and a GROUP BY into another
(INSERT INTO jobs, table.dml-sync), and joins a file with a table looked up by key through the partial cache.
Spark's JDBC reader and writer run in the server's or the executors' JVMs (PostgreSQL's driver jar on their
classpath: the Connect server's `--jars`, the cluster's `spark.jars` from the session), the lookups in their
Python workers and, through Connect, the sink's transaction in the server's foreachBatch process, with pg8000
from the zip of dynsql's packages (their Python has none). The rows are asserted from the script's output and
with psql."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))     # tests/: postgres_server

from postgres_server import PASSWORD, USER, PostgresServer  # noqa: E402
from test_jdbc import CHANGES  # noqa: E402   a debezium-json changelog: inserts, an update, a delete


SCRIPT = """
CREATE TABLE items (id INT, name STRING, amount DECIMAL(10, 2)) WITH (%(jdbc)s, 'table-name' = 'items',
  'scan.partition.column' = 'id', 'scan.partition.num' = '2', 'scan.partition.lower-bound' = '1',
  'scan.partition.upper-bound' = '10', 'scan.fetch-size' = '3');
CREATE TABLE products (id INT, name STRING, price INT, PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'filesystem', 'path' = '%(d)s/changes.json', 'format' = 'debezium-json');
CREATE TABLE orders (oid INT, product STRING, qty INT, cur STRING, proc AS PROCTIME()) WITH (
  'connector' = 'filesystem', 'path' = '%(d)s/orders.csv', 'format' = 'csv');
CREATE TABLE prices (id INT, name STRING, price INT, PRIMARY KEY (id) NOT ENFORCED) WITH (%(jdbc)s,
  'table-name' = 'prices');
CREATE TABLE totals (product STRING, qty BIGINT, n BIGINT, PRIMARY KEY (product) NOT ENFORCED) WITH (%(jdbc)s,
  'table-name' = 'totals', 'sink.buffer-flush.max-rows' = '2');
CREATE TABLE rates (cur STRING, rate INT) WITH (%(jdbc)s, 'table-name' = 'rates', 'lookup.cache' = 'PARTIAL',
  'lookup.partial-cache.max-rows' = '10', 'lookup.partial-cache.expire-after-write' = '1 min');
SELECT 'scan' AS q, id, name, amount FROM items WHERE id > 8;
SELECT 'lookup' AS q, o.oid, o.qty * r.rate AS converted FROM orders AS o
  LEFT JOIN rates FOR SYSTEM_TIME AS OF o.proc AS r ON o.cur = r.cur;
SET 'table.dml-sync' = 'true';
INSERT INTO prices SELECT * FROM products;
INSERT INTO totals SELECT product, SUM(qty), COUNT(*) FROM orders GROUP BY product;
SET 'execution.runtime-mode' = 'batch';
SELECT 'batch' AS q, COUNT(*) AS c, SUM(id) AS s, SUM(amount) AS a FROM items;
"""

EXPECTED_OUTPUT = sorted([["scan", 9, "n9", "11.25"], ["scan", 10, "n10", "12.50"],
                          ["lookup", 1, 1100], ["lookup", 2, None], ["lookup", 3, 550], ["lookup", 4, 1],
                          ["lookup", 5, None], ["batch", 10, 55, "68.75"]], key=str)
EXPECTED_TABLES = {"SELECT * FROM prices ORDER BY id": [["1", "apple", "15"], ["3", "plum", "30"]],
                   "SELECT * FROM totals ORDER BY product": [["apple", "15", "2"], ["pear", "4", "2"],
                                                            ["plum", "1", "1"]]}


def prepare(server, folder):
    server.psql("CREATE TABLE items (id INT, name TEXT, amount NUMERIC(10, 2));"
                "INSERT INTO items SELECT i, 'n' || i, i * 1.25 FROM generate_series(1, 10) i;"
                "CREATE TABLE prices (id INT PRIMARY KEY, name TEXT, price INT);"
                "CREATE TABLE totals (product TEXT PRIMARY KEY, qty BIGINT, n BIGINT);"
                "CREATE TABLE rates (cur TEXT PRIMARY KEY, rate INT); INSERT INTO rates VALUES ('EUR', 110), "
                "('JPY', 1)")
    with open(os.path.join(folder, "changes.json"), "w") as f:
        f.write("\n".join(CHANGES) + "\n")
    with open(os.path.join(folder, "orders.csv"), "w") as f:     # USD and CHF: no rate (LEFT JOIN: NULL)
        f.write("1,apple,10,EUR\n2,pear,1,USD\n3,apple,5,EUR\n4,plum,1,JPY\n5,pear,3,CHF\n")
    jdbc = ("'connector' = 'jdbc', 'url' = '%s', 'username' = '%s', 'password' = '%s'" % (server.url, USER, PASSWORD))
    with open(os.path.join(folder, "jdbc.sql"), "w") as f:
        f.write(SCRIPT % {"jdbc": jdbc, "d": folder})


def jdbc_check(dynsql_command, dynsql_args, folder, label, log=print):
    """Run the script with `dynsql_command` + `dynsql_args` (`--remote sc://...` or `--master spark://...`)
    against a throwaway PostgreSQL -> True when its rows, and the tables the sinks wrote, are the expected ones and
    the password is in no output."""
    os.makedirs(folder, exist_ok=True)
    server = PostgresServer().start()
    try:
        prepare(server, folder)
        proc = subprocess.run(list(dynsql_command) + list(dynsql_args) + [
            "--output", "jsonl", "-D", "dynsql.jobs.dir=%s/jobs" % folder, "-f", "jdbc.sql"],
            capture_output=True, text=True, cwd=folder, timeout=1800)
        rows = sorted((json.loads(line)["row"] for line in proc.stdout.splitlines() if line.startswith("{")),
                      key=str)
        tables = {sql: server.psql(sql) for sql in EXPECTED_TABLES}
    finally:
        server.stop()
    problems = []
    if proc.returncode != 0:
        problems.append("exit %d: %s" % (proc.returncode, proc.stderr[-1500:]))
    if rows != EXPECTED_OUTPUT:
        problems.append("rows %s, expected %s" % (rows, EXPECTED_OUTPUT))
    problems += ["%s: %s, expected %s" % (sql, tables[sql], want) for sql, want in EXPECTED_TABLES.items()
                 if tables[sql] != want]
    if PASSWORD in proc.stdout + proc.stderr:
        problems.append("the password is in the output")
    log("%s: jdbc (scan, upsert sinks, lookup join) %s" % (label, "ok" if not problems else "FAILED: "
                                                          + "; ".join(problems)))
    return not problems
