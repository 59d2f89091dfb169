"""Table functions in FROM: the window table functions `TABLE(TUMBLE | HOP | CUMULATE | SESSION(TABLE t |
(SELECT ...), DESCRIPTOR(ts), ...))` (planner/window_tvf.py parses the call) over any FROM item: a table, a
view, a CTE, a subquery, whatever they compute. The descriptor column must be a time attribute of the input's
fields (Flink's messages otherwise); the result is a `WindowTableFunction` node. Other table functions are
refused. Whether the windows are aggregated, ranked or joined is decided above (planner/rules/window_*.py)."""

from ..errors import SqlError, UnsupportedError
from ..plan.fields import PROCTIME, ROWTIME
from ..plan.window import WindowTableFunction
from ..window_tvf import parse_window_call, window_call
from .scope import Scope, ScopeEntry

_SIGNATURES = {
    "TUMBLE": "TUMBLE(TABLE table_name, DESCRIPTOR(timecol), datetime interval[, datetime interval])",
    "HOP": "HOP(TABLE table_name, DESCRIPTOR(timecol), datetime interval, datetime interval[, datetime interval])",
    "CUMULATE": "CUMULATE(TABLE table_name, DESCRIPTOR(timecol), datetime interval, datetime interval[, "
                "datetime interval])",
    "SESSION": "SESSION(TABLE table_name [PARTITION BY (keycols, ...)], DESCRIPTOR(timecol), datetime interval)",
}
_SQL_TYPE_NAMES = {"INT": "INTEGER"}


def bind_table_function(binder, rel):
    """`TABLE(f(...)) [AS alias]` in FROM -> (node, scope)."""
    ctx = binder.ctx
    call = window_call(rel)
    if call is None:
        fn = rel.this
        name = (fn.name or "").upper()
        if name == "TABLE" and fn.expressions:
            name = getattr(fn.expressions[0], "name", "") or name
        raise UnsupportedError("Table function %s(...) is not supported yet" % name.upper(), *ctx.pos(rel),
                               hint="the window functions TUMBLE, HOP, CUMULATE and SESSION are")
    data, spec = parse_window_call(call, ctx.pos)
    node, scope = _data(binder, data.this)
    entry, _ = scope.resolve([spec.time_column], ctx.pos(call))
    f = entry.field
    spec.time_column = f.name
    _check_time_attribute(spec.kind, f, ctx.pos(call))
    partition = []
    for col in data.args.get("partition_by") or []:
        e, _ = scope.resolve([col.name], ctx.pos(col))
        partition.append(e.field.name)
    spec.partition_by = partition
    tvf = WindowTableFunction(node, spec, time_kind=f.time, position=ctx.pos(call))
    alias = rel.alias or None
    entries = [ScopeEntry(e.qualifier if alias is None else alias, e.name, tvf.field(e.field.name))
               for e in scope.entries]
    entries += [ScopeEntry(alias, name, f) for name, f in zip(("window_start", "window_end", "window_time"),
                                                              tvf.fields[len(node.fields):])]
    return tvf, Scope(entries)


def _data(binder, inner):
    """The TABLE argument: a named table / view / CTE, or a query."""
    from sqlglot import exp
    from .relations import _named_relation
    if isinstance(inner, exp.Subquery):
        node, scope = binder.bind_query(inner.this)
        return node, scope
    if isinstance(inner, exp.Table):
        return _named_relation(binder, inner)
    raise SqlError("The first argument of a window function must be a table: TABLE t or (SELECT ...)",
                   *binder.ctx.pos(inner))


def _check_time_attribute(kind, f, position):
    """Flink's checks of the descriptor column: a TIMESTAMP or TIMESTAMP_LTZ, and a time attribute."""
    t = f.type
    if t is not None and t.name not in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        raise SqlError("The window function %s requires the timecol to be TIMESTAMP or TIMESTAMP_LTZ, but is %s."
                       % (_SIGNATURES[kind], _SQL_TYPE_NAMES.get(t.name, t.text(False) if t.params else t.name)),
                       *position)
    if f.time not in (ROWTIME, PROCTIME):
        raise SqlError("The window function requires the timecol is a time attribute type, but is %s."
                       % (t.text() if t is not None else "TIMESTAMP(3)"), *position,
                       hint="declare a WATERMARK on the column (or use a PROCTIME() column) and pass it through "
                            "unchanged: a regular join, an aggregate or a computation makes it a plain value")
