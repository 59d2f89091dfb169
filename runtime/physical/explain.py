"""The physical plan as EXPLAIN prints it (its `== Execution Plan ==` section): how the query runs and why, then
the tree, each node with its choice and the statistics or setting that chose it."""

from planner.explain import render_tree
from planner.plan.scan import TableScan

from . import nodes as P


def explain_physical(plan):
    head = "%s (%s)" % (plan.execution, "; ".join(plan.because)) if plan.because else plan.execution
    lines = [head]
    note = plan.status_note()
    if note:
        lines.append(note)
    return lines + render_tree(plan.root, _line)


def _line(p):
    n = p.logical
    name = n.explain_name()
    if isinstance(n, TableScan):
        name = "%s(%s)" % (name, n.table.name)
    if p.choice is None:
        return name
    text = "%s: %s" % (name, p.choice)
    if p.choice == P.WHOLE_FILE and p.file is not None:
        text += " of %s" % p.file[0].table.name
    because = list(p.because)
    if p.versions_of_view:
        because.append("versions: the versioned view's input rows, its Deduplicate in the join")
    if isinstance(n, TableScan) and p.scan_columns_read is not None:     # projection.py
        because.append("projection push-down: the scan of %s hands Spark %s of its columns" % (
            n.table.name, ", ".join(f for f in n.field_names if f in p.scan_columns_read)))
    return text + (" (%s)" % "; ".join(because) if because else "")
