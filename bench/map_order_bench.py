"""What keeping Flink's map order costs. (1) runtime/connectors/map_order.py's in_hash_map_order over N maps read
from JSON: maps of 5 keys (the vectorized kernel) and maps of 60 keys with 12 crowding one slot (each simulated
through Java's HashMap, tree bins and all). (2) Bringing N result rows with a MAP<STRING, INT> of 5 entries (alone, and
in an ARRAY) to the driver: Spark's collect() (which hands each map over as a dict of a Java HashMap, out of
order) against runtime/result_columns.collect_columns (a map of flat types through Arrow; a map deeper in as
its keys' and values' arrays: runtime/map_columns.py), in one local Spark session (local[2]), cached input. Seconds, best of three. Prints the figures; asserts nothing.
Usage: python bench/map_order_bench.py [--maps N] [--rows N]"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def best(fn, runs=3):
    times = []
    for _ in range(runs):
        t0 = time.time()
        fn()
        times.append(time.time() - t0)
    return min(times)


def crowded_keys(rng, n_maps):
    import numpy as np
    import pyarrow as pa
    from runtime.connectors.map_order import string_hashes
    pool = ["k%d_%d" % (i, rng.randrange(10 ** 6)) for i in range(200_000)]
    h = string_hashes(pa.array(pool)).astype(np.int64)
    slot = (h ^ (h >> 16)) & 127
    crowd = [w for w, s in zip(pool, slot) if s == 7]
    others = [w for w, s in zip(pool, slot) if s != 7]
    return [rng.sample(crowd, 12) + rng.sample(others, 48) for _ in range(n_maps)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maps", type=int, default=100_000)
    ap.add_argument("--rows", type=int, default=200_000)
    args = ap.parse_args()
    import pyarrow as pa
    from runtime.connectors.map_order import in_hash_map_order
    rng = random.Random(1)
    small = pa.array([[("k%d" % rng.randrange(10 ** 6), j) for j in range(5)] for _ in range(args.maps)],
                     pa.map_(pa.string(), pa.int32()))
    crowded = pa.array([[(k, j) for j, k in enumerate(m)] for m in crowded_keys(rng, args.maps // 100)],
                       pa.map_(pa.string(), pa.int32()))
    print("in_hash_map_order, %d maps of 5 keys: %.2f s" % (args.maps, best(lambda: in_hash_map_order(small))))
    print("in_hash_map_order, %d maps of 60 keys, 12 in one slot (tree bins): %.2f s"
          % (len(crowded), best(lambda: in_hash_map_order(crowded))))

    from pyspark.sql import SparkSession
    from runtime.result_columns import collect_columns
    spark = SparkSession.builder.master("local[2]").appName("map-order-bench").getOrCreate()
    try:
        df = spark.range(args.rows).selectExpr(
            "id", "map(concat('a', id % 97), 1, concat('b', id % 89), 2, 'c', 3, 'd', 4, concat('e', id), 5) AS m")
        df = df.cache()
        df.count()

        nested = df.selectExpr("id", "array(m) AS am").cache()
        nested.count()
        print("Spark's collect() of %d rows with a 5-entry map (out of order): %.2f s" % (args.rows, best(df.collect)))
        print("collect_columns (through Arrow, in order): %.2f s" % best(lambda: collect_columns(df)))
        print("Spark's collect() of the map in an array (out of order): %.2f s" % best(nested.collect))
        print("collect_columns (keys and values arrays, in order): %.2f s" % best(lambda: collect_columns(nested)))
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
