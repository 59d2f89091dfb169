"""Rewriting a bound expression tree into Spark's form from its leaves up.

`rewrite_bottom_up(tree, rewrite, types, typeof)` calls `rewrite(node)` on every node of `tree`, each node's
arguments first, and puts what it returns in the node's place. A rewrite that replaces a call with another
(`TO_TIMESTAMP_LTZ(x, 6)` -> `TIMESTAMP_MICROS(x)`) thus gets arguments already in Spark's form: with
sqlglot's `transform` (parents first, the children of a replaced node never visited) an argument such as
`millis / 1000` kept Spark's `/` (a DOUBLE) where Flink divides integers, and the result differed silently.

`types` is `typeof`'s memo (`bind.expressions.typer`): every node is typed before its arguments change, and
a replacement takes the type of the node it replaces, so that a rewrite asking for an argument's Flink type
gets it whatever form the argument has taken."""

from sqlglot import exp

_NODE = getattr(exp, "Expr", exp.Expression)       # sqlglot 30: the base of every node


def rewrite_bottom_up(tree, rewrite, types, typeof):
    """`tree` (rewritten in place where `rewrite` changes a node in place) -> the rewritten tree."""
    order, stack = [], [(tree, False)]         # the nodes, each after its arguments
    while stack:
        node, children_done = stack.pop()
        if children_done:
            order.append(node)
        else:
            stack.append((node, True))
            stack.extend((c, False) for c in node.iter_expressions())
    for node in order:
        typeof(node)             # every type while the arguments are the bound ones; arguments first, so that
                                 # typing a long AND chain never recurses deeper than one node
    done = {}                                  # id(original node) -> (the node, kept alive; its replacement)
    for node in order:
        for key, value in list(node.args.items()):
            if isinstance(value, _NODE) and id(value) in done:
                new = done[id(value)][1]
                if new is not value:
                    node.set(key, new)
            elif isinstance(value, list) and any(isinstance(v, _NODE) and id(v) in done for v in value):
                node.set(key, [done[id(v)][1] if isinstance(v, _NODE) and id(v) in done else v
                               for v in value])
        new = rewrite(node)
        if new is not node and id(node) in types:
            types[id(new)] = (new, types[id(node)][1])
        done[id(node)] = (node, new)
    return done[id(tree)][1]
