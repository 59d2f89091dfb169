"""The `jdbc` connector against a real PostgreSQL (the `postgres` fixture: a throwaway server), through the
client API: options refused as Flink refuses them, the password kept out of SHOW CREATE TABLE and errors, a scan
in batch and streaming mode (partitioned and not, Flink's PostgreSQL type mapping), and INSERT INTO jobs whose
rows are asserted in the database with psql: an upsert sink taking an updating query with deletes, an append
sink, Flink's refusal of updating input without a primary key."""

import decimal

import pytest

from planner.errors import DynsqlError
from postgres_server import PASSWORD, USER

CHANGES = [   # a debezium-json changelog: inserts, an update, a delete
    '{"before": null, "after": {"id": 1, "name": "apple", "price": 10}, "op": "c"}',
    '{"before": null, "after": {"id": 2, "name": "pear", "price": 20}, "op": "c"}',
    '{"before": null, "after": {"id": 3, "name": "plum", "price": 30}, "op": "c"}',
    '{"before": {"id": 1, "name": "apple", "price": 10}, "after": {"id": 1, "name": "apple", "price": 15}, "op": "u"}',
    '{"before": {"id": 2, "name": "pear", "price": 20}, "after": null, "op": "d"}',
]


def jdbc_table(postgres, name, columns, table_name=None, extra="", password=PASSWORD):
    return ("CREATE TABLE %s (%s) WITH ('connector' = 'jdbc', 'url' = '%s', 'table-name' = '%s', "
            "'username' = '%s', 'password' = '%s'%s)" % (name, columns, postgres.url, table_name or name, USER,
                                                          password, extra))


def stream_rows(client, sql):
    return sorted(tuple(row) for batch in client.execute(sql) for op, row in batch.changes if op == "+I")


def test_options_are_checked_as_flink_checks_them(client, postgres):
    with pytest.raises(DynsqlError) as e:
        client.execute(jdbc_table(postgres, "t", "id INT", extra=", 'scan.fetchsize' = '10'"))
    assert "Unsupported options found for 'jdbc'" in str(e.value) and "scan.fetchsize" in str(e.value)
    assert "scan.fetch-size" in str(e.value)          # among the supported options listed
    with pytest.raises(DynsqlError, match="Missing required options are:\n\ntable-name"):
        client.execute("CREATE TABLE t (id INT) WITH ('connector' = 'jdbc', 'url' = '%s')" % postgres.url)
    with pytest.raises(DynsqlError, match="Either all or none of the following options should be provided"):
        client.execute(jdbc_table(postgres, "t", "id INT", extra=", 'scan.partition.column' = 'id'"))
    with pytest.raises(DynsqlError, match="must not be larger than 'scan.partition.upper-bound'"):
        client.execute(jdbc_table(postgres, "t", "id INT", extra=", 'scan.partition.column' = 'id', "
                                  "'scan.partition.num' = '2', 'scan.partition.lower-bound' = '9', "
                                  "'scan.partition.upper-bound' = '1'"))
    with pytest.raises(DynsqlError, match="The PostgreSQL dialect doesn't support type: MAP<STRING, INT>"):
        client.execute(jdbc_table(postgres, "t", "m MAP<STRING, INT>"))
    with pytest.raises(DynsqlError, match="'lookup.cache' must be 'NONE' or 'PARTIAL'"):
        client.execute(jdbc_table(postgres, "t", "id INT", extra=", 'lookup.cache' = 'ALL'"))
    with pytest.raises(DynsqlError, match="'compatible-mode' = 'mysql' is for databases that emulate another"):
        client.execute(jdbc_table(postgres, "t", "id INT", extra=", 'compatible-mode' = 'mysql'"))
    with pytest.raises(DynsqlError, match="jdbc dialect"):
        client.execute("CREATE TABLE t (id INT) WITH ('connector' = 'jdbc', 'url' = 'jdbc:mysql://h/db', "
                       "'table-name' = 't')")
    client.execute(jdbc_table(postgres, "t", "id INT", extra=", 'lookup.cache' = 'PARTIAL', "
                              "'lookup.partial-cache.max-rows' = '100', 'lookup.partial-cache.expire-after-write' = "
                              "'1 s', 'sink.buffer-flush.max-rows' = '500', 'sink.max-retries' = '2'"))
    shown = client.execute("SHOW CREATE TABLE t").rows[0][0]
    assert "'password' = '******'" in shown and PASSWORD not in shown


def test_scan_in_batch_and_streaming_mode_with_and_without_partitions(client, postgres):
    postgres.psql("DROP TABLE IF EXISTS items; CREATE TABLE items (id INT, name TEXT, amount NUMERIC(10, 2), "
                  "ts TIMESTAMP(3), ok BOOLEAN, d DATE, tags TEXT[], big BIGINT);"
                  "INSERT INTO items SELECT i, 'n' || i, i * 1.25, TIMESTAMP '2024-01-01 00:00:00' + i * "
                  "INTERVAL '1 second', i % 2 = 0, DATE '2024-01-01' + i, ARRAY['a' || i, 'b'], i * 1000000000000 "
                  "FROM generate_series(1, 20) i; INSERT INTO items VALUES (21, NULL, NULL, NULL, NULL, NULL, NULL, "
                  "NULL)")
    columns = ("id INT, name STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3), ok BOOLEAN, d DATE, tags ARRAY<STRING>, "
               "big BIGINT")
    client.execute(jdbc_table(postgres, "items", columns))
    client.execute(jdbc_table(postgres, "parted", columns, "items", ", 'scan.partition.column' = 'id', "
                              "'scan.partition.num' = '3', 'scan.partition.lower-bound' = '1', "
                              "'scan.partition.upper-bound' = '21', 'scan.fetch-size' = '4'"))
    import datetime as dt
    expected = sorted([(i, "n%d" % i, decimal.Decimal(i * 125).scaleb(-2), dt.datetime(2024, 1, 1, 0, 0, i),
                        i % 2 == 0, dt.date(2024, 1, 1) + dt.timedelta(days=i), ["a%d" % i, "b"],
                        i * 1000000000000) for i in range(1, 21)]) + [(21,) + (None,) * 7]
    streamed = stream_rows(client, "SELECT * FROM items")
    assert [tuple(list(v) if isinstance(v, list) else v for v in r) for r in streamed] == expected
    assert stream_rows(client, "SELECT id, big FROM parted WHERE id > 18") == [(19, 19000000000000),
                                                                                (20, 20000000000000), (21, None)]
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    assert sorted(client.execute("SELECT * FROM parted").rows) == [tuple(r) for r in expected]
    assert sorted(client.execute("SELECT ok, COUNT(*) FROM items GROUP BY ok").rows, key=str) == \
        sorted([(False, 10), (True, 10), (None, 1)], key=str)
    frame = client.engine.spark.read.format("jdbc").options(url=postgres.url, dbtable="items", user=USER,
                                                              password=PASSWORD, partitionColumn="id",
                                                              numPartitions="3", lowerBound="1",
                                                              upperBound="21").load()
    assert frame.rdd.getNumPartitions() == 3     # what the scan options make of the read


def test_clear_errors_without_the_password(client, postgres):
    postgres.psql("DROP TABLE IF EXISTS shapes; CREATE TABLE shapes (id INT, p POINT); "
                  "INSERT INTO shapes VALUES (1, POINT(1, 2))")
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    client.execute(jdbc_table(postgres, "wrong", "id INT", "shapes", password="not-the-" + PASSWORD))
    with pytest.raises(DynsqlError) as e:
        client.execute("SELECT * FROM wrong")
    assert "password authentication failed" in str(e.value) and "dynsql" in str(e.value)
    assert PASSWORD not in str(e.value) and "not-the-" not in str(e.value)
    client.execute(jdbc_table(postgres, "shapes", "id INT, p STRING"))
    with pytest.raises(DynsqlError) as e:
        client.execute("SELECT * FROM shapes")
    assert "column 'p' has the PostgreSQL type point" in str(e.value) and PASSWORD not in str(e.value)
    client.execute(jdbc_table(postgres, "missing", "id INT, nope STRING", "shapes"))
    with pytest.raises(DynsqlError, match="column 'nope' is not in the PostgreSQL table 'shapes'"):
        client.execute("SELECT * FROM missing")


@pytest.mark.slow       # 29 s here: `make test-slow` (make test within 25 min on a slow CI machine)
def test_upsert_sink_takes_an_updating_query_with_deletes_and_append_sink_refuses_it(client, postgres, tmp_path):
    (tmp_path / "changes.json").write_text("\n".join(CHANGES) + "\n")
    client.execute("CREATE TABLE products (id INT, name STRING, price INT, PRIMARY KEY (id) NOT ENFORCED) WITH ("
                   "'connector' = 'filesystem', 'path' = '%s', 'format' = 'debezium-json')" % (tmp_path / "changes.json"))
    (tmp_path / "orders.csv").write_text("1,apple,2\n2,pear,1\n3,apple,5\n4,plum,1\n5,pear,3\n")
    client.execute("CREATE TABLE orders (oid INT, product STRING, qty INT) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv')" % (tmp_path / "orders.csv"))
    postgres.psql("DROP TABLE IF EXISTS prices, totals, copied; "
                  "CREATE TABLE prices (id INT PRIMARY KEY, name TEXT, price INT);"
                  "CREATE TABLE totals (product TEXT PRIMARY KEY, qty BIGINT, n BIGINT);"
                  "CREATE TABLE copied (oid INT, product TEXT, qty INT)")
    client.execute(jdbc_table(postgres, "prices", "id INT, name STRING, price INT, PRIMARY KEY (id) NOT ENFORCED"))
    client.execute(jdbc_table(postgres, "totals", "product STRING, qty BIGINT, n BIGINT, PRIMARY KEY (product) "
                              "NOT ENFORCED", extra=", 'sink.buffer-flush.max-rows' = '2'"))
    client.execute(jdbc_table(postgres, "copied", "oid INT, product STRING, qty INT"))
    with pytest.raises(DynsqlError, match="Table sink 'default_catalog.default_database.copied' doesn't support "
                                          "consuming update"):
        client.execute("INSERT INTO copied SELECT MAX(oid), product, SUM(qty) FROM orders GROUP BY product")
    client.execute("SET 'table.dml-sync' = 'true'")
    for insert in ("INSERT INTO prices SELECT * FROM products",
                   "INSERT INTO totals SELECT product, SUM(qty), COUNT(*) FROM orders GROUP BY product",
                   "INSERT INTO copied SELECT * FROM orders WHERE qty > 1"):
        client.execute(insert)
    assert postgres.psql("SELECT * FROM prices ORDER BY id") == [["1", "apple", "15"], ["3", "plum", "30"]]
    assert postgres.psql("SELECT * FROM totals ORDER BY product") == [["apple", "7", "2"], ["pear", "4", "2"],
                                                                      ["plum", "1", "1"]]
    assert postgres.psql("SELECT * FROM copied ORDER BY oid") == [["1", "apple", "2"], ["3", "apple", "5"],
                                                                  ["5", "pear", "3"]]
    # the scan reads back what the sinks wrote
    assert stream_rows(client, "SELECT id, price FROM prices") == [(1, 15), (3, 30)]
    # a batch-mode INSERT of a GROUP BY: its final rows, upserted over what is there
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    client.execute("INSERT INTO totals SELECT product, SUM(qty) * 10, COUNT(*) FROM orders WHERE oid < 5 "
                   "GROUP BY product")
    assert postgres.psql("SELECT * FROM totals ORDER BY product") == [["apple", "70", "2"], ["pear", "10", "1"],
                                                                      ["plum", "10", "1"]]


@pytest.mark.slow       # 14-24 s on CI: `make test-slow` (CI's time)
def test_lookup_join_queries_by_key_through_the_partial_cache(client, postgres, tmp_path):
    """A processing-time lookup join against a jdbc table (Flink's LookupJoin), which is queried by key: LEFT
    JOIN through a PARTIAL cache (expire-after-write 15 s) sees a rate changed in PostgreSQL only once the
    cached one expired, and pads a key the table lacks; INNER JOIN without a cache (NONE) sees it at once; a
    condition beyond the key (r.rate > 100) is part of the join, as in Flink. The server's statement log shows
    that the table is only ever read by key (`WHERE ("cur") IN (...)`), never whole."""
    import re
    postgres.psql("DROP TABLE IF EXISTS rates; CREATE TABLE rates (cur TEXT PRIMARY KEY, rate INT);"
                  "INSERT INTO rates VALUES ('EUR', 110), ('JPY', 1)")
    client.execute(jdbc_table(postgres, "cached", "cur STRING, rate INT", "rates", ", 'lookup.cache' = "
                              "'PARTIAL', 'lookup.partial-cache.max-rows' = '10', "
                              "'lookup.partial-cache.expire-after-write' = '15 s'"))
    client.execute(jdbc_table(postgres, "uncached", "cur STRING, rate INT", "rates"))
    folder = tmp_path / "orders"
    folder.mkdir()
    client.execute("CREATE TABLE orders (id INT, cur STRING, amount INT, proc AS PROCTIME()) WITH ("
                   "'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'source.monitor-interval' = '1 s')"
                   % folder)
    sql = ("SELECT o.id, o.amount * r.rate AS converted FROM orders AS o %s JOIN %s FOR SYSTEM_TIME AS OF "
           "o.proc AS r ON o.cur = r.cur%s")
    explained = client.execute("EXPLAIN " + sql % ("LEFT", "cached", "")).text
    assert "LookupJoin(table=[default_catalog.default_database.cached], joinType=[LeftOuterJoin], " \
           "lookup=[cur0=cur]" in explained and PASSWORD not in explained
    cases = (("LEFT", "cached", "", [[(1, 1100), (2, None), (5, 1)], [(3, 1100)], [(4, 1200)]]),
             ("", "uncached", " AND r.rate > 100", [[(1, 1100)], [(3, 1200)], [(4, 1200)]]))
    log_from = postgres.log_statements()
    try:
        for kind, table, more, expected in cases:
            _run_lookup_case(client, postgres, folder, sql % (kind, table, more), table == "cached", kind, expected)
    finally:
        postgres.log_statements(False)
    reads = [s for s in postgres.logged_statements(log_from) if re.search(r'\bFROM\s+"?rates\b', s, re.I)]
    assert reads, "no lookup reached PostgreSQL"
    whole = [s for s in reads if not re.search(r'^SELECT "cur", "rate", "cur" FROM "rates" WHERE \("cur"\) IN '
                                                r'\(\(\$1\)(, \(\$\d\))*\)$', s)]
    assert not whole, whole


def _run_lookup_case(client, postgres, folder, sql, cached, kind, expected):
    """Three files into `folder` while the lookup join runs: the second after EUR's rate changed in PostgreSQL,
    the third once a cache would have expired; the rows of each micro-batch are as `expected`."""
    import time
    postgres.psql("UPDATE rates SET rate = 110 WHERE cur = 'EUR'")
    for f in folder.iterdir():
        f.unlink()
    (folder / "1.csv").write_text("1,EUR,10\n2,USD,5\n5,JPY,1\n")
    stream = client.execute(sql)
    seen, first_at = [], None
    try:
        for batch in stream:
            rows = [tuple(row) for op, row in batch.changes]
            if not rows:
                continue
            seen.append(sorted(rows, key=str))
            if len(seen) == 1:      # EUR is cached (LEFT) at 110; the database says 120 from now on
                first_at = time.time()
                postgres.psql("UPDATE rates SET rate = 120 WHERE cur = 'EUR'")
                (folder / "2.csv").write_text("3,EUR,10\n")
            elif len(seen) == 2:    # past the cache's 15 s (only LEFT's table has one)
                time.sleep(max(0.0, first_at + 15.5 - time.time()) if cached else 0)
                (folder / "3.csv").write_text("4,EUR,10\n")
            else:
                break
    finally:
        stream.stop()
    assert seen == expected, (kind, seen)
