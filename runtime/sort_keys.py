"""Sort-key helpers shared by operators that order rows in Python (ranking, MATCH_RECOGNIZE)."""


class Descending:
    """Wraps a value so that sorting ascending orders it descending (for mixed-direction ORDER BY keys)."""
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        return other.v < self.v

    def __eq__(self, other):
        return self.v == other.v
