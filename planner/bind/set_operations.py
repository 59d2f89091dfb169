"""INTERSECT and EXCEPT, rewritten as Flink's planner rewrites them:

- `INTERSECT` / `EXCEPT` (distinct): a semi / anti join of the two inputs on every column, NULLs equal to each
  other (`IS NOT DISTINCT FROM`), under a GroupAggregate on every column (ReplaceIntersectWithSemiJoinRule,
  ReplaceMinusWithAntiJoinRule);
- `INTERSECT ALL`: both inputs marked by side and unioned, counted per row on each side (`COUNT`), the rows
  present on both sides kept `LEAST(left count, right count)` times (RewriteIntersectAllRule);
- `EXCEPT ALL`: the left rows counted +1, the right ones -1, the rows with a positive sum kept that many
  times (RewriteMinusAllRule).
The right input's columns are cast to the types both inputs' columns widen to, as for UNION."""

from sqlglot import exp

from ..errors import SqlError
from ..plan.aggregate import GroupAggregate
from ..plan.calc import Calc
from ..expr.bound import AggCall, Expr
from ..plan.replicate_rows import ReplicateRows
from ..plan.semi_join import SemiJoin
from ..plan.union import Union
from ..expr import inference as typing
from ..expr.translate import cast_to, finish
from .expressions import field_ref


def bind_set_operation(qb, tree):
    """`qb` (a QueryBinder), `tree` an exp.Intersect or exp.Except -> the plan node."""
    ctx = qb.ctx
    word = "INTERSECT" if isinstance(tree, exp.Intersect) else "EXCEPT"
    left, _ = qb.bind_query(tree.this)
    right, _ = qb.bind_query(tree.expression)
    if len(left.fields) != len(right.fields):
        raise SqlError("Column count mismatch in %s: %d and %d columns" % (word, len(left.fields), len(right.fields)),
                       *ctx.pos(tree.expression))
    types = []
    for i, (a, b) in enumerate(zip(left.fields, right.fields)):
        t = typing.least_restrictive([a.type, b.type])
        if t is None and a.type is not None and b.type is not None and \
                len({a.type.name, b.type.name} - {"NULL"}) > 1:
            raise SqlError("Type mismatch in %s: column %d is %s in one input and %s in the other"
                           % (word, i + 1, a.type.text(), b.type.text()), *ctx.pos(tree))
        types.append(t)
    left, right = qb._cast_to(left, types), qb._cast_to(right, types)
    position = ctx.pos(tree)
    distinct = tree.args.get("distinct") is not False
    if distinct:
        keys = left.field_names
        semi = SemiJoin(left, right, word == "EXCEPT", keys, right.field_names, null_safe=[True] * len(keys),
                        position=position)
        return GroupAggregate(semi, semi.field_names, [], position=position)
    return _all(ctx, left, right, word, position)


def _literal(tree, type_text):
    return finish(cast_to(tree, typing.t(type_text, True)))


def _marked(node, marks):
    """`node`'s fields then the marker columns [(Expr, name)]."""
    return Calc(node, [(Expr.of_field(f), f.name) for f in node.fields] + marks)


def _all(ctx, left, right, word, position):
    names = left.field_names
    if word == "INTERSECT":
        vl, vr = ctx.fresh("$vl"), ctx.fresh("$vr")
        true, null = _literal(exp.true(), "BOOLEAN"), _literal(exp.Null(), "BOOLEAN")
        union = Union([_marked(left, [(true, vl), (null, vr)]), _marked(right, [(null, vl), (true, vr)])],
                      position=position)
        cl, cr = ctx.fresh("$cl"), ctx.fresh("$cr")
        count = typing.t("BIGINT", False)
        agg = GroupAggregate(union, names, [AggCall("COUNT", (vl,), name=cl, type=count),
                                            AggCall("COUNT", (vr,), name=cr, type=count)], position=position)
        a, b = field_ref(agg.field(cl)), field_ref(agg.field(cr))
        times = finish(exp.If(this=exp.GT(this=a.copy(), expression=b.copy()), true=b.copy(), false=a.copy()))
        keep = finish(exp.And(this=exp.GTE(this=a.copy(), expression=exp.Literal.number(1)),
                              expression=exp.GTE(this=b.copy(), expression=exp.Literal.number(1))))
    else:
        v = ctx.fresh("$v")
        union = Union([_marked(left, [(_literal(exp.Literal.number(1), "BIGINT"), v)]),
                       _marked(right, [(_literal(exp.Literal.number(-1), "BIGINT"), v)])], position=position)
        total = ctx.fresh("$sum")
        agg = GroupAggregate(union, names, [AggCall("SUM", (v,), name=total, type=typing.t("BIGINT", True))],
                             position=position)
        s = field_ref(agg.field(total))
        times = finish(s.copy())
        keep = finish(exp.GT(this=s.copy(), expression=exp.Literal.number(0)))
    n = ctx.fresh("$n")
    calc = Calc(agg, [(times, n)] + [(Expr.of_field(agg.field(x)), x) for x in names], keep, position=position)
    return ReplicateRows(calc, position=position)
