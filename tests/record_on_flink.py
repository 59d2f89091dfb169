#!/usr/bin/env python3
"""Record a .sqltest file's expected changelogs on real Flink 2.3: every `=== expect` block is rewritten with
what Flink gives for the statement before it, so that a test's expected rows come from Flink, not from dynsql.

    record_on_flink.py tests/sql/FILE.sqltest [...]        rewrite the expect blocks in place
    record_on_flink.py --check tests/sql/FILE.sqltest      only report where Flink differs from the file

Each query (the last statement of a `=== sql` block followed by `=== expect` or `=== error`) becomes one case of
../shared/conformance (`case.sql`: the earlier blocks' other statements, then the query; the file's `=== file`
blocks beside it; `${DATA}` -> `${CASE_DIR}`), run by ../shared/conformance/flink_run.py in one Flink JVM. A
file with `=== modes streaming batch` is recorded in each mode (batch on Flink's batch TableEnvironment); the
modes must end in the same rows, and the streaming changelog is written. A query Flink refuses is reported with
Flink's message and its block left as it is: an `=== error` block holds dynsql's words, which only a person
can write. Values are written as Flink's tableau prints them (NULL as <NULL>, TRUE/FALSE, TIMESTAMP(p) with p
fraction digits; a MAP's or MULTISET's entries sorted, as flink_run.py hands them over: tests/map_order/print_on_flink.py
prints them in Flink's order), the form the runner (tests/test_sql_files.py) compares.

Flink is a peer, not a dependency: FLINK_PY names a Python with apache-flink==2.3.0 (default
../flink-venv/bin/python beside the project; ../shared/perf/README.md says how to make it)."""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FLINK_RUN = os.path.join(os.path.dirname(ROOT), "shared", "conformance", "flink_run.py")
FLINK_PY = os.environ.get("FLINK_PY") or os.path.join(os.path.dirname(ROOT), "flink-venv", "bin", "python")
_BATCH_SET = re.compile(r"^\s*SET\s+'execution\.runtime-mode'\s*=\s*'batch'\s*$", re.I)


# ---------------------------------------------------------------------- the Flink side (run by FLINK_PY)
def flink_side(case_dirs, timeout):
    """Runs in FLINK_PY: each case on flink_run.py's corpus mode, a case folder holding a file `batch` on
    Flink's batch TableEnvironment (flink_run.py builds a streaming one)."""
    sys.path.insert(0, os.path.dirname(FLINK_RUN))
    import flink_run
    from pyflink.table import EnvironmentSettings
    streaming = EnvironmentSettings.in_streaming_mode
    for case_dir in case_dirs:
        batch = os.path.exists(os.path.join(case_dir, "batch"))
        EnvironmentSettings.in_streaming_mode = EnvironmentSettings.in_batch_mode if batch else streaming
        flink_run.process(case_dir, None, None, timeout, corpus_mode=True, quiet=True)


# ---------------------------------------------------------------------- the dynsql side
def _sqltest():
    sys.path.insert(0, HERE)
    import test_sql_files
    return test_sql_files


def cases_of(text):
    """A .sqltest text -> (modes, files {name: text}, [(block index, setup statements, query)])."""
    from planner.splitter import split
    blocks = _sqltest().parse_sqltest(text)
    modes = next((arg.split() for kind, arg, _ in blocks if kind == "modes"), [None])
    files, setup, queries = {}, [], []
    for i, (kind, arg, body) in enumerate(blocks):
        if kind == "file":
            files[arg] = "\n".join(body) + ("\n" if body else "")
        elif kind == "sql":
            stmts = [s.text for s in split("\n".join(body))]
            checked = i + 1 < len(blocks) and blocks[i + 1][0] in ("expect", "error")
            if checked:
                setup.extend(stmts[:-1])
                queries.append((i + 1, list(setup), stmts[-1]))
            else:
                setup.extend(stmts)
    return modes, files, queries


def write_case(case_dir, files, setup, query, batch):
    os.makedirs(case_dir)
    for name, text in files.items():
        path = os.path.join(case_dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    statements = [s for s in setup if not _BATCH_SET.match(s)]
    batch = batch or any(_BATCH_SET.match(s) for s in setup)
    with open(os.path.join(case_dir, "case.sql"), "w", encoding="utf-8") as f:
        f.write("-- recorded from a .sqltest file\n")
        for s in statements + [query]:
            f.write(s.replace("${DATA}", "${CASE_DIR}") + ";\n")
    if batch:
        open(os.path.join(case_dir, "batch"), "w").close()


def cell(value, flink_type):
    """A conformance JSON value (../shared/conformance/README.md) -> the tableau's text of it."""
    from planner.expr.types import parse_type
    flink_type = re.sub(r"\s*\*(ROWTIME|PROCTIME)\*", "", flink_type or "")    # a time attribute's mark
    return _cell(value, parse_type(flink_type) if flink_type else None, top=True)


def _cell(v, ft, top=False):
    from repl.render import java_double_text
    if v is None:
        return "<NULL>" if top else "NULL"
    name = ft.name if ft is not None else None
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if name in ("DOUBLE", "FLOAT"):
        return v if isinstance(v, str) else java_double_text(float(v))
    if name in ("BINARY", "VARBINARY") and isinstance(v, str):       # flink_run.py: the bytes in hex
        return "x'%s'" % v
    if name in ("TIMESTAMP", "TIMESTAMP_LTZ", "TIME") and isinstance(v, str):
        p = ft.params[0] if ft.params else (0 if name == "TIME" else 6)
        whole, _, frac = v.partition(".")
        return whole + ("." + frac.ljust(p, "0")[:p] if p else "")
    if name == "ARRAY" and isinstance(v, list):
        return "[" + ", ".join(_cell(x, ft.children[0]) for x in v) + "]"
    if name == "MULTISET" and isinstance(v, list):      # flink_run.py: [[element, count], ...], sorted
        return "{" + ", ".join("%s=%d" % (_cell(a, ft.children[0]), n) for a, n in v) + "}"
    if name == "MAP" and isinstance(v, list):
        k, t = ft.children
        return "{" + ", ".join("%s=%s" % (_cell(a, k), _cell(b, t)) for a, b in v) + "}"
    if name == "ROW" and isinstance(v, list):
        return "(" + ", ".join(_cell(x, t) for x, (_, t) in zip(v, ft.children)) + ")"
    return str(v)


def recorded(case_dir):
    """('rows', [change lines]) or ('error', Flink's text) or ('missing', why)."""
    error = os.path.join(case_dir, "expected_error.txt")
    if os.path.exists(error):
        with open(error, encoding="utf-8") as f:
            return "error", f.read().strip()
    path = os.path.join(case_dir, "expected.jsonl")
    if not os.path.exists(path):
        return "missing", "flink_run.py wrote nothing (a case error or a time-out: see its output above)"
    with open(os.path.join(case_dir, "columns.json"), encoding="utf-8") as f:
        types = [c["type"] for c in json.load(f)["columns"]]
    lines = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            change = json.loads(raw)
            lines.append(" | ".join([change["op"]] + [cell(v, t) for v, t in zip(change["row"], types)]))
    return "rows", lines


def record(paths, check, timeout):
    work = tempfile.mkdtemp(prefix="record-on-flink-")
    plan = []        # (path, block index, {mode: case dir})
    texts = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            texts[path] = f.read()
        modes, files, queries = cases_of(texts[path])
        for n, (block, setup, query) in enumerate(queries):
            dirs = {}
            for mode in modes:
                d = os.path.join(work, "%s-%d-%s" % (os.path.basename(path), n, mode or "as-written"))
                write_case(d, files, setup, query, mode == "batch")
                dirs[mode] = d
            plan.append((path, block, dirs))
    all_dirs = [d for _, _, dirs in plan for d in dirs.values()]
    if all_dirs:
        subprocess.run([FLINK_PY, os.path.abspath(__file__), "--flink-side", "--timeout", str(timeout)] + all_dirs,
                       check=True)
    test_sql_files = _sqltest()
    new_bodies, problems = {}, 0
    for path, block, dirs in plan:
        outcomes = {mode: recorded(d) for mode, d in dirs.items()}
        first_mode = next(iter(outcomes))
        kind, payload = outcomes[first_mode]
        where = "%s, query %s" % (os.path.basename(path), block)
        if kind != "rows":
            print("%s: Flink %s:\n  %s" % (where, "refuses it" if kind == "error" else "gave nothing",
                                           payload.replace("\n", "\n  ")))
            problems += kind == "missing"
            continue
        for mode, (other_kind, other) in outcomes.items():
            if mode == first_mode:
                continue
            if other_kind != "rows" or test_sql_files.materialize(map(test_sql_files.parse_change, other))[0] != \
                    test_sql_files.materialize(map(test_sql_files.parse_change, payload))[0]:
                print("%s: %s and %s mode give different results on Flink:\n  %s\n  ---\n  %s" % (
                    where, first_mode, mode, "\n  ".join(payload),
                    "\n  ".join(other) if other_kind == "rows" else other))
                problems += 1
        new_bodies[(path, block)] = payload
    for path in paths:
        blocks = test_sql_files.parse_sqltest(texts[path])
        changed = False
        for i, (kind, arg, body) in enumerate(blocks):
            new = new_bodies.get((path, i))
            if new is None:
                continue
            if kind == "error":
                print("%s, query %d: an `=== error` block, but Flink runs it:\n  %s" % (
                    os.path.basename(path), i, "\n  ".join(new) or "(no rows)"))
                problems += 1
                continue
            comments = [line for line in body if line.startswith("#")]
            old = [line for line in body if line.strip() and not line.startswith("#")]
            if not _same_result(old, new):
                print("%s, query %d: Flink gives\n  %s\n  where the file had\n  %s" % (
                    os.path.basename(path), i, "\n  ".join(new) or "(no rows)", "\n  ".join(old) or "(no rows)"))
                blocks[i] = (kind, arg, comments + new + ([""] if body and not body[-1].strip() else []))
                changed = True
        if changed and not check:
            with open(path, "w", encoding="utf-8") as f:
                f.write(_unparse(texts[path], blocks))
    return problems


def _same_result(old, new):
    """Whether two expect bodies pass the runner's check against each other: the same final rows, and inserts
    only in both where Flink gives inserts only."""
    t = _sqltest()
    try:
        t.check_changelog([t.parse_change(x) for x in new], [t.parse_change(x) for x in old])
    except (AssertionError, ValueError):
        return False
    return True


def _unparse(text, blocks):
    """The file's text with each block's body replaced (the header lines and the text before them kept)."""
    head = []
    for raw in text.splitlines():
        if raw.startswith("=== "):
            break
        head.append(raw)
    out = list(head)
    for kind, arg, body in blocks:
        out.append(("=== %s %s" % (kind, arg)).rstrip())
        out.extend(body)
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--check", action="store_true", help="report the differences, change nothing")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per query on Flink")
    ap.add_argument("--flink-side", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.flink_side:
        flink_side(args.paths, args.timeout)
        return 0
    if not os.path.exists(FLINK_PY):
        sys.exit("no Flink Python at %s: set FLINK_PY (../shared/perf/README.md says how to install it)" % FLINK_PY)
    sys.path.insert(0, ROOT)
    return 1 if record(args.paths, args.check, args.timeout) else 0


if __name__ == "__main__":
    sys.exit(main())
