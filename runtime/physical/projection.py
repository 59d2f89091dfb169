"""Projection push-down, decided in the physical pass: the columns of a scan that the Calc right above it reads
(runtime/operators/scan.py asks the filesystem source for those only)."""

import re

from planner.plan.calc import Calc

_QUOTED = re.compile(r"`((?:[^`]|``)+)`")


def columns_read(scan, parent):
    """The scan's columns the query reads, when `parent` is a Calc (which then reads all it needs of the scan):
    the fields its expressions refer to, the rowtime, and the fields the computed columns among them refer to.
    None (read all) for other parents, a table other than a plain filesystem one (partitions, metadata
    columns, a changelog format), or when every column is read."""
    table = scan.table
    if not isinstance(parent, Calc) or scan.changelog_source or table.partition_keys or \
            table.options.get("connector") != "filesystem" or any(c.metadata is not None for c in table.columns):
        return None
    wanted = set()
    for e in [e for e, _ in parent.projections] + ([parent.condition] if parent.condition is not None else []):
        wanted.update(_referred(e))
    if table.watermark is not None:
        wanted.add(table.watermark.column)
    for name, e in scan.computed.items():
        if name in wanted:
            wanted.update(_referred(e))
    names = {c.name for c in table.columns}
    wanted &= names                  # (a backticked name that is no column is no field of the scan)
    return None if wanted == names else frozenset(wanted)


def _referred(e):
    """The input fields an Expr reads: its refs, and (to be safe) every backticked name in its Spark SQL."""
    names = set(e.refs or ())
    if e.field is not None:
        names.add(e.field)
    names.update(m.replace("``", "`") for m in _QUOTED.findall(e.sql or ""))
    return names
