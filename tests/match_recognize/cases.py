"""Reads the mr_* conformance cases for the pure-Python tests: DDL columns, watermark delay, the
MATCH_RECOGNIZE body and its position, the CSV rows typed, Flink's expected rows; renders values as
the conformance JSON does. Test support only (not a SQL parser for dynsql: the lead's planner is)."""

import csv
import datetime as dt
import glob
import json
import os
import re
from decimal import Decimal

# ../shared/conformance beside the checkout, wherever the checkout is (a fresh clone, CI's folder)
CASES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))), "shared", "conformance", "cases")


def case_dirs(prefix="mr_"):
    """The conformance cases whose names start with `prefix`; none found is an error, not an empty test."""
    found = sorted(glob.glob(os.path.join(CASES_DIR, prefix + "*")))
    if not found:
        raise FileNotFoundError("no conformance cases %s* in %s" % (prefix, CASES_DIR))
    return found


class Case:
    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        self.sql = open(os.path.join(path, "case.sql")).read()
        m = re.search(r"CREATE TABLE\s+\w+\s*\((.*?)\)\s*WITH", self.sql, re.S)
        self.columns = []
        self.delay_ms = None
        self.rowtime = None
        for line in m.group(1).split("\n"):
            line = line.strip().rstrip(",")
            if not line:
                continue
            w = re.match(r"WATERMARK FOR (\w+) AS \w+ - INTERVAL '(\d+)' (SECOND|MINUTE|HOUR)", line)
            if w:
                self.rowtime = w.group(1)
                self.delay_ms = int(w.group(2)) * {"SECOND": 1000, "MINUTE": 60000, "HOUR": 3600000}[w.group(3)]
                continue
            name, typ = line.split(None, 1)
            self.columns.append((name, typ.strip()))
        k = self.sql.rindex("MATCH_RECOGNIZE")
        open_paren = self.sql.index("(", k)
        depth, i = 0, open_paren
        while True:
            if self.sql[i] == "(":
                depth += 1
            elif self.sql[i] == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        self.body = self.sql[open_paren + 1:i]
        before = self.sql[:open_paren + 1]
        self.line = before.count("\n") + 1
        self.column = len(before) - (before.rfind("\n") + 1) + 1
        self.error = None
        self.expected = None
        if os.path.exists(os.path.join(path, "expected_error.txt")):
            self.error = open(os.path.join(path, "expected_error.txt")).read()
        else:
            self.expected = [json.loads(x) for x in open(os.path.join(path, "expected.jsonl")) if x.strip()]
            self.expected_columns = [(c["name"], c["type"]) for c in
                                     json.load(open(os.path.join(path, "columns.json")))["columns"]]

    def rows(self):
        out = []
        for csv_path in sorted(glob.glob(os.path.join(self.path, "*.csv"))):
            with open(csv_path) as f:
                for rec in csv.reader(f):
                    out.append(tuple(convert(v, t) for v, (_, t) in zip(rec, self.columns)))
        return out

    def watermarks(self, rows):
        """Flink's watermark before each row: max(rowtime of earlier rows) - delay."""
        ti = [n for n, _ in self.columns].index(self.rowtime)
        out, top = [], None
        for r in rows:
            out.append(None if top is None else top - dt.timedelta(milliseconds=self.delay_ms))
            if r[ti] is not None and (top is None or r[ti] > top):
                top = r[ti]
        return out


def convert(text, typ):
    if text == "":
        return None
    t = typ.upper()
    if t.startswith(("BIGINT", "INT", "SMALLINT", "TINYINT")):
        return int(text)
    if t.startswith(("DOUBLE", "FLOAT")):
        return float(text)
    if t.startswith("DECIMAL"):
        return Decimal(text)
    if t.startswith("TIMESTAMP"):
        return dt.datetime.fromisoformat(text)
    return text


def render(value):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.datetime):
        s = value.strftime("%Y-%m-%d %H:%M:%S")
        if value.microsecond:
            s += (".%06d" % value.microsecond).rstrip("0") if value.microsecond % 1000 else ".%03d" % (
                value.microsecond // 1000)
        return s
    return str(value)


def as_multiset(rows):
    return sorted(json.dumps([render(v) for v in r]) for r in rows)
