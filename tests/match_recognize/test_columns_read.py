"""MATCH_RECOGNIZE reads only the input columns its clauses name (ONE ROW PER MATCH): the others are not
shuffled, sorted, sent to the matcher nor kept in its state, and the rows are the same in batch mode, on
micro-batches and in one pass. ALL ROWS PER MATCH outputs every input column, so it reads them all."""

import re

import pytest

from planner.match_recognize import parse_match_recognize, validate
from runtime.match_recognize.matcher import columns_read

TICKS = """\
ACME,2024-01-01 10:00:01,12,a,1
ACME,2024-01-01 10:00:02,11,b,2
ACME,2024-01-01 10:00:03,10,c,3
ACME,2024-01-01 10:00:04,13,d,4
BETA,2024-01-01 10:00:05,20,e,5
BETA,2024-01-01 10:00:06,19,f,6
BETA,2024-01-01 10:00:07,25,g,7
"""
COLUMNS = [("symbol", "STRING"), ("ts", "TIMESTAMP(3)"), ("price", "INT"), ("note", "STRING"), ("tax", "INT")]

V_SHAPE = """SELECT * FROM ticks MATCH_RECOGNIZE (
      PARTITION BY symbol ORDER BY ts
      MEASURES LAST(UP.ts) AS up_ts, LAST(DOWN.price) AS bottom%s
      %s PER MATCH AFTER MATCH SKIP PAST LAST ROW
      PATTERN (START_ROW DOWN+ UP)
      DEFINE DOWN AS (LAST(DOWN.price, 1) IS NULL AND DOWN.price < START_ROW.price)
                  OR DOWN.price < LAST(DOWN.price, 1),
             UP AS UP.price > LAST(DOWN.price)) MR"""
ONE_ROW = V_SHAPE % ("", "ONE ROW")


@pytest.fixture
def ticks(tmp_path):
    path = tmp_path / "ticks.csv"
    path.write_text(TICKS)

    def create(client):
        client.execute("CREATE TABLE ticks (symbol STRING, ts TIMESTAMP(3), price INT, note STRING, tax INT, "
                       "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', "
                       "'path' = '%s', 'format' = 'csv')" % path)
        return client
    return create


def spec_of(sql):
    body = sql[sql.index("PARTITION BY"):sql.rindex(")")]
    return validate(parse_match_recognize(body), COLUMNS, "ts", extensions=True)


def test_one_row_per_match_reads_the_columns_its_clauses_name():
    assert [n for n, _ in columns_read(spec_of(ONE_ROW), COLUMNS)] == ["symbol", "ts", "price"]
    with_note = V_SHAPE % (", FIRST(DOWN.note) AS first_note", "ONE ROW")
    assert [n for n, _ in columns_read(spec_of(with_note), COLUMNS)] == ["symbol", "ts", "price", "note"]
    assert columns_read(spec_of(V_SHAPE % ("", "ALL ROWS")), COLUMNS) == COLUMNS


def rows(client, sql):
    """A streaming query's changes, or a batch query's rows as +I."""
    from runtime.results import ChangeStream
    result = client.execute(sql)
    changes = [c for b in result for c in b.changes] if isinstance(result, ChangeStream) else \
        [("+I", r) for r in result.rows]
    return sorted((op, tuple(str(v) for v in row)) for op, row in changes)


def matcher_input(client, sql):
    """The columns the batch matcher's mapInArrow is given, by EXPLAIN's Spark plan."""
    shown = client.execute("EXPLAIN " + sql).text
    args = re.search(r"_ArrowMatch\(([^)]*)\)", shown).group(1)
    return [a.split("#")[0] for a in args.split(", ")]


@pytest.mark.slow       # 11 s here: `make test-slow` (make test within 25 min on a slow CI machine)
def test_the_rows_are_the_same_in_batch_mode_on_micro_batches_and_in_one_pass(client, one_pass_client, ticks):
    expected = [("+I", ("ACME", "2024-01-01 10:00:04", "10")), ("+I", ("BETA", "2024-01-01 10:00:07", "19"))]
    assert rows(ticks(client), ONE_ROW) == expected
    assert rows(ticks(one_pass_client), ONE_ROW) == expected      # each task reads the small file (whole_file.py)
    one_pass_client.execute("SET 'dynsql.whole-file.max-size' = '0'")
    assert rows(one_pass_client, ONE_ROW) == expected                # through the shuffle
    assert matcher_input(one_pass_client, ONE_ROW) == ["symbol", "ts", "price", "__late"]
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    assert rows(client, ONE_ROW) == expected                # each task reads the small file (whole_file.py)
    client.execute("SET 'dynsql.whole-file.max-size' = '0'")
    assert rows(client, ONE_ROW) == expected                # through the shuffle
    assert matcher_input(client, ONE_ROW) == ["symbol", "ts", "price"]


def test_all_rows_per_match_keeps_every_column(client, ticks):
    client = ticks(client)
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    client.execute("SET 'dynsql.match-recognize.extensions' = 'true'")    # ALL ROWS PER MATCH: beyond Flink
    client.execute("SET 'dynsql.whole-file.max-size' = '0'")      # the shuffle's matcher input
    sql = V_SHAPE % ("", "ALL ROWS")
    assert matcher_input(client, sql) == ["symbol", "ts", "price", "note", "tax"]
    got = rows(client, sql)
    assert [r[1][-2:] for r in got if r[1][0] == "ACME"] == [("a", "1"), ("b", "2"), ("c", "3"), ("d", "4")]
