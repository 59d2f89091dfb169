"""A join condition evaluated in Python while an operator pairs rows (an interval join's condition beyond its
keys and time bounds; an outer join whose ON condition has more than equalities), where Spark cannot
evaluate it: whether the pair is joined decides which rows are padded with NULLs.

`RowCondition(expr, columns)` takes the bound condition (planner.plan.expr.Expr over the joined row's fields)
and compiles its tree with MATCH_RECOGNIZE's expression compiler (runtime/match_recognize/compiler.py:
Flink's semantics of operators and functions, three-valued logic); a pair is joined when the condition is
TRUE. `check()` compiles it on the driver and raises UnsupportedError for what the compiler cannot evaluate;
the compiled function itself is rebuilt on the executors (it is not picklable)."""

from planner.errors import UnsupportedError


class RowCondition:
    def __init__(self, expr, columns):
        self.text = expr.text or expr.sql
        self.tree = _plain(expr.tree)
        self.columns = list(columns)
        self._f = None

    def check(self, position=(None, None)):
        try:
            self._compile()
        except Exception:
            raise UnsupportedError("The join condition %s cannot be evaluated while rows are paired (streaming "
                                   "outer and interval joins) yet" % self.text, *position,
                                   hint="keep comparisons, arithmetic and simple functions in the ON condition, "
                                        "or filter the joined rows in WHERE")
        return self

    def _compile(self):
        from runtime.match_recognize.compiler import ExpressionCompiler
        f = ExpressionCompiler([], {}, self.columns, None).compile_row(self.tree, "join_condition")
        self._f = f
        return f

    def __call__(self, row):
        """`row`: the joined row's values in `columns` order -> whether the pair is joined."""
        f = self._f or self._compile()
        return f(0, [(v,) for v in row]) is True

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_f"] = None
        return state


def _plain(tree):
    """The tree with its columns as plain quoted names (no planner objects in their meta)."""
    from sqlglot import exp     # here, not at the top: an executor's worker that unpickles a processor with no
    #                             condition imports no sqlglot

    def strip(n):
        if isinstance(n, exp.Column) and "field" in n.meta:
            return exp.Column(this=exp.to_identifier(n.meta["field"].name, quoted=True))
        return n
    return tree.transform(strip, copy=True)
