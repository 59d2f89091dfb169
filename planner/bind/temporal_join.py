"""Temporal joins (FOR SYSTEM_TIME AS OF) in the one plan: moving over from the legacy query planner (planner/query.py)."""

from ..errors import UnsupportedError


def bind_temporal_join(binder, left, lscope, join):
    raise UnsupportedError("Temporal joins (FOR SYSTEM_TIME AS OF) are not in the one plan yet (DYNSQL_PLANNER=legacy runs them)",
                           *binder.ctx.pos(join))
