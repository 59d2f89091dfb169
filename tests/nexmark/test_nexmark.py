"""Nexmark q0-q22, as the benchmark publishes them (tests/nexmark/queries/), through `repl.client.Client` on the
shared SparkSession, compared with real Flink 2.3's changelogs (tests/nexmark/expected/, made by
flink_expected.py over the same generated input).

Layouts (nexmark_sql.py): `nested`, Nexmark's own DDL (one table of nested ROWs with a computed rowtime) over
the generated json lines and its three views; `flat`, three tables person, auction, bid over csv files.
The comparison is tests/test_sql_files.py's: both changelogs applied to multisets must give the same rows,
no retraction of a missing row, inserts only where Flink gives inserts only. Special cases:
  q6   Flink refuses it (expected/<layout>/q6.error): dynsql must refuse it too;
  q10  an INSERT into a partitioned filesystem table: the rows written (with their partition values) must
       be Flink's;
  q12  processing-time windows: rows depend on the wall clock (Flink, at the end of a bounded input,
       fires none of them): every row must be a bidder of the input with at most its number of bids in all,
       inserts only;
  q14  skipped: it needs Nexmark's `count_char` UDF, a Java class.
A query dynsql cannot run is xfail(strict) with the error it gives: it fails the suite the day it
passes, and the mark goes."""

import collections
import json
import os
import threading
import time

import pytest

import nexmark_sql
from test_sql_files import check_changelog, materialize

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "expected")
QUERY_TIMEOUT_S = 300
SKIPPED = {14: "q14 needs Nexmark's count_char UDF (CREATE FUNCTION ... AS 'com.github.nexmark.flink.udf.CountChar'"
               ", a Java class)"}

# A query dynsql cannot run: xfail(strict) with the error it gives (none today: every query but q14 runs).
XFAIL = {}


def _cases():
    for layout in nexmark_sql.LAYOUTS:
        for n in nexmark_sql.QUERY_NUMBERS:
            # the nested layout (the same queries over ROW-typed events), and q10 (a filesystem sink, 25 s) in
            # `make test-slow`: CI's time
            marks = [pytest.mark.slow] if layout == "nested" or n == 10 else []
            if n in SKIPPED:
                marks.append(pytest.mark.skip(reason=SKIPPED[n]))
            elif (layout, n) in XFAIL:
                marks.append(pytest.mark.xfail(strict=True, reason=XFAIL[(layout, n)]))
            yield pytest.param(layout, n, marks=marks, id="%s-q%d" % (layout, n))


def load_params():
    with open(os.path.join(EXPECTED, "params.json"), encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def nexmark_input(tmp_path_factory):
    """The generated input of the fixtures (2,000 events), written once for the module."""
    folder = str(tmp_path_factory.mktemp("nexmark-input"))
    nexmark_sql.write_input(load_params(), folder)
    return folder


def test_generator_writes_the_fixtures_input(nexmark_input):
    """Flink's changelogs were computed over these exact files: a change to the generator makes them stale
    (regenerate with flink_expected.py)."""
    import hashlib
    for name, digest in load_params()["sha256"].items():
        with open(os.path.join(nexmark_input, name), "rb") as f:
            assert hashlib.sha256(f.read()).hexdigest() == digest, (
                "%s differs from the input Flink's expected changelogs were made from" % name)


def expected_changes(layout, n):
    path = os.path.join(EXPECTED, layout, "q%d.jsonl" % n)
    with open(path, encoding="utf-8") as f:
        return [(d["op"], tuple(json.dumps(v) for v in d["row"])) for d in map(json.loads, f) if d]


def flink_error(layout, n):
    path = os.path.join(EXPECTED, layout, "q%d.error" % n)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return f.read().strip()


def stream_changes(result, timeout=QUERY_TIMEOUT_S):
    """A statement's result -> [(op, cells)], cells as the jsonl contract's values (JSON text), as Flink's."""
    from repl.render import json_value
    from runtime.results import ChangeStream, TableResult
    if isinstance(result, TableResult):
        columns, changes = result.columns, [("+I", row) for row in result.rows]
    else:
        assert isinstance(result, ChangeStream), "expected rows, got %r" % (result,)
        columns, changes = result.columns, []
        timer = threading.Timer(timeout, result.stop)
        timer.start()
        started = time.time()
        try:
            for batch in result:
                changes.extend(batch.changes)
        finally:
            timer.cancel()
        assert time.time() - started < timeout, "the query did not end within %d s" % timeout
    return [(op, tuple(json.dumps(json_value(v, c.type)) for v, c in zip(row, columns))) for op, row in changes]


def compare_changelogs(expected, actual, key=None):
    """check_changelog, after a short account of the rows that differ (the full changelogs are long). With a
    key (an upsert stream, nexmark_sql.UPSERT_KEYS), a +U replaces the row with its key, as Flink means it."""
    exp_rows, _ = materialize(expected) if key is None else materialize_upserts(expected, key)
    act_rows, problems = materialize(actual) if key is None else materialize_upserts(actual, key)
    if exp_rows != act_rows:
        missing, extra = exp_rows - act_rows, act_rows - exp_rows
        show = lambda rows: "\n".join(" | ".join(r)[:300] for r in list(rows.elements())[:8])  # noqa: E731
        raise AssertionError("%d rows missing, %d rows extra (of %d expected)\nmissing:\n%s\nextra:\n%s"
                             % (sum(missing.values()), sum(extra.values()), sum(exp_rows.values()),
                                show(missing), show(extra)))
    assert not problems, "\n".join(problems[:10])
    if key is None:
        check_changelog(expected, actual)
    elif all(op == "+I" for op, _ in expected):
        assert all(op == "+I" for op, _ in actual), "expected inserts only"


def materialize_upserts(changes, key):
    """[(op, cells)] of a keyed result -> (Counter of final rows, problems): +I/+U add a row and a +U first
    takes away the row with its key; -U/-D take away the equal row, or else the row with their key."""
    rows, problems = {}, []
    for op, cells in changes:
        k = tuple(cells[i] for i in key)
        if op in ("+I", "+U"):
            if op == "+I" and k in rows:
                problems.append("+I %s: its key is already there" % " | ".join(cells))
            rows[k] = cells
        elif k in rows:
            del rows[k]
        else:
            problems.append("%s %s retracts a row that is not there" % (op, " | ".join(cells)))
    return collections.Counter(rows.values()), problems


def run_statements(client, statements):
    from runtime.results import ChangeStream
    for text in statements:
        for stmt in client.split(text):
            result = client.execute(stmt)
            if isinstance(result, ChangeStream):
                stream_changes(result)


@pytest.mark.parametrize("layout, n", list(_cases()))
def test_nexmark_query(client, nexmark_input, tmp_path, layout, n):
    run_statements(client, nexmark_sql.table_statements(layout, nexmark_input))
    output = str(tmp_path / "q10-output")
    setup, last = nexmark_sql.query_statements(n, nexmark_input, output=output)
    refused = flink_error(layout, n)
    if refused is not None:
        with pytest.raises(Exception):
            run_statements(client, setup)
            stream_changes(client.execute(client.split(last)[0]))
        return
    run_statements(client, setup)
    result = client.execute(client.split(last)[0])
    if n in nexmark_sql.INSERT_QUERIES:
        jobs = client.engine.jobs
        records = [jobs.wait(job_id, QUERY_TIMEOUT_S) for job_id in jobs.started]
        failed = [r for r in records if r.status != "FINISHED"]
        assert records and not failed, "the INSERT job ended %s: %s" % (failed[0].status, failed[0].error)
        actual = [("+I", tuple(json.dumps(v) for v in row)) for row in nexmark_sql.written_rows(output)]
    else:
        actual = stream_changes(result)
    if n == 12:
        check_processing_time_windows(expected_changes(layout, n), actual, nexmark_input)
    else:
        compare_changelogs(expected_changes(layout, n), actual, nexmark_sql.UPSERT_KEYS.get(n))


def check_processing_time_windows(expected, actual, data_dir):
    """q12's rows (bidder, bid_count, starttime, endtime) depend on when the rows arrive: what can be checked is
    that each is an insert of a bidder of the input, and that no bidder counts more bids than it made."""
    bids = collections.Counter()
    with open(os.path.join(data_dir, "bid.csv"), encoding="utf-8") as f:
        for line in f:
            bids[int(line.split(",", 2)[1])] += 1
    for changes in (expected, actual):
        counted = collections.Counter()
        for op, cells in changes:
            assert op == "+I", "q12 is insert-only, got %s %s" % (op, cells)
            bidder, count = json.loads(cells[0]), json.loads(cells[1])
            assert bidder in bids, "bidder %s made no bid" % bidder
            counted[bidder] += count
        too_many = {b: (c, bids[b]) for b, c in counted.items() if c > bids[b]}
        assert not too_many, "bidders counted with more bids than they made: %s" % too_many


def test_q12_check_can_fail(tmp_path):
    """The q12 check refuses an unknown bidder, too many bids and an update."""
    (tmp_path / "bid.csv").write_text("1000,2001,5,Google,u,2024-06-14 23:59:10.050,x\n")
    ok = [("+I", ("2001", "1", '"2024-06-14 23:59:10"', '"2024-06-14 23:59:20"'))]
    check_processing_time_windows([], ok, str(tmp_path))
    for bad in ([("+I", ("2002", "1", "null", "null"))], [("+I", ("2001", "2", "null", "null"))],
                [("-U", ("2001", "1", "null", "null"))]):
        with pytest.raises(AssertionError):
            check_processing_time_windows([], bad, str(tmp_path))


def test_fixtures_cover_every_query():
    """Every query but the skipped one has Flink's changelog or Flink's refusal, in both layouts."""
    for layout in nexmark_sql.LAYOUTS:
        for n in nexmark_sql.QUERY_NUMBERS:
            found = [ext for ext in ("jsonl", "error") if os.path.exists(os.path.join(EXPECTED, layout, "q%d.%s" % (n, ext)))]
            assert len(found) == 1, "%s q%d: %s" % (layout, n, found or "no fixture")


def test_upsert_comparison_can_fail():
    """q9's keyed comparison: Flink's +U replaces the row of its key; dynsql's -U/+U pairs give the same rows."""
    upserts = [("+I", ("1", "a")), ("+I", ("2", "x")), ("+U", ("1", "b"))]
    compare_changelogs(upserts, [("+I", ("2", "x")), ("+I", ("1", "a")), ("-U", ("1", "a")), ("+U", ("1", "b"))],
                       key=(0,))
    for wrong in ([("+I", ("1", "a")), ("+I", ("2", "x"))],                       # the update is missing
                  [("+I", ("1", "b")), ("+I", ("1", "b")), ("+I", ("2", "x"))],   # a key twice
                  [("-D", ("3", "z")), ("+I", ("1", "b")), ("+I", ("2", "x"))]):  # a retraction of nothing
        with pytest.raises(AssertionError):
            compare_changelogs(upserts, wrong, key=(0,))
