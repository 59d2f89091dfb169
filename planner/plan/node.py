"""The base of every plan node: inputs, output fields, and what the node requires of its inputs' changes
and provides to its consumer (Flink's FlinkChangelogModeInferenceProgram, one method per question).

A subclass sets `self.fields` (and anything it needs) in its constructor, from its inputs' fields: a
node's output row type is known as soon as the node exists. `planner.infer` then walks the finished tree
once to decide every node's changelog mode (bottom-up: which changes it produces, refusing an input whose
changes it cannot consume; top-down: whether its updates carry -U rows) and its upsert key."""

from .changelog import ALL_KINDS, INSERT_ONLY_KINDS, mode_of


class PlanNode:
    #: how EXPLAIN names the node (Flink's name where the node is Flink's)
    name = None
    #: how a refusal names the node when it is the one refusing (Flink: "Match Recognize", ...)
    requester = None

    def __init__(self, inputs=(), position=None):
        self.inputs = list(inputs)
        self.position = position if position is not None else (None, None)   # (line, column) in the SQL
        self.fields = []
        # set by planner.infer
        self.kinds = None             # frozenset of modify kinds: {"I"}, {"I", "U"}, {"I", "U", "D"}, ...
        self.update_before = False    # updates carry -U rows
        self.upsert_key = None        # tuple of field names, or None

    @property
    def input(self):
        """The first input (the only one, for a node that has one)."""
        return self.inputs[0]

    # ------------------------------------------------------------------ the output row
    @property
    def field_names(self):
        return [f.name for f in self.fields]

    def field(self, name):
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    # ------------------------------------------------------------------ changelog inference (planner.infer)
    def accepted_kinds(self, i):
        """The changes this node can consume from input `i` (Flink: ModifyKindSetTrait required)."""
        return ALL_KINDS

    def provided_kinds(self, input_kinds):
        """The changes this node produces, given its inputs' (default: what its inputs produce)."""
        out = frozenset()
        for k in input_kinds:
            out |= k
        return out or INSERT_ONLY_KINDS

    def input_update_before(self, i, required):
        """Whether input `i` must send -U rows, given whether this node's consumer needs them from it.
        Default: forward the consumer's need (a projection, a filter)."""
        return required

    def derive_upsert_key(self):
        """The upsert key of the output, or None (default: none)."""
        return None

    # ------------------------------------------------------------------ after inference
    @property
    def mode(self):
        return mode_of(self.kinds or INSERT_ONLY_KINDS, self.update_before)

    @property
    def insert_only(self):
        return self.kinds is None or self.kinds == INSERT_ONLY_KINDS

    # ------------------------------------------------------------------ EXPLAIN
    def explain_name(self):
        return self.name or type(self).__name__

    def explain_detail(self):
        """Flink-style detail inside the parentheses, e.g. `groupBy=[k], select=[k, COUNT(*) AS c]`."""
        return ""

    def describe(self):
        """`Name(detail)`: how a refusal names the node that produces changes (Flink's detailed description)."""
        return "%s(%s)" % (self.explain_name(), self.explain_detail())

    def walk(self):
        """This node and every node below it, parents first."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.inputs))

    def __repr__(self):
        return self.describe()


def post_order(root):
    """Every node of the tree under `root`, each after its inputs (left to right), without recursion."""
    order, stack = [], [(root, False)]
    while stack:
        n, done = stack.pop()
        if done:
            order.append(n)
            continue
        stack.append((n, True))
        for child in reversed(n.inputs):
            stack.append((child, False))
    return order


def select_list(fields):
    return "select=[%s]" % ", ".join(f.name for f in fields)
