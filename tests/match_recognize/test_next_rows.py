"""The numpy test that rules out Flink start rows whose next rows no way on can take (next_rows.py): it agrees
with Flink's matcher row for row (fails by row s+2), it changes no result (batch, resumed, errors, the
partition's last row), it rules out more of the V-shape's start rows than the next row alone, it stays off
where it must, and the client's batch and streaming queries give the rows."""

import datetime as dt
import random

import pytest

from planner.match_recognize import parse_match_recognize, validate
from runtime.match_recognize import next_rows
from runtime.match_recognize.matcher import CompiledMatch, PartitionRun
from runtime.match_recognize.rows import match_rows, to_micros

COLUMNS = [("sym", "STRING"), ("ts", "TIMESTAMP(3)"), ("price", "BIGINT"), ("vol", "DOUBLE"), ("tag", "STRING")]
NAMES = [n for n, _ in COLUMNS]
T0 = dt.datetime(2024, 1, 1)
BODY = """PARTITION BY sym ORDER BY ts
    MEASURES FIRST(A.price) AS fa, LAST(A.price) AS la, LAST(B.vol) AS lb
    %s AFTER MATCH SKIP %s PATTERN (%s) %s DEFINE %s"""
# DEFINEs the test covers; S, the start variable, has none
DEFINES = [
    "A AS (LAST(A.price, 1) IS NULL AND A.price < S.price) OR A.price < LAST(A.price, 1), "
    "B AS B.price > LAST(A.price, 1)",
    "A AS A.vol < S.vol * 1.5 AND A.price <> S.price, B AS B.vol > LAST(A.vol)",
    "A AS A.price / (A.price - S.price) < 0, B AS B.price > A.price",
    "A AS A.vol / (A.vol - S.vol) > 0.5, B AS B.price > A.price",
    "A AS NOT (A.price >= PREV(A.price)), B AS B.price > PREV(B.price, 2)",
    "A AS (A.price > S.price) IS NOT TRUE AND (A.vol > 1) IS NOT FALSE, "
    "B AS (B.price < A.price) IS NULL OR B.price > A.price",
    "A AS LAST(price, 1) > price AND FIRST(price) > FIRST(price, 1), B AS B.price > FIRST(A.price)",
    "A AS LAST(A.price, 0) < LAST(S.price, 0) + 2 AND FIRST(S.price, 1) IS NULL, B AS B.price - 3 * A.price > -20",
    "A AS PREV(S.price) < A.price OR PREV(price, 3) IS NULL, B AS B.price > -A.price",
    "A AS U.price < PREV(U.price) AND LAST(U.price, 1) > A.price, B AS B.price > LAST(U.price, 1)",
    "A AS A.vol * A.vol > S.vol, B AS B.vol > 1e308 * A.vol",
    # divisions the compiled Python skips: after a FALSE in AND, a TRUE in OR, a NULL left of a comparison
    "A AS A.price > S.price AND A.price / (A.price - S.price - 1) >= 0, "
    "B AS B.price < S.price OR A.price < B.price / (B.price - S.price)",
]
PATTERNS = ["S A+ B", "S A* B", "S A? B", "S A{2,3} B", "S A B", "S A+? B", "S A{2,} B", "S A*? B"]
# with a third variable C, which decides row s+2 where it follows A
DEFINES_C = [
    "A AS A.price > S.price, B AS B.price < A.price, C AS C.price < A.price + B.price - 2 * S.price",
    "A AS A.price <> S.price, B AS B.price > S.price, C AS C.vol / (C.price - A.price) > 0.5 OR "
    "C.price / (C.price - S.price) > 1",
    "A AS A.price >= PREV(A.price), B AS B.price < A.price, C AS C.price > PREV(C.price, 3) AND "
    "LAST(price, 2) < LAST(A.price)",
]
PATTERNS_C = ["S A B C", "S A C B", "S A+ C B", "S A C? B", "S A{2} C B", "S A B+ C", "S A? C B", "S A* C+ B",
              "S C*? A B"]
CASES = [(d, p) for d in DEFINES for p in PATTERNS] + [(d, p) for d in DEFINES_C for p in PATTERNS_C]


def compiled(body):
    spec = validate(parse_match_recognize(body), COLUMNS, "ts", extensions=True)
    return CompiledMatch(spec, NAMES)


def body_of(define, pattern, rows="ONE ROW PER MATCH", skip="PAST LAST ROW", within=""):
    return BODY % (rows, skip, pattern, within + (" SUBSET U = (S, A)" if "U." in define else ""), define)


def random_rows(rng, n, keys=("x",)):
    out = []
    for i in range(n):
        price = None if rng.random() < 0.12 else rng.randint(5, 14)
        vol = None if rng.random() < 0.1 else rng.choice([0.0, 1.0, 2.5, -1.0, float("nan"), rng.uniform(0, 4)])
        out.append((rng.choice(keys), T0 + dt.timedelta(seconds=i), price, vol, rng.choice(["a", "b", None])))
    return out


def outcome(c, rows):
    """The rows, or the error (a division by zero, AFTER MATCH SKIP TO a variable the match lacks)."""
    try:
        return match_rows(c, NAMES, rows)
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)


def fails_by(c, data, s, n):
    """Does Flink's matcher fail start row s by row n-1 (False where it raises a division by zero)?"""
    try:
        return c.engine.match_from(s, n, data, None, None, 1) == ("fail", None)
    except ZeroDivisionError:
        return False                                # never ruled out: match_from must raise there


def test_the_numpy_test_agrees_with_flinks_matcher(monkeypatch):
    monkeypatch.setattr(next_rows, "MIN_ROWS", 0)
    rng = random.Random(1)
    for define, pattern in CASES:
        c = compiled(body_of(define, pattern))
        assert c.next_rows is not None and c.next_rows.deep, (define, pattern)
        rows = random_rows(rng, 70)
        data = [list(col) for col in zip(*rows)]
        lo, n = rng.randint(0, 4), rng.randint(55, 70)
        data[2][n:] = ["not read"] * (70 - n)       # rows from n on may come later: never read
        cannot = c.next_rows.cannot_take(data, None, lo, n, None)
        assert len(cannot) == n - 1 - lo
        for s in range(lo, n - 1):
            assert cannot[s - lo] == fails_by(c, data, s, min(s + 3, n)), (define, pattern, s, rows[s:s + 3])


def test_the_matches_are_the_same_with_and_without_it(monkeypatch):
    monkeypatch.setattr(next_rows, "MIN_ROWS", 0)
    rng = random.Random(2)
    for _ in range(400):
        per_match = ["ONE ROW PER MATCH", "ALL ROWS PER MATCH", "ALL ROWS PER MATCH WITH UNMATCHED ROWS"]
        body = body_of(*rng.choice(CASES), rng.choice(per_match),
                       rng.choice(["PAST LAST ROW", "TO NEXT ROW", "TO LAST A"]),
                       rng.choice(["", "WITHIN INTERVAL '3' SECOND"]))
        with_test, without = compiled(body), compiled(body)
        without.next_rows = None
        rows = random_rows(rng, rng.randint(1, 90), ("x", "y"))
        assert outcome(with_test, rows) == outcome(without, rows), body


def test_row_s2_rules_out_more_start_rows_of_the_v_shape():
    # the perf workload's DEFINEs: after one A, B compares with the A before it (NULL), so A must take row s+2
    body = body_of(DEFINES[0], "S A+ B", skip="TO LAST B")
    rng = random.Random(3)
    price = 100
    rows = []
    for i in range(3000):
        price += rng.choice([-2, -1, 0, 1, 2])
        rows.append(("x", T0 + dt.timedelta(seconds=i), None if rng.random() < 0.01 else price, 1.0, None))
    calls, results = [], []
    for depth in (0, 2, 3):
        c = compiled(body)
        if depth == 0:
            c.next_rows = None
        elif depth == 2:
            c.next_rows.deep = False
        run = c.engine.match_from
        c.engine.match_from = lambda *a: (calls.append(depth), run(*a))[1]
        results.append(match_rows(c, NAMES, rows))
    assert results[0] == results[1] == results[2] and len(results[0][0]) > 40
    tries = [calls.count(d) for d in (0, 2, 3)]
    assert tries[0] > tries[1] > tries[2] and tries[2] < tries[1] / 2, tries   # 2844, 1091, 436


def test_an_integer_division_by_zero_is_still_raised():
    # row 71 has the start row's price: A's DEFINE divides by zero there, as without the test
    c = compiled(body_of("A AS A.price / (A.price - S.price) < 0, B AS B.price > A.price", "S A B"))
    rows = [("x", T0 + dt.timedelta(seconds=i), 10 + i % 2, 1.0, None) for i in range(70)]
    rows += [("x", T0 + dt.timedelta(seconds=70), 11, 1.0, None), ("x", T0 + dt.timedelta(seconds=71), 11, 1.0, None)]
    assert c.next_rows is not None
    with pytest.raises(ZeroDivisionError):
        match_rows(c, NAMES, rows)


V_SHAPE = ("PARTITION BY sym ORDER BY ts MEASURES FIRST(A.ts) AS first_down, LAST(B.ts) AS up_ts, LAST(A.price) "
           "AS bottom ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (S A+ B) DEFINE A AS "
           "(LAST(A.price, 1) IS NULL AND A.price < S.price) OR A.price < LAST(A.price, 1), "
           "B AS B.price > LAST(A.price)")


def cycle_rows(n):
    """Prices 10 NULL 11 9 8 12, again and again: a V from each 11 (rows 6k+2 .. 6k+5); 10 and NULL fail."""
    cycle = [10, None, 11, 9, 8, 12]
    return [("x", T0 + dt.timedelta(seconds=i), cycle[i % 6], 1.0, None) for i in range(n)]


def test_the_last_row_is_never_ruled_out_while_rows_may_follow():
    c = compiled(V_SHAPE)
    rows = cycle_rows(300)
    data = [list(col) for col in zip(*rows)]
    ts = [to_micros(r[1]) for r in rows]
    expected = [("x", T0 + dt.timedelta(seconds=6 * k + 3), T0 + dt.timedelta(seconds=6 * k + 5), 8) for k in range(50)]
    assert match_rows(c, NAMES, rows)[0] == expected
    run = PartitionRun(c, ("x",))
    out = []
    for k in (99, 201, 297):            # each call ends on an 11: it starts a V the next call completes
        assert c.next_rows.cannot_take(data, ts, run.start, k, None) is not None
        out += run.advance(data, ts, k, final=False)
        assert run.start == k - 1
    out += run.advance(data, ts, len(rows), final=True)
    assert out == expected and not run.blocked


def test_no_test_where_it_must_not_apply():
    ok = "A AS A.price < S.price, B AS B.price > A.price"
    assert compiled(body_of(ok, "S A B")).next_rows is not None
    for define, pattern in [
        ("A AS A.price < S.price", "S A? B"),                              # B may follow S and has no DEFINE
        ("A AS A.tag < S.tag, B AS B.price > A.price", "S A B"),           # strings
        ("A AS MOD(A.price, 3) = 0, B AS B.price > A.price", "S A B"),     # a function
        ("A AS SUM(A.price) > 3, B AS B.price > A.price", "S A B"),        # an aggregate
        ("A AS A.ts > S.ts, B AS B.price > A.price", "S A B"),             # timestamps
        ("A AS A.price > NEXT(A.price), B AS B.price > A.price", "S A B"),  # NEXT
        ("S AS S.price > 1, A AS A.price < S.price, B AS B.price > A.price", "S A B"),   # S has a DEFINE
    ]:
        assert compiled(body_of(define, pattern)).next_rows is None, define
    # the start row's step computes an aggregate of an expression: it could raise at any start row
    body = body_of(ok, "S A B").replace("LAST(B.vol) AS lb", "SUM(S.price / S.price) AS q")
    assert compiled(body).next_rows is None
    assert compiled(body_of(ok, "S A B").replace("LAST(B.vol) AS lb", "SUM(S.price) AS q")).next_rows is not None
    # row s+2: the test stops at row s+1 where o1 would go on there whatever the row holds, or outside the subset
    assert compiled(body_of(ok, "S A B")).next_rows.deep
    for define, pattern in [
        ("B AS B.price < S.price", "S B"),                                 # B ends the match
        ("A AS A.price < S.price, B AS B.price > A.price", "S A C B"),     # C after A has no DEFINE
        ("A AS A.price < S.price, B AS B.tag < A.tag", "S A B"),           # strings at row s+2
    ]:
        test = compiled(body_of(define, pattern).replace("FIRST(A.price) AS fa, LAST(A.price) AS la, ", "")).next_rows
        assert test is not None and not test.deep, define
    # A's step computes an aggregate of an expression: it could raise at row s+1
    test = compiled(body_of(ok, "S A B").replace("LAST(B.vol) AS lb", "SUM(A.price / A.price) AS q")).next_rows
    assert test is not None and not test.deep


# ---- through the client: batch and streaming queries over a CSV file --------------------------------------

ACME = [10, None, 11, 9, 8, 12]         # a V from each 11: 6k+2 .. 6k+5 (10 and NULL fail at once)
BETA = [5, 6, 3, 2, 4]                  # a V from each 6: 5k+1 .. 5k+4 (5 fails at once)


def ticks_csv(path):
    lines = []
    for i in range(300):
        t = (T0 + dt.timedelta(seconds=i)).strftime("%Y-%m-%d %H:%M:%S")
        p = ACME[i % 6]
        lines.append("ACME,%s,%s,%s" % (t, "null" if p is None else p, "x" if i % 12 == 3 else "y"))
        if i < 202:                     # BETA ends in 9 7: a V left open at the end of the input
            lines.append("BETA,%s,%d,y" % (t, BETA[i % 5] if i < 200 else (9, 7)[i - 200]))
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture
def ticks(tmp_path):
    ticks_csv(tmp_path / "ticks.csv")

    def create(client):
        client.execute("CREATE TABLE ticks (symbol STRING, ts TIMESTAMP(3), price BIGINT, tag STRING, "
                       "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = "
                       "'%s', 'format' = 'csv', 'csv.null-literal' = 'null', 'scan.rows-per-batch' = '200')"
                       % (tmp_path / "ticks.csv"))
        return client
    return create


def query(define, pattern="START_ROW DOWN+ UP"):
    return ("SELECT * FROM ticks MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY ts MEASURES FIRST(DOWN.ts) AS "
            "first_down, LAST(UP.ts) AS up_ts ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (%s) "
            "DEFINE %s) MR" % (pattern, define))


V_DEFINE = ("DOWN AS (LAST(DOWN.price, 1) IS NULL AND DOWN.price < START_ROW.price) OR DOWN.price < "
            "LAST(DOWN.price, 1), UP AS UP.price > LAST(DOWN.price)")


def rows_of(client, sql):
    result = client.execute(sql)
    if hasattr(result, "rows"):
        got = [tuple(r) for r in result.rows]
    else:
        got = []
        for batch in result:
            assert all(op == "+I" for op, _ in batch.changes)
            got += [tuple(r) for _, r in batch.changes]
    return sorted((sym, _seconds(a), _seconds(b)) for sym, a, b in got)


def _seconds(t):
    return int((t.replace(tzinfo=None) - T0).total_seconds()) if t is not None else None


def v_matches(acme_from=lambda k: 6 * k + 3):
    return sorted([("ACME", acme_from(k), 6 * k + 5) for k in range(50)] +
                  [("BETA", 5 * k + 2, 5 * k + 4) for k in range(40)])


def test_the_client_gives_the_matches_in_batch_and_streaming(client, ticks):
    c = ticks(client)
    assert rows_of(c, query(V_DEFINE)) == v_matches()            # streaming, micro-batches of 200 rows
    c.execute("SET 'execution.runtime-mode' = 'batch'")
    assert rows_of(c, query(V_DEFINE)) == v_matches()


def test_the_client_where_the_test_must_not_apply(client, ticks):
    c = ticks(client)
    c.execute("SET 'execution.runtime-mode' = 'batch'")
    # a string comparison in DOWN: the 9s tagged x (rows 12j+3) are no DOWN row, so that V starts at the 9
    tagged = ("DOWN AS DOWN.tag <> 'x' AND ((LAST(DOWN.price, 1) IS NULL AND DOWN.price < START_ROW.price) "
              "OR DOWN.price < LAST(DOWN.price, 1)), UP AS UP.price > LAST(DOWN.price)")
    assert rows_of(c, query(tagged)) == v_matches(lambda k: 6 * k + 4 if k % 2 == 0 else 6 * k + 3)
    # UP may follow START_ROW and has no DEFINE: every start row matches, DOWN? is never taken (Flink's
    # optional is not greedy and the first path to the end wins)
    optional = query("DOWN AS DOWN.price < START_ROW.price", "START_ROW DOWN? UP")
    assert rows_of(c, optional) == sorted([("ACME", None, 2 * k + 1) for k in range(150)] +
                                          [("BETA", None, 2 * k + 1) for k in range(101)])
