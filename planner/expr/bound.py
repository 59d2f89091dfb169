"""Bound expressions: what a node computes from its input row.

An `Expr` is an expression over the input row's fields: its bound sqlglot tree, its Flink type, the input
fields it reads, and its Spark SQL text (each field quoted with backticks) for the runtime, which evaluates
it with `F.expr`; `text` is how EXPLAIN shows it. The binder (planner/bind) produces them, Flink's function
semantics already mapped to Spark's. The Spark SQL text is written when it is first asked for (the runtime
translates a plan once; planning a long condition does not write it, nor a rule that takes it apart). An
`AggCall` is one aggregate function of an aggregating node."""

from dataclasses import dataclass, field as dataclass_field


def quote(name):
    return "`%s`" % name.replace("`", "``")


@dataclass(frozen=True, eq=False)
class Expr:
    spark: object = None              # Spark SQL over the input fields: its text, or its Spark sqlglot tree
                                      # (written out when `sql` is first read), or None: made from `tree` then
    type: object = None               # FlinkType, or None when the planner cannot tell
    explain: str = None               # as EXPLAIN shows it (None: written from `tree` when asked for)
    refs: tuple = ()                  # input field names it reads
    field: str = None                 # the input field name when the expression is just that field
    literal: object = None            # the Python value of a literal, when it is one (`field` is None then)
    is_literal: bool = False
    tree: object = dataclass_field(default=None, repr=False)   # the bound sqlglot tree (for rules)
    types: dict = dataclass_field(default=None, repr=False)    # id(node) -> (node, Flink type): `typer`'s memo

    @staticmethod
    def of_field(f):
        """A reference to input field `f` (a fields.Field)."""
        from sqlglot import exp
        tree = exp.Column(this=exp.to_identifier(f.name, quoted=True))
        tree.meta["field"] = f
        return Expr(spark=quote(f.name), type=f.type, explain=f.name, refs=(f.name,), field=f.name, tree=tree)

    @property
    def sql(self):
        """The Spark SQL text (written from the Spark tree, or from `tree`, the first time it is read)."""
        spark = self.spark
        if not isinstance(spark, str):
            from ..parse import deep_stack       # a deeply nested expression writes itself recursively
            spark = deep_stack(_written, spark, self.tree)
            object.__setattr__(self, "spark", spark)
        return spark

    @property
    def text(self):
        if self.explain is not None:
            return self.explain
        if self.tree is not None:
            from .translate import explain_text
            return explain_text(self.tree)
        return self.sql

    def _key(self):
        return self.sql, self.type, self.explain, self.refs, self.field, self.literal, self.is_literal

    def __eq__(self, other):
        return isinstance(other, Expr) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        return self.text


def _written(spark, tree):
    if spark is None:
        from .translate import to_spark
        spark = to_spark(tree)
    return spark.sql(dialect="spark", copy=False)     # the Spark tree is this Expr's own


@dataclass(frozen=True)
class AggCall:
    """An aggregate call over input fields: `function(DISTINCT? args) FILTER (WHERE filter)`."""
    function: str                     # COUNT, SUM, AVG, MIN, MAX, ... (COUNT(*) has no args)
    args: tuple = ()                  # input field names
    distinct: bool = False
    filter: str = None                # input field name of a BOOLEAN filter, or None
    name: str = ""                    # output field name
    type: object = None               # FlinkType of the result
    options: tuple = dataclass_field(default_factory=tuple)   # function-specific (e.g. LISTAGG's separator)

    def text(self):
        inner = ", ".join(self.args) if self.args else "*"
        s = "%s(%s%s)" % (self.function, "DISTINCT " if self.distinct else "", inner)
        if self.filter:
            s += " FILTER (WHERE %s)" % self.filter
        return s
