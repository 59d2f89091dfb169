"""Table functions in FROM: the window table functions `TABLE(TUMBLE | HOP | CUMULATE | SESSION(TABLE t |
(SELECT ...), DESCRIPTOR(ts), ...))` over any FROM item: a table, a view, a CTE, a subquery, whatever they
compute. `parse_window_call` reads the call's arguments, positional or named (`DATA =>`, `TIMECOL =>`,
`SIZE =>`, `SLIDE =>`, `STEP =>`, `OFFSET =>`, `GAP =>`) into a `WindowSpec`. The descriptor column must be a
time attribute of the input's fields (Flink's messages otherwise); the result is a `WindowTableFunction` node
(the input's fields plus window_start, window_end, window_time). Other table functions are refused. Whether
the windows are aggregated, ranked or joined is decided above (planner/rules/window_*.py)."""

from sqlglot import exp

from ..ddl import interval_ms
from ..dialect import TableArgument
from ..errors import SqlError, UnsupportedError
from ..plan.fields import PROCTIME, ROWTIME
from ..plan.window import WindowTableFunction
from ..plan.window_spec import WindowSpec
from .scope import Scope, ScopeEntry
from ..expr.time_zones import window_time_zone

WINDOW_FUNCTIONS = ("TUMBLE", "HOP", "CUMULATE", "SESSION")
# positional parameters after DATA and TIMECOL, in Flink's order; the trailing ones are optional
_PARAMETERS = {
    "TUMBLE": (("SIZE",), ("OFFSET",)),
    "HOP": (("SLIDE", "SIZE"), ("OFFSET",)),
    "CUMULATE": (("STEP", "SIZE"), ("OFFSET",)),
    "SESSION": (("GAP",), ()),
}

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
    spec.time_zone = window_time_zone(f, ctx)
    partition = []
    for col in data.args.get("partition_by") or []:
        e, _ = scope.resolve([col.name], ctx.pos(col))
        partition.append(e.field.name)
    spec.partition_by = partition
    if spec.kind == "SESSION" and ctx.batch:
        raise UnsupportedError(SESSION_IN_BATCH[0], *ctx.pos(call), hint=SESSION_IN_BATCH[1])
    tvf = WindowTableFunction(node, spec, time_kind=f.time, position=ctx.pos(call))
    alias = rel.alias or None
    entries = [ScopeEntry(e.qualifier if alias is None else alias, e.name, tvf.field(e.field.name))
               for e in scope.entries]
    entries += [ScopeEntry(alias, name, f) for name, f in zip(("window_start", "window_end", "window_time"),
                                                              tvf.fields[len(node.fields):])]
    return tvf, Scope(entries)


# Flink 2.3's batch planner has no session windows (its TableException); as in its SQL client, a streaming
# query over bounded tables runs them
SESSION_IN_BATCH = ("Unaligned windows like session are not supported in batch mode yet",
                    "run it in streaming mode: SET 'execution.runtime-mode' = 'streaming'")


def _data(binder, inner):
    """The TABLE argument: a named table / view / CTE, or a query."""
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
    partition = data.args.get("partition_by")
    if partition is not None and not (partition and all(isinstance(c, exp.Column) for c in partition)):
        raise SqlError("PARTITION BY of %s takes column names: PARTITION BY k or PARTITION BY (k1, k2)" % kind,
                       *position(data))
    spec.partition_by = [c.name for c in partition or []]
    return data, spec
