"""Union (UNION ALL): the inputs' rows together; when one input is a changelog, every row carries a kind."""

from pyspark.sql import functions as F

from planner.plan.union import Union

from ..translate import Stream, translates


@translates(Union)
def translate_union(node, inputs, ctx):
    changelog = any(s.changelog for s in inputs)
    names = node.field_names
    out = None
    for child, s in zip(node.inputs, inputs):
        if s.upsert_keys is not None:
            raise AssertionError("an update-mode aggregate under a union")   # translators never build this
        cols = [F.col("`%s`" % c.replace("`", "``")).alias(n) for c, n in zip(child.field_names, names)]
        cols += [F.col("__seq"), F.col("__wm")]
        if changelog:
            cols.append(F.col("__op") if s.changelog else F.lit(0).cast("tinyint").alias("__op"))
        part = s.df.select(*cols)
        out = part if out is None else out.unionByName(part)
    return Stream(out, changelog=changelog)
