"""Produce the Nexmark fixtures with real Flink: run q0-q22 over the generated input on Flink 2.3 (streaming,
parallelism 1, UTC) in both table layouts and store each changelog.

  /work/flink-venv/bin/python tests/nexmark/flink_expected.py                 all queries, both layouts
  /work/flink-venv/bin/python tests/nexmark/flink_expected.py --queries 5,7 --layouts nested

Reads tests/nexmark/expected/params.json (the generator settings: events, rate, base_time, seed), writes
the input with demo_data/nexmark.py into a temporary folder, records the input files' sha256 in
params.json (the test checks that the generator still writes the same input), and writes
  expected/<layout>/qN.jsonl   Flink's changelog, one {"op": ..., "row": [...]} a line, values as the
                               conformance contract writes them (../shared/conformance/README.md)
  expected/<layout>/qN.error   instead, when Flink refuses or fails the query: its message
q10 runs its INSERT into a folder; its jsonl holds the rows the sink wrote (+I), partition values last.
One JVM a layout; a query's statements as nexmark_sql.py makes them. Not part of the test run (needs pyflink,
never a dependency of dynsql)."""

import argparse
import datetime as dt
import decimal
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import nexmark_sql  # noqa: E402

EXPECTED = os.path.join(HERE, "expected")


def json_value(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, decimal.Decimal):
        return format(v, "f")
    if isinstance(v, dt.datetime):
        text = v.strftime("%Y-%m-%d %H:%M:%S")
        if v.microsecond == 0:
            return text
        if v.microsecond % 1000 == 0:
            return text + ".%03d" % (v.microsecond // 1000)
        return text + ".%06d" % v.microsecond
    if isinstance(v, (dt.date, dt.time)):
        return str(v)
    if isinstance(v, (list, tuple)):
        return [json_value(x) for x in v]
    if hasattr(v, "_values"):
        return [json_value(x) for x in v._values]
    return str(v)


def error_message(e):
    """Flink's exception -> its first message, and the root cause when that says something else."""
    found = re.findall(r"(ValidationException|TableException|SqlParserException|SqlValidateException|"
                       r"CalciteContextException|UnsupportedOperationException|IllegalArgumentException|"
                       r"ParseException|ClassNotFoundException|FileNotFoundException): (.*)", str(e))
    if not found:
        return str(e).strip().splitlines()[0]
    first, (kind, cause) = found[0][1].strip(), found[-1]
    return first if cause.strip() in first else "%s (caused by %s: %s)" % (first, kind, cause.strip())


def run_layout(layout, numbers, data_dir, out_dir):
    from pyflink.table import EnvironmentSettings, TableEnvironment
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    env.get_config().set("parallelism.default", "1")
    env.get_config().set("table.local-time-zone", "UTC")
    for s in nexmark_sql.table_statements(layout, data_dir):
        env.execute_sql(s)
    os.makedirs(out_dir, exist_ok=True)
    for n in numbers:
        started = time.time()
        sink_dir = tempfile.mkdtemp(prefix="nexmark-q%d-" % n)
        setup, last = nexmark_sql.query_statements(n, data_dir, output=sink_dir)
        lines, error = [], None
        try:
            for s in setup:
                env.execute_sql(s)
            result = env.execute_sql(last)
            if n in nexmark_sql.INSERT_QUERIES:
                result.wait()
                lines = [{"op": "+I", "row": row} for row in nexmark_sql.written_rows(sink_dir)]
            else:
                with result.collect() as rows:
                    for row in rows:
                        lines.append({"op": str(row.get_row_kind()),
                                      "row": [json_value(x) for x in row._values]})
        except Exception as e:   # Flink's refusal or failure is the fixture
            error = error_message(e)
        finally:
            shutil.rmtree(sink_dir, ignore_errors=True)
        base = os.path.join(out_dir, "q%d" % n)
        for old in (base + ".jsonl", base + ".error"):
            if os.path.exists(old):
                os.unlink(old)
        if error is not None:
            with open(base + ".error", "w", encoding="utf-8") as f:
                f.write(error + "\n")
            print("%-6s q%-2d ERROR %s (%.1f s)" % (layout, n, error[:150], time.time() - started), flush=True)
        else:
            upserts = [i for i, line in enumerate(lines) if line["op"] == "+U" and (i == 0 or lines[i - 1]["op"] != "-U")]
            if upserts and n not in nexmark_sql.UPSERT_KEYS:
                print("q%d: +U without -U (an upsert stream): declare its key in nexmark_sql.UPSERT_KEYS" % n)
            with open(base + ".jsonl", "w", encoding="utf-8") as f:
                for line in lines:
                    f.write(json.dumps(line, ensure_ascii=False) + "\n")
            ops = sorted({line["op"] for line in lines})
            print("%-6s q%-2d %d changes %s (%.1f s)" % (layout, n, len(lines), ",".join(ops), time.time() - started),
                  flush=True)


def file_digests(data_dir):
    out = {}
    for name in sorted(os.listdir(data_dir)):
        if name.endswith((".json", ".csv")):
            with open(os.path.join(data_dir, name), "rb") as f:
                out[name] = hashlib.sha256(f.read()).hexdigest()
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--queries", default=",".join(str(n) for n in nexmark_sql.QUERY_NUMBERS))
    p.add_argument("--layouts", default=",".join(nexmark_sql.LAYOUTS))
    args = p.parse_args()
    params_path = os.path.join(EXPECTED, "params.json")
    with open(params_path, encoding="utf-8") as f:
        params = json.load(f)
    data_dir = tempfile.mkdtemp(prefix="nexmark-input-")
    try:
        nexmark_sql.write_input(params, data_dir)
        params["sha256"] = file_digests(data_dir)
        with open(params_path, "w", encoding="utf-8") as f:
            json.dump(params, f, indent=2)
            f.write("\n")
        numbers = [int(x) for x in args.queries.split(",")]
        for layout in args.layouts.split(","):
            run_layout(layout, numbers, data_dir, os.path.join(EXPECTED, layout))
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
