"""The typed MATCH_RECOGNIZE specification the parser builds and the runtime executes.

Plain dataclasses only: no parsing and no Spark here. Expressions (MEASURES, DEFINE) are sqlglot trees.
The pattern is a small tree of `PatternNode`s (variables, concatenation, alternation, quantified
sub-patterns, PERMUTE, anchors, exclusions)."""

from dataclasses import dataclass, field
from typing import Optional


# ---- pattern tree -------------------------------------------------------------------------------

@dataclass
class PatternNode:
    line: int = 0
    column: int = 0


@dataclass
class Var(PatternNode):
    name: str = ""


@dataclass
class Concat(PatternNode):
    items: list = field(default_factory=list)


@dataclass
class Alternation(PatternNode):
    options: list = field(default_factory=list)


@dataclass
class Group(PatternNode):
    """`( ... )` written in the pattern (kept so Flink mode can refuse group patterns)."""
    body: Optional[PatternNode] = None


@dataclass
class Quantified(PatternNode):
    body: Optional[PatternNode] = None
    min: int = 0
    max: Optional[int] = None       # None = unbounded
    greedy: bool = True
    text: str = ""                  # as written: '*', '+?', '{2,3}', '{,2}', ...


@dataclass
class Permute(PatternNode):
    items: list = field(default_factory=list)


@dataclass
class Anchor(PatternNode):
    kind: str = "^"                 # '^' partition start, '$' partition end


@dataclass
class Exclusion(PatternNode):
    body: Optional[PatternNode] = None


@dataclass
class Empty(PatternNode):
    """`()`: the empty pattern."""


# ---- clauses -----------------------------------------------------------------------------------

@dataclass
class OrderKey:
    column: str
    ascending: bool = True
    line: int = 0
    column_pos: int = 0


@dataclass
class Measure:
    name: str
    expr: object                    # sqlglot Expression
    text: str
    semantics: Optional[str] = None  # 'RUNNING' / 'FINAL' written before the whole expression, else None
    line: int = 0
    column: int = 0


@dataclass
class Definition:
    variable: str
    expr: object                    # sqlglot Expression (a boolean condition)
    text: str
    line: int = 0
    column: int = 0
    text_line: int = 0              # where `text` starts in the statement
    text_column: int = 0


@dataclass
class Subset:
    name: str
    variables: list                 # the pattern variables whose rows the subset reads (validate() resolves it)
    line: int = 0
    column: int = 0
    written: list = field(default_factory=list)     # [(name, line, column)]: the names between the parentheses


@dataclass
class SkipTo:
    kind: str = "NEXT_ROW"          # PAST_LAST_ROW | NEXT_ROW | TO_FIRST | TO_LAST
    variable: Optional[str] = None
    explicit: bool = False          # written in the query (Flink's default is TO NEXT ROW)
    line: int = 0
    column: int = 0


@dataclass
class MatchRecognizeSpec:
    partition_by: list = field(default_factory=list)   # column names
    order_by: list = field(default_factory=list)       # [OrderKey]
    measures: list = field(default_factory=list)       # [Measure]
    rows_per_match: str = "ONE"                         # ONE | ALL
    empty_matches: str = "SHOW"                         # SHOW | OMIT | UNMATCHED (ALL ROWS only)
    after_match: SkipTo = field(default_factory=SkipTo)
    pattern: Optional[PatternNode] = None
    pattern_text: str = ""
    within_ms: Optional[int] = None
    within_text: str = ""
    subsets: list = field(default_factory=list)        # [Subset]
    definitions: list = field(default_factory=list)    # [Definition]
    line: int = 1
    column: int = 1
    # filled by validate():
    semantics: str = "flink"                            # flink | standard: how the matcher chooses matches
    rowtime: Optional[str] = None                       # the event-time attribute ORDER BY starts with
    proctime: Optional[str] = None                      # the processing-time attribute ORDER BY starts with
    input_columns: list = field(default_factory=list)   # [(name, flink type text)] validated against
    output_columns: list = field(default_factory=list)  # [(name, flink type text)] of the result (types.py)

    def ordered_by_rowtime(self):
        """ORDER BY starts with the event-time attribute: the rows are matched in event-time order."""
        return self.rowtime is not None and self.order_by[0].column == self.rowtime

    def variables(self):
        """Pattern variables in order of first appearance in PATTERN."""
        out = []
        _collect_vars(self.pattern, out)
        return out

    def definition(self, variable):
        for d in self.definitions:
            if d.variable == variable:
                return d
        return None

    def subset(self, name):
        for s in self.subsets:
            if s.name == name:
                return s
        return None


def _collect_vars(node, out):
    if node is None:
        return
    if isinstance(node, Var):
        if node.name not in out:
            out.append(node.name)
    elif isinstance(node, (Concat, Permute)):
        for i in node.items:
            _collect_vars(i, out)
    elif isinstance(node, Alternation):
        for i in node.options:
            _collect_vars(i, out)
    elif isinstance(node, (Group, Quantified, Exclusion)):
        _collect_vars(node.body, out)


def pattern_to_text(node):
    """Canonical text of a pattern tree (for messages and EXPLAIN)."""
    if node is None or isinstance(node, Empty):
        return "()"
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Concat):
        return " ".join(pattern_to_text(i) for i in node.items)
    if isinstance(node, Alternation):
        return " | ".join(pattern_to_text(i) for i in node.options)
    if isinstance(node, Group):
        return "(%s)" % pattern_to_text(node.body)
    if isinstance(node, Quantified):
        return pattern_to_text(node.body) + node.text
    if isinstance(node, Permute):
        return "PERMUTE(%s)" % ", ".join(pattern_to_text(i) for i in node.items)
    if isinstance(node, Anchor):
        return node.kind
    if isinstance(node, Exclusion):
        return "{- %s -}" % pattern_to_text(node.body)
    return "?"
