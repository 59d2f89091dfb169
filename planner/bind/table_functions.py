"""Table functions (window TVFs) in the one plan: moving over from the legacy query planner (planner/query.py)."""

from ..errors import UnsupportedError


def bind_table_function(binder, rel):
    raise UnsupportedError("Table functions (window TVFs) are not in the one plan yet (DYNSQL_PLANNER=legacy runs them)",
                           *binder.ctx.pos(rel))
