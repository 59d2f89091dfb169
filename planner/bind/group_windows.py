"""Legacy group windows: `GROUP BY keys, TUMBLE(ts, size)` / `HOP(ts, slide, size)` / `SESSION(ts, gap)` with
TUMBLE_START / _END / _ROWTIME / _PROCTIME (HOP_*, SESSION_*) in the select list and HAVING. The GROUP BY is
bound as an ordinary aggregate over the other keys (select.py), then made a `GroupWindowAggregate` over the
time attribute `ts`, with the window's properties as fields the select list reads. The emit settings
(`table.exec.emit.allow-lateness`, `...early-fire.enabled`) make it update its result; the allowed lateness
also delays the sources' Spark watermark so that a fired window's state is kept that long."""

from sqlglot import exp

from ..ddl import interval_ms
from ..errors import SqlError, UnsupportedError
from ..plan.calc import Calc
from ..expr.bound import Expr
from ..plan.fields import PROCTIME, ROWTIME
from ..plan.scan import TableScan
from ..plan.window import GroupWindowAggregate
from ..plan.window_spec import WindowSpec
from .expressions import ExpressionBinder
from .table_functions import SESSION_IN_BATCH
from ..expr.time_zones import window_time_zone

KINDS = ("TUMBLE", "HOP", "SESSION")
_PROPERTIES = {"_START": "start", "_END": "end", "_ROWTIME": "rowtime", "_PROCTIME": "proctime"}


def is_group_window(g):
    return isinstance(g, exp.Anonymous) and g.name.upper() in KINDS


def bind_group_window(select_binder, node, scope, group, items):
    """-> (GroupWindowAggregate, scope, replace: the aggregates, keys and window properties (Computed) -> the
    fields computing them)."""
    from .select import Computed
    ctx = select_binder.ctx
    windows = [g for g in group.expressions if is_group_window(g)]
    if len(windows) > 1:
        raise SqlError("GROUP BY can have only one group window", *ctx.pos(windows[1]))
    call = windows[0]
    kind = call.name.upper()
    args = list(call.expressions)
    binder = ExpressionBinder(ctx, scope)
    if not args:
        raise SqlError("%s needs a time attribute as its first argument" % kind, *ctx.pos(call))
    time = binder.bind(args[0])
    intervals = []
    for a in args[1:]:
        if not isinstance(a, exp.Interval):
            raise SqlError("%s needs INTERVAL arguments" % kind, *ctx.pos(a))
        intervals.append(interval_ms(a))
    if len(intervals) != (2 if kind == "HOP" else 1):
        raise SqlError("Wrong number of arguments to %s: %s" % (kind, "HOP(time, slide, size)" if kind == "HOP"
                                                               else "%s(time, size)" % kind), *ctx.pos(call))
    if time.type is not None and time.type.name not in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        shown = {"INT": "INTEGER"}.get(time.type.name, time.type.name)
        raise SqlError("Cannot apply '$%s' to arguments of type '$%s(<%s>, %s)'. Supported form(s): '$%s(<DATETIME>, "
                       "<DATETIME_INTERVAL>)'" % (kind, kind, shown, ", ".join("<INTERVAL>" for _ in intervals), kind),
                       *ctx.pos(call))
    f = node.field(time.field) if time.field is not None else None
    if f is None or f.time not in (ROWTIME, PROCTIME):
        raise SqlError("Window aggregate can only be defined over a time attribute column, but %s encountered."
                       % (time.type.text() if time.type is not None else "TIMESTAMP(3)"), *ctx.pos(args[0]))
    others = group.copy()
    others.set("expressions", [g for g in group.expressions if g is not call])
    agg, replace = select_binder._aggregate(node, scope, others, items)
    pre = agg.input
    # the time attribute reaches the aggregate: added to its pre-projection when nothing else passes it
    time_name = next((n for e, n in pre.projections if e.field == f.name), None)
    if time_name is None:
        taken = [n for _, n in pre.projections]
        time_name = f.name if f.name not in taken else ctx.fresh("$rowtime")
        pre = Calc(pre.input, pre.projections + [(Expr.of_field(f), time_name)], pre.condition, position=pre.position)
    if kind == "TUMBLE":
        spec = WindowSpec(kind, time_name, size_ms=intervals[0])
    elif kind == "HOP":
        spec = WindowSpec(kind, time_name, slide_ms=intervals[0], size_ms=intervals[1])
    else:
        spec = WindowSpec(kind, time_name, gap_ms=intervals[0])
    spec.time_zone = window_time_zone(f, ctx)
    for v, what in ((spec.size_ms, "size"), (spec.slide_ms, "slide"), (spec.gap_ms, "gap")):
        if v < 0 or (v == 0 and what in {"TUMBLE": ("size",), "HOP": ("size", "slide"),
                                         "SESSION": ("gap",)}[kind]):
            raise SqlError("The %s of %s must be positive" % (what, kind), *ctx.pos(call))
    if kind == "SESSION" and ctx.batch:     # Flink 2.3: "Window SessionGroupWindow(..) is not supported right now"
        raise UnsupportedError("A SESSION group window is not supported in batch mode", *ctx.pos(call),
                               hint=SESSION_IN_BATCH[1])
    taken = set(agg.field_names)
    props = {}
    for p in ("start", "end", "rowtime") if f.time == ROWTIME else ("start", "end", "proctime"):
        name, i = "w$" + p, 0
        while name in taken:
            i += 1
            name = "w$%s%d" % (p, i)
        props[p] = name
    early, lateness = ctx.settings.window_emit() if hasattr(ctx.settings, "window_emit") else (False, 0)
    if f.time != ROWTIME:
        early, lateness = False, 0
    gw = GroupWindowAggregate(pre, agg.keys, agg.calls, spec, props, f.time, early=early, lateness_ms=lateness,
                              position=ctx.pos(call))
    if lateness:
        for n in gw.walk():
            if isinstance(n, TableScan) and n.watermark is not None:
                n.watermark_extra_ms = lateness
    computed = Computed()
    for tree, field in replace.fields.items():
        computed.add(tree, gw.field(field.name))
    replace = computed
    # TUMBLE_START(ts, ...) and the other properties, wherever the select list and HAVING use them
    sources = [e for e, _ in items]
    having = select_binder.select.args.get("having")
    if having is not None:
        sources.append(having.this)
    resolver = ExpressionBinder(ctx, scope, allow_calls=True)
    for src in sources:
        for c in src.find_all(exp.Anonymous) if isinstance(src, exp.Expression) else ():
            name = c.name.upper()
            if not name.startswith(kind + "_"):
                continue
            prop = _PROPERTIES.get(name[len(kind):])
            if prop is None or prop not in props:
                raise SqlError("%s is not a property of a %s window%s" % (
                    name, "rowtime" if f.time == ROWTIME else "proctime",
                    "" if prop is None else ": it has %s" % ", ".join(
                        kind + "_" + p.upper() for p in props)), *ctx.pos(c))
            replace.add(resolver.resolve(c), gw.field(props[prop]))
    return gw, scope, replace
