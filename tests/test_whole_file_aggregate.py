"""A grouped aggregate or a TUMBLE, HOP or CUMULATE window aggregate read as one batch (a one pass, batch mode)
straight over one small file: each task reads the whole file and aggregates its share of the keys with Arrow
(runtime/operators/whole_file_aggregate.py). The same rows as Spark's shuffle and as micro-batches, late rows
dropped in a one pass, NULL keys and values; what stays on Spark's aggregate."""

import datetime as dt
import random
import re

import pytest

from planner.errors import DynsqlError

# arrival order; watermark = max(ts) - 1 s. The 6th row (u2, 10:00:03) arrives at watermark 10:00:06: its
# window [10:00:00, 10:00:05) has fired, so a streaming query drops it; the 7th has no time (late as well).
CLICKS = """\
u1,2024-01-01 10:00:01,3,x
u2,2024-01-01 10:00:02,,y
,2024-01-01 10:00:03,4,z
u1,2024-01-01 10:00:04,5,
u1,2024-01-01 10:00:07,1,b
u2,2024-01-01 10:00:03,9,late
u2,,2,n
u1,2024-01-01 10:00:12,2,c
"""

TUMBLE = """
    SELECT window_start, window_end, `user`, COUNT(*) AS cnt, COUNT(amount) AS n, SUM(amount) AS total,
           MIN(tag) AS lo, MAX(ts) AS last_ts
    FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND))
    GROUP BY window_start, window_end, `user`"""

GROUPED = "SELECT `user`, COUNT(*) AS cnt, SUM(amount) AS total, MAX(tag) AS hi FROM clicks GROUP BY `user`"


def t(hms):
    return dt.datetime.strptime("2024-01-01 " + hms, "%Y-%m-%d %H:%M:%S") if hms else None


def create_clicks(client, path, body=CLICKS, amount_type="INT"):
    path.write_text(body)
    client.execute("CREATE TABLE clicks (`user` STRING, ts TIMESTAMP(3), amount %s, tag STRING, WATERMARK FOR ts "
                   "AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', "
                   "'csv.null-literal' = '')" % (amount_type, path))
    return client


def spark_plan(client, sql):
    return client.execute("EXPLAIN " + sql).text.split("== Spark Plan ==")[1]


def reads_whole_file(client, sql):
    """Whether the aggregate reads the file in each task: EXPLAIN's Spark plan shows no shuffle, and its
    Execution Plan says so."""
    text = client.execute("EXPLAIN " + sql).text
    plan = text.split("== Spark Plan ==")[1]
    whole = "_WholeFileAggregate" in plan and "Exchange" not in plan
    said = re.search(r"(Group|Window)Aggregate: whole-file read of clicks \(file ", text)
    assert whole == bool(said)
    return whole


def streamed(client, sql):
    return sorted((row for batch in client.execute(sql) for op, row in batch.changes if op == "+I"), key=repr)


def test_tumble_in_one_pass_reads_the_file_in_each_task_and_drops_the_late_rows(one_pass_client, client, tmp_path):
    expected = sorted([
        (t("10:00:00"), t("10:00:05"), "u1", 2, 2, 8, "x", t("10:00:04")),
        (t("10:00:00"), t("10:00:05"), "u2", 1, 0, None, "y", t("10:00:02")),     # not the late 10:00:03
        (t("10:00:00"), t("10:00:05"), None, 1, 1, 4, "z", t("10:00:03")),
        (t("10:00:05"), t("10:00:10"), "u1", 1, 1, 1, "b", t("10:00:07")),
        (t("10:00:10"), t("10:00:15"), "u1", 1, 1, 2, "c", t("10:00:12")),
    ], key=repr)
    c = create_clicks(one_pass_client, tmp_path / "clicks.csv")
    assert "one pass" in c.execute("EXPLAIN " + TUMBLE).text and reads_whole_file(c, TUMBLE)
    assert streamed(c, TUMBLE) == expected
    c.execute("SET 'dynsql.whole-file.max-size' = '0'")          # Spark's aggregate, after its shuffle
    assert not reads_whole_file(c, TUMBLE)
    assert streamed(c, TUMBLE) == expected
    assert streamed(create_clicks(client, tmp_path / "clicks.csv"), TUMBLE) == expected     # micro-batches


def test_batch_mode_keeps_every_row_and_gives_the_shuffles_rows(client, tmp_path):
    c = create_clicks(client, tmp_path / "clicks.csv")
    c.execute("SET 'execution.runtime-mode' = 'batch'")
    assert reads_whole_file(c, GROUPED) and reads_whole_file(c, TUMBLE)
    grouped = sorted(c.execute(GROUPED).rows, key=repr)
    assert grouped == sorted([("u1", 4, 11, "x"), ("u2", 3, 11, "y"), (None, 1, 4, "z")], key=repr)
    tumbled = sorted(c.execute(TUMBLE).rows, key=repr)
    assert (t("10:00:00"), t("10:00:05"), "u2", 2, 1, 9, "late", t("10:00:03")) in tumbled
    c.execute("SET 'dynsql.whole-file.max-size' = '0'")
    assert not reads_whole_file(c, GROUPED)
    assert sorted(c.execute(GROUPED).rows, key=repr) == grouped
    assert sorted(c.execute(TUMBLE).rows, key=repr) == tumbled


def test_a_directory_is_read_whole_file_after_file_in_each_task(one_pass_client, client, tmp_path):
    """A directory of files within the size: each task reads them all, one after another (each against its own
    running maximum in a one pass), and aggregates its share of the keys; the rows of Spark's shuffle."""
    folder = tmp_path / "parts"
    folder.mkdir()
    lines = CLICKS.splitlines(keepends=True)
    for i, part in enumerate((lines[:3], lines[3:6], lines[6:])):
        (folder / ("part-%d.csv" % i)).write_text("".join(part))
    for c in (client, one_pass_client):
        create_clicks(c, tmp_path / "unused.csv")
        c.execute("DROP TABLE clicks")
        c.execute("CREATE TABLE clicks (`user` STRING, ts TIMESTAMP(3), amount INT, tag STRING, WATERMARK FOR ts "
                  "AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', "
                  "'csv.null-literal' = '')" % folder)
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    for sql in (GROUPED, TUMBLE):
        text = client.execute("EXPLAIN " + sql).text
        assert "whole-file read of clicks (3 files, " in text and "Exchange" not in text.split("== Spark Plan ==")[1]
    grouped = sorted(client.execute(GROUPED).rows, key=repr)
    assert grouped == sorted([("u1", 4, 11, "x"), ("u2", 3, 11, "y"), (None, 1, 4, "z")], key=repr)
    tumbled = sorted(client.execute(TUMBLE).rows, key=repr)
    assert (t("10:00:00"), t("10:00:05"), "u2", 2, 1, 9, "late", t("10:00:03")) in tumbled   # batch: not late
    client.execute("SET 'dynsql.whole-file.max-size' = '0'")
    assert "whole-file read" not in client.execute("EXPLAIN " + GROUPED).text
    assert sorted(client.execute(GROUPED).rows, key=repr) == grouped
    assert sorted(client.execute(TUMBLE).rows, key=repr) == tumbled
    # a one pass: the rows of micro-batches, each file against its own maximum (part-1.csv's u2 10:00:03 late
    # after its 10:00:07; part-2.csv's row without a time late)
    assert "whole-file read of clicks (3 files, " in one_pass_client.execute("EXPLAIN " + GROUPED).text
    assert streamed(one_pass_client, GROUPED) == grouped
    assert "each file aggregated with Arrow in a task" in one_pass_client.execute("EXPLAIN " + TUMBLE).text
    on_time = [r for r in tumbled if r[0] is not None and r[2] != "u2"] + [
        (t("10:00:00"), t("10:00:05"), "u2", 1, 0, None, "y", t("10:00:02"))]
    assert streamed(one_pass_client, TUMBLE) == sorted(on_time, key=repr)
    one_pass_client.execute("SET 'dynsql.one-pass.enabled' = 'false'")
    assert streamed(one_pass_client, TUMBLE) == sorted(on_time, key=repr)


@pytest.mark.slow       # 21 s here: `make test-slow` (make test within 25 min on a slow CI machine)
def test_many_keys_and_windows_of_each_kind_give_the_shuffles_rows(one_pass_client, tmp_path):
    """3,000 rows, some arriving late (a one pass drops them), over 40 keys and NULL: TUMBLE, HOP and CUMULATE
    windows and a grouped aggregate give Spark's rows, in a one pass and in batch mode."""
    rng = random.Random(5)
    lines = []
    for i in range(3000):
        when = dt.datetime(2024, 1, 1, 10) + dt.timedelta(milliseconds=37 * i + rng.randint(-3000, 0))
        lines.append("%s,%s,%s,%s\n" % (rng.choice(["u%d" % k for k in range(40)] + [""]), when.isoformat(" "),
                                        rng.choice([str(rng.randint(-9, 9)), ""]), rng.choice("abcdef")))
    c = create_clicks(one_pass_client, tmp_path / "clicks.csv", "".join(lines), "BIGINT")
    queries = [GROUPED, TUMBLE.replace("'5' SECOND", "'2' SECOND"), TUMBLE.replace(
        "TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND)",
        "HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND)"), TUMBLE.replace(
        "TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND)",
        "CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '4' SECOND)")]
    assert all(reads_whole_file(c, sql) for sql in queries)
    whole = [streamed(c, sql) for sql in queries]
    assert len(whole[0]) == 41 and all(len(rows) > 500 for rows in whole[1:])
    c.execute("SET 'dynsql.whole-file.max-size' = '0'")
    assert not any(reads_whole_file(c, sql) for sql in queries)
    assert [streamed(c, sql) for sql in queries] == whole
    c.execute("SET 'execution.runtime-mode' = 'batch'")      # no late rows: every (row, window) pair
    shuffled = [sorted(c.execute(sql).rows, key=repr) for sql in queries]
    c.execute("RESET 'dynsql.whole-file.max-size'")
    assert [sorted(c.execute(sql).rows, key=repr) for sql in queries] == shuffled


@pytest.mark.parametrize("sql", [
    "SELECT `user`, COUNT(DISTINCT tag) AS n FROM clicks GROUP BY `user`",
    "SELECT `user`, AVG(amount) AS a FROM clicks GROUP BY `user`",
    "SELECT `user`, COUNT(*) FILTER (WHERE amount > 2) AS n FROM clicks GROUP BY `user`",
    "SELECT `user`, COUNT(*) AS n FROM clicks WHERE amount > 2 GROUP BY `user`",
    "SELECT UPPER(`user`) AS u, COUNT(*) AS n FROM clicks GROUP BY UPPER(`user`)",
    "SELECT COUNT(*) AS n, MIN(tag) AS lo FROM clicks",
])
def test_what_arrow_would_not_compute_as_spark_stays_on_sparks_aggregate(client, tmp_path, sql):
    c = create_clicks(client, tmp_path / "clicks.csv")
    c.execute("SET 'execution.runtime-mode' = 'batch'")
    assert not reads_whole_file(c, sql)
    assert c.execute(sql).rows          # and it runs


def test_a_bad_row_names_its_line(one_pass_client, tmp_path):
    c = create_clicks(one_pass_client, tmp_path / "clicks.csv", CLICKS.replace(",9,", ",nine,"))
    assert reads_whole_file(c, GROUPED)
    with pytest.raises(DynsqlError) as e:
        streamed(c, GROUPED)
    assert str(e.value) == "%s:6: column 'amount': 'nine' is not a valid INT" % (tmp_path / "clicks.csv")
