"""Window semi / anti join (`WindowSemiJoin`): the window join's keyed event-time operator (window_join.py: both
sides in one stream keyed by the window bounds and the other keys, held until the watermark passes the window's
end) emitting each left row of a closed window once, if some right row of the window matches it (semi) or none
does (anti). Rows of a window that had fired are dropped. In batch mode: Spark's left semi / anti join on the
window bounds and the keys."""

from pyspark.sql import types as st

from planner.plan.semi_join import WindowSemiJoin

from ..connect_shims import portable
from ..translate import Stream, conform, translates
from .row_condition import RowCondition
from .group_aggregate import sign_keys
from .keyed_state import python_grouped  # noqa: E402
from .semi_join import _batch
from .window_join import WindowJoinProcessor, _packed, _side

from pyspark.sql import functions as F


class WindowSemiJoinProcessor(WindowJoinProcessor):
    operator_name = "a window join"

    def __init__(self, anti, null_checked, condition=None):
        self.anti = anti
        self.null_checked = null_checked      # key positions compared with `=`: a NULL there matches nothing
        self.condition = condition            # RowCondition over the joined row, or None

    def on_time(self, key, rows, watermark_us, final):
        lefts = [(seq, _packed(v[1])) for _, seq, v in rows if v[0] == 0]
        rights = [_packed(v[2]) for _, seq, v in rows if v[0] == 1]
        if any(key[i] is None for i in self.null_checked):
            rights = []
        cond = self.condition
        out = []
        for seq, left in lefts:
            matched = any(cond(left + r) for r in rights) if cond is not None else bool(rights)
            if matched != self.anti:
                out.append(left + (seq,))
        return out


@translates(WindowSemiJoin)
def translate_window_semi_join(node, inputs, ctx):
    lw, rw = node.left_window, node.right_window
    if not ctx.streaming:
        return _batch(node, inputs[0], inputs[1], [lw.start, lw.end] + node.left_keys,
                      [rw.start, rw.end] + node.right_keys, [False, False] + node.null_safe)
    condition = RowCondition(node.condition, node.joined_names).check(node.position) \
        if node.condition is not None else None
    schemas = [[next(f for f in s.df.schema.fields if f.name == name) for name in n.field_names]
               for s, n in zip(inputs, node.inputs)]
    left_types = {f.name: f.dataType for f in schemas[0]}
    key_types = [left_types[k] for k in [lw.start, lw.end] + node.left_keys]
    key_names = ["__k%d" % i for i in range(len(key_types))]
    union = _side(node, inputs[0], 0, key_names, key_types, schemas).unionByName(
        _side(node, inputs[1], 1, key_names, key_types, schemas))
    null_checked = [2 + i for i, safe in enumerate(node.null_safe) if not safe]
    processor = WindowSemiJoinProcessor(node.anti, null_checked, condition)
    fields = [st.StructField(f.name, src.dataType, True) for f, src in zip(node.fields, schemas[0])]
    fields.append(st.StructField("__seq", st.LongType(), True))
    processor.output_names = tuple(f.name for f in fields)
    signs = [n for _, n in sign_keys(key_types, "__ks")]     # (-0.0 apart from 0.0, as Flink keys them)
    grouped = python_grouped(union, key_names, *signs)
    out = grouped.transformWithState(portable(processor), st.StructType(fields), "Append",
                                                       "EventTime", eventTimeColumnName=lw.time or "")
    out = out.withColumn("__wm", F.lit(None).cast("timestamp"))
    return Stream(conform(out, node.fields))
