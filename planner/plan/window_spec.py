"""A window's shape, as the window table functions (TUMBLE, HOP, CUMULATE, SESSION: planner/bind/table_functions.py)
and the legacy group windows (planner/bind/group_windows.py) give it: `WindowSpec`, carried by every window node
(planner/plan/window.py) and read by the runtime's window operators; printed as Flink's plans print it."""

from dataclasses import dataclass, field


@dataclass
class WindowSpec:
    kind: str                 # TUMBLE | HOP | CUMULATE | SESSION
    time_column: str
    size_ms: int = 0          # TUMBLE, HOP, CUMULATE (the largest window)
    slide_ms: int = 0         # HOP: slide; CUMULATE: step
    offset_ms: int = 0
    gap_ms: int = 0           # SESSION
    partition_by: list = field(default_factory=list)
    # over a TIMESTAMP_LTZ time attribute: the session zone ('table.local-time-zone') the windows are aligned in
    # and window_start / window_end shown in (a day starts at local midnight); None over a TIMESTAMP
    time_zone: str = None

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
        shape = lambda sp: (sp.kind, sp.size_ms, sp.slide_ms, sp.offset_ms, sp.gap_ms, sp.time_zone)  # noqa: E731
        return shape(self) == shape(other)


def duration_text(ms):
    """A duration as Flink prints it (TimeUtils.formatWithHighestUnit): `5 s`, `10 min`, `1 h`, `1500 ms`."""
    for unit, size in (("d", 86400000), ("h", 3600000), ("min", 60000), ("s", 1000)):
        if ms and ms % size == 0:
            return "%d %s" % (ms // size, unit)
    return "%d ms" % ms
