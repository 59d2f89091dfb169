"""java.lang.Math through Spark's reflection (how dynsql computes Flink's EXP, LN, LOG, LOG10, LOG2, POWER:
planner/expr/functions/math.py) next to Spark's own StrictMath function: seconds to sum f(x) over N rows of
a DOUBLE column (cached) in one local Spark session (local[2]), best of three. (Spark's reflection is
nondeterministic to its analyzer: not allowed inside an aggregate call, so f(x) is a projection below the SUM,
as dynsql writes aggregate arguments.) Prints the figures; asserts nothing.
Usage: python bench/java_math_bench.py [--rows N]"""

import argparse
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2_000_000)
    args = ap.parse_args()
    from pyspark.sql import SparkSession
    spark = SparkSession.builder.master("local[2]").appName("java-math-bench").getOrCreate()
    try:
        spark.range(args.rows).selectExpr("CAST(id AS DOUBLE) / 1e5 + 0.5 AS x").cache().createOrReplaceTempView("t")
        spark.sql("SELECT COUNT(*) FROM t").collect()
        forms = {
            "Spark EXP(x) (StrictMath)": "EXP(x)",
            "java.lang.Math.exp by reflection": "CAST(java_method('java.lang.Math', 'exp', x) AS DOUBLE)",
            "Spark LN(x) (StrictMath)": "LN(x)",
            "java.lang.Math.log by reflection": "CAST(java_method('java.lang.Math', 'log', x) AS DOUBLE)",
        }
        for name, sql in forms.items():
            best = None
            for _ in range(3):
                t0 = time.time()
                spark.sql("SELECT SUM(y) FROM (SELECT %s AS y FROM t)" % sql).collect()
                best = min(best or 1e9, time.time() - t0)
            print("%-36s %7.2f s  (%.0f ns/row)" % (name, best, best / args.rows * 1e9))
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
