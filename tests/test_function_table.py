"""Flink 2.3's built-in functions as a test table: every function of tests/functions/flink_2_3_functions.txt has
cases in tests/functions/function_cases.txt whose outputs Flink 2.3 gave (tests/functions/flink_results.json,
recorded by tests/functions/record_flink_results.py); dynsql runs them through the client API in batch mode on
the shared session and must give Flink's rows, or refuse the function with a planner error naming it.

Expected rows from Flink 2.3. Expression cases run as the columns of a few queries (a failing one is split in
halves), so the table costs a few Spark jobs. Each function ends up
- matching: every case gives Flink's rows (or fails in both, as Flink fails on it);
- refused: dynsql's planner refuses a case with an error naming the function (the others match);
- differing: a case gives other rows, fails with a runtime error, or is accepted where Flink refuses it;
- owned elsewhere: another area's function (collections, JSON, temporal, casts, arithmetic, grouping,
  aggregates; clause-level functions tested by the .sqltest files): classified and reported, not failing.
The counts are printed (`pytest -s`); the test fails while a function of this area differs."""

import collections
import os
import re
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "functions"))

from function_table import (canonical_rows, read_cases, read_function_names, read_results,  # noqa: E402
                            same)

from planner.errors import SqlError  # noqa: E402

CHUNK = 80
ALIASES = {"TRANSLATE3": "TRANSLATE", "IS_JSON": "IS JSON"}


@pytest.fixture(scope="module")
def entries():
    return read_cases()


def test_every_flink_function_has_an_entry(entries):
    names = read_function_names()
    listed = {e.name for e in entries}
    assert sorted(set(names) - listed) == [], "Flink functions without an entry in function_cases.txt"
    assert sorted(listed - set(names)) == [], "entries for names Flink 2.3 does not list"


def test_every_case_is_recorded(entries):
    results = read_results()
    missing = [(e.name, q) for e in entries for q in e.cases if q not in results.get(e.name, {})]
    assert missing == [], "run tests/functions/record_flink_results.py for these"




class Outcome:
    def __init__(self, rows=None, error=None, refused=False):
        self.rows, self.error, self.refused = rows, error, refused


def _evaluate(client, queries, expressions, alone=()):
    """query -> Outcome: each planned on its own (a planner refusal costs no Spark job), the planned
    expressions (`expressions`: query -> expression) run as the columns of a few queries; those in `alone` (Flink fails on them: dynsql should
    too) run on their own, so that their failure does not split the others' query."""
    outcomes, together = {}, []
    for q in queries:
        try:
            client.plan(q)
        except SqlError as e:
            outcomes[q] = Outcome(error=str(e), refused=True)
            continue
        except Exception as e:          # a Python exception out of the planner is a bug
            outcomes[q] = Outcome(error="%s: %s" % (type(e).__name__, e))
            continue
        if q in expressions and q not in alone:
            together.append(q)
        else:
            outcomes[q] = _run_one(client, q)
    for start in range(0, len(together), CHUNK):
        _run_together(client, together[start:start + CHUNK], outcomes, expressions)
    return outcomes


def _run_one(client, q):
    """A planned query's rows, or its failure (never a refusal: the planner accepted it)."""
    try:
        return Outcome(rows=canonical_rows(client.execute(q).rows))
    except Exception as e:
        return Outcome(error="%s: %s" % (type(e).__name__, e))


def _run_together(client, queries, outcomes, expressions):
    if len(queries) == 1:
        outcomes[queries[0]] = _run_one(client, queries[0])
        return
    joined = "SELECT " + ", ".join("%s AS c%d" % (expressions[q], i) for i, q in enumerate(queries))
    together = _run_one(client, joined)
    if together.rows is not None:
        for i, q in enumerate(queries):
            outcomes[q] = Outcome(rows=[[together.rows[0][i]]])
        return
    half = len(queries) // 2
    _run_together(client, queries[:half], outcomes, expressions)
    _run_together(client, queries[half:], outcomes, expressions)


def _names_function(entry, query, message, flink_names):
    """Whether a refusal names the function: the entry's, or another Flink function its case calls
    (`BITMAP_TO_STRING(BITMAP_BUILD(...))` refused as BITMAP_TO_STRING)."""
    text = message.upper()
    called = {n for n in re.findall(r"[A-Z_][A-Z0-9_]*(?=\s*\()", query.upper()) if n in flink_names}
    return any(n in text for n in {entry.name, ALIASES.get(entry.name, entry.name)} | called)


def classify(entry, flink, outcomes, flink_names=frozenset()):
    """-> ("matching" | "refused" | "differing", [why, for each case that differs])."""
    refused, why = False, []
    for q in entry.cases:
        expected, got = flink[q], outcomes[q]
        if got.error is not None:
            if "error" in expected:
                refused = refused or got.refused            # both refuse it (dynsql's planner, or both fail)
                continue
            if got.refused and _names_function(entry, q, got.error, flink_names):
                refused = True
                continue
            why.append("%s: Flink gives %s, dynsql fails: %s" % (q, expected["rows"], got.error.splitlines()[0]))
        elif "error" in expected:
            why.append("%s: Flink refuses it (%s), dynsql gives %s" % (q, expected["error"], got.rows))
        elif not same(got.rows, expected["rows"]):
            why.append("%s: Flink gives %s %s, dynsql %s" % (q, expected["rows"], expected["types"], got.rows))
    return ("differing" if why else "refused" if refused else "matching"), why


@pytest.fixture(scope="module")
def table(entries, spark_runtime, tmp_path_factory):
    from repl.client import Client
    client = Client(spark_runtime=spark_runtime,
                    conf={"dynsql.jobs.dir": str(tmp_path_factory.mktemp("jobs"))})
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    results = read_results()
    flink_names = set(read_function_names()) | set(ALIASES.values())
    failing = {q for e in entries for q in e.cases if "error" in results[e.name][q]}
    expressions = {q: x for e in entries for q, x in e.expressions.items()}
    outcomes = _evaluate(client, [q for e in entries if not e.owned for q in e.cases], expressions, failing)
    outcomes.update(_evaluate(client, [q for e in entries if e.owned for q in e.cases], expressions,
                              failing))     # apart: their failures do not split this area's queries
    table = {}
    for e in entries:
        if e.status == "covered":
            table[e.name] = ("owned", "covered", [])
            continue
        status, why = classify(e, results[e.name], outcomes, flink_names)
        table[e.name] = ("owned" if e.owned else status, status, why)
    counts = collections.Counter(kind for kind, _, _ in table.values())
    owned = collections.Counter(status for kind, status, _ in table.values() if kind == "owned")
    print("\nFlink 2.3 functions: %d matching, %d refused, %d differing, %d owned elsewhere (%s)"
          % (counts["matching"], counts["refused"], counts["differing"], counts["owned"],
             ", ".join("%d %s" % (n, s) for s, n in sorted(owned.items()))))
    print("refused: " + " ".join(sorted(name for name, (kind, _, _) in table.items() if kind == "refused")))
    return table


def test_no_function_differs_from_flink(table):
    differing = {name: why for name, (kind, _, why) in table.items() if kind == "differing"}
    assert differing == {}, "\n".join("%s:\n  %s" % (n, "\n  ".join(w)) for n, w in sorted(differing.items()))


def test_owned_functions_are_reported(table, capsys):
    """Not failing: what the other areas' functions give today, for completing the table after the merge."""
    owned = {name: why for name, (kind, status, why) in table.items() if kind == "owned" and status == "differing"}
    with capsys.disabled():
        for name, why in sorted(owned.items()):
            print("owned elsewhere, differing: %s: %s" % (name, why[0]))
