"""EXPLAIN: the plan tree that runs, printed as Flink prints its physical plans (`:- ` for an input that
has a sibling after it, `+- ` for the last), with each node's changelog mode for EXPLAIN CHANGELOG_MODE."""


def render(root, with_modes=True):
    def line(node):
        detail = node.explain_detail()
        if with_modes:
            detail = (detail + ", " if detail else "") + str(node.mode)
        return "%s(%s)" % (node.explain_name(), detail)
    return render_tree(root, line)


def render_tree(root, line):
    """The tree under `root` (nodes with `inputs`), one line a node: `line(node)` after its branch marks."""
    lines = []
    stack = [(root, "", "")]
    while stack:
        node, prefix, child_prefix = stack.pop()
        lines.append(prefix + line(node))
        n = len(node.inputs)
        for i in reversed(range(n)):
            last = i == n - 1
            stack.append((node.inputs[i], child_prefix + ("+- " if last else ":- "),
                          child_prefix + ("   " if last else ":  ")))
    return lines
