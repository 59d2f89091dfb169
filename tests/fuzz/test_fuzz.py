"""The planner under mutated SQL: 250 statements (seeded, the same every run) planned as the shell
plans them must give no crash, no hang and no message naming a Python or sqlglot class.

A hang here is a statement planned for more than 10 s of CPU: work that grows faster than the statement (the
hangs make fuzz found took minutes). The goal of 2 s a statement is a figure, not a test: the same statement
takes twice as long on one machine as on another. `make fuzz` runs 50,000 statements against it and prints the
slowest; tests/planner_tests/test_deep_nesting.py checks the growth of the work itself, in Python calls."""

import time

from fuzz.corpus import load_scripts, seed_statements, sqltest_sql
from fuzz.harness import Case, _Contexts, class_name_in, make_case, run, run_case
from fuzz.mutate import mutate
from fuzz.report import format_run

SEED = "dynsql-suite"
STATEMENTS = 250
HANG_SECONDS = 10.0       # a statement planned for longer (CPU time) is a hang


def test_mutated_statements_never_crash_hang_or_name_a_class():
    result = run(SEED, STATEMENTS, slow=HANG_SECONDS, kill_after=2 * HANG_SECONDS)
    assert len(result.outcomes) == STATEMENTS
    failures = result.problems()
    report = format_run(result)
    print(report)
    assert not failures, "\n" + report
    kinds = result.by_kind()
    assert kinds["error"] > STATEMENTS // 2 and kinds["ok"] > 0     # the mutations reach the planner


def test_the_statement_that_hung_make_fuzz_at_100000_plans():
    """make fuzz (seed dynsql, 100,000 statements) hung on 300 copies of predicates_and_values.sqltest's
    `WITH big AS (..) SELECT ..` joined by UNION ALL (36,590 characters): each WITH copied the rest of the
    statement (planner/bind/binder.py). Planned as the shell plans it, after the script's statements before it (the growth
of its work: test_deep_nesting.py's test_with_union_all_with_binds_in_time_linear_in_its_length)."""
    script = next(s for s in load_scripts() if s.name == "sqltest:predicates_and_values.sqltest")
    target = next(i for i, text in enumerate(script.statements) if text.lstrip().startswith("WITH big AS"))
    text = " UNION ALL ".join([script.statements[target]] * 300) + ";"
    outcome = run_case(_Contexts([script]), Case(0, script.name, target, text, ("many_items",)))
    assert (outcome.kind, outcome.detail) == ("ok", "")


# ---------------------------------------------------------------------- the harness itself
def test_a_class_name_in_a_message_is_found_and_the_users_own_words_are_not():
    assert class_name_in("SQL parse failed. Required keyword: 'this' missing for <class 'x.Mul'>", "") is not None
    assert class_name_in("Expected table name but got <Token token_type: TokenType.SENTINEL>", "") is not None
    assert class_name_in("'NoneType' object has no attribute 'name'", "") is not None
    assert class_name_in("Cannot plan an exp.Column here", "") is not None
    assert class_name_in("Unexpected DataType in the projection", "SELECT 1") == "DataType"
    assert class_name_in("Object 'DataType' not found", "SELECT * FROM DataType") is None
    assert class_name_in("Unexpected TableAlias", "SELECT * FROM TableAlias") is None
    assert class_name_in("Object 'clicks' not found (at line 1, column 15)", "SELECT * FROM clicks") is None


def test_the_mutator_is_deterministic_and_mutates():
    import random
    text = "SELECT `user`, COUNT(url) AS cnt FROM clicks WHERE url > 'a' GROUP BY `user`"
    first = [mutate(text, random.Random("s:%d" % i)) for i in range(200)]
    again = [mutate(text, random.Random("s:%d" % i)) for i in range(200)]
    assert first == again
    assert sum(out != text for out, _ in first) > 150
    names = {name for _, applied in first for name in applied}
    assert {"delete_token", "deep_nesting", "interval_value", "type_precision", "unicode_chars"} <= names


def test_the_corpus_holds_every_source():
    scripts = load_scripts()
    kinds = {s.name.split(":")[0] for s in scripts}
    assert {"sqltest", "demo.sql"} <= kinds
    assert all(s.targets and max(s.targets) < len(s.statements) for s in scripts)
    case = make_case(scripts, "x", 7)
    assert case == make_case(scripts, "x", 7)


def test_seed_statements_are_the_documents_sql_examples():
    page = ("说明文字。\nSELECT user, COUNT(url)\nFROM clicks\nGROUP BY user;\n  • 状态大小: 持续查询\n"
            "CREATE TABLE t (\n  a INT\n) WITH (...);\n\nnot sql\nSELECT 1\n\n")
    assert seed_statements(page) == ["SELECT user, COUNT(url)\nFROM clicks\nGROUP BY user",
                                     "CREATE TABLE t (\n  a INT\n) WITH (...)", "SELECT 1"]
    assert sqltest_sql("=== sql\nSELECT 1;\n=== expect\n+I | 1\n=== sql\nSELECT '${DATA}';\n").split() == \
        ["SELECT", "1;", "SELECT", "'/tmp/dynsql-fuzz-data';"]


# A stand-in for the planner, imported by the worker process: of the cases of HARNESS_SEED, case 1 is
# slow (1.5 s of CPU), case 2 crashes, case 3 never ends, case 4 names a class; the others plan.
HARNESS_SEED = "harness-test"


def misbehaving_plan(planner, text):
    from planner.errors import SqlError
    scripts = load_scripts()
    index = next(i for i in range(6) if make_case(scripts, HARNESS_SEED, i).text == text)
    if index == 1:
        busy_until = time.process_time() + 1.5
        while time.process_time() < busy_until:
            pass
    elif index == 2:
        {}["missing"]
    elif index == 3:
        while True:
            pass
    elif index == 4:
        raise SqlError("Cannot use a TableAlias here")


def test_crashes_hangs_and_class_names_are_reported_with_their_sites():
    texts = [make_case(load_scripts(), HARNESS_SEED, i).text for i in range(6)]
    assert len(set(texts)) == 6
    result = run(HARNESS_SEED, 6, slow=1.0, kill_after=3.0, plan="fuzz.test_fuzz:misbehaving_plan")
    kinds = {o.index: o.kind for o in result.outcomes}
    assert kinds == {0: "ok", 1: "hang", 2: "crash", 3: "hang", 4: "class-name", 5: "ok"}
    crash = next(o for o in result.outcomes if o.kind == "crash")
    assert crash.exception == "KeyError" and crash.site == "(outside dynsql)"
    slow, killed = (next(o for o in result.outcomes if o.index == i) for i in (1, 3))
    assert slow.exception == "ok" and slow.seconds >= 1.0
    assert killed.exception == "killed" and result.restarts == 1
    named = next(o for o in result.outcomes if o.kind == "class-name")
    assert named.exception == "TableAlias"


def test_a_crash_in_dynsql_code_names_the_file_and_line():
    scripts = load_scripts()
    contexts = _Contexts(scripts)

    def crash(planner, text):
        from planner.expr.types import parse_type
        parse_type(None)                       # a TypeError inside planner/expr/types.py

    outcome = run_case(contexts, make_case(scripts, "x", 0), plan=crash)
    assert outcome.kind == "crash" and outcome.exception == "TypeError"
    assert outcome.site.startswith("planner/expr/types.py:")
