"""The matcher core in plain Python, on the behaviours the conformance cases do not isolate:
no quadratic blow-up on long partitions, Flink's 'blocked' partition, WITHIN's exclusive bound,
resuming a partition across calls (streaming) with the same rows as one call (batch)."""

import datetime as dt

from planner.match_recognize import parse_match_recognize, validate
from runtime.match_recognize.matcher import CompiledMatch, PartitionRun
from runtime.match_recognize.rows import match_rows, to_micros

COLUMNS = [("sym", "STRING"), ("ts", "TIMESTAMP(3)"), ("price", "BIGINT")]
T0 = dt.datetime(2024, 1, 1)
PRICE_DROP = """PARTITION BY sym ORDER BY ts
    MEASURES FIRST(PRICE_DOWN.price) AS first_down, LAST(PRICE_DOWN.price) AS bottom, COUNT(PRICE_DOWN.price) AS downs
    ONE ROW PER MATCH AFTER MATCH SKIP TO LAST PRICE_UP %s
    PATTERN (START_ROW PRICE_DOWN+ PRICE_UP) %s
    DEFINE PRICE_DOWN AS (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR
                         PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
           PRICE_UP AS PRICE_UP.price > LAST(PRICE_DOWN.price, 1)"""


def compiled(body):
    return CompiledMatch(validate(parse_match_recognize(body), COLUMNS, "ts"), [n for n, _ in COLUMNS])


def rows(prices, step_s=1):
    return [("S", T0 + dt.timedelta(seconds=i * step_s), p) for i, p in enumerate(prices)]


def test_long_falling_run_is_linear():
    # 100 k falling rows then one rise: one match over the whole partition; a matcher that keeps every start
    # alive (or rescans) would take minutes here
    n = 100_000
    out, _ = match_rows(compiled(PRICE_DROP % ("", "")), [c for c, _ in COLUMNS],
                        rows(list(range(10 * n, 9 * n, -1)) + [10 * n]))
    assert out == [("S", 10 * n - 1, 9 * n + 1, n - 1)]


def test_flink_blocks_the_partition_behind_an_unfinished_match():
    # Flink emits a match only when no earlier-starting partial match is alive: the 10 11 12 ... rise
    # never ends, so the later drop 5 4 6 is never emitted (no WITHIN), as Flink's CEP operator does
    body = ("PARTITION BY sym ORDER BY ts MEASURES LAST(A.price) AS a ONE ROW PER MATCH "
            "AFTER MATCH SKIP PAST LAST ROW PATTERN (A+ B) DEFINE A AS A.price > 3, B AS B.price < 0")
    out, _ = match_rows(compiled(body), [c for c, _ in COLUMNS], rows([10, 11, 12, -1]))
    assert out == [("S", 12)]
    out, _ = match_rows(compiled(body), [c for c, _ in COLUMNS], rows([10, 11, 12, 13]))
    assert out == []


def test_within_excludes_its_bound():
    # 10 9 8 12 at 0..3 s: the match spans exactly 3 s, so WITHIN 3 s drops it and WITHIN 4 s keeps it
    # (from the start at 9 there is a single PRICE_DOWN row, so LAST(PRICE_DOWN.price, 1) is NULL there)
    data = rows([10, 9, 8, 12])
    out, _ = match_rows(compiled(PRICE_DROP % ("", "WITHIN INTERVAL '3' SECOND")), [c for c, _ in COLUMNS], data)
    assert out == []
    out, _ = match_rows(compiled(PRICE_DROP % ("", "WITHIN INTERVAL '4' SECOND")), [c for c, _ in COLUMNS], data)
    assert out == [("S", 9, 8, 2)]


def test_resuming_gives_the_batch_result():
    prices = [5, 4, 3, 6, 7, 2, 1, 0, 9, 8, 8, 7, 10, 3, 2, 4]
    c = compiled(PRICE_DROP % ("", ""))
    data_rows = rows(prices)
    batch, _ = match_rows(c, [n for n, _ in COLUMNS], data_rows)
    run = PartitionRun(c, ("S",))
    out = []
    for k in range(1, len(prices) + 1):      # one more row each call, as a stream would give them
        part = data_rows[:k]
        data = [[r[i] for r in part] for i in range(3)]
        out.extend(run.advance(data, [to_micros(r[1]) for r in part], k, final=False))
    out.extend(run.advance(data, [to_micros(r[1]) for r in data_rows], len(prices), final=True))
    assert out == batch and len(batch) == 3
