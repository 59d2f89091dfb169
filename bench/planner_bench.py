"""CPU seconds the planner takes on the statements the fuzzer found slow, against its goal of 2 s a statement.

    python bench/planner_bench.py [--runs N]

The shapes of tests/planner_tests/test_deep_nesting.py at their full size (1,000 levels of nesting, 4,000
conjuncts, 1,000 signs, 300 WITH .. UNION ALL), planned as the shell plans them (no Spark). Prints each one's
median CPU time over the runs and the machine's load; exits 1 when a median is over the goal. The tests check
that the work grows linearly (in Python calls, the same on any machine); the seconds are here, where a slower
machine or a busy one reads as a figure, not as a failed test."""

import argparse
import gc
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from planner.planner import Planner  # noqa: E402

GOAL_SECONDS = 2.0
LEVELS, CONJUNCTS = 1000, 4000


def nested(head, inner, tail, levels=LEVELS):
    return head + "(SELECT * FROM " * levels + inner + tail * levels


def chain(template, n=CONJUNCTS):
    return " AND ".join(template % k for k in range(n))


UNIT = "WITH big AS (SELECT id, n FROM p WHERE n >= 10)\nSELECT a.id, b.id AS id2 FROM big a JOIN big b ON a.n = b.n * 2"

SHAPES = [
    ("1,000 nested SELECT *", nested("SELECT * FROM ", "Ticker", ")")),
    ("1,000 nested filters", nested("SELECT * FROM ", "Ticker", " WHERE price > 1)")),
    ("1,000 nested aggregates", "SELECT symbol FROM " + "(SELECT symbol, MAX(price) AS price FROM " * LEVELS
     + "Ticker" + " GROUP BY symbol)" * LEVELS),
    ("EXPLAIN of 1,000 levels", "EXPLAIN " + nested("SELECT * FROM ", "Ticker", ")")),
    ("4,000 conjuncts over a Top-N", "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY symbol ORDER BY "
     "price DESC) AS rn FROM Ticker) WHERE %s AND rn <= 3" % chain("price > %d")),
    ("2,000 join conjuncts", "SELECT * FROM Ticker a, Ticker b WHERE a.symbol = b.symbol AND %s"
     % chain("a.price > b.price + %d", CONJUNCTS // 2)),
    ("1,000 signs", "SELECT %sprice FROM Ticker" % ("- " * 1000)),
    ("300 WITH .. UNION ALL", " UNION ALL ".join([UNIT] * 300)),
]


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    planner = Planner()
    planner.plan("CREATE TABLE Ticker (symbol STRING, price BIGINT) WITH ('connector' = 'datagen')")
    planner.plan("CREATE TABLE p (id INT, n INT) WITH ('connector' = 'datagen')")
    print("load average before: %s (%d cores)" % (load(), os.cpu_count()))
    over = []
    for name, text in SHAPES:
        seconds = []
        for _ in range(args.runs):
            gc.collect()
            started = time.process_time()
            plan = planner.plan(text)
            if getattr(plan, "query", None) is not None:      # its Spark SQL too, as the runtime asks for it
                root = plan.query.root
                while root.inputs and not hasattr(root, "projections"):
                    root = root.inputs[0]
                for expr, _ in getattr(root, "projections", [])[:1]:
                    assert expr.sql
            seconds.append(time.process_time() - started)
        median = statistics.median(seconds)
        over += [name] if median > GOAL_SECONDS else []
        print("%-30s %6.2f s CPU (median of %d; %d characters)%s"
              % (name, median, args.runs, len(text), "  OVER THE GOAL" if median > GOAL_SECONDS else ""))
    print("load average after: %s" % load())
    print("goal: %.1f s of CPU a statement; over it: %s" % (GOAL_SECONDS, ", ".join(over) or "none"))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
