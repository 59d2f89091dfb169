"""Window aggregate: a GroupAggregate whose keys include both window_start and window_end of rows carrying
windows (a window function, a window aggregate, a window Top-N, a window join; through Calcs) becomes a
`WindowAggregate` (insert-only, window_time a rowtime in its output). A GROUP BY without both bounds, or over
a window's result whose bounds were computed on, stays a GroupAggregate (updating), as Flink plans it; so does a
streaming one calling a Python aggregate function (Flink 2.3 plans it so: +I, then -U/+U as rows arrive).

Directly over a TUMBLE / HOP / CUMULATE window function (through Calcs that do not compute with the window
columns) the function is absorbed, as Flink does: the aggregate assigns the windows itself from the time column.
SESSION rows come from their window function, which merges the sessions. The binder calls `rewrite` as soon as it builds the aggregate (the
output's time attributes must be known while the query around it is bound: a cascading window reads
window_time); it is in RULES too, where it finds nothing left to do."""

from ..errors import SqlError
from ..plan.aggregate import GroupAggregate
from ..plan.calc import Calc
from ..expr.bound import Expr
from ..plan.window import WindowAggregate, WindowTableFunction, window_of
from ..python_functions.aggregate_calls import python_function


def rewrite(node, ctx):
    if type(node) is not GroupAggregate:
        return node
    w = window_of(node.input)
    if w is None or w.start not in node.keys or w.end not in node.keys:
        return node
    if not ctx.batch and any(python_function(c) is not None for c in node.calls):
        return node     # Flink 2.3 has no window aggregate of Python functions: a group aggregate, updating
    props = {"start": w.start, "end": w.end}
    if w.time is not None and w.time in node.keys:
        props["time"] = w.time
    keys = [k for k in node.keys if k not in props.values()]
    check_aggregable(w.spec, node.position)
    # SESSION rows keep their window function (its sessions are merged as Flink merges them, late rows included)
    absorbed = _absorb(node.input, w) if w.spec.kind != "SESSION" else None
    if absorbed is not None:
        new_input, time_name = absorbed
        return WindowAggregate(new_input, keys, node.calls, w.spec, props, w.time_kind, time_field=time_name,
                               position=node.position)
    return WindowAggregate(node.input, keys, node.calls, w.spec, props, w.time_kind, start_field=w.start,
                           end_field=w.end, position=node.position)


def check_aggregable(spec, position):
    """The conditions Flink sets for a window aggregate, Top-N or join over the windows."""
    if spec.kind == "HOP" and spec.size_ms % spec.slide_ms:
        raise SqlError("HOP table function based aggregate requires size must be an integral multiple of slide, "
                       "but got size %d ms and slide %d ms" % (spec.size_ms, spec.slide_ms), *position)
    if spec.kind == "CUMULATE" and spec.size_ms % spec.slide_ms:
        raise SqlError("CUMULATE table function based aggregate requires maxSize must be an integral multiple of "
                       "step, but got maxSize %d ms and step %d ms" % (spec.size_ms, spec.slide_ms), *position)


def _absorb(node, w):
    """The aggregate's input rebuilt without the window function under it: (node, name of the time column in
    it); None when a Calc on the way computes with the window columns or the function is not directly below."""
    chain = []
    while isinstance(node, Calc):
        chain.append(node)
        node = node.input
    if not isinstance(node, WindowTableFunction):
        return None
    tvf = node
    window_names = set(tvf.field_names[-3:])
    time_name = tvf.spec.time_column
    rebuilt = tvf.input
    for calc in reversed(chain):
        projections = []
        for e, name in calc.projections:
            if e.field in window_names:
                continue
            if set(e.refs) & window_names:
                return None
            projections.append((e, name))
        if calc.condition is not None and set(calc.condition.refs) & window_names:
            return None
        names = {e.field: name for e, name in projections if e.field is not None}
        if time_name in names:
            new_time = names[time_name]
        else:
            taken = [n for _, n in projections]
            new_time = time_name if time_name not in taken else _fresh(time_name, taken)
            projections.append((Expr.of_field(rebuilt.field(time_name)), new_time))
        rebuilt = Calc(rebuilt, projections, calc.condition, position=calc.position)
        window_names = {e.field and name for e, name in calc.projections if e.field in window_names} - {None}
        time_name = new_time
    # the session's partition keys, renamed as the Calcs renamed them
    return rebuilt, time_name


def _fresh(stem, taken):
    name, i = "$" + stem, 0
    while name in taken:
        i += 1
        name = "$%s%d" % (stem, i)
    return name


__all__ = ["rewrite", "SqlError"]
