"""MATCH_RECOGNIZE throughput: the seed's price-drop query over generated ticker rows (default 1 M rows,
100 symbols, a random walk per symbol; demo_data/generate.py's generator), in batch and in streaming,
plus the pure-Python matcher core alone. Prints rows/s; asserts nothing.

    .venv/bin/python bench/match_recognize_bench.py [--rows N] [--symbols K] [--files F] [--no-stream]"""

import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "demo_data"))

BODY = """PARTITION BY symbol ORDER BY rowtime
    MEASURES START_ROW.rowtime AS start_tstamp, LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
             LAST(PRICE_UP.rowtime) AS end_tstamp
    ONE ROW PER MATCH
    AFTER MATCH SKIP TO LAST PRICE_UP
    PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
    DEFINE
        PRICE_DOWN AS (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR
            PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
        PRICE_UP AS PRICE_UP.price > LAST(PRICE_DOWN.price, 1)"""
COLUMNS = [("symbol", "STRING"), ("rowtime", "TIMESTAMP(3)"), ("price", "BIGINT"), ("tax", "BIGINT")]
DELAY_MS = 1000


def _ts_type():
    import pyarrow as pa
    return pa.timestamp("us", tz="UTC")     # Spark reads a zone-less Parquet timestamp as TIMESTAMP_NTZ


TS = None


def make_table(rows, symbols, seed=7):
    """The ticker rows with __seq (arrival order) and __wm (max earlier rowtime - 1 s), as Arrow."""
    import numpy as np
    import pyarrow as pa
    global TS
    TS = _ts_type()
    from generate import ticker_table
    t = ticker_table(rows, symbols, np.random.default_rng(seed))
    ms = t.column("rowtime").cast(pa.int64()).to_numpy()
    running = np.maximum.accumulate(ms)
    wm = np.concatenate([[0], running[:-1] - DELAY_MS])
    mask = np.zeros(rows, dtype=bool)
    mask[:1] = True                      # no watermark before the first row
    wm_arr = pa.array(wm, pa.int64(), mask=mask).cast(pa.timestamp("ms")).cast(TS)
    t = t.set_column(t.schema.get_field_index("rowtime"), "rowtime", t.column("rowtime").cast(TS))
    return (t.append_column("__seq", pa.array(np.arange(rows), pa.int64()))
             .append_column("__wm", wm_arr))


def spec():
    from planner.match_recognize import parse_match_recognize, validate
    return validate(parse_match_recognize(BODY), COLUMNS, "rowtime")


def bench_core(table):
    from runtime.match_recognize.matcher import CompiledMatch
    from runtime.match_recognize.rows import to_micros
    import pyarrow as pa
    import pyarrow.compute as pc
    c = CompiledMatch(spec(), [n for n, _ in COLUMNS])
    started = time.perf_counter()
    cpu = time.process_time()
    sorted_t = table.sort_by([("symbol", "ascending"), ("rowtime", "ascending"), ("__seq", "ascending")])
    syms = sorted_t.column("symbol").to_pylist()
    from runtime.match_recognize.batch import _column_values
    cols = [_column_values(sorted_t.column(n).combine_chunks()) for n, _ in COLUMNS]
    ts = sorted_t.column("rowtime").cast(pa.int64()).to_pylist()   # microseconds
    out = 0
    a, n = 0, len(syms)
    while a < n:
        b = a
        while b < n and syms[b] == syms[a]:
            b += 1
        out += len(c.run_partition([col[a:b] for col in cols], ts[a:b], (syms[a],)))
        a = b
    el = time.perf_counter() - started
    return out, el, time.process_time() - cpu


def spark_session():
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession
    return (SparkSession.builder.master("local[2]").appName("mr-bench")
            .config("spark.sql.shuffle.partitions", "2").config("spark.sql.session.timeZone", "UTC")
            .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
            .config("spark.driver.memory", "2g").config("spark.python.authenticate.socketTimeout", "300s")
            .config("spark.sql.streaming.stateStore.providerClass",
                    "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider")
            .config("spark.driver.extraJavaOptions", "-Xss16m -Duser.timezone=UTC")
            .getOrCreate())


def write_files(table, folder, files):
    import datetime as dt
    import pyarrow as pa
    import pyarrow.parquet as pq
    os.makedirs(folder)
    n = table.num_rows
    per = -(-n // files)
    for k in range(files):
        path = os.path.join(folder, "part-%05d.parquet" % k)
        pq.write_table(table.slice(k * per, per), path)
        os.utime(path, (1_700_000_000 + k, 1_700_000_000 + k))
    end = pa.table({"symbol": pa.array(["__end__"]), "rowtime": pa.array([dt.datetime(9999, 12, 31, 23, 59, 59)], TS),
                    "price": pa.array([0], pa.int64()), "tax": pa.array([0], pa.int64()),
                    "__seq": pa.array([n], pa.int64()), "__wm": pa.array([None], TS)})
    path = os.path.join(folder, "part-%05d.parquet" % files)
    pq.write_table(end, path)
    os.utime(path, (1_700_000_000 + files, 1_700_000_000 + files))


def bench_batch(spark, folder, rows):
    from runtime.match_recognize.batch import match_batch
    from pyspark.sql import functions as F
    df = spark.read.parquet(folder).filter(F.col("symbol") != "__end__")
    match_batch(df.limit(1000), spec(), COLUMNS).count()          # warm up the Python workers
    started = time.perf_counter()
    n = match_batch(df, spec(), COLUMNS).count()
    return n, time.perf_counter() - started


def bench_stream(spark, folder, ckpt):
    import datetime as dt
    from pyspark.sql import functions as F
    from runtime.match_recognize.stream import match_stream
    schema = spark.read.parquet(folder).schema
    src = (spark.readStream.schema(schema).option("maxFilesPerTrigger", 1).parquet(folder)
           .withWatermark("rowtime", "%d milliseconds" % DELAY_MS)
           .filter(F.col("rowtime") < F.lit(dt.datetime(9999, 12, 31, 23, 59, 59))))
    out = match_stream(src, spec(), COLUMNS, "rowtime")
    counted = [0]

    def count(batch, batch_id):
        counted[0] += batch.count()

    started = time.perf_counter()
    q = (out.writeStream.outputMode("append").foreachBatch(count).option("checkpointLocation", ckpt)
         .trigger(availableNow=True).start())
    q.awaitTermination()
    return counted[0], time.perf_counter() - started


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--symbols", type=int, default=100)
    ap.add_argument("--files", type=int, default=10, help="streaming micro-batches (one file each)")
    ap.add_argument("--no-stream", action="store_true")
    args = ap.parse_args(argv)
    table = make_table(args.rows, args.symbols)
    matches, el, cpu = bench_core(table)
    print("core (pure Python, 1 process): %d rows, %d matches, %.2f s, %.0f rows/s (CPU time %.2f s: %.0f rows/s)"
          % (args.rows, matches, el, args.rows / el, cpu, args.rows / cpu), flush=True)
    tmp = tempfile.mkdtemp(prefix="mr-bench-")
    folder = os.path.join(tmp, "in")
    write_files(table, folder, args.files)
    spark = spark_session()
    n, el = bench_batch(spark, folder, args.rows)
    print("batch  (Spark local[2], match_batch): %d rows, %d matches, %.2f s, %.0f rows/s"
          % (args.rows, n, el, args.rows / el), flush=True)
    if not args.no_stream:
        n2, el = bench_stream(spark, folder, os.path.join(tmp, "ckpt"))
        print("stream (Spark local[2], match_stream, %d micro-batches): %d rows, %d matches, %.2f s, %.0f rows/s"
              % (args.files, args.rows, n2, el, args.rows / el), flush=True)
    spark.stop()


if __name__ == "__main__":
    main()
