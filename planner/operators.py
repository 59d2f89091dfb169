"""The operator tree of a query that produces or consumes updates (dynamic tables).

Every node names its output columns and carries the changelog mode Flink infers for it. Expressions
are Spark SQL text over the node's input columns; stateless nodes (`Calc`) evaluate them row by row on
a changelog (a retraction carries the whole old row, so a filter or projection of it stays correct);
stateful nodes (`GroupAggregate`, `Join`, `Rank`) keep state and emit their own changelog."""

from dataclasses import dataclass, field

from . import changelog


@dataclass
class Node:
    columns: list            # output column names, in order
    mode: changelog.ChangelogMode

    @property
    def inputs(self):
        return []


@dataclass
class Source(Node):
    ref: object = None       # planner.query.SourceRef
    changelog_source: bool = False

    def describe(self):
        t = self.ref.table
        return "TableSourceScan", "table=[[default_catalog, default_database, %s]], fields=[%s]" % (
            t.name, ", ".join(self.columns))


@dataclass
class Calc(Node):
    input: Node = None
    projections: list = field(default_factory=list)   # [(spark sql, name)]
    condition: str = None                             # WHERE / HAVING as Spark SQL, or None

    @property
    def inputs(self):
        return [self.input]

    def describe(self):
        text = "select=[%s]" % ", ".join(n if s == _q(n) else "%s AS %s" % (s, n) for s, n in self.projections)
        if self.condition:
            text += ", where=[%s]" % self.condition
        return "Calc", text


@dataclass
class Aggregate:
    function: str            # COUNT, SUM, AVG, MIN, MAX, COUNT_STAR
    argument: str            # input column name holding the argument, or None for COUNT(*)
    distinct: bool
    name: str
    integral: bool = False   # AVG over an integral type stays integral (Flink)
    result_type: str = ""


@dataclass
class GroupAggregate(Node):
    input: Node = None
    keys: list = field(default_factory=list)          # input column names
    aggregates: list = field(default_factory=list)    # [Aggregate]

    @property
    def inputs(self):
        return [self.input]

    def describe(self):
        aggs = ", ".join("%s(%s%s) AS %s" % (a.function.replace("_STAR", ""), "DISTINCT " if a.distinct else "",
                                              a.argument or "*", a.name) for a in self.aggregates)
        return "GroupAggregate", "groupBy=[%s], select=[%s%s]" % (
            ", ".join(self.keys), ", ".join(self.keys) + (", " if self.keys and aggs else ""), aggs)


@dataclass
class Join(Node):
    left: Node = None
    right: Node = None
    kind: str = "INNER"       # INNER, LEFT, RIGHT, FULL
    left_keys: list = field(default_factory=list)
    right_keys: list = field(default_factory=list)

    @property
    def inputs(self):
        return [self.left, self.right]

    def describe(self):
        cond = " AND ".join("=(%s, %s)" % (a, b) for a, b in zip(self.left_keys, self.right_keys))
        return "Join", "joinType=[%sJoin], where=[%s], select=[%s]" % (
            self.kind.title() if self.kind != "INNER" else "Inner", cond, ", ".join(self.columns))


@dataclass
class Rank(Node):
    """ROW_NUMBER / RANK / DENSE_RANK over a partition, with an optional limit (Top-N, deduplication)."""
    input: Node = None
    partition: list = field(default_factory=list)     # input column names
    order: list = field(default_factory=list)         # [(column, ascending)]
    function: str = "ROW_NUMBER"
    limit: int = None         # keep ranks <= limit (None: all)
    rank_column: str = None   # output name of the rank number, or None when the query drops it
    kind: str = "Rank"        # "Rank" or "Deduplicate"
    keep_last: bool = False

    @property
    def inputs(self):
        return [self.input]

    def describe(self):
        if self.kind == "Deduplicate":
            return "Deduplicate", "keep=[%s], key=[%s], order=[%s]" % (
                "LastRow" if self.keep_last else "FirstRow", ", ".join(self.partition),
                ", ".join("%s %s" % (c, "ASC" if a else "DESC") for c, a in self.order))
        return "Rank", "rankType=[%s], rankRange=[rankStart=1, rankEnd=%s], partitionBy=[%s], orderBy=[%s], select=[%s]" % (
            self.function, self.limit if self.limit is not None else "inf", ", ".join(self.partition),
            ", ".join("%s %s" % (c, "ASC" if a else "DESC") for c, a in self.order), ", ".join(self.columns))


def _q(name):
    return "`%s`" % name.replace("`", "``")


def render(node, indent=0):
    name, detail = node.describe()
    line = ("   " * (indent - 1) + "+- " if indent else "") + "%s(%s, %s)" % (name, detail, node.mode)
    out = [line]
    for child in node.inputs:
        out.extend(render(child, indent + 1))
    return out


def walk(node):
    yield node
    for child in node.inputs:
        yield from walk(child)
