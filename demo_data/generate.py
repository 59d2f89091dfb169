"""Generate the larger benchmark data sets into demo_data/generated/ (git-ignored), with their DDL.

  python demo_data/generate.py                      1 M ticker rows over 100 symbols, 1 M clicks over 10 k users
  python demo_data/generate.py --ticker-rows 100000 --symbols 10 --click-rows 0 --out /tmp/data

ticker.csv  (symbol, rowtime, price, tax): one row per symbol per second, in time order (so ordered
            by time per symbol too); each symbol's price is a random walk (steps of -2..+2, never
            below 1), the tax 1..3. The same columns as the demo Ticker table.
clicks.csv  (user, cTime, url): clicks in time order, users drawn with a skew (a few busy users),
            urls from a small set of pages. The same columns as the demo clicks table.
generated.sql  CREATE TABLE ticker_big / clicks_big over those files (absolute paths).

Deterministic for a given --seed. Uses numpy and pyarrow's csv writer: 1 M rows take a few seconds.
It does not run any query: bench/ does."""

import argparse
import datetime as dt
import os
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

HERE = os.path.dirname(os.path.abspath(__file__))
START = np.datetime64("2024-01-01T00:00:00", "ms")
PAGES = np.array(["./home", "./cart", "./checkout", "./search"] + ["./prod?id=%d" % i for i in range(1, 97)])


def symbol_names(n):
    """AAAA, AAAB, ...: n distinct four-letter symbols."""
    letters = np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    idx = np.arange(n)
    digits = [(idx // 26 ** k) % 26 for k in (3, 2, 1, 0)]
    return np.array(["".join(letters[d[i]] for d in digits) for i in range(n)])


def ticker_table(rows, symbols, rng):
    """`rows` ticker rows: every second, one row for each symbol, prices as a random walk per symbol."""
    seconds = -(-rows // symbols)
    steps = rng.integers(-2, 3, size=(seconds, symbols))
    start = rng.integers(10, 200, size=symbols)
    prices = np.maximum(start + np.cumsum(steps, axis=0), 1).ravel()[:rows]
    sym = np.tile(symbol_names(symbols), seconds)[:rows]
    times = START + np.repeat(np.arange(seconds), symbols)[:rows].astype("timedelta64[s]")
    tax = rng.integers(1, 4, size=rows)
    return pa.table({
        "symbol": pa.array(sym, pa.string()),
        "rowtime": pa.array(times, pa.timestamp("ms")),
        "price": pa.array(prices.astype(np.int64)),
        "tax": pa.array(tax.astype(np.int64)),
    })


def clicks_table(rows, users, rng):
    """`rows` clicks in time order over `users` users (Zipf-like skew), about 10 clicks a second."""
    gaps = rng.exponential(100.0, size=rows).astype(np.int64)  # ms between clicks
    times = START + np.cumsum(gaps).astype("timedelta64[ms]")
    user_ids = (rng.zipf(1.3, size=rows) - 1) % users
    names = np.char.add("user_", user_ids.astype(str))
    urls = PAGES[rng.integers(0, len(PAGES), size=rows)]
    return pa.table({
        "user": pa.array(names, pa.string()),
        "cTime": pa.array(times, pa.timestamp("ms")),
        "url": pa.array(urls, pa.string()),
    })


def write_csv(table, path):
    """csv without a header, timestamps as 'YYYY-MM-DD HH:MM:SS.fff' (what the csv format reads)."""
    cols = []
    for name in table.column_names:
        col = table[name]
        if pa.types.is_timestamp(col.type):
            col = pa.compute.strftime(col, format="%Y-%m-%d %H:%M:%S")
        cols.append(col)
    out = pa.table(cols, names=table.column_names)
    pacsv.write_csv(out, path, write_options=pacsv.WriteOptions(include_header=False, quoting_style="none"))


DDL = """CREATE TABLE ticker_big (
  symbol  STRING,
  rowtime TIMESTAMP(3),
  price   BIGINT,
  tax     BIGINT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '{ticker}', 'format' = 'csv');

CREATE TABLE clicks_big (
  `user` STRING,
  cTime  TIMESTAMP(3),
  url    STRING,
  WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '{clicks}', 'format' = 'csv');
"""


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ticker-rows", type=int, default=1_000_000)
    ap.add_argument("--symbols", type=int, default=100)
    ap.add_argument("--click-rows", type=int, default=1_000_000)
    ap.add_argument("--users", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--out", default=os.path.join(HERE, "generated"), help="output folder")
    args = ap.parse_args(argv)
    for name in ("ticker_rows", "click_rows"):
        if getattr(args, name) < 0:
            ap.error("--%s must be 0 or more" % name.replace("_", "-"))
    for name in ("symbols", "users"):
        if getattr(args, name) < 1:
            ap.error("--%s must be at least 1" % name)
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    paths = {"ticker": os.path.abspath(os.path.join(args.out, "ticker.csv")),
             "clicks": os.path.abspath(os.path.join(args.out, "clicks.csv"))}
    t0 = time.time()
    if args.ticker_rows:
        write_csv(ticker_table(args.ticker_rows, args.symbols, rng), paths["ticker"])
        print("%s: %d rows, %d symbols" % (paths["ticker"], args.ticker_rows, args.symbols))
    if args.click_rows:
        write_csv(clicks_table(args.click_rows, args.users, rng), paths["clicks"])
        print("%s: %d rows, %d users" % (paths["clicks"], args.click_rows, args.users))
    with open(os.path.join(args.out, "generated.sql"), "w", encoding="utf-8") as f:
        f.write(DDL.format(**paths))
    print("%s (%.1f s)" % (os.path.join(args.out, "generated.sql"), time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
