"""A rewrite of a sqlglot tree that also reaches inside the calls it replaces: sqlglot's `transform` does not
visit a replaced node's subtree, so a Flink call nested in an argument of a rewritten call (`ELEMENT(ARRAY[
SPLIT_INDEX(..)])`, `TRUNCATE(a / b)`) would keep Flink's form. Used by `expressions.to_spark`."""

from sqlglot import exp


def kept_arguments_too(rewrite):
    """`rewrite`, then again inside the arguments a rewritten call kept or copied (sqlglot's transform does not
    visit a replaced node's subtree: without this, `ELEMENT(ARRAY[SPLIT_INDEX(..)])` would leave SPLIT_INDEX
    unmapped). The arguments are marked before the rewrite, so the Spark calls built around them are not
    visited again."""
    def deep(n):
        kids = list(n.iter_expressions())
        for c in kids:
            c.meta["__argument"] = True
        out = rewrite(n)
        if out is n:
            for c in kids:
                c.meta.pop("__argument", None)
            return out
        if out.meta.pop("__argument", False):
            return out.transform(deep, copy=False)

        done = {}      # id(argument) -> its rewrite (a rewrite may put one argument in two places)

        def visit(node):
            for key, value in list(node.args.items()):
                values = value if isinstance(value, list) else [value]
                new = []
                for v in values:
                    if isinstance(v, exp.Expression) and id(v) in done:
                        v = done[id(v)]
                    elif isinstance(v, exp.Expression) and v.meta.pop("__argument", False):
                        key_id = id(v)
                        v = done[key_id] = v.transform(deep, copy=False)
                    elif isinstance(v, exp.Expression):
                        visit(v)
                    new.append(v)
                if any(a is not b for a, b in zip(new, values)):
                    node.set(key, new if isinstance(value, list) else new[0])
        visit(out)
        return out
    return deep
