"""A node's output row: fields with a name, a Flink type and a time attribute.

Field names are unique within a row (Flink renames a repeated name `k` to `k0`, `k1`, ...), so the runtime
can name its DataFrame columns after them. A time attribute is a property of a field ('rowtime' for an
event-time attribute, 'proctime' for a processing-time one), never text inside its type."""

from dataclasses import dataclass, replace

from ..expr.types import FlinkType, parse_type

ROWTIME, PROCTIME = "rowtime", "proctime"


@dataclass(frozen=True)
class Field:
    name: str
    type: FlinkType = None      # None: a type the planner does not know (the runtime takes Spark's)
    time: str = None            # ROWTIME, PROCTIME or None

    def __deepcopy__(self, memo):
        """A Field is a value (frozen, its type never changed in place): a copied tree (sqlglot deep-copies
        each node's meta, where the binder keeps the Field a column reads) shares it."""
        return self

    def type_text(self):
        """As Flink prints it: `TIMESTAMP(3) *ROWTIME*`, `TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*`."""
        text = self.type.text() if self.type is not None else ""
        if self.time == ROWTIME:
            text += " *ROWTIME*"
        elif self.time == PROCTIME:
            text += " *PROCTIME*"
        return text.strip()

    def renamed(self, name):
        return replace(self, name=name)

    def materialized(self):
        """The same value as a plain timestamp (what a time attribute becomes where time is lost)."""
        if self.time is None:
            return self
        t = self.type
        if self.time == PROCTIME:
            t = parse_type("TIMESTAMP_LTZ(3) NOT NULL")
        return replace(self, time=None, type=t)


def unique_names(names, taken=()):
    """Names made unique as Flink (Calcite) does: a repeated `k` becomes `k0`, then `k1`, ..."""
    seen = set(taken)
    out = []
    for n in names:
        name, i = n, 0
        while name in seen:
            name = "%s%d" % (n, i)
            i += 1
        seen.add(name)
        out.append(name)
    return out


def rowtime_fields(fields):
    return [f.name for f in fields if f.time == ROWTIME]


def time_field(fields, name):
    for f in fields:
        if f.name == name:
            return f
    return None


def type_of(text):
    return parse_type(text) if text else None


__all__ = ["Field", "ROWTIME", "PROCTIME", "unique_names", "rowtime_fields", "FlinkType"]
