"""Legacy group windows (GROUP BY TUMBLE/HOP/SESSION) in the one plan: moving over from the legacy query planner (planner/query.py)."""

from ..errors import UnsupportedError


def bind_group_window(select_binder, node, scope, group, items):
    raise UnsupportedError("Legacy group windows (GROUP BY TUMBLE/HOP/SESSION) are not in the one plan yet (DYNSQL_PLANNER=legacy runs them)",
                           *select_binder.ctx.pos(group))
