"""Window join: a join of two inputs carrying windows (window functions, window aggregates, ...; through Calcs)
whose condition equates both sides' window_start and window_end becomes a `WindowJoin`, which keeps the time
attributes (Flink's WindowJoin). When the two sides' windows differ, or only one bound is equated, it stays a
regular join, as Flink plans it. The binder calls `rewrite` once the ON condition is bound (the output's time
attributes matter to the query around the join)."""

from ..errors import UnsupportedError
from ..plan.fields import ROWTIME
from ..plan.join import Join
from ..plan.window import WindowJoin, window_of


def rewrite(join):
    if type(join) is not Join:
        return join
    lw, rw = window_of(join.left), window_of(join.right)
    if lw is None or rw is None:
        return join
    pairs = list(zip(join.left_keys, join.right_keys))
    if (lw.start, rw.start) not in pairs or (lw.end, rw.end) not in pairs:
        return join
    if not lw.spec.same_windows(rw.spec):
        return join
    check_windows(join, lw, rw)
    keys = [(a, b) for a, b in pairs if (a, b) not in ((lw.start, rw.start), (lw.end, rw.end))]
    return WindowJoin(join.left, join.right, join.kind, lw, rw, [a for a, _ in keys], [b for _, b in keys],
                      join.condition, position=join.position)


def check_windows(join, lw, rw):
    """A window join (or semi / anti join) runs on event-time windows other than SESSION, as in Flink."""
    if lw.time_kind != ROWTIME or rw.time_kind != ROWTIME:
        raise UnsupportedError("Processing time Window Join is not supported yet.", *join.position)
    if lw.spec.kind == "SESSION":
        raise UnsupportedError("A window join over SESSION windows is not supported yet", *join.position)
