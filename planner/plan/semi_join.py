"""SemiJoin: a left semi or anti join (Flink's Join with joinType LeftSemiJoin / LeftAntiJoin), what `IN`,
`EXISTS`, `NOT IN`, `NOT EXISTS` subqueries and INTERSECT / EXCEPT become. Its output is the left input's rows:
a semi join keeps a left row while some right row matches it, an anti join while none does.

A match is `left_keys[i] = right_keys[i]` for every key pair (an `IS NOT DISTINCT FROM` where `null_safe[i]`:
INTERSECT and EXCEPT compare NULLs as equal) and the remaining `condition`, an Expr over the joined row (the
left fields then the right ones, named as `joined_fields` names them). Time attributes become plain
timestamps, as in Flink's regular joins. Over insert-only inputs a semi join is insert-only; an anti join
retracts a left row (-D) when its first match arrives, and a semi join does so when its last match leaves."""

from .changelog import ALL_KINDS, InsertOnlyInOut
from .join import TwoInputs, joined_fields
from .window import window_join_detail

SEMI_JOIN_TYPES = {False: "LeftSemiJoin", True: "LeftAntiJoin"}


class SemiJoin(TwoInputs):
    name = "Join"

    def __init__(self, left, right, anti, left_keys, right_keys, condition=None, null_safe=None, position=None):
        super().__init__((left, right), position)
        self.anti = anti
        self.left_keys = list(left_keys)
        self.right_keys = list(right_keys)
        self.null_safe = list(null_safe) if null_safe is not None else [False] * len(self.left_keys)
        self.condition = condition                          # Expr over `joined_names`, or None
        self.joined = joined_fields(left, right, "INNER")   # the row the condition reads
        self.fields = [f.materialized() for f in left.fields]

    @property
    def joined_names(self):
        return [f.name for f in self.joined]

    def joined_name(self, side, name):
        """The name in the joined row of input `side`'s (0 left, 1 right) field `name`."""
        return self.side_by_side_name(self.joined, side, name)

    def provided_kinds(self, input_kinds):
        if self.anti:
            return ALL_KINDS
        return input_kinds[0] | input_kinds[1]

    def input_update_before(self, i, required):
        return True

    def where_text(self):
        cond = ["%s(%s, %s)" % ("IS NOT DISTINCT FROM" if safe else "=", self.joined_name(0, a),
                                self.joined_name(1, b))
                for a, b, safe in zip(self.left_keys, self.right_keys, self.null_safe)]
        if self.condition is not None:
            cond.append(self.condition.text or self.condition.sql)
        return cond[0] if len(cond) == 1 else "AND(%s)" % ", ".join(cond) if cond else "true"

    def explain_detail(self):
        return "joinType=[%s], where=[%s], select=[%s]" % (SEMI_JOIN_TYPES[self.anti], self.where_text(),
                                                            ", ".join(self.field_names))


class WindowSemiJoin(InsertOnlyInOut, SemiJoin):
    """A semi or anti join of two inputs carrying the same windows, on `L.window_start = R.window_start AND
    L.window_end = R.window_end` (Flink's WindowJoin with joinType LeftSemiJoin / LeftAntiJoin): each window's
    left rows are emitted once the window closes, those that some right row of the same window matches (semi)
    or none does (anti). Insert-only; the left's time attributes stay. `left_keys` / `right_keys` are the keys
    besides the window bounds."""
    name = "WindowJoin"
    requester = "WindowJoin"

    def __init__(self, left, right, anti, left_window, right_window, left_keys, right_keys, condition=None,
                 null_safe=None, position=None):
        super().__init__(left, right, anti, left_keys, right_keys, condition, null_safe, position)
        self.left_window, self.right_window = left_window, right_window
        self.fields = list(left.fields)

    @property
    def event_time(self):
        from .fields import ROWTIME
        return self.left_window.time_kind == ROWTIME

    def window_ref(self):
        return self.left_window

    def explain_detail(self):
        return window_join_detail(self, SEMI_JOIN_TYPES[self.anti])
