"""Catalogs and DDL through the `dynsql` CLI, as a user runs them: a persistent catalog ('type' = 'dynsql') made
in one run is registered in the next without CREATE CATALOG (the project's catalog store, Flink's
`table.catalog-store.kind` = 'file'; DROP CATALOG removes it), with its tables, views and the files that hold
them, owner-only; in that second run
CREATE TABLE AS SELECT and a statement set typed statement by statement (BEGIN STATEMENT SET; ...; END;) each
start one job (both at once: a job is a process of its own), whose files the test then reads; a SET of a Flink key that means nothing on Spark warns. Spark's own
tables (saveAsTable into a warehouse folder) are read by name through a 'spark' catalog."""

import json
import os
import stat
import time

import pytest

from test_cli import dynsql


@pytest.mark.slow       # 14-24 s on CI: `make test-slow` (CI's time)
def test_a_persistent_catalog_outlives_the_session_and_ctas_and_statement_sets_run(tmp_path):
    (tmp_path / "fruit.csv").write_text("1,apple,3\n2,pear,5\n3,plum,7\n")
    catalog = tmp_path / "catalog"
    jobs = "dynsql.jobs.dir=%s" % (tmp_path / "jobs")
    first = tmp_path / "first.sql"
    first.write_text("""
CREATE CATALOG mine WITH ('type' = 'dynsql', 'path' = '%(catalog)s');
CREATE DATABASE mine.shop;
CREATE TABLE mine.shop.fruit (id INT, name STRING, kg INT)
  WITH ('connector' = 'filesystem', 'path' = '%(fruit)s', 'format' = 'csv');
CREATE VIEW mine.shop.heavy AS SELECT id, UPPER(name) AS name, kg FROM mine.shop.fruit WHERE kg > 4;
CREATE TEMPORARY TABLE mine.shop.scratch (x INT) WITH ('connector' = 'blackhole');
SET 'table.exec.mini-batch.enabled' = 'true';
""" % {"catalog": catalog, "fruit": tmp_path / "fruit.csv"})
    out = dynsql("-D", jobs, "-f", str(first), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert ("[WARNING] 'table.exec.mini-batch.enabled' is a Flink option that has no effect in dynsql"
            in out.stdout + out.stderr)
    files = sorted(p.relative_to(catalog).as_posix() for p in catalog.rglob("*") if p.is_file())
    assert files == ["shop/fruit.table.json", "shop/heavy.view.json"]      # the temporary table is not kept
    for path in [catalog, catalog / "shop"] + [catalog / f for f in files]:
        assert stat.S_IMODE(os.stat(path).st_mode) in (0o700, 0o600), path

    # the registration is in the project's catalog store (Flink's FileCatalogStore: table.catalog-store.kind)
    registration = tmp_path / ".dynsql" / "catalogs" / "mine.json"
    assert json.loads(registration.read_text()) == {"type": "dynsql", "path": str(catalog)}
    assert stat.S_IMODE(os.stat(registration).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(registration.parent).st_mode) == 0o700

    second = tmp_path / "second.sql"       # no CREATE CATALOG: the next session has it (and so do its jobs)
    second.write_text("""
USE CATALOG mine;
USE shop;
SHOW TABLES;
SET 'pipeline.name' = 'copy heavy fruit';
CREATE TABLE heavy_copy (note STRING, name STRING, PRIMARY KEY (id) NOT ENFORCED,
                         WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = '%(copy)s', 'format' = 'json')
  AS SELECT id, name, CAST('2024-01-01 10:00:00' AS TIMESTAMP(3)) AS ts FROM heavy;
RESET 'pipeline.name';
SHOW CREATE TABLE heavy_copy;
CREATE TABLE heavy_names (name, id, PRIMARY KEY (id) NOT ENFORCED)
  WITH ('connector' = 'filesystem', 'path' = '%(names)s', 'format' = 'csv') AS SELECT id, name FROM heavy;
SHOW CREATE TABLE heavy_names;
CREATE TABLE light (name STRING) WITH ('connector' = 'filesystem', 'path' = '%(light)s', 'format' = 'csv');
CREATE TABLE ids (id INT) WITH ('connector' = 'filesystem', 'path' = '%(ids)s', 'format' = 'csv');
BEGIN STATEMENT SET;
INSERT INTO light SELECT name FROM fruit WHERE kg < 4;
INSERT INTO ids SELECT id FROM mine.shop.fruit;
END;
""" % {"catalog": catalog, "copy": tmp_path / "copy", "light": tmp_path / "light", "ids": tmp_path / "ids",
       "names": tmp_path / "names"})
    out = dynsql("-D", jobs, "-f", str(second), cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    text = out.stdout + out.stderr
    assert "| fruit" in text and "| heavy" in text
    assert text.count("[INFO] Add SQL update statement to the statement set.") == 2
    assert "[INFO] Begin a statement set." in text and text.count("Job ID:") == 3
    assert (catalog / "shop" / "heavy_copy.table.json").exists()     # CTAS's table is the catalog's too
    # Flink 2.x's CTAS schema: declared columns the query lacks first, then the query's (a declared one keeps the
    # query's place), the key NOT NULL, the watermark
    created = " ".join(text.split())
    assert ("CREATE TABLE `mine`.`shop`.`heavy_copy` ( `note` STRING, `id` INT NOT NULL, `name` STRING, "
            "`ts` TIMESTAMP(3) NOT NULL, WATERMARK FOR `ts` AS ts - INTERVAL '1' SECOND, "
            "PRIMARY KEY (`id`) NOT ENFORCED )") in created, text
    # names alone order the query's columns, and (as Flink's converter does) keep no key or watermark beside them
    assert "CREATE TABLE `mine`.`shop`.`heavy_names` ( `name` STRING, `id` INT ) WITH (" in created, text
    # the jobs run on their own (processes of their own): wait for them, then read what they wrote
    from runtime.job_registry import JobRegistry
    registry = JobRegistry(str(tmp_path / "jobs"))
    deadline = time.time() + 900
    while time.time() < deadline and not (len(registry.all()) == 3 and all(
            r.status in ("FINISHED", "FAILED", "CANCELED") for r in registry.all())):
        time.sleep(2)
    records = {r.name: r for r in registry.all()}
    assert sorted(records) == ["copy heavy fruit", "insert-into_mine.shop.heavy_names",
                               "insert-into_mine.shop.light,mine.shop.ids"], records
    assert all(r.status == "FINISHED" for r in records.values()), [(r.name, r.status, r.error)
                                                                   for r in records.values()]
    copied = [json.loads(line) for f in sorted((tmp_path / "copy").glob("part-*"))
              for line in f.read_text().splitlines()]
    assert sorted(copied, key=lambda r: r["id"]) == [
        {"note": None, "id": 2, "name": "PEAR", "ts": "2024-01-01 10:00:00"},
        {"note": None, "id": 3, "name": "PLUM", "ts": "2024-01-01 10:00:00"}]
    assert sorted(line for f in (tmp_path / "names").glob("part-*") for line in f.read_text().split()) == \
        ["PEAR,2", "PLUM,3"]                   # (name, id): the query's columns in the order the list names them
    assert [f.read_text() for f in (tmp_path / "light").glob("part-*")] == ["apple\n"]
    assert sorted(line for f in (tmp_path / "ids").glob("part-*") for line in f.read_text().split()) == \
        ["1", "2", "3"]

    # DROP CATALOG removes the registration (the catalog's own folder stays)
    out = dynsql("-e", "DROP CATALOG mine;", cwd=tmp_path)
    assert out.returncode == 0 and not registration.exists() and (catalog / "shop").is_dir(), out.stderr
    # the next session has it no more; a stored registration that cannot be read is named in a warning, and the
    # session goes on without it
    (registration.parent / "broken.json").write_text("{not json")
    out = dynsql("--output", "csv", "-e", "SHOW CATALOGS;", cwd=tmp_path)
    assert out.stdout.splitlines() == ["catalog name", "default_catalog", "spark_catalog"], out.stdout + out.stderr
    assert "[WARNING] The catalog stored in %s is not registered: " % (registration.parent / "broken.json") \
        in out.stderr
    (registration.parent / "broken.json").unlink()
    # a store folder that is a symbolic link is neither read nor written (it could name someone else's catalogs)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "planted.json").write_text('{"type": "generic_in_memory"}')
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere")
    out = dynsql("-D", "table.catalog-store.file.path=%s" % (tmp_path / "link"), "-e",
                 "SHOW CATALOGS; CREATE CATALOG c5 WITH ('type' = 'generic_in_memory');", cwd=tmp_path)
    assert out.returncode == 1 and "planted" not in out.stdout, out.stdout + out.stderr
    assert "[WARNING] The catalog store %s cannot be read: it is a symbolic link" % (tmp_path / "link") in out.stderr
    assert "is a symbolic link, not a folder of its own" in out.stderr
    assert sorted(os.listdir(tmp_path / "elsewhere")) == ["planted.json"]
    # a session whose catalogs stay in memory (Flink's default) neither reads nor writes the store
    out = dynsql("-D", "table.catalog-store.kind=generic_in_memory", "-e",
                 "CREATE CATALOG mine WITH ('type' = 'dynsql', 'path' = '%s');" % catalog, cwd=tmp_path)
    assert out.returncode == 0 and not registration.exists(), out.stderr


def test_ctas_refuses_what_flink_refuses_in_its_words(client, tmp_path):
    """What Flink 2.3 refuses in a CREATE TABLE AS SELECT, refused before any job starts, in Flink's words."""
    (tmp_path / "fruit.csv").write_text("1,apple,3\n")
    client.execute("CREATE TABLE fruit (id INT, name STRING, kg INT) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv')" % (tmp_path / "fruit.csv"))
    from repl.errors import error_text
    for statement, message in [
            ("CREATE TEMPORARY TABLE t1 WITH ('connector' = 'blackhole') AS SELECT id FROM fruit",
             "CREATE TABLE AS SELECT syntax does not support to create temporary table yet."),
            ("CREATE TABLE t2 (name, id) WITH ('connector' = 'blackhole') AS SELECT id FROM fruit",
             "The number of columns in the column list must match the number of columns in the source schema."),
            ("CREATE TABLE t3 (kg BOOLEAN) WITH ('connector' = 'blackhole') AS SELECT kg FROM fruit",
             "Incompatible types for sink column 'kg' at position 0. The source column has type 'INT', while the "
             "target column has type 'BOOLEAN'."),
            ("CREATE TABLE t5 (extra INT NOT NULL) WITH ('connector' = 'blackhole') AS SELECT id FROM fruit",
             "Column 'extra' has no default value and does not allow NULLs."),
            ("CREATE TABLE t6 (id, name INT) WITH ('connector' = 'blackhole') AS SELECT id, name FROM fruit",
             'Encountered "INT"'),
            ("CREATE TABLE t4 (a, b) WITH ('connector' = 'blackhole')",
             "Columns identifiers without types in the schema are supported on CTAS/RTAS statements only.")]:
        try:
            client.execute(statement)
        except Exception as e:
            assert error_text(e).startswith("[ERROR] " + message), error_text(e)
        else:
            raise AssertionError("not refused: " + statement)
        assert client.catalog.get(statement.split()[2] if "TEMPORARY" not in statement else "t1") is None
    assert client.engine.jobs.started == []                 # no job started


def test_spark_tables_saved_with_save_as_table_are_read_by_name(client, spark, tmp_path):
    warehouse = tmp_path / "warehouse"
    spark.sql("CREATE DATABASE dynsql_test_shop LOCATION '%s'" % (warehouse / "shop.db"))
    spark.createDataFrame([(1, "apple", 2.5), (2, "pear", 4.0)], "id INT, name STRING, price DOUBLE") \
        .write.format("parquet").saveAsTable("dynsql_test_shop.prices")       # -> <warehouse>/shop.db/prices/
    try:
        client.execute("CREATE CATALOG wh WITH ('type' = 'spark', 'warehouse' = '%s')" % warehouse)
        assert client.execute("SHOW DATABASES FROM wh").rows == [("default",), ("shop",)]
        assert client.execute("SHOW TABLES FROM wh.shop").rows == [("prices",)]
        assert [r[:2] for r in client.execute("DESCRIBE wh.shop.prices").rows] == [
            ("id", "INT"), ("name", "STRING"), ("price", "DOUBLE")]
        client.execute("SET 'execution.runtime-mode' = 'batch'")
        result = client.execute("SELECT name, price * 2 AS twice FROM wh.shop.prices WHERE id > 1")
        assert result.rows == [("pear", 8.0)]
        try:
            client.execute("CREATE TABLE wh.shop.mine (a INT) WITH ('connector' = 'blackhole')")
            raise AssertionError("a Spark warehouse took a dynsql table")
        except Exception as e:
            assert "dynsql reads its tables" in str(e)
    finally:
        client.execute("RESET 'execution.runtime-mode'")
        spark.sql("DROP DATABASE IF EXISTS dynsql_test_shop CASCADE")
