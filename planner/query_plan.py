"""A query's plan: bind the statement, apply the rules, put the sink on top, infer the changelog modes.

`plan_query(catalog, settings, tree, ...)` -> `QueryPlan`: the tree EXPLAIN prints and the runtime runs."""

from dataclasses import dataclass

from .bind.binder import QueryBinder
from .bind.context import BindContext
from .explain import render
from .infer import infer
from .plan.sink import CollectSink, TableSink
from .rules import apply


@dataclass
class QueryPlan:
    root: object          # the sink node
    text: str = ""
    line: int = 1
    column: int = 1
    batch: bool = False
    python_functions: tuple = ()   # the Python functions it calls (PythonFunction): the runtime registers them

    @property
    def query(self):
        """The query's own top node (under the sink)."""
        return self.root.inputs[0]

    @property
    def fields(self):
        return self.query.fields

    @property
    def mode(self):
        return self.query.mode

    def explain(self, with_modes=True):
        return render(self.root, with_modes)


def plan_query(catalog, settings, tree, text="", line=1, column=1, sink_table=None):
    ctx = BindContext(catalog, settings, line, column, text)
    node, _ = QueryBinder(ctx).bind_query(tree)
    node = apply(node, ctx)
    if ctx.python_functions:
        from .python_functions.aggregate_calls import check_placement
        check_placement(node, ctx.batch)
    root = TableSink(node, sink_table, position=(line, column)) if sink_table is not None else \
        CollectSink(node, position=(line, column))
    infer(root)
    return QueryPlan(root, text, line, column, ctx.batch, tuple(ctx.python_functions.values()))
