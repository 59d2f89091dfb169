"""The physical plan: after the logical plan (planner: bind, rules, changelog inference), one pass turns each
logical node into a physical node, an execution choice (Flink's StreamPhysical* nodes, DataFusion's
JoinSelection), chosen by the rules of rules.py from one statistics function over the scans (statistics.py).

  statistics.py   scan_statistics(scan): size, files, boundedness, pacing, first micro-batch whole
  nodes.py        PhysicalNode / PhysicalPlan and the names of the choices
  rules.py        plan_physical(query, batch, settings, facts): the one place every choice is made
  explain.py      the physical tree as EXPLAIN prints it, with the statistics behind each choice

The translators (runtime/translate.py) read their node's choice (`ctx.chosen(node)`); none looks at a parent
node or decides a size limit of its own."""

from .nodes import PhysicalNode, PhysicalPlan  # noqa: F401


def __getattr__(name):
    """rules.py's names, imported when first asked for: the operators read nodes.py's names (in the Python workers
    that unpickle them too), and rules.py imports most of the planner's plan modules (with MATCH_RECOGNIZE's
    parser and sqlglot), 70 ms of every such worker's start."""
    if name in ("EngineFacts", "plan_physical"):
        from . import rules
        return getattr(rules, name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
