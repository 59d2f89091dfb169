"""A batch MATCH_RECOGNIZE straight over one small file: each task reads the whole file and matches its share of
the keys (runtime/match_recognize/whole_file.py). Same rows as the shuffle's plan, over keys with NULLs, rows of
equal time in file order, several keys; only where the scan gives what the task reads the same way."""

import datetime as dt
import os
import subprocess
import sys

import pyarrow as pa
import pytest

from planner.errors import DynsqlError
from runtime.whole_file import key_shares

# A V per key: down, down, up (an up after one down is no match). Keys ("a", 1) and ("a", 2) interleave; keys
# (NULL, 2) and ("b", 1) have two rows at the same time, which the file's order decides.
ROWS = [
    ("a", 1, "10:00:01", 9), ("b", 1, "10:00:01", 5), ("a", 1, "10:00:02", 7), ("", 2, "10:00:02", 9),
    ("a", 1, "10:00:03", 5), ("b", 1, "10:00:02", 4), ("b", 1, "10:00:02", 3), ("a", 1, "10:00:04", 8),
    ("", 2, "10:00:03", 6), ("b", 1, "10:00:03", 6), ("", 2, "10:00:03", 4), ("", 2, "10:00:04", 7),
    ("a", 2, "10:00:02", 6), ("a", 2, "10:00:03", 5), ("a", 2, "10:00:04", 4), ("a", 2, "10:00:05", 6),
]
MATCHES = """SELECT * FROM ticks MATCH_RECOGNIZE (PARTITION BY symbol, venue ORDER BY ts
    MEASURES FIRST(S.ts) AS start_ts, LAST(D.price) AS bottom, U.price AS up
    ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (S D+ U)
    DEFINE D AS (LAST(D.price, 1) IS NULL AND D.price < S.price) OR D.price < LAST(D.price, 1),
           U AS U.price > LAST(D.price, 1)) M"""


def t(hms):
    return dt.datetime.strptime("2024-01-01 " + hms, "%Y-%m-%d %H:%M:%S")


EXPECTED = sorted([
    ("a", 1, t("10:00:01"), 5, 8),
    ("b", 1, t("10:00:01"), 3, 6),
    (None, 2, t("10:00:02"), 4, 7),
    ("a", 2, t("10:00:02"), 4, 6),
], key=repr)


@pytest.fixture
def ticks(tmp_path):
    path = tmp_path / "ticks.csv"
    path.write_text("".join("%s,%s,2024-01-01 %s,%s\n" % r for r in ROWS))

    def create(client, ddl_extra=""):
        client.execute("CREATE TABLE ticks (symbol STRING, venue INT, ts TIMESTAMP(3), price INT%s, WATERMARK FOR "
                       "ts AS ts) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', "
                       "'csv.null-literal' = '')" % (ddl_extra, path))
        client.execute("SET 'execution.runtime-mode' = 'batch'")
        return client
    return create


def spark_plan(client, sql):
    return client.execute("EXPLAIN " + sql).text.split("== Spark Plan ==")[1]


def test_each_task_reads_the_file_and_gives_the_shuffles_rows(client, ticks):
    c = ticks(client)
    assert "_WholeFileMatch" in spark_plan(c, MATCHES) and "Exchange" not in spark_plan(c, MATCHES)
    assert "Match: whole-file read of ticks (file " in c.execute("EXPLAIN " + MATCHES).text
    assert sorted(c.execute(MATCHES).rows, key=repr) == EXPECTED
    c.execute("SET 'dynsql.whole-file.max-size' = '0'")     # the shuffle's plan
    assert "_WholeFileMatch" not in spark_plan(c, MATCHES) and "whole-file read" not in c.execute("EXPLAIN " + MATCHES).text
    assert sorted(c.execute(MATCHES).rows, key=repr) == EXPECTED


def test_a_file_over_the_size_or_what_the_scan_computes_goes_through_the_shuffle(client, ticks):
    c = ticks(client)
    c.execute("SET 'dynsql.whole-file.max-size' = '100 bytes'")
    assert "_WholeFileMatch" not in spark_plan(c, MATCHES)
    c.execute("RESET 'dynsql.whole-file.max-size'")
    c.execute("DROP TABLE ticks")
    c = ticks(client, ", p2 AS price * 2")          # a computed column the match reads: Spark computes it
    computed = MATCHES.replace("U.price AS up", "U.p2 AS up")
    assert "_WholeFileMatch" not in spark_plan(c, computed)
    assert sorted(c.execute(computed).rows, key=repr) == [r[:4] + (r[4] * 2,) for r in EXPECTED]
    assert "_WholeFileMatch" in spark_plan(c, MATCHES)  # the same table, a match reading physical columns only
    descending = MATCHES.replace("ORDER BY ts", "ORDER BY ts, price DESC")
    assert "_WholeFileMatch" not in spark_plan(c, descending)


def test_a_bad_row_fails_the_query_naming_its_line(client, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("a,1,2024-01-01 10:00:01,9\na,1,2024-01-01 10:00:02,nine\n")
    client.execute("CREATE TABLE ticks (symbol STRING, venue INT, ts TIMESTAMP(3), price INT, WATERMARK FOR ts AS "
                   "ts) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % path)
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    assert "_WholeFileMatch" in spark_plan(client, MATCHES)
    with pytest.raises(DynsqlError) as e:
        client.execute(MATCHES)
    assert str(e.value) == "%s:2: column 'price': 'nine' is not a valid INT" % path


def test_a_keys_share_is_the_same_in_every_chunk_and_process():
    one = pa.table({"k": ["x", None, "y", "x"], "v": [1, 2, None, 1]})
    two = pa.table({"k": ["y", "x", None], "v": [None, 1, 2]})
    a, b = key_shares(one, ["k", "v"], 7).tolist(), key_shares(two, ["k", "v"], 7).tolist()
    assert a[0] == a[3] == b[1] and a[1] == b[2] and a[2] == b[0]
    assert all(0 <= s < 7 for s in a + b)
    code = ("import pyarrow as pa; from runtime.whole_file import key_shares; "
            "print(key_shares(pa.table({'k': ['x', None, 'y', 'x'], 'v': [1, 2, None, 1]}), ['k', 'v'], 7).tolist())")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                         env={**os.environ, "PYTHONHASHSEED": "12345"})
    assert out.stdout.strip() == str(a), out.stderr


def test_a_one_pass_drops_the_late_rows_as_the_shuffle_does(one_pass_client, tmp_path):
    from runtime.results import ChangeStream
    path = tmp_path / "ticks.csv"
    # last in the file, b's 2 at 10:00:02 is late (the watermark is then 10:00:02), no row before it is: kept, it
    # would be b's bottom
    path.write_text("".join("%s,%s,2024-01-01 %s,%s\n" % r for r in ROWS + [("b", 1, "10:00:02", 2)]))
    c = one_pass_client
    c.execute("CREATE TABLE ticks (symbol STRING, venue INT, ts TIMESTAMP(3), price INT, WATERMARK FOR ts AS ts - "
              "INTERVAL '3' SECOND) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', "
              "'csv.null-literal' = '')" % path)
    assert "one pass" in c.execute("EXPLAIN " + MATCHES).text and "_WholeFileMatch" in spark_plan(c, MATCHES)
    for whole_file in ("64 mb", "0"):
        c.execute("SET 'dynsql.whole-file.max-size' = '%s'" % whole_file)
        result = c.execute(MATCHES)
        assert isinstance(result, ChangeStream)
        changes = [change for batch in result for change in batch.changes]
        assert {op for op, _ in changes} == {"+I"}
        assert sorted((tuple(r) for _, r in changes), key=repr) == EXPECTED, whole_file
