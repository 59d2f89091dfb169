"""Event-time temporal joins bound anywhere in a FROM: `<left> [LEFT] JOIN v FOR SYSTEM_TIME AS OF l.rowtime AS r
ON l.k = r.k [AND ...]`, the left side being whatever the FROM has joined so far (a table, a view, a
subquery, a join's output, another temporal join).

Flink's rules and messages: the AS OF column must be a time attribute of the
left side (a processing time makes it a lookup join: lookup_join.py), only INNER and LEFT joins, streaming mode only (Flink 2.4's message),
the versioned side needs a rowtime and a primary key (a table with PRIMARY KEY and WATERMARK, or a versioned
view: `ROW_NUMBER() OVER (PARTITION BY key ORDER BY rowtime DESC) = 1`), the ON equalities must cover that
key, both rowtimes of the same type. A changelog source is read without its -U rows (`DropUpdateBefore`),
and a filter over its rows is refused (it would corrupt the versions). The node is `TemporalJoin`."""

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..plan.aggregate import GroupAggregate
from ..plan.calc import Calc
from ..plan.fields import PROCTIME, ROWTIME
from ..plan.join import Join
from ..plan.rank import Deduplicate, Rank
from ..plan.scan import TableScan
from ..plan.sort import Sort
from ..plan.temporal_join import DropUpdateBefore, TemporalJoin
from .expressions import ExpressionBinder

BATCH_MESSAGE = ("Temporal joins (FOR SYSTEM_TIME AS OF) on regular tables are not supported in batch mode. "
                 "Use a lookup join or switch to streaming mode.")
VERSIONED_VIEW_HINT = ("a versioned view has the form SELECT ... FROM (SELECT *, ROW_NUMBER() OVER "
                       "(PARTITION BY key ORDER BY time_attr DESC) AS rownum FROM t) WHERE rownum = 1")
NO_ROWTIME = ("Event-Time Temporal Table Join requires both primary key and row time attribute in versioned table, "
              "but no row time attribute can be found.")
NO_PRIMARY_KEY = "Temporal Table Join requires primary key in versioned table, but no primary key can be found."
FILTER_REFUSED = ("Filter is not allowed for right changelog input of event time temporal join, it will corrupt the "
                  "versioning of data. Please consider removing the filter before joining.")


def bind_temporal_join(binder, left, lscope, join):
    from .relations import add_join_condition, bind_relation, joined_scope
    ctx = binder.ctx
    table = join.this
    kind = _join_kind(ctx, join)
    version = table.args["version"]
    as_of = version.args.get("expression") if isinstance(version, exp.Version) else version
    left_time = _as_of_field(ctx, left, lscope, as_of)
    if left_time is None:                    # a processing time: a lookup join, where Flink can look up
        from .lookup_join import bind_lookup_join
        return bind_lookup_join(binder, left, lscope, join, kind, as_of)
    if ctx.batch:
        raise UnsupportedError(BATCH_MESSAGE, *ctx.pos(table))
    bare = table.copy()
    bare.set("version", None)
    right, rscope = bind_relation(binder, bare)
    from ..rules import apply
    right = apply(right, ctx)          # a versioned view's ROW_NUMBER() = 1 becomes its Deduplicate
    right, right_time, key = _versioned(ctx, right, table)
    lt, rt = left.field(left_time), right.field(right_time)
    if _is_ltz(lt) != _is_ltz(rt):
        raise SqlError("Event-Time Temporal Table Join requires same rowtime type in left table and versioned table, "
                       "but the rowtime types are %s and %s." % (_rowtime_text(lt), _rowtime_text(rt)),
                       *ctx.pos(table))
    node = TemporalJoin(left, right, kind, left_time, right_time, key, position=ctx.pos(table))
    scope = joined_scope(node, lscope, rscope)
    on = join.args.get("on")
    if on is not None:
        condition = ExpressionBinder(ctx, scope).bind(on)
        if condition.type is not None and condition.type.name not in ("BOOLEAN", "NULL"):
            raise SqlError("JOIN ON condition must be a boolean, not %s" % condition.type.text(), *ctx.pos(on))
        add_join_condition(node, condition)
    if not node.left_keys:
        raise SqlError("Currently the join key in Temporal Table Join can not be empty.", *ctx.pos(table),
                       hint="join on the versioned table's primary key: ON <left>.col = %s.%s"
                            % (table.alias_or_name, key[0]))
    missing = [k for k in key if k not in node.right_keys]
    if missing:
        from ..expr.conditions import conjuncts
        shown = " AND ".join(c.sql(dialect="spark").replace("`", "") for c in conjuncts(on))
        raise SqlError("Temporal table's primary key [%s] must be included in the equivalence condition of temporal "
                       "join, but current temporal join condition is [%s]." % (", ".join(key), shown), *ctx.pos(on))
    return node, scope


def _join_kind(ctx, join):
    side = (join.args.get("side") or "").upper()
    kind = (join.args.get("kind") or "").upper()
    for what in (side, kind):
        if what in ("RIGHT", "FULL", "CROSS", "SEMI", "ANTI"):
            raise UnsupportedError("Temporal table join currently only support INNER JOIN and LEFT JOIN, but was "
                                   "%s JOIN." % what, *ctx.pos(join.this))
    if join.args.get("using"):
        raise UnsupportedError("A temporal join needs an ON condition (USING is not supported)", *ctx.pos(join.this))
    return "LEFT" if side == "LEFT" else "INNER"


def _as_of_field(ctx, left, lscope, as_of):
    """The left field FOR SYSTEM_TIME AS OF names: a rowtime as Flink's validator sees it (a rowtime a
    regular join or an aggregate passes on counts); None for a processing time (a lookup join)."""
    bound = ExpressionBinder(ctx, lscope).bind(as_of) if as_of is not None else None
    time = validated_time(left, bound.field) if bound is not None and bound.field is not None else None
    if time == PROCTIME:
        return None
    if time != ROWTIME:
        rowtimes = [f.name for f in left.fields if f.time == ROWTIME]
        raise SqlError("Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time "
                       "attribute field", *ctx.pos(as_of),
                       hint=("the left side's rowtime: %s" % ", ".join(rowtimes)) if rowtimes else
                       "the left side has no event-time attribute (declare a WATERMARK)")
    return bound.field


def validated_time(node, name):
    """The time attribute (ROWTIME, PROCTIME or None) of `node`'s field `name` as Flink's validator sees it:
    a time attribute that a regular join, a MIN/MAX or a GROUP BY key made a plain timestamp still counts."""
    while True:
        f = node.field(name)
        if f.time is not None:
            return f.time
        if isinstance(node, Calc):
            e = next(e for e, n in node.projections if n == name)
            if e.field is None:
                return None
            node, name = node.input, e.field
        elif isinstance(node, Join):
            i = node.field_names.index(name)
            nleft = len(node.left.fields)
            node, name = (node.left, node.left.fields[i].name) if i < nleft else \
                (node.right, node.right.fields[i - nleft].name)
        elif isinstance(node, GroupAggregate):
            call = next((c for c in node.calls if c.name == name), None)
            if call is not None and not (call.function in ("MIN", "MAX") and call.args):
                return None
            node, name = node.input, call.args[0] if call is not None else name
        elif isinstance(node, (Deduplicate, Rank, Sort, DropUpdateBefore)) and name in node.input.field_names:
            node = node.input
        else:
            return None


def _versioned(ctx, right, table):
    """The versioned side -> (its node, read as Flink reads it; its version time field; its key fields)."""
    chain, n = [], right
    while isinstance(n, Calc):
        chain.append(n)
        n = n.input
    name = table.name
    not_versioned = SqlError(NO_PRIMARY_KEY, *ctx.pos(table), hint="'%s' is not a versioned table: %s"
                             % (name, VERSIONED_VIEW_HINT))
    if isinstance(n, Deduplicate):
        if n.time_kind != ROWTIME:
            raise SqlError(NO_ROWTIME, *ctx.pos(table), hint="view '%s' orders by a processing time; a versioned "
                                                             "view orders by the table's rowtime" % name)
        if not n.keep_last:
            raise SqlError("A versioned view keeps the last row of each key: ORDER BY %s DESC, not ASC"
                           % n.order_field, *ctx.pos(table), hint=VERSIONED_VIEW_HINT)
        key, time = list(n.keys), n.order_field
    elif isinstance(n, TableScan):
        t = n.table
        if not t.rowtime:
            raise SqlError(NO_ROWTIME, *ctx.pos(table), hint="declare a WATERMARK on '%s'" % t.name)
        if not t.primary_key:
            raise SqlError(NO_PRIMARY_KEY, *ctx.pos(table), hint="declare PRIMARY KEY (...) NOT ENFORCED on '%s', or "
                                                                 "join a versioned view (%s)"
                                                                 % (t.name, VERSIONED_VIEW_HINT))
        if n.changelog_source:
            if any(c.condition is not None for c in chain):
                raise UnsupportedError(FILTER_REFUSED, *ctx.pos(table))
            dropped = DropUpdateBefore(n, position=n.position)
            if chain:
                chain[-1].inputs[0] = dropped
            else:
                right = dropped
        key, time = list(t.primary_key), t.rowtime
    else:
        raise not_versioned
    for c in reversed(chain):                 # the key and the time up to the versioned side's output
        names = {e.field: out for e, out in c.projections if e.field is not None}
        if any(k not in names for k in key):
            raise not_versioned
        if time not in names:
            raise SqlError(NO_ROWTIME, *ctx.pos(table), hint="'%s' does not select its version time %s"
                                                             % (name, time))
        key, time = [names[k] for k in key], names[time]
    return right, time, key


def _is_ltz(field):
    return field.type is not None and field.type.name == "TIMESTAMP_LTZ"


def _rowtime_text(field):
    return field.type.text() + " *ROWTIME*" if field.type is not None else "*ROWTIME*"
