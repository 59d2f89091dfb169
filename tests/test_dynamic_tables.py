"""Dynamic tables beyond the conformance cases: state retention (table.exec.state.ttl), the canal-json
changelog source, changelog sources through projections, and a file sink refusing an updating query."""

from collections import Counter

import pytest

from planner.errors import SqlError
from test_changelog_property import materialize


def clicks_table(path, extra=""):
    return ("CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING) WITH ("
            "'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv'%s)" % (path, extra))


def test_state_ttl_forgets_an_idle_key(client, tmp_path):
    # Mary clicks, stays idle for about 3 s while Bob clicks every 0.125 s, then clicks again
    rows = ["Mary,2024-01-01 12:00:00,./home"]
    rows += ["Bob,2024-01-01 12:00:%02d,./cart" % i for i in range(1, 25)]
    rows += ["Mary,2024-01-01 12:01:00,./cart"]
    path = tmp_path / "clicks.csv"
    path.write_text("\n".join(rows) + "\n")
    client.execute(clicks_table(path, ", 'replay.rows-per-second' = '8'"))
    query = "SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`"

    client.execute("SET 'table.exec.state.ttl' = '1 s'")
    with_ttl = materialize(client.execute(query))
    # Mary's count was forgotten: her second click starts from zero, as the seed describes
    assert Counter({r: n for r, n in with_ttl.items() if r[0] == "Mary"}) == Counter({("Mary", 1): 2})

    # without a TTL (and without the pacing, which only made Mary idle) her clicks add up
    client.execute("RESET 'table.exec.state.ttl'")
    client.execute("DROP TABLE clicks")
    client.execute(clicks_table(path))
    without = materialize(client.execute(query))
    assert Counter({r: n for r, n in without.items() if r[0] == "Mary"}) == Counter({("Mary", 2): 1})
    assert ("Bob", 24) in without


CANAL = "\n".join([
    '{"data":[{"id":"1","name":"scooter","price":"11.11"},{"id":"2","name":"ball","price":"23.11"}],"old":null,"type":"INSERT"}',
    '{"data":[{"id":"1","name":"scooter","price":"12.99"}],"old":[{"price":"11.11"}],"type":"UPDATE"}',
    '{"data":[{"id":"2","name":"ball","price":"23.11"}],"old":null,"type":"DELETE"}',
    '{"data":[{"id":"3","name":"kite","price":"5.00"}],"old":null,"type":"INSERT"}',
]) + "\n"


def test_canal_json_source_gives_its_changelog(client, tmp_path):
    path = tmp_path / "products.json"
    path.write_text(CANAL)
    client.execute("CREATE TABLE products (id STRING, name STRING, price DECIMAL(10, 2), "
                   "PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'canal-json')" % path)
    stream = client.execute("SELECT name, price FROM products WHERE price > 1")
    changes = [(op, (row[0], str(row[1]))) for batch in stream for op, row in batch.changes]
    assert changes == [("+I", ("scooter", "11.11")), ("+I", ("ball", "23.11")),
                       ("-U", ("scooter", "11.11")), ("+U", ("scooter", "12.99")),
                       ("-D", ("ball", "23.11")), ("+I", ("kite", "5.00"))]


def test_aggregate_over_a_changelog_source_applies_retractions(client, tmp_path):
    path = tmp_path / "products.json"
    path.write_text(CANAL)
    client.execute("CREATE TABLE products (id STRING, name STRING, price DECIMAL(10, 2), "
                   "PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'canal-json', 'scan.rows-per-batch' = '2')" % path)
    result = materialize(client.execute("SELECT COUNT(*) AS n, MAX(price) AS top, MIN(price) AS low FROM products"))
    assert [(n, str(top), str(low)) for (n, top, low) in result] == [(2, "12.99", "5.00")]


def test_file_sink_refuses_an_updating_query(client, tmp_path):
    path = tmp_path / "clicks.csv"
    path.write_text("Mary,2024-01-01 12:00:00,./home\n")
    client.execute(clicks_table(path))
    client.execute("CREATE TABLE counts (`user` STRING, cnt BIGINT) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv')" % (tmp_path / "out"))
    with pytest.raises(SqlError) as err:
        client.execute("INSERT INTO counts SELECT `user`, COUNT(*) FROM clicks GROUP BY `user`")
    assert "doesn't support consuming update changes" in str(err.value)
