"""Flink SQL types: parsing their text, mapping them to Spark types, and naming Spark types in Flink's terms.

TIMESTAMP and TIMESTAMP_LTZ both map to Spark's TimestampType: the Spark session runs in UTC, so a
TIMESTAMP behaves as a wall-clock value; TIMESTAMP_LTZ values are shown in 'table.local-time-zone'.
TIME has no Spark type: it is carried as its canonical text 'HH:MM:SS[.fff]', which sorts correctly."""

import re
from dataclasses import dataclass, field

from ..errors import SqlError


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
        elif n == "VARBINARY" and self.params == (2147483647,):
            s = "BYTES"
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

_TOKEN = re.compile(r"\s*(?:(`(?:[^`]|``)*`)|([A-Za-z_][A-Za-z0-9_$]*)|(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)|(.))", re.S)

# Flink's limits, as Flink 2.3's SQL reads a type (checked with its SQL client): a precision past the
# maximum is read as the maximum (TIMESTAMP(99) is TIMESTAMP(9), DECIMAL(39, 2) is DECIMAL(38, 2), TIME(9)
# is TIME(3)); a DECIMAL precision below 1 or a scale past the precision is refused, and so is a number
# that is not an INT. A length of 0 (VARCHAR(0), CHAR(0), BINARY(0)) is allowed, as in Flink.
MAX_PRECISION = {"TIMESTAMP": 9, "TIMESTAMP_LTZ": 9, "TIME": 3, "DECIMAL": 38}
def _reserved():
    from ..reserved_words import RESERVED
    return RESERVED


MAX_TYPE_NESTING = 100          # ARRAY<ARRAY<...>>, ROW<a ROW<...>>: levels a type may have


def type_params(name, params, position=None):
    """The parameters of a type as Flink reads them: `params` are whole numbers (texts or ints) as written,
    the result the ints the type has (a precision past Flink's maximum is the maximum). Raises SqlError
    with Flink's message for what Flink refuses."""
    from ..literals import INT_MAX, integer_literal
    where = tuple(position) if position else (None, None)
    values = [integer_literal(p, "A type's precision or length", where, minimum=0, maximum=INT_MAX)
              for p in params]
    if name == "DECIMAL":
        precision, scale = (values + [10, 0][len(values):]) if len(values) < 2 else values[:2]
        if precision < 1:
            raise SqlError("Decimal precision must be between 1 and 38 (both inclusive).", *where)
        precision = min(precision, MAX_PRECISION["DECIMAL"])
        if scale > precision:
            raise SqlError("Decimal scale must be between 0 and the precision %d (both inclusive)." % precision,
                           *where)
        return (precision, scale)
    if name in MAX_PRECISION:
        return tuple(min(v, MAX_PRECISION[name]) for v in values)
    return tuple(values)


class _TypeParser:
    """Reads a type's tokens as it needs them: a type followed by pages of other text fails at once."""

    def __init__(self, text, position=None):
        self.text = text
        self.position = position          # (line, column) of the text's first character, or None
        self.toks = []                     # (kind, value, offset), read so far
        self._pos = 0                      # where reading goes on
        self.depth = 0
        self.i = 0

    def _read(self, n):
        """Read tokens until there are more than `n` (or the text ends)."""
        text = self.text
        while len(self.toks) <= n and self._pos < len(text):
            m = _TOKEN.match(text, self._pos)
            if not m or m.end() == self._pos:
                self._pos = len(text)
                break
            self._pos = m.end()
            kind = next(k for k, g in zip(("id", "word", "num", "sym"), m.groups()) if g is not None)
            value = m.group(m.lastindex)
            if kind == "id":
                value = value[1:-1].replace("``", "`")
            elif kind == "sym" and not value.strip():
                continue
            self.toks.append((kind, value, m.start(m.lastindex)))

    def where(self, offset=None):
        """(line, column) of `offset` in the type text (default: the current token), when known."""
        if self.position is None or self.position[0] is None:
            return (None, None)
        if offset is None:
            self._read(self.i)
            offset = self.toks[self.i][2] if self.i < len(self.toks) else len(self.text)
        line, column = self.position
        before = self.text[:offset]
        if "\n" in before:
            return line + before.count("\n"), offset - before.rfind("\n")
        return line, (column or 1) + offset

    def error(self, message, hint=None, offset=None):
        return SqlError(message, *self.where(offset), hint=hint)

    def shown(self):
        text = " ".join(self.text.split())
        return text if len(text) <= 60 else text[:57] + "..."

    def peek(self, k=0):
        self._read(self.i + k)
        return self.toks[self.i + k][:2] if self.i + k < len(self.toks) else (None, None)

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

    def found(self):
        kind, v = self.peek()
        return "the end of the type" if kind is None else '"%s"' % (v if len(v) <= 20 else v[:17] + "...")

    def expect_sym(self, s):
        if not self.sym(s):
            raise self.error("Invalid type '%s': expected '%s' but found %s" % (self.shown(), s, self.found()))

    def parse(self):
        t = self.parse_type()
        if self.peek()[0] is not None:
            raise self.error("Invalid type '%s': unexpected %s" % (self.shown(), self.found()))
        return t

    def parse_type(self):
        self.depth += 1
        if self.depth > MAX_TYPE_NESTING:
            raise self.error("Invalid type '%s': nested too deeply (at most %d levels)"
                             % (self.shown(), MAX_TYPE_NESTING))
        try:
            return self._parse_type()
        finally:
            self.depth -= 1

    def _parse_type(self):
        kind, v = self.peek()
        if kind != "word":
            raise self.error("Invalid type '%s': expected a type name but found %s" % (self.shown(), self.found()))
        start = self.toks[self.i][2]
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
            params = type_params(name, params, self.where(start)) if params else ((0,) if name == "TIME" else (6,))
            return self.finish(FlinkType(name, params))
        name = _ALIASES.get(name, name)
        if name == "TIMESTAMP_LTZ":
            params = self.params()
            return self.finish(FlinkType(name, type_params(name, params, self.where(start)) if params else (6,)))
        if name == "VARCHAR" and v.upper() == "STRING":
            return self.finish(FlinkType("VARCHAR", (2147483647,)))
        if name == "VARBINARY" and v.upper() == "BYTES":
            return self.finish(FlinkType("VARBINARY", (2147483647,)))
        if name not in _KNOWN:
            raise SqlError("Unknown type '%s'" % (v if len(v) <= 40 else v[:37] + "..."), *self.where(start),
                           hint="Flink types: STRING, INT, BIGINT, DOUBLE, DECIMAL(p, s), BOOLEAN, DATE, "
                                "TIME(p), TIMESTAMP(p), TIMESTAMP_LTZ(p), ARRAY<t>, MAP<k, v>, ROW<f t, ...>")
        if name in ("ARRAY", "MULTISET"):
            if self.sym("<"):
                elem = self.parse_type()
                self.expect_sym(">")
            else:
                raise self.error("Invalid type '%s': %s needs an element type, e.g. %s<INT>"
                                 % (self.shown(), name, name))
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
                raise self.error("Invalid type '%s': ROW needs fields, e.g. ROW<a INT, b STRING>" % self.shown())
            fields = []
            while not self.sym(close):
                kind, fname = self.peek()
                if kind not in ("word", "id"):
                    raise self.error("Invalid type '%s': expected a field name but found %s"
                                     % (self.shown(), self.found()))
                if kind == "word" and fname.upper() in _reserved():     # Flink's parser needs backticks
                    raise self.error('SQL parse failed. Encountered "%s": %s is a reserved word in Flink SQL'
                                     % (fname, fname.upper()), hint="to use it as a name, quote it with backticks: `%s`" % fname)
                self.i += 1
                fields.append((fname, self.parse_type()))
                if self.peek()[0] == "sym" and self.peek()[1] == "'":
                    raise self.error("Invalid type '%s': field comments are not supported" % self.shown())
                self.sym(",")
            return self.finish(FlinkType(name, (), fields))
        params = self.params()
        if name == "DECIMAL":
            params = type_params(name, params, self.where(start))
        elif name in ("CHAR", "BINARY", "VARCHAR", "VARBINARY"):
            params = type_params(name, params, self.where(start)) if params else (1,)
        elif params:
            raise self.error("Invalid type '%s': %s takes no parameters" % (self.shown(), name))
        return self.finish(FlinkType(name, params))

    def params(self):
        """The texts of the numbers in `(p)` or `(p, s)` after a type name (checked by type_params)."""
        if not self.sym("("):
            return ()
        out = []
        while True:
            kind, v = self.peek()
            if kind != "num":
                raise self.error("Invalid type '%s': expected a number but found %s" % (self.shown(), self.found()))
            self.i += 1
            out.append(v)
            if self.sym(")"):
                return tuple(out)
            self.expect_sym(",")

    def finish(self, t):
        if self.word("NOT"):
            if not self.word("NULL"):
                raise self.error("Invalid type '%s': expected NULL after NOT" % self.shown())
            t.nullable = False
        elif self.word("NULL"):
            t.nullable = True
        return t


def parse_type(text, position=None):
    """Flink type text -> FlinkType, with Flink's limits (see MAX_PRECISION). Raises SqlError naming what
    is wrong; `position` (line, column) of the text's start lets the error say where."""
    return _TypeParser(text, position).parse()


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


def spark_type_sql(flink_type):
    """A Flink type as Spark SQL names it in a CAST."""
    n = flink_type.name
    if n in ("CHAR", "VARCHAR"):
        return "STRING"
    if n == "DECIMAL":
        return "DECIMAL(%d, %d)" % flink_type.params
    if n in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return "TIMESTAMP"
    if n == "INT":
        return "INT"
    if n == "ARRAY":
        return "ARRAY<%s>" % spark_type_sql(flink_type.children[0])
    if n == "MAP":
        return "MAP<%s, %s>" % (spark_type_sql(flink_type.children[0]), spark_type_sql(flink_type.children[1]))
    if n == "ROW":
        return "STRUCT<%s>" % ", ".join("`%s`: %s" % (fn, spark_type_sql(ft)) for fn, ft in flink_type.children)
    if n in ("BINARY", "VARBINARY"):
        return "BINARY"
    return n
