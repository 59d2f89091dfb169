"""The function table's cases and values, shared by the Flink recorder (record_flink_results.py, run with
PyFlink's Python) and dynsql's runner (tests/test_function_table.py): plain Python, no dynsql, no Spark.

`read_cases()` -> [FunctionEntry]: function_cases.txt, one entry per Flink function, with its expressions
or queries. `canonical(value)` turns a row value (PyFlink's or dynsql's) into JSON-able data, so that
Flink's recorded outputs and dynsql's compare as data; `same(a, b)` compares two canonical values
(floating-point numbers to 1e-12, decimals by value)."""

import datetime as dt
import json
import math
import os
from dataclasses import dataclass, field
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "function_cases.txt")
RESULTS = os.path.join(HERE, "flink_results.json")
FUNCTIONS = os.path.join(HERE, "flink_2_3_functions.txt")


@dataclass
class FunctionEntry:
    name: str
    status: str = ""            # "", "owned", "covered"
    note: str = ""              # the owner's area, or where a covered function is tested
    cases: list = field(default_factory=list)   # SQL queries, one a case
    expressions: dict = field(default_factory=dict)   # query -> its expression, for the expression cases

    @property
    def owned(self):
        return self.status in ("owned", "covered")


def query_of(line):
    """A case line -> its query: `query: SELECT ...` as written, an expression as `SELECT expr`."""
    line = line.strip()
    return line[len("query:"):].strip() if line.startswith("query:") else "SELECT " + line


def read_cases(path=CASES):
    entries = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.startswith("== "):
                head = line[3:]
                name, _, rest = head.partition("  ")
                status, _, note = rest.strip().partition(" ")
                entries.append(FunctionEntry(name.strip(), status, note.strip()))
            else:
                query = query_of(line)
                entries[-1].cases.append(query)
                if not line.strip().startswith("query:"):
                    entries[-1].expressions[query] = line.strip()
    return entries


def read_function_names(path=FUNCTIONS):
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def read_results(path=RESULTS):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def canonical(v):
    """A row value -> JSON-able data: numbers stay numbers (DECIMAL as {"decimal": text}, non-finite
    doubles as {"double": "NaN"}), bytes as {"bytes": hex}, date/time values as {"time": ISO text}, maps as
    {"map": sorted [key, value] pairs}, rows as {"row": [...]}, arrays as lists."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else {"double": str(v)}
    if isinstance(v, Decimal):
        return {"decimal": str(v)}
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"bytes": bytes(v).hex()}
    if isinstance(v, (dt.datetime, dt.date, dt.time)):
        return {"time": v.isoformat()}
    if isinstance(v, dict):
        pairs = [[canonical(k), canonical(x)] for k, x in v.items()]
        return {"map": sorted(pairs, key=lambda p: json.dumps(p, sort_keys=True))}
    if isinstance(v, tuple) or type(v).__name__ == "Row":
        return {"row": [canonical(x) for x in v]}
    if isinstance(v, (list, set, frozenset)):
        return [canonical(x) for x in v]
    return {"other": str(v)}


def canonical_rows(rows):
    """Rows of a result -> a sorted list of canonical rows (a query's rows compare in any order)."""
    out = [[canonical(v) for v in row] for row in rows]
    return sorted(out, key=lambda r: json.dumps(r, sort_keys=True))


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and type(a) is type(b):
            return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
        return False
    if isinstance(a, dict) and isinstance(b, dict) and "decimal" in a and "decimal" in b:
        return Decimal(a["decimal"]) == Decimal(b["decimal"])
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b
