"""The runner of tests/sql/*.sqltest: SQL in, changelog out, through the public client API.

A .sqltest file is a sequence of blocks, each opened by a `=== ` header line:

  # a comment line (outside blocks, or at the top)
  === file clicks.csv         the lines up to the next header are written to ${DATA}/clicks.csv
                              (a NAME with a folder, `logs/a.csv`, creates the folder)
  === sql                     statements; each must succeed but the last, whose result the next block
                              checks. '${DATA}' stands for the folder the files were written to.
  === expect                  the last statement's changelog in the tableau form, one change a line:
                              `+I | Mary | 1` (cells as the tableau prints them, NULL as <NULL>)
  === error                   the last statement must fail; every line is a fragment of its `[ERROR]` text
  === modes streaming batch   (first line) run the whole file once in each mode: the session starts in
                              that 'execution.runtime-mode'; `=== expect` holds for both (a batch result's
                              rows are its final table, compared with the changelog applied)

The same expected rows hold on every physical path (`dynsql.physical.force`): a few files run forced here,
all of them under `make test-paths` (DYNSQL_PHYSICAL=general|one-pass|fast).

Blocks run in order on one client (one catalog and one set of settings per file). A streaming
result is drained by iterating its ChangeStream; a batch result's rows count as +I. The check applies
both changelogs to multisets (as ../shared/conformance/compare.py does): the final rows must be equal,
no retraction may find nothing to retract, and when the expected changelog is insert-only, the actual
one must be too."""

import collections
import glob
import os
import re

import pytest

from repl.errors import error_text
from repl.render import format_value
from runtime.results import ChangeStream, MessageResult, TableResult

SQL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sql")
FILES = sorted(glob.glob(os.path.join(SQL_DIR, "*.sqltest")))


def parse_sqltest(text):
    """Text -> [(kind, argument, body lines)] with kind in file, sql, expect, error."""
    blocks = []
    for raw in text.splitlines():
        m = re.match(r"^=== (file|sql|expect|error|modes)\b\s*(.*)$", raw)
        if m:
            blocks.append((m.group(1), m.group(2).strip(), []))
        elif blocks:
            blocks[-1][2].append(raw)
        elif raw.strip() and not raw.startswith("#"):
            raise ValueError("text before the first '=== ' block: %r" % raw)
    return blocks


def parse_change(line):
    op, _, rest = line.partition("|")
    op = op.strip()
    if op not in ("+I", "-U", "+U", "-D"):
        raise ValueError("a change line starts with +I, -U, +U or -D: %r" % line)
    return op, tuple(c.strip() for c in rest.split("|"))


def materialize(changes):
    """[(op, cells)] -> (Counter of final rows, list of problems)."""
    rows, problems = collections.Counter(), []
    for op, cells in changes:
        if op in ("+I", "+U"):
            rows[cells] += 1
        elif rows[cells] > 0:
            rows[cells] -= 1
        else:
            problems.append("%s %s retracts a row that is not there" % (op, " | ".join(cells)))
    return +rows, problems


def result_changes(result, settings):
    """A statement's result -> [(op, cells as text)]."""
    tz = settings.get("table.local-time-zone")
    if isinstance(result, ChangeStream):
        columns, changes = result.columns, []
        for batch in result:
            changes.extend(batch.changes)
    elif isinstance(result, TableResult):
        columns, changes = result.columns, [("+I", row) for row in result.rows]
    else:
        raise AssertionError("expected rows, got the message %r" % getattr(result, "text", result))
    return [(op, tuple(format_value(v, c.type, tz) for v, c in zip(row, columns))) for op, row in changes]


def _show(changes):
    return "\n".join("%s | %s" % (op, " | ".join(cells)) for op, cells in changes) or "(nothing)"


def check_changelog(expected, actual):
    exp_rows, _ = materialize(expected)
    act_rows, problems = materialize(actual)
    assert not problems, "\n".join(problems) + "\nactual:\n" + _show(actual)
    assert exp_rows == act_rows, "expected:\n%s\nactual:\n%s" % (_show(expected), _show(actual))
    if all(op == "+I" for op, _ in expected):
        assert all(op == "+I" for op, _ in actual), "expected inserts only, got:\n" + _show(actual)


def run_sqltest(client, text, data_dir):
    pending = None  # (statement, result or exception) of the last statement of the last sql block
    for kind, arg, body in parse_sqltest(text):
        if kind == "modes":
            continue
        if kind == "file":
            path = os.path.join(data_dir, arg)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(body) + ("\n" if body else ""))
        elif kind == "sql":
            stmts = client.split("\n".join(body).replace("${DATA}", data_dir))
            assert stmts, "an empty sql block"
            for stmt in stmts[:-1]:
                result = client.execute(stmt)
                if isinstance(result, ChangeStream):
                    for _ in result:
                        pass
            try:
                pending = (stmts[-1], client.execute(stmts[-1]))
            except Exception as e:
                pending = (stmts[-1], e)
        elif kind == "expect":
            stmt, result = pending
            if isinstance(result, Exception):
                raise AssertionError("%s\nfailed: %s" % (stmt.text, error_text(result, True, stmt)))
            expected = [parse_change(line) for line in body if line.strip() and not line.startswith("#")]
            check_changelog(expected, result_changes(result, client.settings))
        elif kind == "error":
            stmt, result = pending
            if isinstance(result, ChangeStream):
                try:
                    for _ in result:
                        pass
                except Exception as e:
                    result = e
            assert isinstance(result, Exception), "%s\nsucceeded, expected an error" % stmt.text
            message = error_text(result, False, stmt)
            assert message.startswith("[ERROR] "), message
            assert "Traceback" not in message, message
            for fragment in (line.strip() for line in body if line.strip()):
                assert fragment in message, "%r not in %r" % (fragment, message)


def test_there_are_sql_files():
    assert len(FILES) >= 10


def file_modes(path):
    """[(path, mode)]: the modes a file asks for (`=== modes ...`), or [(path, None)] (as its SQL says)."""
    with open(path, encoding="utf-8") as f:
        blocks = parse_sqltest(f.read())
    modes = [b[1].split() for b in blocks if b[0] == "modes"]
    return [(path, m) for m in modes[0]] if modes else [(path, None)]


# What `make test` leaves to `make test-slow` (marked `slow`; both run before an issue is resolved), to keep
# `make test` within 25 minutes on a CI machine as slow as a 2-core development machine (CI took 1,484 s, then
# 2,962 s, for much the same suite):
# - a file that runs in both modes runs in one of them: streaming (dynsql's own operators), unless its
#   streaming run is slow below; its other run is slow;
# - the runs below, each 12 to 160 s on such a machine (subqueries_in_three_valued's streaming run 158 s at load
#   3: several subqueries, each a streaming query of several stateful operators). A file whose every run is
#   here is covered by `make test` elsewhere: the same operators in the files that stay, or the tests of
#   tests/test_window_tvfs.py, test_temporal_joins.py and test_subqueries*.py
SLOW = {("window_moments_cascade", "streaming"), ("subqueries_in_three_valued", "streaming"), ("subqueries_scalar_non_equi", "streaming"),
        ("subqueries", "streaming"), ("subqueries_in_joins", "streaming"), ("subqueries_in_joins", "batch"),
        ("subqueries_in_three_valued", "batch"), ("subqueries_scalar_non_equi", "batch"),
        ("ltz_windows", "streaming"), ("ltz_session_windows", "streaming"), ("float_anti_join_keys", "streaming"), ("set_operations", "streaming"),
        ("time_functions", "streaming"), ("everyday_functions", "batch"), ("subqueries_marked", "streaming"),
        ("interval_joins", "streaming"), ("python_aggregate_windows", None),
        ("window_late_rows", "streaming"), ("temporal_join_compositions", None), ("subqueries_derived", "batch"),
        ("subqueries_in_empty_streaming", "streaming"), ("window_session_group_windows", "streaming"),
        ("window_semi_joins", "streaming"), ("math_functions_java_outer_joins", "streaming"),
        ("window_grouping_sets", "streaming"), ("float_temporal_join_keys", "streaming"),
        ("subqueries_having", "batch"), ("time_zones", "streaming"), ("float_partition_keys_streaming", "streaming"),
        ("float_time_join_keys_streaming", "streaming"), ("subqueries_in_three_valued_batch", "batch"),
        ("collect_binary_decimal_timestamp", "streaming"), ("collect_binary_decimal_timestamp", "batch")}
CASES = [c for p in FILES for c in file_modes(p)]


def _case(path, mode):
    name = os.path.basename(path)[:-len(".sqltest")]
    both = {m for p, m in file_modes(path)} == {"streaming", "batch"}
    slow = (name, mode) in SLOW or (both and mode == "batch" and (name, "streaming") not in SLOW)
    return pytest.param(path, mode, marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize("path,mode", [_case(p, m) for p, m in CASES],
                         ids=[os.path.basename(p)[:-len(".sqltest")] + ("-" + m if m else "") for p, m in CASES])
def test_sql_file(path, mode, client, tmp_path):
    if mode is not None:
        client.settings.set("execution.runtime-mode", mode)
    with open(path, encoding="utf-8") as f:
        run_sqltest(client, f.read(), str(tmp_path))


# the same rows on each physical path (runtime/physical, `dynsql.physical.force`): one file here (the setting
# reaches the runner), every file on every path under `make test-paths` (DYNSQL_PHYSICAL, tests/conftest.py).
# `fast`: one pass, the whole-file reads and the as-of lookup wherever they apply; `general`: dynsql's own
# operators, no fast path (slow: 23 s)
FORCED_PATHS = [("window_aggregates", "general")]


@pytest.mark.slow
@pytest.mark.parametrize("name,force", FORCED_PATHS, ids=["%s-%s" % c for c in FORCED_PATHS])
def test_sql_file_on_a_forced_path(name, force, client, tmp_path):
    path = os.path.join(SQL_DIR, name + ".sqltest")
    client.settings.set("execution.runtime-mode", "streaming")
    client.settings.set("dynsql.physical.force", force)
    with open(path, encoding="utf-8") as f:
        run_sqltest(client, f.read(), str(tmp_path))


def test_runner_catches_a_wrong_changelog():
    """The check itself can fail: a missing row, an extra update, a retraction of nothing."""
    ins = [("+I", ("Mary", "1"))]
    with pytest.raises(AssertionError):
        check_changelog(ins, [])
    with pytest.raises(AssertionError):
        check_changelog(ins, [("+I", ("Mary", "0")), ("-U", ("Mary", "0")), ("+U", ("Mary", "1"))])
    with pytest.raises(AssertionError):
        check_changelog([("+I", ("Mary", "1")), ("-D", ("Mary", "1"))], [("-D", ("Mary", "1"))])
    check_changelog([("+I", ("a",)), ("-U", ("a",)), ("+U", ("b",))], [("+I", ("b",))])
