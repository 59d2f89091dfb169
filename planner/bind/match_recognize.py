"""MATCH_RECOGNIZE in the one plan: moving over from the legacy query planner (planner/query.py)."""

from ..errors import UnsupportedError


def bind_match_recognize(binder, node, scope, clause, rel):
    raise UnsupportedError("MATCH_RECOGNIZE are not in the one plan yet (DYNSQL_PLANNER=legacy runs them)",
                           *binder.ctx.pos(rel))
