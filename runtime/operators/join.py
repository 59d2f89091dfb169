"""Regular INNER / LEFT / RIGHT / FULL equi-joins over changelogs, keyed by the join key.

Both inputs arrive as one stream (`__side` 0 = left, 1 = right) so one keyed state holds the multisets
of both sides' rows. The key's joined result is recomputed after each batch and diffed: a left row padded
with NULLs is retracted (-D) when its first match arrives, and comes back when the last match leaves."""

from collections import Counter

from .keyed_state import KeyedChangelogProcessor, add, weight


class JoinState:
    __slots__ = ("left", "right")

    def __init__(self):
        self.left = Counter()
        self.right = Counter()


class JoinProcessor(KeyedChangelogProcessor):
    def __init__(self, kind, left_columns, right_columns, ttl_ms=0):
        self.kind = kind
        self.left_columns = left_columns      # names of the packed left columns in the input rows
        self.right_columns = right_columns
        self.ttl_ms = ttl_ms

    def empty(self):
        return JoinState()

    def is_empty(self, state):
        return not state.left and not state.right

    def apply(self, state, rows):
        for r in rows:
            w = weight(r["__op"])
            if r["__side"] == 0:
                add(state.left, tuple(r[c] for c in self.left_columns), w)
            else:
                add(state.right, tuple(r[c] for c in self.right_columns), w)
        return state

    def result(self, state):
        left = [row for row, c in state.left.items() for _ in range(max(c, 0))]
        right = [row for row, c in state.right.items() for _ in range(max(c, 0))]
        out = []
        if left and right:
            for a in left:
                for b in right:
                    out.append(a + b)
        null_right = (None,) * len(self.right_columns)
        null_left = (None,) * len(self.left_columns)
        if not right and self.kind in ("LEFT", "FULL"):
            out.extend(a + null_right for a in left)
        if not left and self.kind in ("RIGHT", "FULL"):
            out.extend(null_left + b for b in right)
        return out
