"""Bound expressions: what a node computes from its input row.

An `Expr` is Spark SQL text over the input row's field names (each quoted with backticks), with the
expression's Flink type and the input fields it reads; `text` is how EXPLAIN shows it. The binder
(planner/bind) produces them, Flink's function semantics already mapped to Spark's; the runtime evaluates
them with `F.expr`. An `AggCall` is one aggregate function of an aggregating node."""

from dataclasses import dataclass, field as dataclass_field


def quote(name):
    return "`%s`" % name.replace("`", "``")


@dataclass(frozen=True)
class Expr:
    sql: str                          # Spark SQL over the input fields
    type: object = None               # FlinkType, or None when the planner cannot tell
    explain: str = None               # as EXPLAIN shows it (None: written from `tree` when asked for)
    refs: tuple = ()                  # input field names it reads
    field: str = None                 # the input field name when the expression is just that field
    literal: object = None            # the Python value of a literal, when it is one (`field` is None then)
    is_literal: bool = False
    tree: object = dataclass_field(default=None, compare=False, repr=False)   # the bound sqlglot tree (for rules)

    @staticmethod
    def of_field(f):
        """A reference to input field `f` (a fields.Field)."""
        from sqlglot import exp
        tree = exp.Column(this=exp.to_identifier(f.name, quoted=True))
        tree.meta["field"] = f
        return Expr(sql=quote(f.name), type=f.type, explain=f.name, refs=(f.name,), field=f.name, tree=tree)

    @property
    def text(self):
        if self.explain is not None:
            return self.explain
        if self.tree is not None:
            from planner.bind.expressions import explain_text
            return explain_text(self.tree)
        return self.sql

    def __str__(self):
        return self.text


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
