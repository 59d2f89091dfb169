"""Changelog modes, as Flink infers them for every plan node: insert-only, upsert on a key, or retract.

Printed in Flink's notation: `changelogMode=[I]`, `[I,UA,D]` (upsert), `[I,UB,UA,D]` (retract)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class ChangelogMode:
    kinds: tuple          # subset of ("I", "UB", "UA", "D"), in that order
    key: tuple = ()       # upsert key columns, when the mode is an upsert mode

    @property
    def insert_only(self):
        return self.kinds == ("I",)

    def __str__(self):
        return "changelogMode=[%s]" % ",".join(self.kinds)


INSERT_ONLY = ChangelogMode(("I",))
RETRACT = ChangelogMode(("I", "UB", "UA", "D"))
UPDATE_NO_DELETE = ChangelogMode(("I", "UB", "UA"))


def upsert(key):
    return ChangelogMode(("I", "UA", "D"), tuple(key))


def union(*modes):
    order = ("I", "UB", "UA", "D")
    kinds = set()
    for m in modes:
        kinds |= set(m.kinds)
    return ChangelogMode(tuple(k for k in order if k in kinds))
