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
from .rules import EngineFacts, plan_physical  # noqa: F401
