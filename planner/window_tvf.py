"""Flink's windowing table-valued functions: the call's arguments as a `WindowSpec`.

    TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), size [, offset]))
    TABLE(HOP(TABLE t, DESCRIPTOR(ts), slide, size [, offset]))
    TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), step, size [, offset]))
    TABLE(SESSION(TABLE t [PARTITION BY k | PARTITION BY (k1, k2)], DESCRIPTOR(ts), gap))

Arguments are positional or named (`DATA =>`, `TIMECOL =>`, `SIZE =>`, `SLIDE =>`, `STEP =>`,
`OFFSET =>`, `GAP =>`). The result is the table's columns plus `window_start`, `window_end` and
`window_time` (= window_end - 1 ms, the result's time attribute)."""

from dataclasses import dataclass, field

from sqlglot import exp

from .ddl import interval_ms
from .dialect import TableArgument
from .errors import SqlError

WINDOW_FUNCTIONS = ("TUMBLE", "HOP", "CUMULATE", "SESSION")
WINDOW_COLUMNS = ("window_start", "window_end", "window_time")
WINDOW_COLUMN_TYPES = [("window_start", "TIMESTAMP(3) NOT NULL"), ("window_end", "TIMESTAMP(3) NOT NULL"),
                       ("window_time", "TIMESTAMP(3) NOT NULL *ROWTIME*")]

# positional parameters after DATA and TIMECOL, in Flink's order; the trailing ones are optional
_PARAMETERS = {
    "TUMBLE": (("SIZE",), ("OFFSET",)),
    "HOP": (("SLIDE", "SIZE"), ("OFFSET",)),
    "CUMULATE": (("STEP", "SIZE"), ("OFFSET",)),
    "SESSION": (("GAP",), ()),
}


@dataclass
class WindowSpec:
    kind: str                 # TUMBLE | HOP | CUMULATE | SESSION
    time_column: str
    size_ms: int = 0          # TUMBLE, HOP, CUMULATE (the largest window)
    slide_ms: int = 0         # HOP: slide; CUMULATE: step
    offset_ms: int = 0
    gap_ms: int = 0           # SESSION
    partition_by: list = field(default_factory=list)
    drop_late: bool = False   # set when an aggregate, Top-N or join consumes the windows
    lateness_ms: int = 0      # legacy group windows: how long after it fired a window still takes rows

    def describe(self, start=None, end=None):
        """As Flink's plans show the window: `TUMBLE(time_col=[ts], size=[5 s])`, or over rows that already
        carry their window (`start`, `end`: field names) `TUMBLE(win_start=[window_start], win_end=[...], ...)`."""
        ms = duration_text
        if self.kind == "TUMBLE":
            parts = ["size=[%s]" % ms(self.size_ms)]
        elif self.kind == "HOP":
            parts = ["size=[%s]" % ms(self.size_ms), "slide=[%s]" % ms(self.slide_ms)]
        elif self.kind == "CUMULATE":
            parts = ["max_size=[%s]" % ms(self.size_ms), "step=[%s]" % ms(self.slide_ms)]
        else:
            parts = ["gap=[%s]" % ms(self.gap_ms)]
            if self.partition_by:
                parts.append("partition keys=[%s]" % ", ".join(self.partition_by))
        if self.offset_ms:
            parts.append("offset=[%s]" % ms(self.offset_ms))
        where = "time_col=[%s]" % self.time_column if start is None else \
            "win_start=[%s], win_end=[%s]" % (start, end)
        return "%s(%s, %s)" % (self.kind, where, ", ".join(parts))

    def same_windows(self, other):
        """Both assign rows to the same windows (a window join's two sides must)."""
        shape = lambda sp: (sp.kind, sp.size_ms, sp.slide_ms, sp.offset_ms, sp.gap_ms)  # noqa: E731
        return shape(self) == shape(other)


def duration_text(ms):
    """A duration as Flink prints it (TimeUtils.formatWithHighestUnit): `5 s`, `10 min`, `1 h`, `1500 ms`."""
    for unit, size in (("d", 86400000), ("h", 3600000), ("min", 60000), ("s", 1000)):
        if ms and ms % size == 0:
            return "%d %s" % (ms // size, unit)
    return "%d ms" % ms


def window_call(table):
    """The windowing function call of `TABLE(f(...))` (a sqlglot Table node), or None."""
    outer = table.this
    if not (isinstance(outer, exp.Anonymous) and outer.name.upper() == "TABLE" and len(outer.expressions) == 1):
        return None
    inner = outer.expressions[0]
    if isinstance(inner, exp.Anonymous) and inner.name.upper() in WINDOW_FUNCTIONS:
        return inner
    return None


def parse_window_call(call, position):
    """(TableArgument, WindowSpec without the checks that need the table) from a TUMBLE/HOP/CUMULATE/SESSION
    call. `position(node)` gives (line, column) for error messages."""
    kind = call.name.upper()
    required, optional = _PARAMETERS[kind]
    names = ("DATA", "TIMECOL") + required + optional
    values = {}
    positional = True
    for i, arg in enumerate(call.expressions):
        if isinstance(arg, exp.Kwarg):
            positional = False
            name = arg.this.name.upper()
            if name not in names:
                raise SqlError("%s has no parameter %s" % (kind, name), *position(arg),
                               hint="its parameters: %s" % ", ".join(names))
            if name in values:
                raise SqlError("Parameter %s of %s is given twice" % (name, kind), *position(arg))
            values[name] = arg.expression
        else:
            if not positional:
                raise SqlError("A positional argument of %s follows a named one" % kind, *position(arg))
            if i >= len(names):
                raise SqlError("Too many arguments to %s: it takes %s" % (kind, ", ".join(names)), *position(arg))
            values[names[i]] = arg
    for name in ("DATA", "TIMECOL") + required:
        if name not in values:
            raise SqlError("%s needs the %s argument: %s(%s)" % (kind, name, kind, ", ".join(
                names[:2 + len(required)]) + (" [, %s]" % ", ".join(optional) if optional else "")), *position(call))
    data = values["DATA"]
    if isinstance(data, exp.Subquery):          # TUMBLE((SELECT ...), ...): a query as the table
        data = TableArgument(this=data)
    if not isinstance(data, TableArgument):
        raise SqlError("The first argument of %s must be a table: TABLE t or (SELECT ...)" % kind, *position(data))
    if data.args.get("partition_by") and kind != "SESSION":
        raise SqlError("PARTITION BY is only allowed in the SESSION window function", *position(data))
    descriptor = values["TIMECOL"]
    if not (isinstance(descriptor, exp.Anonymous) and descriptor.name.upper() == "DESCRIPTOR"
            and len(descriptor.expressions) == 1 and isinstance(descriptor.expressions[0], exp.Column)):
        raise SqlError("The time column of %s must be given as DESCRIPTOR(column)" % kind, *position(descriptor))
    spec = WindowSpec(kind=kind, time_column=descriptor.expressions[0].name)
    for name in required + optional:
        if name not in values:
            continue
        node = values[name]
        if not isinstance(node, exp.Interval):
            raise SqlError("The %s of %s must be an INTERVAL literal, e.g. INTERVAL '10' MINUTES" % (name, kind),
                           *position(node))
        try:
            ms = interval_ms(node)
        except SqlError as e:
            raise SqlError(e.message, *position(node), hint=e.hint)
        if name == "OFFSET":
            spec.offset_ms = ms
            continue
        if ms <= 0:
            raise SqlError("The %s of %s must be positive" % (name, kind), *position(node))
        if name == "SIZE":
            spec.size_ms = ms
        elif name in ("SLIDE", "STEP"):
            spec.slide_ms = ms
        elif name == "GAP":
            spec.gap_ms = ms
    spec.partition_by = [c.name for c in data.args.get("partition_by") or []]
    return data, spec


def check_aggregable(spec, position):
    """The conditions Flink sets for a window aggregate, Top-N or join over the windows."""
    if spec.kind == "HOP" and spec.size_ms % spec.slide_ms:
        raise SqlError("HOP table function based aggregate requires size must be an integral multiple of slide, "
                       "but got size %d ms and slide %d ms" % (spec.size_ms, spec.slide_ms), *position)
    if spec.kind == "CUMULATE" and spec.size_ms % spec.slide_ms:
        raise SqlError("CUMULATE table function based aggregate requires maxSize must be an integral multiple of "
                       "step, but got maxSize %d ms and step %d ms" % (spec.size_ms, spec.slide_ms), *position)
