"""A key's rows reach MATCH_RECOGNIZE and the temporal join packed when the key has many rows in a micro-batch
(runtime/operators/packed_rows.py): SQL in, rows out, the same rows as computed here from the data, with
exact big integers, NULLs, strings, decimals and timestamps. The inputs are small files read in one
micro-batch: two keys with 400 rows each travel packed, a third with 3 rows as its rows."""

from collections import Counter
from datetime import datetime, timedelta
from decimal import Decimal

import numpy as np
import pandas as pd
import pyarrow as pa

from runtime.operators.packed_rows import PACK_FROM, ROWS, _packer, unpack

START = datetime(2024, 1, 1)
BIG = 2 ** 62


def ticker_rows():
    """(symbol, ts, price, note, amt): ts increasing over the file (no late row); NULL prices and notes."""
    rows = []
    for i in range(803):
        symbol = "rare" if i % 268 == 0 else ("S1" if i % 2 else "S2")
        price = None if i % 17 == 0 else BIG - (i * 7919) % 1000
        if symbol == "rare":
            price = i + 1                                       # one rise: the 2nd and 3rd rows
        note = None if i % 5 == 0 else "n%d" % i
        rows.append((symbol, START + timedelta(seconds=i), price, note, Decimal(i) / 100))
    return rows


def text(v):
    if v is None:
        return "NULL"
    if isinstance(v, datetime):
        return v.strftime("%Y-%m-%d %H:%M:%S")
    return str(v)


def write_csv(path, rows):
    path.write_text("".join(",".join(text(v) for v in row) + "\n" for row in rows))


def expected_rises(rows):
    """PATTERN (A B) DEFINE B AS B.price > A.price, AFTER MATCH SKIP PAST LAST ROW, per symbol."""
    out = []
    for symbol in sorted({r[0] for r in rows}):
        part = [r for r in rows if r[0] == symbol]
        i = 0
        while i + 1 < len(part):
            a, b = part[i], part[i + 1]
            if a[2] is not None and b[2] is not None and b[2] > a[2]:
                out.append((symbol, a[2], b[2], b[3], b[4], b[1]))
                i += 2
            else:
                i += 1
    return Counter(out)


def test_match_recognize_over_packed_rows(client, tmp_path):
    rows = ticker_rows()
    assert Counter(r[0] for r in rows)["S1"] >= 2 * PACK_FROM
    write_csv(tmp_path / "ticker.csv", rows)
    client.execute("""CREATE TABLE ticker (symbol STRING, ts TIMESTAMP(3), price BIGINT, note STRING,
        amt DECIMAL(12, 2), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.null-literal' = 'NULL')"""
                   % (tmp_path / "ticker.csv"))
    result = client.execute("""SELECT * FROM ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY ts
        MEASURES A.price AS a_price, B.price AS b_price, B.note AS note, B.amt AS amt, B.ts AS b_ts
        ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B) DEFINE B AS B.price > A.price) MR""")
    changes = [(op, tuple(row)) for batch in result for op, row in batch.changes]
    assert {op for op, _ in changes} == {"+I"}
    got = Counter(row for _, row in changes)
    assert got == expected_rises(rows)
    assert sum(row[0] == "rare" for row in got) == 1         # the key that went as its rows
    assert any(row[3] is None for row in got)               # a NULL string through the packed rows


def test_temporal_join_over_packed_rows(client, tmp_path):
    rates = []
    for currency, base in (("EUR", 100), ("USD", 200), ("CHF", 300)):
        for k in range(6):
            rates.append((currency, Decimal(base + k), START + timedelta(minutes=10 * k)))
    rates.sort(key=lambda r: r[2])
    orders = []
    for i in range(803):
        currency = "CHF" if i % 268 == 0 else ("EUR" if i % 2 else "USD")
        amount = None if i % 13 == 0 else BIG - i
        note = None if i % 7 == 0 else "o%d" % i
        orders.append(("id%d" % i, currency, amount, note, START + timedelta(seconds=5 * i - 30)))
    write_csv(tmp_path / "rates.csv", rates)
    write_csv(tmp_path / "orders.csv", orders)
    client.execute("""CREATE TABLE rates (currency STRING, rate DECIMAL(10, 2), update_time TIMESTAMP(3),
        WATERMARK FOR update_time AS update_time)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')""" % (tmp_path / "rates.csv"))
    client.execute("""CREATE TABLE orders (id STRING, currency STRING, amount BIGINT, note STRING,
        order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.null-literal' = 'NULL')"""
                   % (tmp_path / "orders.csv"))
    client.execute("""CREATE VIEW versioned_rates AS SELECT currency, rate, update_time FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum FROM rates)
        WHERE rownum = 1""")
    result = client.execute("""SELECT o.id, o.amount, o.note, r.rate, r.update_time FROM orders AS o
        JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency""")
    changes = [(op, tuple(row)) for batch in result for op, row in batch.changes]
    assert {op for op, _ in changes} == {"+I"}
    expected = Counter()
    for oid, currency, amount, note, t in orders:
        valid = [r for r in rates if r[0] == currency and r[2] <= t]
        if valid:
            expected[(oid, amount, note, valid[-1][1], valid[-1][2])] += 1
    assert Counter(row for _, row in changes) == expected
    assert len(expected) > 790                                   # all but the orders before the first rates


def test_nested_values_through_packed_rows_and_out_of_match_recognize(client, tmp_path):
    """ARRAY, ROW, MAP and DATE columns of packed rows, and MEASURES of those types (a MAP measure made the
    worker fail before: the matcher holds a MAP as Arrow's (key, value) pairs, Spark's worker takes a dict)."""
    import json
    with open(tmp_path / "t.json", "w") as f:
        for i in range(600):
            f.write(json.dumps({"sym": "A" if i % 2 else "B", "ts": "2024-01-01 00:%02d:%02d" % (i // 60, i % 60),
                                "price": (i * 37) % 101, "tags": None if i % 9 == 0 else [i, None],
                                "info": {"a": i, "b": None if i % 4 == 0 else "x%d" % i}, "m": {"k": i},
                                "d": "2024-02-%02d" % (i % 28 + 1)}) + "\n")
    client.execute("""CREATE TABLE t (sym STRING, ts TIMESTAMP(3), price INT, tags ARRAY<INT>,
        info ROW<a INT, b STRING>, m MAP<STRING, INT>, d DATE, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json')""" % (tmp_path / "t.json"))
    query = """SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY sym ORDER BY ts
        MEASURES A.tags AS a_tags, B.info AS b_info, B.m AS b_m, B.d AS b_d, B.price AS b_price
        ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (A B) DEFINE B AS B.price > A.price) MR"""
    streamed = [tuple(row) for batch in client.execute(query) for _, row in batch.changes]
    client.settings.set("execution.runtime-mode", "batch")
    assert Counter(map(repr, streamed)) == Counter(repr(tuple(row)) for row in client.execute(query).rows)
    assert len(streamed) > 100
    for sym, tags, info, m, d, price in streamed:
        i = info["a"]                                      # B's row number
        assert (m, price, d.day) == ({"k": i}, (i * 37) % 101, i % 28 + 1)
        assert info["b"] == (None if i % 4 == 0 else "x%d" % i)


def worker_frames(batch):
    """What Spark 4.3's transformWithStateInPandas worker hands a key: its rows, regrouped row by row."""
    from pyspark.sql.conversion import ArrowBatchTransformer
    frame = pd.concat(ArrowBatchTransformer.to_pandas(batch, timezone="UTC"), axis=1)
    by_key = {}
    for row in frame.itertuples(index=False):
        by_key.setdefault(row[0], []).append(row)
    return {k: pd.DataFrame(v) for k, v in by_key.items()}


def test_unpacked_frames_are_the_workers_frames():
    """Per key, `unpack` of what the packer sends gives the frame the worker builds from the rows themselves:
    the same dtypes and values (NULL in a number column, big integers, strings, decimals, arrays, timestamps),
    for packed keys, keys sent as rows, and both in one input batch."""
    n = 1000
    rng = np.random.default_rng(3)
    keys = np.array(["k%d" % (i % 60) if i % 10 == 3 else "big" for i in range(n)], dtype=object)  # k: 8 a batch
    batch = pa.record_batch({
        "k": pa.array(keys), "v": pa.array(rng.integers(-2 ** 62, 2 ** 62, n)),
        "s": pa.array([None if i % 7 == 0 else "x%d" % i for i in range(n)]), "f": pa.array(rng.random(n)),
        "b": pa.array(rng.random(n) > 0.5), "d": pa.array([None if i % 3 == 0 else i for i in range(n)], pa.float64()),
        "ts": pa.array(np.arange(n) * 10 ** 6, pa.timestamp("us", tz="UTC")),
        "dec": pa.array([None if i % 2 else Decimal(i) / 100 for i in range(n)], pa.decimal128(10, 2)),
        "arr": pa.array([[i, None] for i in range(n)])})
    reference = worker_frames(pa.RecordBatch.from_arrays(batch.columns + [pa.nulls(n, pa.binary())],
                                                         names=batch.schema.names + ["__rows"]))

    def rep(x):
        return repr(list(x)) if hasattr(x, "__len__") and not isinstance(x, str) else repr(x)

    for pack_from, packed_keys in ((10, {"big"}), (4, set(reference)), (1000, set())):
        sent = list(_packer(["k"], pack_from, ROWS)(iter([batch.slice(0, 500), batch.slice(500)])))
        got = {}
        for out in sent:
            for k, frame in worker_frames(out).items():
                got.setdefault(k, []).append(frame)
        assert {k for k, frames in got.items() if any(f.iloc[:, -1].notna().any() for f in frames)} == packed_keys
        assert set(got) == set(reference)
        for k, frames in got.items():
            mine, theirs = unpack(frames, "UTC"), reference[k].iloc[:, :-1]
            mine = mine.sort_values(mine.columns[1]).reset_index(drop=True)
            theirs = theirs.sort_values(theirs.columns[1]).reset_index(drop=True)
            assert list(mine.dtypes) == list(theirs.dtypes), k
            for j in range(mine.shape[1]):
                assert [rep(x) for x in mine.iloc[:, j]] == [rep(x) for x in theirs.iloc[:, j]], (k, j)
