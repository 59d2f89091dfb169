"""Records Flink 2.3's outputs for every case of function_cases.txt into flink_results.json, in one PyFlink
JVM (batch mode, UTC, parallelism 1):

    /work/flink-venv/bin/python tests/functions/record_flink_results.py [NAME ...]

Each function's cases run as one query when they can (one column a case), else one by one. A case's record
is {"rows": canonical rows, "types": Flink's result types} or {"error": the first line of Flink's error}.
With NAMEs only those functions are recorded again (the others' records are kept)."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pyflink.table import EnvironmentSettings, TableEnvironment  # noqa: E402

from function_table import RESULTS, canonical_rows, read_cases  # noqa: E402


def environment():
    tenv = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    conf = tenv.get_config()
    conf.set("parallelism.default", "1")
    conf.set("table.local-time-zone", "UTC")
    conf.set("restart-strategy.type", "none")
    return tenv


def run(tenv, query):
    table = tenv.sql_query(query)
    types = [str(t.toString()) for t in table._j_table.getResolvedSchema().getColumnDataTypes()]
    with table.execute().collect() as rows:
        return [list(r) for r in rows], types


def error_text(e):
    """The root cause of Flink's error, its first line (a validation error: the validator's message)."""
    jexc, chain = getattr(e, "java_exception", None), []
    while jexc is not None and len(chain) < 30:
        msg = jexc.getMessage()
        chain.append("%s: %s" % (jexc.getClass().getSimpleName(), "" if msg is None else str(msg).strip()))
        cause = jexc.getCause()
        jexc = None if cause is None or cause.equals(jexc) else cause
    if chain:
        validation = [c for c in chain if c.startswith(("ValidationException", "SqlValidatorException"))]
        return (validation[-1] if validation else chain[-1]).splitlines()[0][:500]
    text = str(e)
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("Traceback", "at ", "py4j")):
            if "Exception: " in line:
                line = line.split("Exception: ", 1)[1]
            return line[:500]
    return text[:500]


def record_one(tenv, query):
    try:
        rows, types = run(tenv, query)
        return {"rows": canonical_rows(rows), "types": types}
    except Exception as e:  # Flink refuses it (validation) or fails running it
        return {"error": error_text(e)}


def validate(tenv, query):
    """Flink's error for a query its planner refuses (no job runs), else None."""
    try:
        tenv.sql_query(query)
        return None
    except Exception as e:
        return error_text(e)


def record_together(tenv, queries, records, expressions):
    """Expression cases as the columns of one query (one job); a failing group is split in halves."""
    joined = "SELECT " + ", ".join("%s AS c%d" % (expressions[q], i) for i, q in enumerate(queries))
    together = record_one(tenv, joined) if len(queries) > 1 else {"error": ""}
    if "rows" in together:
        row = together["rows"][0]
        for i, q in enumerate(queries):
            records[q] = {"rows": [[row[i]]], "types": [together["types"][i]]}
    elif len(queries) == 1:
        records[queries[0]] = record_one(tenv, queries[0])
    else:
        half = len(queries) // 2
        record_together(tenv, queries[:half], records, expressions)
        record_together(tenv, queries[half:], records, expressions)


def main(names):
    entries = read_cases()
    results = {}
    if names and os.path.exists(RESULTS):
        with open(RESULTS, encoding="utf-8") as f:
            results = json.load(f)
    tenv = environment()
    records, together = {}, []
    chosen = [e for e in entries if e.cases and (not names or e.name in names)]
    expressions = {q: x for e in chosen for q, x in e.expressions.items()}
    for entry in chosen:
        for q in entry.cases:
            print("validating", q, file=sys.stderr, flush=True)
            error = validate(tenv, q)
            if error is not None:
                records[q] = {"error": error}
            elif q in entry.expressions:
                together.append(q)
            else:
                records[q] = record_one(tenv, q)
    for start in range(0, len(together), 60):
        print("running cases %d.." % start, file=sys.stderr, flush=True)
        record_together(tenv, together[start:start + 60], records, expressions)
    for entry in chosen:
        results[entry.name] = {q: records[q] for q in entry.cases}
    with open(RESULTS, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main(set(sys.argv[1:]))
