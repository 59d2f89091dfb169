"""Windows as plan nodes: the window table function (TUMBLE, HOP, CUMULATE, SESSION) and the operators Flink
plans over its rows: the window aggregate, window Top-N and deduplication, the window join, and the legacy
group window aggregate (`GROUP BY TUMBLE(ts, ..)`).

Every node that outputs rows carrying their window says so with `window_ref()` (a `WindowRef`: the window
spec and the fields holding window_start / window_end / window_time); `window_of(node)` finds it through
Calcs that pass those fields on, which is how the binder and the rules recognize a window aggregate, a window
Top-N or a window join over any input that carries windows (a window function, a window aggregate, ...).
The window operators consume only insert-only input and are insert-only (Flink's windows), except a legacy
group window with early / late firing, which updates its result. Nothing here runs Spark."""

from dataclasses import dataclass, replace

from ..expr.types import parse_type
from .changelog import INSERT_ONLY_KINDS, UPDATE, INSERT, InsertOnlyInOut
from .fields import PROCTIME, ROWTIME, Field, unique_names
from .join import JOIN_TYPES, Join, joined_fields
from .node import PlanNode

WINDOW_BOUND_TYPE = "TIMESTAMP(3) NOT NULL"


def bound_field(name):
    return Field(name, parse_type(WINDOW_BOUND_TYPE))


def time_field(name, time_kind, ltz=False):
    """window_time: a rowtime (TIMESTAMP(3), or TIMESTAMP_LTZ(3) over a TIMESTAMP_LTZ rowtime: `ltz`) over event
    time, a proctime (TIMESTAMP_LTZ(3)) over processing time."""
    if time_kind == PROCTIME:
        return Field(name, parse_type("TIMESTAMP_LTZ(3) NOT NULL"), PROCTIME)
    return Field(name, parse_type("TIMESTAMP_LTZ(3) NOT NULL" if ltz else WINDOW_BOUND_TYPE), ROWTIME)


@dataclass(frozen=True)
class WindowRef:
    """Rows carrying their window: `spec` (planner.plan.window_spec.WindowSpec), the names of the fields holding
    window_start and window_end, and window_time's (None when not carried), and the time kind."""
    spec: object
    start: str
    end: str
    time: str = None
    time_kind: str = ROWTIME

    def renamed(self, names):
        """Through a projection: `names` maps input field names to output names; None when a bound is lost."""
        if self.start not in names or self.end not in names:
            return None
        return replace(self, start=names[self.start], end=names[self.end], time=names.get(self.time))


def window_of(node):
    """The windows the rows of `node` carry (a WindowRef over its output names), through Calcs; or None."""
    from .calc import Calc
    chain = []
    while isinstance(node, Calc):
        chain.append(node)
        node = node.input
    ref = node.window_ref() if hasattr(node, "window_ref") else None
    for calc in reversed(chain):
        if ref is None:
            return None
        names = {}
        for e, name in calc.projections:
            if e.field is not None and e.field not in names:
                names[e.field] = name
        ref = ref.renamed(names)
    return ref


class WindowTableFunction(PlanNode):
    """TUMBLE / HOP / CUMULATE / SESSION over `input`: each input row once per window it falls in (SESSION:
    in the session it ends up in), with window_start, window_end and window_time (a time attribute of the
    spec's kind) after the input's fields. Changes pass through as they are (Flink: transparent)."""
    name = "WindowTableFunction"
    requester = "WindowTableFunction"

    def __init__(self, input, spec, time_kind=ROWTIME, position=None):
        super().__init__((input,), position)
        self.spec = spec
        self.time_kind = time_kind
        # unique in the row: over a window's output (cascading windows) the new ones are window_time0, ...
        start, end, time = unique_names(["window_start", "window_end", "window_time"], input.field_names)
        self.fields = list(input.fields) + [bound_field(start), bound_field(end),
                                            time_field(time, time_kind, spec.time_zone is not None)]

    @property
    def event_time(self):
        return self.time_kind == ROWTIME

    def window_ref(self):
        start, end, time = self.field_names[-3:]
        return WindowRef(self.spec, start, end, time, self.time_kind)

    def explain_detail(self):
        return "window=[%s]" % self.spec.describe()


class _WindowOperator(PlanNode):
    """A single-input window operator: insert-only in and out (Flink's windows), an event-time operator over a
    rowtime (`time_kind`)."""
    time_kind = ROWTIME

    @property
    def event_time(self):
        return self.time_kind == ROWTIME

    def accepted_kinds(self, i):
        return INSERT_ONLY_KINDS

    def provided_kinds(self, input_kinds):
        return INSERT_ONLY_KINDS

    def input_update_before(self, i, required):
        return False


def _window_text(node):
    if node.time_field is not None:
        return node.spec.describe()
    return node.spec.describe(node.start_field, node.end_field)


class WindowAggregate(_WindowOperator):
    """GROUP BY window_start, window_end [, window_time], keys over rows carrying windows: one row per window
    and group once the window closes (insert-only). Either the windows are assigned here from `time_field` (the
    window function under it was absorbed, as Flink does: its rows never exist) or the input rows carry them
    in `start_field` / `end_field`. `props` maps 'start' / 'end' / 'time' to the output field names of the
    window properties the query groups by; they follow the keys and the aggregate calls."""
    name = "WindowAggregate"
    requester = "WindowAggregate"

    def __init__(self, input, keys, calls, spec, props, time_kind=ROWTIME, time_field=None, start_field=None,
                 end_field=None, position=None):
        super().__init__((input,), position)
        self.keys = list(keys)
        self.calls = list(calls)
        self.spec = spec
        self.props = dict(props)
        self.time_kind = time_kind
        self.time_field = time_field
        self.start_field, self.end_field = start_field, end_field
        fields = [input.field(k).materialized() for k in self.keys] + [Field(c.name, c.type) for c in self.calls]
        for prop in ("start", "end", "time"):
            if prop in self.props:
                fields.append(time_field_of(prop, self.props[prop], time_kind, spec.time_zone is not None))
        self.fields = fields

    def window_ref(self):
        if "start" in self.props and "end" in self.props:
            return WindowRef(self.spec, self.props["start"], self.props["end"], self.props.get("time"), self.time_kind)
        return None

    def explain_detail(self):
        calls = ["%s AS %s" % (c.text(), c.name) for c in self.calls]
        fn = {"start": "start", "end": "end", "time": "proctime" if self.time_kind == PROCTIME else "rowtime"}
        props = ["%s('w$) AS %s" % (fn[p], self.props[p]) for p in ("start", "end", "time") if p in self.props]
        s = "window=[%s], select=[%s]" % (_window_text(self), ", ".join(self.keys + calls + props))
        return ("groupBy=[%s], " % ", ".join(self.keys) if self.keys else "") + s


def time_field_of(prop, name, time_kind, ltz=False):
    return time_field(name, time_kind, ltz) if prop == "time" else bound_field(name)


def _order_text(order):
    return ", ".join("%s %s" % (c, "ASC" if asc else "DESC") for c, asc in order)


class _PerWindow(_WindowOperator):
    """A single-input operator over rows carrying windows (`window`: a WindowRef over the input's fields) that
    works on a window's rows once it closes: insert-only in and out, the windows passed on."""

    @property
    def time_kind(self):
        return self.window.time_kind

    def window_ref(self):
        return self.window

    def window_text(self):
        return self.window.spec.describe(self.window.start, self.window.end)


class WindowRank(_PerWindow):
    """Top-N per window: `ROW_NUMBER() OVER (PARTITION BY window_start, window_end, keys ORDER BY ..)` filtered by
    the rank, over rows carrying windows. A window's rows are ranked once it closes; insert-only."""
    name = "WindowRank"
    requester = "WindowRank"

    def __init__(self, input, window, partition, order, rank_end, rank_field=None, position=None):
        super().__init__((input,), position)
        self.window = window                  # WindowRef over the input's fields
        self.partition = list(partition)      # the partition keys besides the window bounds
        self.order = list(order)
        self.rank_end = rank_end
        self.rank_field = rank_field
        self.fields = list(input.fields) + ([Field(rank_field, parse_type("BIGINT NOT NULL"))] if rank_field else [])

    def explain_detail(self):
        return ("window=[%s], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=%d], partitionBy=[%s], "
                "orderBy=[%s], select=[%s]") % (self.window_text(), self.rank_end, ", ".join(self.partition),
                                                _order_text(self.order), ", ".join(self.field_names))


class WindowDeduplicate(_PerWindow):
    """The first or last row (by a time attribute) of each key in each window: `ROW_NUMBER() ... = 1` partitioned
    by window_start, window_end and keys, ordered by the rowtime. Once the window closes; insert-only."""
    name = "WindowDeduplicate"
    requester = "WindowDeduplicate"

    def __init__(self, input, window, keys, order_field, keep_last, position=None):
        super().__init__((input,), position)
        self.window = window
        self.keys = list(keys)
        self.order_field = order_field
        self.keep_last = keep_last
        self.fields = list(input.fields)

    def explain_detail(self):
        return "window=[%s], keep=[%s], partitionKeys=[%s], orderKey=[%s], order=[ROWTIME]" % (
            self.window_text(), "LastRow" if self.keep_last else "FirstRow", ", ".join(self.keys), self.order_field)


class WindowJoin(InsertOnlyInOut, Join):
    """A join of two inputs carrying the same windows on `L.window_start = R.window_start AND L.window_end =
    R.window_end` (and key equalities, and a remaining condition): each window's rows of both sides are joined
    once it closes; INNER, LEFT, RIGHT or FULL; insert-only. Unlike a regular join, the time attributes stay."""
    name = "WindowJoin"
    requester = "WindowJoin"

    def __init__(self, left, right, kind, left_window, right_window, left_keys, right_keys, condition=None,
                 position=None):
        PlanNode.__init__(self, (left, right), position)
        self.kind = kind
        self.left_window, self.right_window = left_window, right_window
        self.left_keys, self.right_keys = list(left_keys), list(right_keys)
        self.condition = condition              # Expr over the output fields, or None
        self.fields = joined_fields(left, right, kind, keep_time=True)

    @property
    def event_time(self):
        return self.left_window.time_kind == ROWTIME

    def window_ref(self):
        if self.kind in ("INNER", "LEFT"):
            names = {f: self.output_name(0, f) for f in self.left.field_names}
            return self.left_window.renamed(names)
        if self.kind == "RIGHT":
            names = {f: self.output_name(1, f) for f in self.right.field_names}
            return self.right_window.renamed(names)
        return None

    def explain_detail(self):
        return window_join_detail(self, JOIN_TYPES[self.kind])


def window_join_detail(join, join_type):
    """EXPLAIN's text of a window join (WindowJoin, WindowSemiJoin): both windows, the type, the condition."""
    lw, rw = join.left_window, join.right_window
    return "leftWindow=[%s], rightWindow=[%s], joinType=[%s], where=[%s], select=[%s]" % (
        lw.spec.describe(lw.start, lw.end), rw.spec.describe(rw.start, rw.end), join_type, join.where_text(),
        ", ".join(join.field_names))


GROUP_WINDOW_NAMES = {"TUMBLE": "TumblingGroupWindow", "HOP": "SlidingGroupWindow", "SESSION": "SessionGroupWindow"}


class GroupWindowAggregate(_WindowOperator):
    """The legacy group window: `GROUP BY keys, TUMBLE(ts, size)` / `HOP(ts, slide, size)` / `SESSION(ts, gap)`
    with TUMBLE_START / _END / _ROWTIME / _PROCTIME. `props` maps 'start' / 'end' / 'rowtime' / 'proctime' to
    output field names (after the keys and the calls). Insert-only, unless `table.exec.emit.allow-lateness`
    (`lateness_ms`) or early firing (`early`) is set: then a window's result is updated as rows arrive
    (a late row within the lateness updates it), an update stream keyed by the keys and the window."""
    name = "GroupWindowAggregate"
    requester = "GroupWindowAggregate"

    def __init__(self, input, keys, calls, spec, props, time_kind=ROWTIME, early=False, lateness_ms=0,
                 position=None):
        super().__init__((input,), position)
        self.keys = list(keys)
        self.calls = list(calls)
        self.spec = spec                    # planner.plan.window_spec.WindowSpec (TUMBLE, HOP or SESSION)
        self.props = dict(props)
        self.time_kind = time_kind
        self.early = early
        self.lateness_ms = lateness_ms
        fields = [input.field(k).materialized() for k in self.keys] + [Field(c.name, c.type) for c in self.calls]
        for prop in ("start", "end", "rowtime", "proctime"):
            if prop in self.props:
                if prop == "rowtime":
                    f = Field(self.props[prop], parse_type("TIMESTAMP_LTZ(3)" if spec.time_zone is not None
                                                           else "TIMESTAMP(3)"), ROWTIME)
                elif prop == "proctime":
                    f = time_field(self.props[prop], PROCTIME)
                else:
                    f = bound_field(self.props[prop])
                fields.append(f)
        self.fields = fields

    @property
    def time_field(self):
        return self.spec.time_column

    @property
    def updating(self):
        return self.time_kind == ROWTIME and (self.early or self.lateness_ms > 0)

    def provided_kinds(self, input_kinds):
        return frozenset({INSERT, UPDATE}) if self.updating else INSERT_ONLY_KINDS

    def derive_upsert_key(self):
        if not self.updating:
            return None
        return tuple(self.keys) + tuple(self.props[p] for p in ("start", "end") if p in self.props)

    def explain_detail(self):
        s = self.spec
        args = {"TUMBLE": (s.size_ms,), "HOP": (s.size_ms, s.slide_ms), "SESSION": (s.gap_ms,)}[s.kind]
        window = "%s('w$, %s, %s)" % (GROUP_WINDOW_NAMES[s.kind], s.time_column, ", ".join(str(a) for a in args))
        fn = {"start": "start", "end": "end", "rowtime": "rowtime", "proctime": "proctime"}
        props = ["%s('w$) AS %s" % (fn[p], self.props[p]) for p in ("start", "end", "rowtime", "proctime")
                 if p in self.props]
        calls = ["%s AS %s" % (c.text(), c.name) for c in self.calls]
        out = ("groupBy=[%s], " % ", ".join(self.keys)) if self.keys else ""
        out += "window=[%s], properties=[%s], select=[%s]" % (
            window, ", ".join(self.props[p] for p in ("start", "end", "rowtime", "proctime") if p in self.props),
            ", ".join(self.keys + calls + props))
        if self.updating:
            out += ", emit=[%s]" % ", ".join(x for x in (
                "early fire" if self.early else None,
                "allow lateness %d ms" % self.lateness_ms if self.lateness_ms else None) if x)
        return out
