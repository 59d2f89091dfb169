"""Flink SQL types: parsing their text, mapping them to Spark types, and naming Spark types in Flink's terms.

TIMESTAMP and TIMESTAMP_LTZ both map to Spark's TimestampType: the Spark session runs in UTC, so a
TIMESTAMP behaves as a wall-clock value; TIMESTAMP_LTZ values are shown in 'table.local-time-zone'.
TIME has no Spark type: it is carried as its canonical text 'HH:MM:SS[.fff]', which sorts correctly."""

import re
from dataclasses import dataclass, field

from .errors import SqlError


@dataclass
class FlinkType:
    name: str                       # canonical upper-case name: INT, DECIMAL, TIMESTAMP, ARRAY, ...
    params: tuple = ()              # (p,) or (p, s)
    children: list = field(default_factory=list)   # ARRAY/MULTISET: [elem]; MAP: [k, v]; ROW: [(name, type)]
    nullable: bool = True

    def text(self, with_null=True):
        n = self.name
        if n == "ROW":
            inner = ", ".join("`%s` %s" % (fn, ft.text()) for fn, ft in self.children)
            s = "ROW<%s>" % inner
        elif n in ("ARRAY", "MULTISET"):
            s = "%s<%s>" % (n, self.children[0].text())
        elif n == "MAP":
            s = "MAP<%s, %s>" % (self.children[0].text(), self.children[1].text())
        elif n == "VARCHAR" and self.params == (2147483647,):
            s = "STRING"
        elif self.params:
            s = "%s(%s)" % (n, ", ".join(str(p) for p in self.params))
        else:
            s = n
        if with_null and not self.nullable:
            s += " NOT NULL"
        return s

    def __str__(self):
        return self.text()


_ALIASES = {
    "INTEGER": "INT", "STRING": "VARCHAR", "DEC": "DECIMAL", "NUMERIC": "DECIMAL", "REAL": "FLOAT",
    "DOUBLE PRECISION": "DOUBLE", "BYTES": "VARBINARY", "TIMESTAMP WITHOUT TIME ZONE": "TIMESTAMP",
    "TIMESTAMP WITH LOCAL TIME ZONE": "TIMESTAMP_LTZ", "TIME WITHOUT TIME ZONE": "TIME",
}
_SIMPLE = {"BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DATE", "NULL"}
_KNOWN = _SIMPLE | {"CHAR", "VARCHAR", "BINARY", "VARBINARY", "DECIMAL", "TIME", "TIMESTAMP",
                    "TIMESTAMP_LTZ", "ARRAY", "MULTISET", "MAP", "ROW"}

_TOKEN = re.compile(r"\s*(?:(`(?:[^`]|``)*`)|([A-Za-z_][A-Za-z0-9_$]*)|(\d+)|(.))")


class _TypeParser:
    def __init__(self, text):
        self.text = text
        self.toks = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                break
            pos = m.end()
            if m.group(1):
                self.toks.append(("id", m.group(1)[1:-1].replace("``", "`")))
            elif m.group(2):
                self.toks.append(("word", m.group(2)))
            elif m.group(3):
                self.toks.append(("num", int(m.group(3))))
            elif m.group(4) and m.group(4).strip():
                self.toks.append(("sym", m.group(4)))
        self.i = 0

    def peek(self, k=0):
        return self.toks[self.i + k] if self.i + k < len(self.toks) else (None, None)

    def word(self, *words):
        kind, v = self.peek()
        if kind == "word" and v.upper() in words:
            self.i += 1
            return v.upper()
        return None

    def sym(self, s):
        if self.peek() == ("sym", s):
            self.i += 1
            return True
        return False

    def expect_sym(self, s):
        if not self.sym(s):
            raise SqlError("Invalid type %r: expected '%s'" % (self.text, s))

    def parse(self):
        t = self.parse_type()
        if self.i != len(self.toks):
            raise SqlError("Invalid type %r: unexpected %r" % (self.text, self.peek()[1]))
        return t

    def parse_type(self):
        kind, v = self.peek()
        if kind != "word":
            raise SqlError("Invalid type %r" % self.text)
        self.i += 1
        name = v.upper()
        if name == "DOUBLE" and self.word("PRECISION"):
            name = "DOUBLE"
        if name in ("TIMESTAMP", "TIME"):
            params = self.params()
            if self.word("WITHOUT"):
                self.word("TIME"); self.word("ZONE")
            elif self.word("WITH"):
                self.word("LOCAL"); self.word("TIME"); self.word("ZONE")
                name = "TIMESTAMP_LTZ"
            return self.finish(FlinkType(name, params or ((0,) if name == "TIME" else (6,))))
        name = _ALIASES.get(name, name)
        if name == "TIMESTAMP_LTZ":
            return self.finish(FlinkType(name, self.params() or (6,)))
        if name == "VARCHAR" and v.upper() == "STRING":
            return self.finish(FlinkType("VARCHAR", (2147483647,)))
        if name not in _KNOWN:
            raise SqlError("Unknown type '%s'" % v,
                           hint="Flink types: STRING, INT, BIGINT, DOUBLE, DECIMAL(p, s), BOOLEAN, DATE, "
                                "TIME(p), TIMESTAMP(p), TIMESTAMP_LTZ(p), ARRAY<t>, MAP<k, v>, ROW<f t, ...>")
        if name in ("ARRAY", "MULTISET"):
            if self.sym("<"):
                elem = self.parse_type()
                self.expect_sym(">")
            else:
                raise SqlError("Invalid type %r: %s needs an element type, e.g. %s<INT>" % (self.text, name, name))
            return self.finish(FlinkType(name, (), [elem]))
        if name == "MAP":
            self.expect_sym("<")
            k = self.parse_type()
            self.expect_sym(",")
            val = self.parse_type()
            self.expect_sym(">")
            return self.finish(FlinkType(name, (), [k, val]))
        if name == "ROW":
            close = ">" if self.sym("<") else ")" if self.sym("(") else None
            if close is None:
                raise SqlError("Invalid type %r: ROW needs fields, e.g. ROW<a INT, b STRING>" % self.text)
            fields = []
            while not self.sym(close):
                kind, fname = self.peek()
                if kind not in ("word", "id"):
                    raise SqlError("Invalid type %r: expected a field name" % self.text)
                self.i += 1
                fields.append((fname, self.parse_type()))
                if self.peek()[0] == "sym" and self.peek()[1] == "'":
                    raise SqlError("Invalid type %r: field comments are not supported" % self.text)
                self.sym(",")
            return self.finish(FlinkType(name, (), fields))
        params = self.params()
        if name == "DECIMAL":
            params = (params + (10, 0)[len(params):]) if len(params) < 2 else params
            if not (1 <= params[0] <= 38 and 0 <= params[1] <= params[0]):
                raise SqlError("Invalid type %r: DECIMAL precision must be 1..38 and scale 0..precision"
                               % self.text)
        elif name in ("CHAR", "BINARY") and not params:
            params = (1,)
        elif name in ("VARCHAR", "VARBINARY") and not params:
            params = (1,)
        return self.finish(FlinkType(name, params))

    def params(self):
        if not self.sym("("):
            return ()
        out = []
        while True:
            kind, v = self.peek()
            if kind != "num":
                raise SqlError("Invalid type %r: expected a number" % self.text)
            self.i += 1
            out.append(v)
            if self.sym(")"):
                return tuple(out)
            self.expect_sym(",")

    def finish(self, t):
        if self.word("NOT"):
            if not self.word("NULL"):
                raise SqlError("Invalid type %r: expected NULL after NOT" % self.text)
            t.nullable = False
        elif self.word("NULL"):
            t.nullable = True
        return t


def parse_type(text):
    """Flink type text -> FlinkType (raises SqlError naming what is wrong)."""
    return _TypeParser(text).parse()


def to_spark(t):
    """FlinkType -> pyspark DataType (the planner only builds type objects; it never runs Spark)."""
    from pyspark.sql import types as st
    n = t.name
    if n in ("CHAR", "VARCHAR", "TIME"):
        return st.StringType()
    return {
        "BOOLEAN": st.BooleanType, "TINYINT": st.ByteType, "SMALLINT": st.ShortType,
        "INT": st.IntegerType, "BIGINT": st.LongType, "FLOAT": st.FloatType, "DOUBLE": st.DoubleType,
        "DATE": st.DateType, "TIMESTAMP": st.TimestampType, "TIMESTAMP_LTZ": st.TimestampType,
        "BINARY": st.BinaryType, "VARBINARY": st.BinaryType, "NULL": st.NullType,
    }.get(n, lambda: None)() or _complex_to_spark(t)


def _complex_to_spark(t):
    from pyspark.sql import types as st
    n = t.name
    if n == "DECIMAL":
        return st.DecimalType(t.params[0], t.params[1])
    if n == "ARRAY":
        return st.ArrayType(to_spark(t.children[0]), t.children[0].nullable)
    if n == "MULTISET":
        return st.MapType(to_spark(t.children[0]), st.IntegerType(), False)
    if n == "MAP":
        return st.MapType(to_spark(t.children[0]), to_spark(t.children[1]), t.children[1].nullable)
    if n == "ROW":
        return st.StructType([st.StructField(fn, to_spark(ft), ft.nullable) for fn, ft in t.children])
    raise SqlError("Type %s has no Spark equivalent" % t.text())


def from_spark(dt, nullable=True):
    """pyspark DataType -> Flink type text, for result columns whose type we did not declare."""
    from pyspark.sql import types as st
    suffix = "" if nullable else " NOT NULL"
    simple = {
        st.BooleanType: "BOOLEAN", st.ByteType: "TINYINT", st.ShortType: "SMALLINT",
        st.IntegerType: "INT", st.LongType: "BIGINT", st.FloatType: "FLOAT", st.DoubleType: "DOUBLE",
        st.DateType: "DATE", st.TimestampType: "TIMESTAMP(6)", st.TimestampNTZType: "TIMESTAMP(6)",
        st.StringType: "STRING", st.BinaryType: "BYTES", st.NullType: "NULL",
    }
    for cls, name in simple.items():
        if isinstance(dt, cls):
            return name + suffix
    if isinstance(dt, st.DecimalType):
        return "DECIMAL(%d, %d)%s" % (dt.precision, dt.scale, suffix)
    if isinstance(dt, st.ArrayType):
        return "ARRAY<%s>%s" % (from_spark(dt.elementType, dt.containsNull), suffix)
    if isinstance(dt, st.MapType):
        return "MAP<%s, %s>%s" % (from_spark(dt.keyType, False), from_spark(dt.valueType, dt.valueContainsNull),
                                  suffix)
    if isinstance(dt, st.StructType):
        return "ROW<%s>%s" % (", ".join("`%s` %s" % (f.name, from_spark(f.dataType, f.nullable))
                                        for f in dt.fields), suffix)
    return dt.simpleString().upper() + suffix


def base_name(type_text):
    """'DECIMAL(10, 2) NOT NULL' -> 'DECIMAL'; 'TIMESTAMP(3) *ROWTIME*' -> 'TIMESTAMP'."""
    m = re.match(r"\s*([A-Za-z_]+)", type_text or "")
    return m.group(1).upper() if m else ""
