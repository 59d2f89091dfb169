"""Changelog modes, as Flink infers them for every plan node: insert-only, upsert on a key, or retract.

A node produces a set of modify kinds ({I}, {I, U}, {I, U, D}, ...); whether its updates carry an update-before
(-U) row is decided from above (what its consumer needs). Printed in Flink's notation: `changelogMode=[I]`,
`[I,UA,D]` (upsert), `[I,UB,UA,D]` (retract)."""

from dataclasses import dataclass

INSERT, UPDATE, DELETE = "I", "U", "D"
INSERT_ONLY_KINDS = frozenset({INSERT})
ALL_KINDS = frozenset({INSERT, UPDATE, DELETE})


@dataclass(frozen=True)
class ChangelogMode:
    kinds: tuple          # subset of ("I", "UB", "UA", "D"), in that order
    key: tuple = ()       # upsert key columns, when the mode is an upsert mode

    @property
    def insert_only(self):
        return self.kinds == ("I",)

    @property
    def has_updates(self):
        return "UA" in self.kinds

    @property
    def has_deletes(self):
        return "D" in self.kinds

    def __str__(self):
        return "changelogMode=[%s]" % ",".join(self.kinds)


def mode_of(kinds, update_before):
    """Modify kinds {I, U, D} and whether updates carry -U -> a ChangelogMode."""
    out = []
    if INSERT in kinds:
        out.append("I")
    if UPDATE in kinds:
        if update_before:
            out.append("UB")
        out.append("UA")
    if DELETE in kinds:
        out.append("D")
    return ChangelogMode(tuple(out))


def describe_kinds(kinds):
    """{U, D} -> 'update and delete': the changes a node does not accept, named in Flink's order."""
    names = {INSERT: "insert", UPDATE: "update", DELETE: "delete"}
    return " and ".join(names[k] for k in (INSERT, UPDATE, DELETE) if k in kinds)


class InsertOnlyInOut:
    """A node (mixed in before PlanNode) that consumes inserts only and produces inserts only: the event-time
    operators whose rows wait for the watermark (MATCH_RECOGNIZE, interval joins). Refusals name it by its
    `requester`."""

    def accepted_kinds(self, i):
        return INSERT_ONLY_KINDS

    def provided_kinds(self, input_kinds):
        return INSERT_ONLY_KINDS

    def input_update_before(self, i, required):
        return False
