"""The dynamic-table property: a streaming query's changelog, applied in order, ends in the rows the
same query gives in batch mode on the same input. Inputs are generated (seeded) and cut into
micro-batches of a few rows ('scan.rows-per-batch'), so updates and retractions cross batches."""

import random
from collections import Counter
from datetime import datetime, timedelta

import pytest

from runtime.results import ChangeStream

QUERIES = [
    "SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`",
    "SELECT `user`, COUNT(*) AS cnt, MIN(url) AS first_url, MAX(cTime) AS last_click FROM clicks GROUP BY `user` HAVING COUNT(*) >= 2",
    "SELECT cnt, COUNT(*) AS users FROM (SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`) GROUP BY cnt",
    "SELECT DISTINCT `user`, url FROM clicks",
    "SELECT url, COUNT(DISTINCT `user`) AS visitors, SUM(n) AS total FROM clicks GROUP BY url",
    "SELECT `user`, url, cTime FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY `user` ORDER BY cTime DESC) AS rn FROM clicks) WHERE rn = 1",
    "SELECT `user`, url, n, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY `user` ORDER BY n DESC) AS rn FROM clicks) WHERE rn <= 2",
    "SELECT c.`user`, c.cnt, u.country FROM (SELECT `user`, COUNT(*) AS cnt FROM clicks GROUP BY `user`) AS c LEFT JOIN users AS u ON c.`user` = u.name",
    "SELECT u.country, COUNT(*) AS clicks, MAX(c.n) AS top FROM clicks AS c JOIN users AS u ON c.`user` = u.name GROUP BY u.country",
    "SELECT m.mx, COUNT(*) AS users FROM (SELECT `user`, MAX(n) AS mx FROM clicks GROUP BY `user`) AS m GROUP BY m.mx",
    "SELECT c.`user`, c.cnt, u.country FROM (SELECT `user`, COUNT(*) AS cnt FROM clicks GROUP BY `user`) AS c FULL JOIN users AS u ON c.`user` = u.name",
    # subqueries and set operations (semi / anti joins) over updating inputs
    "SELECT `user`, url FROM clicks WHERE `user` IN (SELECT `user` FROM clicks GROUP BY `user` HAVING SUM(n) > 12)",
    "SELECT `user`, cnt FROM (SELECT `user`, COUNT(*) AS cnt FROM clicks GROUP BY `user`) AS c "
    "WHERE NOT EXISTS (SELECT * FROM users AS u WHERE u.name = c.`user` AND u.country = 'US')",
    "SELECT `user`, url FROM clicks INTERSECT ALL SELECT `user`, url FROM clicks WHERE n > 3",
    "SELECT `user`, url FROM clicks EXCEPT ALL SELECT `user`, url FROM clicks WHERE n > 5",
    "SELECT `user`, n, (SELECT MAX(n) FROM clicks AS c2 WHERE c2.url = c.url) AS top FROM clicks AS c",
    # WHERE filters before the ranking
    "SELECT `user`, url, cTime FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY `user` ORDER BY cTime DESC) AS rn FROM clicks WHERE url <> './home') WHERE rn = 1",
]


def write_inputs(tmp_path, seed):
    rnd = random.Random(seed)
    t = datetime(2024, 1, 1, 12, 0, 0)
    lines = []
    for _ in range(rnd.randint(12, 24)):
        t += timedelta(seconds=rnd.randint(0, 40))
        lines.append("%s,%s,%s,%d" % (rnd.choice(["Mary", "Bob", "Liz", "Tom", "Ann"]), t.strftime("%Y-%m-%d %H:%M:%S"),
                                      rnd.choice(["./home", "./cart", "./prod?id=1", "./prod?id=7"]), rnd.randint(0, 9)))
    (tmp_path / "clicks.csv").write_text("\n".join(lines) + "\n")
    (tmp_path / "users.csv").write_text("Mary,DE\nBob,US\nLiz,FR\nZoe,NL\n")


def ddl(tmp_path, rows_per_batch):
    return [
        "CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, n INT, "
        "WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', "
        "'path' = '%s', 'format' = 'csv', 'scan.rows-per-batch' = '%d')" % (tmp_path / "clicks.csv", rows_per_batch),
        "CREATE TABLE users (name STRING, country STRING) WITH ('connector' = 'filesystem', "
        "'path' = '%s', 'format' = 'csv', 'scan.rows-per-batch' = '%d')" % (tmp_path / "users.csv", rows_per_batch),
    ]


def materialize(stream):
    rows = Counter()
    for batch in stream:
        for op, row in batch.changes:
            if op in ("+I", "+U"):
                rows[row] += 1
            else:
                assert rows[row] > 0, "%s %r retracts a row that is not in the result" % (op, row)
                rows[row] -= 1
                if not rows[row]:
                    del rows[row]
    return rows


@pytest.mark.parametrize("seed, query", list(enumerate(QUERIES, start=1)))
def test_changelog_materializes_to_the_batch_result(client, tmp_path, seed, query):
    write_inputs(tmp_path, seed)
    for stmt in ddl(tmp_path, rows_per_batch=5 + seed % 3):
        client.execute(stmt)
    stream = client.execute(query)
    assert isinstance(stream, ChangeStream)
    streamed = materialize(stream)
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    batch = client.execute(query)
    assert streamed == Counter(batch.rows), "streaming and batch results differ for: " + query
    assert streamed, "the query should give rows on this input"
