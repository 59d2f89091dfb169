"""LookupJoin on Spark: a stream-static join. The looked-up table is read as a batch DataFrame (it is bounded,
as Flink's CsvTableSource is) and broadcast; each probe row (streaming or batch) is joined with its rows on
the whole ON condition, INNER or LEFT (Spark's stream-static joins keep the stream on the left). Spark takes
the equalities of ON, expressions of the probe side included (`MOD(auction, 10000) = key`), as the keys of a
broadcast hash join. A jdbc table is not read whole: it is queried by the probe rows' keys, through Flink's
partial cache (_jdbc_lookup_join). The output keeps the probe row's hidden columns (its order, watermark and
kind)."""

from dataclasses import replace

from pyspark.sql import functions as F

from planner.plan.lookup_join import LookupJoin
from planner.expr.functions.math import join_condition_sql

from ..translate import Stream, conform, q, translates
from .scan import translate_table_scan


@translates(LookupJoin)
def translate_lookup_join(node, inputs, ctx):
    probe = inputs[0]
    nleft = len(node.left.fields)
    left_names, right_names = node.field_names[:nleft], node.field_names[nleft:]
    l_df = probe.df.select(*[F.col(q(a)).alias(b) for a, b in zip(node.left.field_names, left_names)],
                           *[F.col(h) for h in probe.hidden()])
    if node.lookup.table.options.get("connector") == "jdbc":
        return _jdbc_lookup_join(node, probe, l_df, left_names, right_names)
    table = translate_table_scan(node.lookup, [], replace(ctx, streaming=False, event_time=False))
    r_df = table.df.select(*[F.col(q(a)).alias(b) for a, b in zip(node.lookup.field_names, right_names)])
    how = "left" if node.kind == "LEFT" else "inner"
    l_df, r_df, spark = _looked_up(node, l_df, r_df, how == "inner")
    joined = l_df.join(F.broadcast(r_df), on=F.expr(spark.sql) if spark.sql is not None else F.lit(True), how=how)
    if spark.after is not None:
        joined = joined.filter(F.expr(spark.after))
    out = joined.select(*[F.col(q(n)) for n in node.field_names], *[F.col(h) for h in probe.hidden()])
    return Stream(conform(out, node.fields), changelog=probe.changelog)


def _looked_up(node, l_df, r_df, inner):
    """-> (l_df, r_df with the columns the condition computes below the join, the JoinCondition): a looked-up
    row's lookup keys equal to the probe row's, as Flink's lookup finds them (a hash map of the keys: a
    FLOAT/DOUBLE by Double.equals, a NaN finds a NaN and -0.0 only -0.0, where the ON's `=` is Java's ==), and the
    ON's other conjuncts, java.lang.Math's functions in them as join_condition_sql places them."""
    from pyspark.sql import types as st
    parts = []
    for (field, _), sql in zip(node.lookup_keys, node.probe_key_sql):
        found = "`%s`" % field.replace("`", "``")
        part = "(%s) = %s" % (sql, found)         # (Spark's `=`: a NaN equals a NaN, -0.0 equals 0.0)
        if isinstance(r_df.schema[field].dataType, (st.DoubleType, st.FloatType)):
            part += " AND %s = %s" % (_negative_zero_sql("(%s)" % sql), _negative_zero_sql(found))
        parts.append(part)
    if node.rest_sql is not None:
        parts.append(node.rest_sql)
    spark = join_condition_sql(" AND ".join("(%s)" % p for p in parts), l_df.columns, r_df.columns, inner=inner)
    l_df = l_df.select("*", *[F.expr(e).alias(n) for n, e in spark.left])       # (java.lang.Math's functions)
    r_df = r_df.select("*", *[F.expr(e).alias(n) for n, e in spark.right])
    return l_df, r_df, spark


def _negative_zero_sql(value):
    # group_aggregate.is_negative_zero in SQL: Spark's `=` takes -0.0 for 0.0; its text does not
    return "(CASE WHEN %s = 0 THEN CAST(%s AS STRING) = '-0.0' ELSE FALSE END)" % (value, value)


def _jdbc_lookup_join(node, probe, l_df, left_names, right_names):
    """A jdbc table looked up by key (connectors/jdbc_lookup.py): each probe row gets the list of the rows
    found for its key (`__found`, a mapInArrow in the probe rows' tasks), kept where the whole ON condition
    holds (`filter` over the list), then one output row each (INNER), or one padded with NULLs when none is
    left (LEFT: explode_outer)."""
    import re

    from pyspark.sql import types as st
    from pyspark.sql.pandas.types import to_arrow_type

    from planner.expr.types import to_spark
    from ..connectors.jdbc import redact_secrets
    from ..connect_shims import portable_map_function
    from ..connectors.jdbc_lookup import JdbcLookup
    table = node.lookup.table
    column_of = dict(zip(right_names, node.lookup.field_names))
    keyed = l_df.select("*", *[F.expr(sql).alias("__lk%d" % i) for i, sql in enumerate(node.probe_key_sql)])
    found = st.StructType([st.StructField(n, to_spark(f.type), True) for n, f in zip(right_names, node.lookup.fields)])
    spark = l_df.sparkSession
    found_type = to_arrow_type(st.ArrayType(found), timezone=spark.conf.get("spark.sql.session.timeZone"))
    lookup = JdbcLookup(table.options, table.options["table-name"],
                        (table.name, redact_secrets(table.options["url"], table.options)),
                        ["__lk%d" % i for i in range(len(node.probe_key_sql))],
                        [column_of[field] for field, _ in node.lookup_keys], list(node.lookup.field_names), found_type)
    schema = st.StructType(l_df.schema.fields + [st.StructField("__found", st.ArrayType(found), True)])
    looked_up = keyed.mapInArrow(portable_map_function(lookup), schema)
    # the ON's other conjuncts over one found row `__x`: each looked-up field `f` read as `__x`.`f` (the keys are
    # the database's to match, as in Flink's lookup: a NaN key finds what the database's `=` finds)
    names = "|".join(re.escape(q(n)) for n in sorted(right_names, key=len, reverse=True))
    if node.rest_sql is None:
        kept = F.col("__found")
    else:
        condition = re.sub(names, lambda m: "__x." + m.group(0), node.rest_sql)
        kept = F.expr("filter(`__found`, __x -> (%s))" % condition)
    explode = F.explode_outer if node.kind == "LEFT" else F.explode
    rows = looked_up.select(*[F.col(q(n)) for n in left_names], *[F.col(h) for h in probe.hidden()],
                            explode(kept).alias("__row"))
    out = rows.select(*[F.col(q(n)) for n in left_names], *[F.col("__row")[n].alias(n) for n in right_names],
                      *[F.col(h) for h in probe.hidden()])
    out = out.select(*[F.col(q(n)) for n in node.field_names], *[F.col(h) for h in probe.hidden()])
    return Stream(conform(out, node.fields), changelog=probe.changelog)
