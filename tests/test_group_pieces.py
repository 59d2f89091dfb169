"""A streaming GROUP BY over one csv file past `dynsql.one-pass.max-input-size`, read in one pass in pieces, each
piece a step of the changelog (runtime/operators/group_pieces.py): piece by piece in file order, the changes
micro-batches of the piece's rows show (+I for a new key, -U old / +U new for a key whose row changed, -U for
one a HAVING drops), ending in the rows micro-batches end in; EXPLAIN and the result's note say how it runs."""

import random
from collections import Counter

import pytest

ROW_BYTES = 10          # 'u1,/p3,17\n': rows of one width, so that pieces of 150 bytes are 15 rows each
PIECE_ROWS = 15

ARROW = """SELECT `user`, COUNT(url) AS n, SUM(amount) AS total, MIN(amount) AS lo, MAX(url) AS last_url
           FROM visits GROUP BY `user`"""
# AVG and HAVING: Spark's aggregate of the scan's rows for each (piece, key)
SPARK = """SELECT `user`, AVG(amount) AS mean, COUNT(*) AS n FROM visits GROUP BY `user`
           HAVING SUM(amount) < 400"""


def visits(count=60, seed=3):
    rnd = random.Random(seed)
    return [("u%d" % rnd.randint(1, 4), "/p%d" % rnd.randint(1, 9), rnd.randint(10, 99)) for _ in range(count)]


def row_of(query, rows):
    """The query's row for one user's rows so far (None: not in the result)."""
    amounts = [a for _, _, a in rows]
    if query == ARROW:
        return (rows[0][0], len(rows), sum(amounts), min(amounts), max(u for _, u, _ in rows))
    if sum(amounts) >= 400:
        return None
    return (rows[0][0], sum(amounts) // len(amounts), len(rows))


def reference(query, rows):
    """Each piece's changes (sorted), as the update-mode sink shows a micro-batch of the piece's rows."""
    seen, shown, out = {}, {}, []
    for start in range(0, len(rows), PIECE_ROWS):
        changes = []
        for user in sorted({u for u, _, _ in rows[start:start + PIECE_ROWS]}):
            seen[user] = [r for r in rows[:start + PIECE_ROWS] if r[0] == user]
            old, new = shown.get(user), row_of(query, seen[user])
            if new is None:
                if old is not None:
                    changes.append(("-U", old))
                    del shown[user]
            elif old is None:
                changes.append(("+I", new))
            elif old != new:
                changes += [("-U", old), ("+U", new)]
            if new is not None:
                shown[user] = new
        out.append(sorted(changes))
    return [c for c in out if c]


def final_rows(batches):
    rows = Counter()
    for batch in batches:
        for op, row in batch:
            rows[row] += 1 if op in ("+I", "+U") else -1
    return sorted(r for r, n in rows.items() for _ in range(n))


def piece_batches(client, sql):
    """(each batch's changes, sorted; what the result view's status line says of how the query runs)."""
    from repl.toolbar import stream_counters
    stream = client.execute(sql)
    batches = [sorted(b.changes) for b in stream]
    assert stream.note in stream_counters(stream)
    return batches, stream.note


@pytest.fixture
def in_pieces(one_pass_client, client, tmp_path):
    rows = visits()
    path = tmp_path / "visits.csv"
    path.write_text("".join("%s,%s,%d\n" % r for r in rows))
    assert path.stat().st_size == ROW_BYTES * len(rows)
    for c, extra in ((one_pass_client, ""), (client, ", 'scan.rows-per-batch' = '30'")):
        c.execute("CREATE TABLE visits (`user` STRING, url STRING, amount INT) WITH ('connector' = 'filesystem', "
                  "'path' = '%s', 'format' = 'csv'%s)" % (path, extra))
    one_pass_client.execute("SET 'dynsql.one-pass.max-input-size' = '100 b'")
    one_pass_client.execute("SET 'dynsql.one-pass.piece-size' = '150 b'")
    yield rows, one_pass_client, client
    one_pass_client.execute("DROP TABLE visits")


def test_a_group_by_over_a_file_in_pieces_shows_each_pieces_changes(in_pieces):
    rows, c, micro_batches = in_pieces
    plan = c.execute("EXPLAIN " + ARROW).text
    assert "one pass (600 B in 1 file > dynsql.one-pass.max-input-size 100 B: 4 pieces of 150 B" in plan
    assert "partial values: each task aggregating its piece of visits with Arrow" in plan
    expected = reference(ARROW, rows)
    assert any(op == "-U" for batch in expected for op, _ in batch)         # the data updates keys between pieces
    got, note = piece_batches(c, ARROW)
    assert got == expected
    assert note.startswith("one pass in 4 pieces: the changes piece by piece")
    # micro-batches of 30 rows: other steps, the same rows in the end
    assert final_rows(b.changes for b in micro_batches.execute(ARROW)) == final_rows(expected)
    # Spark's aggregate of the scan's rows for the partial values (an expression under the aggregate): the same
    on_spark = ARROW.replace("FROM visits", "FROM (SELECT `user`, url, amount * 1 AS amount FROM visits)")
    assert "partial values: Spark's aggregate of the scan's rows" in c.execute("EXPLAIN " + on_spark).text
    assert piece_batches(c, on_spark)[0] == expected


def test_avg_and_having_over_a_file_in_pieces_retract_a_key_the_having_drops(in_pieces):
    rows, c, micro_batches = in_pieces
    assert "partial values: Spark's aggregate of the scan's rows" in c.execute("EXPLAIN " + SPARK).text
    expected = reference(SPARK, rows)
    ops = Counter(op for batch in expected for op, _ in batch)
    assert ops["-U"] > ops["+U"]                                            # keys the HAVING drops
    assert piece_batches(c, SPARK)[0] == expected
    assert final_rows(b.changes for b in micro_batches.execute(SPARK)) == final_rows(expected)
