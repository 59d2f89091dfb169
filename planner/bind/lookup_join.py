"""Processing-time temporal joins: `<left> [LEFT] JOIN t FOR SYSTEM_TIME AS OF l.proctime AS s ON <expr over
l> = s.k [AND ...]`, bound as a `LookupJoin` when Flink can look `t` up: a table declared with Flink's legacy
keys (`'connector.type' = 'filesystem'`, Flink's CsvTableSource, a bounded lookup source) or a `jdbc` table
(runtime/connectors/jdbc_lookup.py: queried by key, through Flink's partial cache). Against any other
table Flink refuses, as here: a table without a primary key with Flink's primary-key message, one with a key
(a changelog, a versioned view) with "Processing-time temporal join is not supported yet.". The ON clause
needs an equality between a field of `t` and an expression of the left side only (Flink's lookup key)."""

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..plan.join import Join
from ..plan.lookup_join import LookupJoin
from ..plan.scan import TableScan
from .expressions import ExpressionBinder

PROCESSING_TIME_REFUSED = "Processing-time temporal join is not supported yet."
NO_PRIMARY_KEY = "Temporal Table Join requires primary key in versioned table, but no primary key can be found."


def bind_lookup_join(binder, left, lscope, join, kind, as_of):
    from .relations import bind_relation, joined_scope
    ctx = binder.ctx
    table = join.this
    bare = table.copy()
    bare.set("version", None)
    right, rscope = bind_relation(binder, bare)
    if not (isinstance(right, TableScan) and (right.table.legacy_connector or _is_jdbc(right.table))):
        if isinstance(right, TableScan) and not right.table.primary_key:
            raise SqlError(NO_PRIMARY_KEY, *ctx.pos(table),
                           hint="only a table declared with Flink's legacy keys ('connector.type' = 'filesystem', "
                                "'format.type' = 'csv') can be looked up FOR SYSTEM_TIME AS OF a processing time")
        raise UnsupportedError(PROCESSING_TIME_REFUSED, *ctx.pos(as_of),
                               hint="use the left side's event time (its WATERMARK column) in FOR SYSTEM_TIME AS OF")
    scoped = Join(left, right, kind, [], [])          # the joined row, to bind ON against
    scope = joined_scope(scoped, lscope, rscope)
    on = join.args.get("on")
    if on is None:
        raise SqlError("A temporal join needs an ON condition", *ctx.pos(table))
    condition = ExpressionBinder(ctx, scope).bind(on)
    if condition.type is not None and condition.type.name not in ("BOOLEAN", "NULL"):
        raise SqlError("JOIN ON condition must be a boolean, not %s" % condition.type.text(), *ctx.pos(on))
    nleft = len(left.fields)
    right_names = set(scoped.field_names[nleft:])
    keys, rest = _lookup_keys(condition, set(scoped.field_names[:nleft]), right_names)
    if not keys:
        raise SqlError("Temporal table join requires an equality condition on fields of table "
                       "[default_catalog.default_database.%s]." % right.table.name, *ctx.pos(on),
                       hint="ON <left expression> = %s.<column>" % table.alias_or_name)
    node = LookupJoin(left, right, kind, condition, keys, position=ctx.pos(table), rest_sql=rest)
    return node, joined_scope(scoped, lscope, rscope)


def _is_jdbc(table):
    """A `jdbc` table is a lookup source (Flink's JdbcDynamicTableSource is a LookupTableSource)."""
    return table.options.get("connector") == "jdbc"


def _lookup_keys(condition, left_names, right_names):
    """([(right field, left expression text, its Spark SQL)] of the ON conjuncts `<left-only expression> = <right
    field>`, the Spark SQL of the other conjuncts or None)."""
    from ..expr.conditions import conjuncts, field_of
    from ..expr.translate import explain_text, to_spark
    keys, rest = [], []
    for part in conjuncts(condition.tree):
        c = part
        while isinstance(c, exp.Paren):
            c = c.this
        for this, other in ((c.this, c.expression), (c.expression, c.this)) if isinstance(c, exp.EQ) else ():
            field = field_of(this)
            used = {col.meta["field"].name if "field" in col.meta else col.name for col in other.find_all(exp.Column)}
            if field in right_names and used and used <= left_names:
                keys.append((field, explain_text(other), to_spark(other).sql(dialect="spark")))
                break
        else:
            rest.append(part)
    if not rest:
        return keys, None
    return keys, " AND ".join("(%s)" % to_spark(part.copy()).sql(dialect="spark") for part in rest)
