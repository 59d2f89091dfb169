"""Flink calls nested in the arguments of a mapped call: `to_spark` rewrites a tree top-down and does not
visit the tree a rewrite returns, so `SPLIT_INDEX(SHA256(s), ',', 0)` kept Flink's SHA256 inside Spark's
SPLIT. `mapped_with_arguments` tags the call's arguments, rewrites the call, then rewrites each tagged
argument (wherever the rewrite put it, copies included) with the same rewrite, nested calls first-class."""

_TAG = "flink_argument"


def mapped_with_arguments(node, map_call, rewrite):
    """`map_call()`'s tree for `node`, its arguments rewritten by `rewrite` (a `to_spark` node rewrite)."""
    arguments = list(node.iter_expressions())
    for a in arguments:
        a.meta[_TAG] = True
    try:
        mapped = map_call()
    except Exception:
        _untag(arguments)
        raise
    if mapped is node:
        _untag(arguments)
        return node
    for sub in list(mapped.walk(prune=lambda n: n.meta.get(_TAG))):
        if sub.meta.pop(_TAG, None):
            done = sub.transform(rewrite, copy=False)
            if done is not sub:
                sub.replace(done)
    _untag(arguments)
    return mapped


def _untag(arguments):
    for a in arguments:
        a.meta.pop(_TAG, None)
