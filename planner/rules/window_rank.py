"""Window Top-N and window deduplication: a ranking function partitioned by window_start and window_end of rows
carrying windows (a window function, a window aggregate, ...; through Calcs), filtered by its rank, becomes a
`WindowRank`, or a `WindowDeduplicate` when it keeps one row ordered by the rowtime (Flink 2.3's rules:
only ROW_NUMBER). Called by the Top-N rule (topn.py) when it finds the rank's bound."""

from ..errors import SqlError
from ..plan.fields import ROWTIME
from ..plan.window import WindowDeduplicate, WindowRank, window_of


def rewrite(over, function, rank_name, bound):
    """`over`: an Over or a Rank without a bound; -> the window operator (with its rank field), or None."""
    if bound is None:
        return None
    inp = over.input
    w = window_of(inp)
    if w is None or w.start not in over.partition or w.end not in over.partition:
        return None
    if function != "ROW_NUMBER":
        raise SqlError("%s() function is not supported on Window TopN currently, only ROW_NUMBER() is supported."
                       % function, *over.position)
    keys = [p for p in over.partition if p not in (w.start, w.end)]
    order = over.order
    if bound == 1 and len(order) == 1 and inp.field(order[0][0]).time == ROWTIME:
        from .topn import _with_rank_one
        dedup = WindowDeduplicate(inp, w, keys, order[0][0], keep_last=not order[0][1], position=over.position)
        return _with_rank_one(dedup, rank_name)
    return WindowRank(inp, w, keys, order, bound, rank_name, position=over.position)
