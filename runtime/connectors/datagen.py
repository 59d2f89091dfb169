"""The `datagen` source with Flink's options, as a Python Data Source (batch and streaming).

Options: 'rows-per-second' (default 10000), 'number-of-rows' (bounded when set), and per field
'fields.<f>.kind' = 'random' | 'sequence', '.min' / '.max' (numbers), '.length' (strings, default 100),
'.start' / '.end' (sequences), '.max-past' (timestamps, ms before now), '.null-rate'.
Row n is computed from n alone (a seeded generator per row), so every read of a range gives the same rows."""

import datetime as dt
import json
import random
import string
import time
from decimal import Decimal

from pyspark.sql.datasource import DataSource, DataSourceReader, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow

from planner.expr.types import parse_type


class DatagenSpec:
    def __init__(self, text):
        d = json.loads(text)
        self.columns = [tuple(c) for c in d["columns"]]
        o = d["options"]
        self.rows_per_second = float(o.get("rows-per-second", 10000))
        self.number_of_rows = int(o["number-of-rows"]) if "number-of-rows" in o else None
        self.fields = {}
        for name, _ in self.columns:
            prefix = "fields.%s." % name
            self.fields[name] = {k[len(prefix):]: v for k, v in o.items() if k.startswith(prefix)}
        for name, t in self.columns:
            f = self.fields[name]
            if f.get("kind") == "sequence":
                if "start" not in f or "end" not in f:
                    raise ValueError("datagen: a sequence field '%s' needs 'fields.%s.start' and '.end'"
                                     % (name, name))
                size = int(f["end"]) - int(f["start"]) + 1
                self.number_of_rows = size if self.number_of_rows is None else min(self.number_of_rows, size)
        self.created = d.get("created", time.time())


def generate_row(spec, n):
    rnd = random.Random(n * 7919 + 17)
    out = []
    for name, ftype in spec.columns:
        f = spec.fields[name]
        t = parse_type(ftype)
        null_rate = float(f.get("null-rate", 0))
        if null_rate and rnd.random() < null_rate:
            out.append(None)
            continue
        if f.get("kind") == "sequence":
            v = int(f["start"]) + n
            out.append(_from_int(t, v))
            continue
        out.append(_random_value(t, f, rnd, spec))
    return tuple(out)


def _from_int(t, v):
    if t.name in ("CHAR", "VARCHAR"):
        return str(v)
    if t.name == "DECIMAL":
        return Decimal(v)
    if t.name in ("FLOAT", "DOUBLE"):
        return float(v)
    return v


_BOUNDS = {"TINYINT": (-128, 127), "SMALLINT": (-32768, 32767), "INT": (-2 ** 31, 2 ** 31 - 1),
           "BIGINT": (-2 ** 63, 2 ** 63 - 1)}


def _random_value(t, f, rnd, spec):
    n = t.name
    if n in _BOUNDS:
        lo, hi = _BOUNDS[n]
        return rnd.randint(int(f.get("min", lo)), int(f.get("max", hi)))
    if n in ("FLOAT", "DOUBLE"):
        lo, hi = float(f.get("min", 0)), float(f.get("max", 1))
        return rnd.uniform(lo, hi)
    if n == "DECIMAL":
        p, s = t.params
        lo, hi = float(f.get("min", 0)), float(f.get("max", min(10 ** (p - s) - 1, 1e9)))
        return Decimal(str(round(rnd.uniform(lo, hi), s)))
    if n in ("CHAR", "VARCHAR"):
        length = int(f.get("length", 100))
        return "".join(rnd.choice(string.ascii_lowercase + string.digits) for _ in range(length))
    if n == "BOOLEAN":
        return rnd.random() < 0.5
    if n in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        max_past = int(f.get("max-past", 0))
        now = dt.datetime(1970, 1, 1) + dt.timedelta(seconds=time.time())
        return now - dt.timedelta(milliseconds=rnd.randint(0, max_past) if max_past else 0)
    if n == "DATE":
        return dt.date.today() - dt.timedelta(days=rnd.randint(0, 365))
    if n == "TIME":
        s = rnd.randint(0, 86399)
        return "%02d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)
    if n == "ARRAY":
        size = int(f.get("length", 3))
        return [_random_value(t.children[0], {}, rnd, spec) for _ in range(size)]
    raise ValueError("datagen cannot generate type %s" % t.text())


class RangePartition(InputPartition):
    def __init__(self, start, end):
        self.start, self.end = start, end


class DatagenSource(DataSource):
    @classmethod
    def name(cls):
        return "dynsql_datagen"

    def reader(self, schema):
        return DatagenBatchReader(DatagenSpec(self.options["spec"]))

    def streamReader(self, schema):
        return DatagenStreamReader(DatagenSpec(self.options["spec"]))


class DatagenBatchReader(DataSourceReader):
    def __init__(self, spec):
        if spec.number_of_rows is None:
            raise ValueError("a datagen table without 'number-of-rows' is unbounded: "
                             "batch mode needs 'number-of-rows'")
        self.spec = spec

    def partitions(self):
        return [RangePartition(0, self.spec.number_of_rows)]

    def read(self, partition):
        for n in range(partition.start, partition.end):
            yield generate_row(self.spec, n) + (n, None, 0)


class DatagenStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    def __init__(self, spec):
        self.spec = spec
        self.started = None

    def prepareForTriggerAvailableNow(self):
        pass

    def initialOffset(self):
        return {"row": 0, "done": False}

    def latestOffset(self, start=None, limit=None):
        if self.started is None:   # a resumed read goes on at the pace, not first waiting for what it read
            done = start["row"] if start and self.spec.rows_per_second > 0 else 0
            self.started = time.time() - done / (self.spec.rows_per_second or 1)
        n = int((time.time() - self.started) * self.spec.rows_per_second) + 1
        if self.spec.number_of_rows is not None:
            n = min(n, self.spec.number_of_rows)
        n = max(n, start["row"] if start else 0)
        # "done" tells the streaming run that a bounded generator has produced all its rows
        return {"row": n, "done": self.spec.number_of_rows is not None and n >= self.spec.number_of_rows}

    def partitions(self, start, end):
        return [RangePartition(start["row"], end["row"])] if end["row"] > start["row"] else []

    def read(self, partition):
        for n in range(partition.start, partition.end):
            yield generate_row(self.spec, n) + (n, None, 0)
