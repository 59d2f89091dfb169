"""Runs a conformance case (../shared/conformance/cases/<name>) in this process through the public
client API, on the shared SparkSession, and compares its changelog with Flink's using the
conformance comparator. Used by the tests and by `python tests/conformance_inprocess.py GLOB...`."""

import fnmatch
import io
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CONFORMANCE = os.path.join(os.path.dirname(ROOT), "shared", "conformance")
CASES = os.path.join(CONFORMANCE, "cases")


def case_names(*globs):
    if not os.path.isdir(CASES):
        return []
    names = sorted(os.listdir(CASES))
    return [n for n in names if any(fnmatch.fnmatch(n, g) for g in globs)]


def run_case(client, name):
    """-> (passed: bool, detail: str)."""
    sys.path.insert(0, CONFORMANCE)
    import compare
    from repl.render import print_result
    case_dir = os.path.join(CASES, name)
    sql = open(os.path.join(case_dir, "case.sql"), encoding="utf-8").read().replace("${CASE_DIR}", case_dir)
    expect_error = os.path.exists(os.path.join(case_dir, "expected_error.txt"))
    out = io.StringIO()
    try:
        for stmt in client.split(sql):
            print_result(client.execute(stmt), out, client.settings, "jsonl")
    except Exception as e:  # the case's verdict, not a test crash
        if expect_error:
            return True, "refused: %s" % e
        return False, "failed: %s" % e
    if expect_error:
        return False, "Flink refuses this case, dynsql ran it"
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        f.write(out.getvalue())
    key_file = os.path.join(case_dir, "key.json")
    key = json.load(open(key_file))["key"] if os.path.exists(key_file) else None
    buf = io.StringIO()
    try:
        ok, _ = compare.compare(os.path.join(case_dir, "expected.jsonl"), f.name, 12, out=buf, key_cols=key)
    finally:
        os.unlink(f.name)
    return ok, buf.getvalue().strip()


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    from repl.client import Client
    from runtime.session import SparkRuntime
    rt = SparkRuntime(master="local[2]").start()
    passed = failed = 0
    for name in case_names(*(sys.argv[1:] or ["*"])):
        ok, detail = run_case(Client(spark_runtime=rt), name)
        passed += ok
        failed += not ok
        print("%-4s %-40s %s" % ("ok" if ok else "FAIL", name, detail if not ok else detail.splitlines()[-1]),
              flush=True)
    print("conformance (in-process): %d passed, %d failed" % (passed, failed))
    rt.stop()
