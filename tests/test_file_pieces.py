"""A batch read that needs no row's watermark cuts a large csv or json file into pieces, one a core, read in
parallel (runtime/connectors/splits.py `batch_splits`, split_reader.py `piece_split`): the pieces give the
file's rows, each once, in the file's order by `__seq`, wherever the cuts fall (inside a line, inside a quoted
field that spans lines, on CRLF line ends), and errors name the file's own line numbers. A read whose rows'
`__wm` an operator reads (a streaming query, one read in one pass with late rows) keeps one split a file."""

import json

import pytest

from planner.errors import DynsqlError
from runtime.connectors import splits
from runtime.connectors.filesystem import TableSpec
from runtime.connectors.formats import FormatError
from runtime.connectors.split_reader import read_partition
from runtime.connectors.splits import FilePiece, FileSplit, batch_splits

COLUMNS = [["id", "INT"], ["name", "STRING"], ["ts", "TIMESTAMP(3)"]]


def spec_of(path, fmt="csv", options=None):
    return TableSpec(json.dumps(dict(path=str(path), format=fmt, columns=COLUMNS, options=options or {},
                                     rowtime_index=2, delay_ms=0)))


def schema_json():
    from pyspark.sql import types as st
    from planner.expr.types import parse_type, to_spark
    from runtime.tables import HIDDEN_SCHEMA
    return st.StructType([st.StructField(n, to_spark(parse_type(t))) for n, t in COLUMNS] + HIDDEN_SCHEMA).json()


def read(spec, parts):
    """Each part's rows (id, name, __seq), as executors would read them."""
    return [[(r["id"], r["name"], r["__seq"]) for b in read_partition(spec, p, schema_json()) for r in b.to_pylist()]
            for p in parts]


def csv_lines(n, name=lambda i: "n%d" % i):
    return "".join("%d,%s,2024-01-01 10:00:%02d\n" % (i, name(i), i % 60) for i in range(n))


def assert_same_rows_as_one_split(spec, pieces, piece_bytes):
    whole = read(spec, batch_splits(spec.path))[0]
    parts = batch_splits(spec.path, pieces=pieces, piece_bytes=piece_bytes)
    assert all(isinstance(p, FilePiece) for p in parts) and len(parts) == pieces
    got = read(spec, parts)
    flat = [r for rows in got for r in rows]
    assert [r[:2] for r in flat] == [r[:2] for r in whole]                   # every row once, in order
    assert [r[2] for r in flat] == sorted(r[2] for r in flat)               # __seq: the file's order
    return got


def test_pieces_give_every_row_once_in_the_files_order(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(csv_lines(200))
    for pieces in (2, 3, 7):
        got = assert_same_rows_as_one_split(spec_of(path), pieces, 100)
        assert all(rows for rows in got)                                    # each piece read some of it


def test_a_small_file_or_one_piece_a_core_is_one_split(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(csv_lines(10))
    size = path.stat().st_size
    assert [type(p) for p in batch_splits(str(path), pieces=4, piece_bytes=size)] == [FileSplit]
    assert [type(p) for p in batch_splits(str(path), pieces=1, piece_bytes=1)] == [FileSplit]
    assert [type(p) for p in batch_splits(str(path), pieces=4, piece_bytes=size // 2)] == [FilePiece] * 2


def test_crlf_line_ends_and_json_lines(tmp_path):
    crlf = tmp_path / "crlf.csv"
    crlf.write_bytes(csv_lines(150).replace("\n", "\r\n").encode())
    assert_same_rows_as_one_split(spec_of(crlf), 4, 100)
    lines = tmp_path / "t.json"
    lines.write_text("".join(json.dumps({"id": i, "name": "a,\"b\"\\n%d" % i, "ts": "2024-01-01 10:00:00"}) + "\n"
                             for i in range(150)))
    assert_same_rows_as_one_split(spec_of(lines, "json"), 4, 100)


def test_no_cut_falls_after_a_quote_character(tmp_path):
    """A newline inside a quoted field ends no record: a csv file is cut only where no quote comes before."""
    path = tmp_path / "q.csv"
    quoted = lambda i: '"two\nlines, %d"' % i if i in (30, 120) else "n%d" % i   # noqa: E731
    path.write_text(csv_lines(200, quoted))
    got = assert_same_rows_as_one_split(spec_of(path), 4, 100)
    whole = read(spec_of(path), batch_splits(str(path)))[0]
    assert whole[30][1] == "two\nlines, 30" and len(whole) == 200
    assert [len(rows) > 0 for rows in got] == [True, False, False, False]   # the quote is in the first piece
    assert_same_rows_as_one_split(spec_of(path, options={"csv.disable-quote-character": "true",
                                                         "csv.ignore-parse-errors": "true"}), 4, 100)


def test_an_error_in_a_later_piece_names_the_files_line(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text(csv_lines(150) + "150,bad,not a time\n" + csv_lines(10))
    parts = batch_splits(str(path), pieces=3, piece_bytes=100)
    with pytest.raises(FormatError, match=r"bad.csv:151: column 'ts'"):
        read(spec_of(path), parts[-1:])


# ------------------------------------------------------------------------------------- through Spark
@pytest.fixture
def ticks(tmp_path, monkeypatch):
    """A ticks file of 600 rows, and pieces of at least 2,000 bytes: a batch read cuts it into two pieces
    (local[2])."""
    monkeypatch.setattr(splits, "PIECE_BYTES", 2000)
    path = tmp_path / "ticks.csv"
    path.write_text("".join("%s,2024-01-01 10:%02d:%02d,%d\n" % ("AB"[i % 2], i // 120, i // 2 % 60, (i * 7) % 13)
                            for i in range(600)))

    def create(client):
        client.execute("CREATE TABLE ticks (symbol STRING, ts TIMESTAMP(3), price INT, WATERMARK FOR ts AS ts) "
                       "WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % path)
        return client
    return create


MATCHES = """SELECT * FROM ticks MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY ts
    MEASURES START_ROW.ts AS start_ts, LAST(DOWN.price) AS bottom, UP.ts AS up_ts
    ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (START_ROW DOWN+ UP)
    DEFINE DOWN AS (LAST(DOWN.price, 1) IS NULL AND DOWN.price < START_ROW.price) OR DOWN.price < LAST(DOWN.price, 1),
           UP AS UP.price > LAST(DOWN.price)) M"""


def test_a_batch_query_over_pieces_gives_the_rows_of_one_split(client, ticks, spark, monkeypatch):
    from runtime.operators.scan import ScanRef
    from runtime.tables import table_frame
    c = ticks(client)
    table = c.catalog.get("ticks")
    assert table_frame(spark, ScanRef(table), streaming=False, cut_files=True).rdd.getNumPartitions() == 2
    assert table_frame(spark, ScanRef(table), streaming=False).rdd.getNumPartitions() == 1
    c.execute("SET 'execution.runtime-mode' = 'batch'")
    c.execute("SET 'dynsql.whole-file.max-size' = '0'")   # the match reads the scan's pieces
    in_pieces = sorted(c.execute(MATCHES).rows)
    monkeypatch.setattr(splits, "PIECE_BYTES", 1 << 30)
    assert sorted(c.execute(MATCHES).rows) == in_pieces and len(in_pieces) > 10
    assert c.execute("SELECT COUNT(*) AS n, SUM(price) AS total FROM ticks").rows == \
        [(600, sum((i * 7) % 13 for i in range(600)))]


def test_only_reads_whose_watermarks_nothing_reads_are_cut(client, one_pass_client, ticks, monkeypatch):
    import runtime.tables
    asked = []
    real = runtime.tables.table_frame

    def table_frame(*args, **kwargs):
        asked.append(kwargs.get("cut_files", False))
        return real(*args, **kwargs)
    monkeypatch.setattr(runtime.tables, "table_frame", table_frame)
    group = "SELECT symbol, COUNT(*) AS n FROM ticks GROUP BY symbol"
    for c, sql, mode, cut in ((one_pass_client, MATCHES, "streaming", False),     # one pass, late rows by __wm
                              (one_pass_client, group, "streaming", True),       # one pass, no watermark read
                              (client, MATCHES, "streaming", False),             # micro-batches
                              (client, MATCHES, "batch", True)):
        ticks(c).execute("SET 'execution.runtime-mode' = '%s'" % mode)
        asked.clear()
        c.execute("EXPLAIN " + sql)
        assert asked == [cut], (sql, mode)
        c.execute("DROP TABLE ticks")


def test_a_bad_row_in_a_piece_fails_the_query_naming_its_line(client, tmp_path, monkeypatch):
    monkeypatch.setattr(splits, "PIECE_BYTES", 1000)
    path = tmp_path / "bad.csv"
    path.write_text(csv_lines(150) + "150,bad,not a time\n")
    client.execute("CREATE TABLE t (id INT, name STRING, ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv')" % path)
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    with pytest.raises(DynsqlError, match=r"bad.csv:151: column 'ts'"):
        client.execute("SELECT COUNT(*) FROM t")
