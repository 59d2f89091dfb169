"""The filesystem source reads on executors: the driver plans splits and never opens a data file's contents;
the files of a micro-batch are read by parallel tasks; lateness follows one rule (a row is late against its
split's running maximum and the maximum committed before the micro-batch); bad bytes give Flink's answer and
an error naming file, line and column; rows ignore-parse-errors let through are counted for the shell."""

import builtins
import datetime as dt
import io
import json
import os
import pickle
import shutil

import pytest

from planner.errors import DynsqlError
from repl.render import print_result
from runtime.connectors.filesystem import FilesystemStreamReader, TableSpec
from runtime.connectors.formats import FIELD_SIZE_LIMIT, Format, FormatError, LineCursor, SplitProgress
from runtime.connectors.split_reader import read_partition
from runtime.connectors.splits import SplitGroup
from runtime.results import TableResult

CLICKS = [["user", "STRING"], ["cTime", "TIMESTAMP(3)"], ["url", "STRING"]]


def stream_reader(path, state_dir, columns=CLICKS, rows_per_batch=None, rowtime_index=1, delay_ms=1000, **extra):
    spec = dict(path=str(path), format="csv", columns=columns, options={}, rowtime_index=rowtime_index,
                delay_ms=delay_ms, rows_per_batch=rows_per_batch, state_dir=str(state_dir), **extra)
    from pyspark.sql import types as st
    from planner.expr.types import parse_type, to_spark
    from runtime.tables import HIDDEN_SCHEMA
    schema = st.StructType([st.StructField(n, to_spark(parse_type(t))) for n, t in columns] + HIDDEN_SCHEMA)
    return FilesystemStreamReader(TableSpec(json.dumps(spec)), schema.json())


def micro_batches(reader, read=True):
    """Plan every micro-batch as Spark would, reading each split as an executor would (in this process):
    -> [(partitions, rows)] a batch."""
    out, start = [], reader.initialOffset()
    while True:
        end = reader.latestOffset(start)
        if end == start:
            return out
        parts = reader.partitions(start, end)
        rows = [r for p in parts for b in read_partition(reader.spec, p, reader.schema_json) for r in b.to_pylist()] \
            if read else []
        out.append((parts, rows))
        start = end
        if end.get("done"):
            return out


def at(s):
    return dt.datetime(2024, 1, 1, 10, 0, 0) + dt.timedelta(seconds=s)


def clicks_file(path, seconds, user="u"):
    path.write_text("".join("%s%d,%s,./x\n" % (user, i, at(s)) for i, s in enumerate(seconds)))


# ------------------------------------------------------------------------------------- the driver
def test_planning_never_opens_a_data_file_and_partitions_carry_no_rows(tmp_path, monkeypatch):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a.csv", "b.csv", "c.csv"):
        clicks_file(folder / name, range(5000))
    reader = stream_reader(folder, tmp_path / "state", rows_per_batch=2000)
    real_open = builtins.open

    def guarded_open(file, *args, **kwargs):
        assert not str(file).startswith(str(folder)), "the planner opened %s" % file
        return real_open(file, *args, **kwargs)
    start = reader.initialOffset()
    with monkeypatch.context() as m:
        m.setattr(builtins, "open", guarded_open)
        end = reader.latestOffset(start)
        parts = reader.partitions(start, end)
    splits = [s for p in parts for s in (p.splits if isinstance(p, SplitGroup) else [p])]
    assert [s.ordinal for s in splits] == [0, 1, 2]   # the three files of the batch, each its own split, packed
    assert len(parts) == min(3, os.cpu_count() or 1)  # into a task a core as Spark packs small files
    assert all(len(pickle.dumps(s)) < 400 for s in splits)
    assert len(json.dumps(end)) < 1000
    rows = [r for p in parts for b in read_partition(reader.spec, p, reader.schema_json) for r in b.to_pylist()]
    assert len(rows) == 3 * 2000


def test_a_batch_read_packs_small_files_into_a_task_a_core(spark, tmp_path, client):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a.csv", "b.csv", "c.csv"):
        clicks_file(folder / name, range(3), user=name[0])
    client.execute("CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING) WITH ("
                   "'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % folder)
    from runtime.operators.scan import ScanRef
    from runtime.tables import table_frame
    df = table_frame(spark, ScanRef(table=client.catalog.get("clicks")), streaming=False)
    assert df.rdd.getNumPartitions() == min(3, os.cpu_count() or 1)
    assert sorted(r["user"] for r in df.collect()) == ["a0", "a1", "a2", "b0", "b1", "b2", "c0", "c1", "c2"]


def test_an_empty_directory_reads_no_rows(client, tmp_path):
    folder = tmp_path / "empty"
    folder.mkdir()
    client.execute("CREATE TABLE e (a INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')"
                   % folder)
    assert [c for b in client.execute("SELECT a FROM e") for c in b.changes] == []
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    assert client.execute("SELECT COUNT(*) AS n FROM e").rows == [(0,)]


def test_one_file_read_in_batches_of_any_size_gives_the_same_watermarks(tmp_path):
    path = tmp_path / "t.csv"
    clicks_file(path, [1, 7, 2, 9, 3, 12, 4])

    def hidden(rows_per_batch):
        batches = micro_batches(stream_reader(path, tmp_path / ("s%s" % rows_per_batch), rows_per_batch=rows_per_batch))
        return [(r["user"], r["__wm"]) for _, rows in batches for r in rows]
    whole = hidden(None)
    assert [wm and wm.replace(tzinfo=None) for _, wm in whole] == [None, at(0), at(6), at(6), at(8), at(8), at(11)]
    assert hidden(1) == whole and hidden(3) == whole


def test_files_of_one_batch_are_late_against_their_own_maximum_and_the_committed_one(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    clicks_file(folder / "a.csv", [1, 7, 2], user="a")
    clicks_file(folder / "b.csv", [3, 4, 4.5], user="b")

    def watermarks(rows_per_batch):
        reader = stream_reader(folder, tmp_path / ("s%s" % rows_per_batch), rows_per_batch=rows_per_batch)
        batches = micro_batches(reader)
        return {r["user"]: r["__wm"] and r["__wm"].replace(tzinfo=None) for _, rows in batches for r in rows
                if r["user"]}
    # one batch: each file against its own running maximum
    assert watermarks(None) == {"a0": None, "a1": at(0), "a2": at(6), "b0": None, "b1": at(2), "b2": at(3)}
    # a row a batch: the second batch starts from the maximum committed by the first (b's 10:00:03)
    assert watermarks(1) == {"a0": None, "b0": None, "a1": at(2), "b1": at(2), "a2": at(6), "b2": at(6)}


INTERLEAVED_QUERY = """SELECT window_start, COUNT(*) AS cnt
    FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), INTERVAL '5' SECOND)) GROUP BY window_start, window_end"""


@pytest.mark.parametrize("rows_per_batch, first_window", [(None, 4), (1, 3)])
def test_a_window_over_files_that_interleave_in_time(client, tmp_path, rows_per_batch, first_window):
    folder = tmp_path / "in"
    folder.mkdir()
    clicks_file(folder / "a.csv", [1, 7, 2], user="a")     # a's 10:00:02 is late against a's 10:00:07
    clicks_file(folder / "b.csv", [3, 4, 4.5], user="b")   # b's rows are on time against b's own maximum;
    # read a row a batch, b's 10:00:04.5 comes after the batch that committed a's 10:00:07: late
    extra = ", 'scan.rows-per-batch' = '%d'" % rows_per_batch if rows_per_batch else ""
    client.execute("CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, "
                   "WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv'%s)" % (folder, extra))
    changes = sorted(c for b in client.execute(INTERLEAVED_QUERY) for c in b.changes)
    assert changes == [("+I", (at(0), first_window)), ("+I", (at(5), 1))]


def test_without_rows_per_batch_micro_batches_grow_from_a_small_first_one(tmp_path, monkeypatch):
    """The first micro-batch is small (changes show soon), the next ones read ten times what was read so far, up
    to the most a micro-batch reads (here 2 and 100 records instead of 100,000 and 1,000,000). The batch that
    reaches the end of the file is the last: what is left of the file (78 records) is less than 100 records
    of it, so it reads to the end, with the end-of-input row when the query asks for one."""
    from runtime.connectors import splits
    monkeypatch.setattr(splits, "DEFAULT_ROWS_PER_BATCH", 2)
    monkeypatch.setattr(splits, "MAX_ROWS_PER_BATCH", 100)
    monkeypatch.setattr(splits, "WHOLE_FILE_BYTES", 100)
    path = tmp_path / "t.csv"
    clicks_file(path, range(300))
    batches = micro_batches(stream_reader(path, tmp_path / "state", sentinel=True))
    assert [len(rows) for _, rows in batches] == [2, 20, 100, 100, 79]
    assert [r["user"] for _, rows in batches for r in rows] == ["u%d" % i for i in range(300)] + [None]
    assert type(batches[-1][0][-1]).__name__ == "EndOfInput"
    twenty = tmp_path / "twenty.csv"
    clicks_file(twenty, range(20))
    fixed = micro_batches(stream_reader(twenty, tmp_path / "state3", rows_per_batch=3))
    assert [len(rows) for _, rows in fixed] == [3] * 6 + [2, 0]


def test_a_file_two_micro_batches_would_read_is_read_in_one(tmp_path, monkeypatch):
    """A file of more than WHOLE_FILE_BYTES whose head says it holds about as many records as the small first
    micro-batch and a largest one read (here 2 + 100) is read whole by the first micro-batch, the last."""
    from runtime.connectors import splits
    monkeypatch.setattr(splits, "DEFAULT_ROWS_PER_BATCH", 2)
    monkeypatch.setattr(splits, "MAX_ROWS_PER_BATCH", 100)
    monkeypatch.setattr(splits, "WHOLE_FILE_BYTES", 100)
    for records, sizes in ((102, [102]), (110, [2, 20, 88])):
        path = tmp_path / ("t%d.csv" % records)
        clicks_file(path, range(records))
        batches = micro_batches(stream_reader(path, tmp_path / ("state%d" % records)))
        assert [len(rows) for _, rows in batches] == sizes
        assert [r["user"] for _, rows in batches for r in rows] == ["u%d" % i for i in range(records)]


def test_a_small_file_is_read_in_one_micro_batch(tmp_path):
    """A text file of at most WHOLE_FILE_BYTES (1 MB) is read whole by the first micro-batch, which is the last."""
    path = tmp_path / "t.csv"
    clicks_file(path, range(300))
    batches = micro_batches(stream_reader(path, tmp_path / "state"))
    assert [len(rows) for _, rows in batches] == [300]
    assert [r["user"] for _, rows in batches for r in rows] == ["u%d" % i for i in range(300)]


def test_a_lost_report_only_costs_a_rescan(tmp_path):
    path = tmp_path / "t.csv"
    clicks_file(path, range(7))
    state = tmp_path / "state"
    reader = stream_reader(path, state, rows_per_batch=3)
    start = reader.initialOffset()
    users = []
    while True:
        end = reader.latestOffset(start)
        if end == start or end.get("done"):
            break
        for p in reader.partitions(start, end):
            users += [r["user"] for b in read_partition(reader.spec, p, reader.schema_json) for r in b.to_pylist()]
        if start["seq"] == 0:
            shutil.rmtree(state / "reports")   # as if the state directory were lost after the first batch
        start = end
    assert users == ["u%d" % i for i in range(7)]


# ------------------------------------------------------------------------------------- bad bytes
def records(path, columns, options, fmt="csv"):
    cursor, progress = LineCursor(str(path)), SplitProgress()
    try:
        return [values for _, values, _ in Format(fmt, columns, options).records(cursor, None, progress)], progress
    finally:
        cursor.close()


def test_a_utf8_bom_is_dropped_as_flink_does(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf1,10\n2,20\n")
    assert records(path, [["id", "INT"], ["v", "INT"]], {})[0] == [(1, 10), (2, 20)]
    path.write_bytes(b"\xef\xbb\xbfa,10\n")
    assert records(path, [["s", "STRING"], ["v", "INT"]], {})[0] == [("a", 10)]


def test_invalid_utf8_in_csv_is_an_error_even_when_ignoring_errors_as_in_flink(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes(b"1,ok\n2,bad\xff\xfe\n3,fine\n")
    for options in ({}, {"csv.ignore-parse-errors": "true"}):
        with pytest.raises(FormatError) as e:
            records(path, [["id", "INT"], ["s", "STRING"]], options)
        assert str(e.value) == "%s:2: column 's': invalid UTF-8 in 'bad\\xff\\xfe'" % path


def test_invalid_utf8_in_json_is_skipped_or_names_the_column(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"id":1,"s":"a"}\n{"id":2,"s":"b\xff"}\n{"id":3,"s":"c"}\n')
    columns = [["id", "INT"], ["s", "STRING"]]
    rows, progress = records(path, columns, {"json.ignore-parse-errors": "true"}, "json")
    assert rows == [(1, "a"), (3, "c")] and progress.skipped == 1
    with pytest.raises(FormatError, match=r"bad.json:2: column 's': invalid UTF-8 in 'b\\xff'"):
        records(path, columns, {}, "json")


def test_fields_up_to_flinks_limit_are_read(tmp_path):
    path = tmp_path / "big.csv"
    path.write_bytes(b"1," + b"x" * (10 << 20) + b"\n2,y\n")                 # a 10 MB field: read
    rows, _ = records(path, [["id", "INT"], ["s", "STRING"]], {})
    assert [(i, len(s)) for i, s in rows] == [(1, 10 << 20), (2, 1)]
    path.write_bytes(b"1," + b"x" * (FIELD_SIZE_LIMIT + 1) + b"\n2,y\n")    # beyond Flink's limit
    with pytest.raises(FormatError, match="big.csv:1: a field is longer than 20000000 characters"):
        records(path, [["id", "INT"], ["s", "STRING"]], {})
    rows, progress = records(path, [["id", "INT"], ["s", "STRING"]], {"csv.ignore-parse-errors": "true"})
    assert rows == [(2, "y")] and progress.skipped == 1                     # Flink skips that row


def test_a_bad_file_fails_the_query_with_file_line_and_column(client, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes(b"1,ok\n2,bad\xff\n")
    client.execute("CREATE TABLE t (id INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'csv')" % path)
    with pytest.raises(DynsqlError) as e:
        for _ in client.execute("SELECT id, s FROM t"):
            pass
    from repl.errors import error_text
    text = error_text(e.value, False)
    assert text == "[ERROR] %s:2: column 's': invalid UTF-8 in 'bad\\xff'" % path


# ------------------------------------------------------------------------------------- counting
LENIENT = "1,10\ntwo,20\n3,30,extra\n4\n5,50\n"


def lenient_table(client, path):
    path.write_text(LENIENT)
    client.execute("CREATE TABLE lenient (id INT, v INT) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'csv', 'csv.ignore-parse-errors' = 'true')" % path)


def test_rows_skipped_by_ignore_parse_errors_are_counted_for_the_shell(client, one_pass_client, tmp_path, capsys):
    lenient_table(one_pass_client, tmp_path / "l.csv")
    lenient_table(client, tmp_path / "l.csv")
    for c in (client, one_pass_client):       # on micro-batches, and read in one pass
        stream = c.execute("SELECT id, v FROM lenient")
        changes = [c for b in stream for c in b.changes]
        assert sorted(changes, key=repr) == sorted([("+I", (1, 10)), ("+I", (None, 20)), ("+I", (4, None)),
                                                    ("+I", (5, 50))], key=repr)
        assert (stream.stats.skipped_rows, stream.stats.nulled_rows) == (1, 2)
    assert "one pass" in one_pass_client.execute("EXPLAIN SELECT id, v FROM lenient").text
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    result = client.execute("SELECT id, v FROM lenient")
    assert (result.skipped_rows, result.nulled_rows) == (1, 2)
    out = io.StringIO()
    print_result(result, out, client.settings, "tableau")
    assert out.getvalue().endswith(
        "4 rows in set\nInput: 1 row skipped, 2 rows read with NULLs (ignore-parse-errors)\n")
    print_result(result, io.StringIO(), client.settings, "jsonl")
    assert "1 row skipped, 2 rows read with NULLs" in capsys.readouterr().err


def test_the_status_line_shows_the_count():
    from repl.toolbar import stream_counters
    from runtime.results import ChangeStream, Column
    stream = ChangeStream([Column("id", "INT")])
    stream.stats.skipped_rows = 3
    stream.finish()
    assert "Input: 3 rows skipped (ignore-parse-errors)" in stream_counters(stream)
    assert TableResult([], []).skipped_rows == 0
