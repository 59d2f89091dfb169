"""Binding calls to Python aggregate functions (`udaf`: an AggregateFunction, or a pandas function of a group's
Series), and where Flink 2.3 runs them.

`mark_aggregates(tree, ctx)` tags each call naming one (`meta["python_aggregate"]`) before a SELECT block is bound,
so the binder takes it for an aggregate call as it takes COUNT or SUM (bind/expressions.py `is_aggregate_call`).
`aggregate_call(...)` makes its `AggCall`: the function's name, its arguments (checked against the declared input
types), its result type, and the PythonFunction in `options` (`python_function(call)` reads it back).

`check_placement(root, batch)` refuses, with Flink's words, what PyFlink does not run (measured on Flink 2.3):
  - batch mode: a general (non-pandas) aggregate function anywhere;
  - a pandas one beside a built-in aggregate (batch: Flink's refusal; streaming: Flink 2.3 fails on it);
  - streaming: a pandas one in a GROUP BY or a window TVF aggregate (Flink runs it in group windows and bounded
    OVER windows only), in a SESSION group window, or in an OVER window from UNBOUNDED PRECEDING; a general one in
    an OVER window, and a general one without merge() in a HOP or SESSION group window.
Flink merges accumulators in a streaming HOP group window (its panes', on every window) and SESSION group window
(the sessions a row joins) and fails with "Method merge is not implemented" when the class has none; dynsql refuses
such a call at once (for SESSION too, where Flink fails only once a row joins two sessions: its docs say merge()
"must be implemented" for session windows). dynsql itself folds each window's rows into one accumulator, which
gives what Flink's merge of partial accumulators gives; it does not call merge()."""

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..expr.functions.registry import FLINK_FUNCTIONS
from ..expr.types import parse_type
from . import in_catalog

NO_PLAN = "Cannot generate a valid execution plan for the given query: "


def mark_aggregates(select, ctx):
    """Tag the calls of `select`'s own block (not of the queries nested in it: each is marked when it is bound)."""
    if not _any_aggregate(ctx.catalog):
        return
    stack = list(select.iter_expressions())
    while stack:
        node = stack.pop()
        if isinstance(node, exp.Query):
            continue
        if isinstance(node, exp.Anonymous) and "python_aggregate" not in node.meta:
            fn = in_catalog.find(ctx.catalog, node.name)
            if fn is not None and fn.kind == "aggregate" and (fn.system or node.name.upper() not in FLINK_FUNCTIONS):
                node.meta["python_aggregate"] = fn
        stack.extend(node.iter_expressions())


def _any_aggregate(catalog):
    if any(f.kind == "aggregate" for f in catalog.system_functions.values()):
        return True
    return any(f.language == in_catalog.LANGUAGE and f.extras.get("python", {}).get("kind") == "aggregate"
               for f in catalog.functions().values())


def python_function(call):
    """The PythonFunction an AggCall / WindowCall runs, or None (a built-in aggregate)."""
    options = getattr(call, "options", ())
    if len(options) == 1 and type(options[0]).__name__ == "PythonFunction":
        return options[0]
    return None


def aggregate_call(ctx, fn, args, position):
    """-> (arguments, result FlinkType, options) of a call of Python aggregate function `fn`: the arguments as
    the binder resolved them (cast to the declared input types where Flink casts implicitly)."""
    from .calls import _checked_arguments
    if fn.func_type == "pandas" and not args:
        raise SqlError("Pandas aggregate function '%s' is called without arguments: it is called with the group's "
                       "values of its arguments" % fn.name, *position)
    args = _checked_arguments(fn, list(args), position)
    ctx.python_functions[fn.key] = fn
    return args, parse_type(fn.result_type), (fn,)


def _describe(fn):
    return "%s aggregate function '%s' (%s)" % ("pandas" if fn.func_type == "pandas" else "general Python",
                                                fn.name, fn.identifier)


def check_placement(root, batch):
    from ..plan.aggregate import GroupAggregate
    from ..plan.over import Over
    from ..plan.window import GroupWindowAggregate, WindowAggregate
    for node in root.walk():
        if isinstance(node, (GroupAggregate, WindowAggregate, GroupWindowAggregate)):
            calls = node.calls
        elif isinstance(node, Over):
            calls = node.calls
        else:
            continue
        python = [(c, python_function(c)) for c in calls if python_function(c) is not None]
        if not python:
            continue
        position = node.position or (None, None)
        general = [fn for _, fn in python if fn.func_type != "pandas"]
        pandas = [fn for _, fn in python if fn.func_type == "pandas"]
        if batch and general:
            raise UnsupportedError(NO_PLAN + "non-Pandas UDAFs are not supported in batch mode currently (the %s)"
                                   % _describe(general[0]), *position,
                                   hint="declare it udaf(..., func_type='pandas'), or run the query in streaming mode")
        if (batch or pandas) and len(python) < len(calls):    # (streaming: a pandas one fails in Flink 2.3)
            builtin = next(c for c in calls if python_function(c) is None)
            raise UnsupportedError(NO_PLAN + "Python UDAF and Java/Scala UDAF cannot be used together (%s beside %s)"
                                   % (python[0][1].name, builtin.function), *position)
        if isinstance(node, Over):
            if general:
                raise UnsupportedError(NO_PLAN + "the %s cannot run in an OVER window: Flink runs pandas aggregate "
                                       "functions there" % _describe(general[0]), *position)
            if node.frame.lower is None and not batch:
                raise UnsupportedError("Python UDAF is not supported to be used in UNBOUNDED PRECEDING OVER windows.",
                                       *position)
            continue
        if not batch and isinstance(node, GroupWindowAggregate) and node.spec.kind in ("HOP", "SESSION"):
            _check_window_merges(node, general, pandas, position)
        if not batch and pandas and not isinstance(node, GroupWindowAggregate):
            where = "a GROUP BY" if isinstance(node, GroupAggregate) else "a window TVF aggregate"
            raise UnsupportedError(NO_PLAN + "the %s cannot run in %s of a streaming query: Flink runs pandas "
                                   "aggregate functions in streaming group windows (GROUP BY TUMBLE(..)) and bounded "
                                   "OVER windows" % (_describe(pandas[0]), where), *position,
                                   hint="an AggregateFunction (udaf(MyAggregate())) runs there, or batch mode")


def _check_window_merges(node, general, pandas, position):
    """A streaming HOP or SESSION group window: Flink merges accumulators there (module doc)."""
    if node.spec.kind == "SESSION" and pandas:
        raise UnsupportedError(NO_PLAN + "Session Group Window is currently not supported for Pandas UDAF (the %s)"
                               % _describe(pandas[0]), *position,
                               hint="an AggregateFunction with merge() runs there, or batch mode")
    from .definition import defines_merge
    missing = next((fn for fn in general if not defines_merge(fn)), None)
    if missing is not None:
        what = "the panes of a sliding window" if node.spec.kind == "HOP" else "the sessions a row joins"
        raise UnsupportedError(NO_PLAN + "the %s defines no merge(), which Flink calls in a %s group window (it merges "
                               "the accumulators of %s; PyFlink fails with 'Method merge is not implemented')"
                               % (_describe(missing), node.spec.kind, what), *position,
                               hint="define merge(self, accumulator, accumulators) in its AggregateFunction: fold "
                               "each of accumulators into accumulator")
