"""The `changelog` result mode: every change as it arrives, with its `op` column (+I, -U, +U, -D),
scrolling full screen; the view follows the newest change until the user scrolls up (End follows
again). It keeps the last `max_changes` changes in memory and counts the ones it let go."""

from collections import deque

from .screen import StreamScreen


class ChangelogView(StreamScreen):
    view_name = "changelog view"
    shows_op = True

    def __init__(self, stream, max_column_width=30, time_zone="UTC", max_changes=100000):
        super().__init__(stream, max_column_width, time_zone)
        self.changes = deque(maxlen=max_changes)
        self.dropped = 0

    def apply(self, op, row):
        if len(self.changes) == self.changes.maxlen:
            self.dropped += 1
        self.changes.append((op, tuple(row)))

    def row_count(self):
        return len(self.changes)

    def visible_rows(self, start, stop):
        stop = min(stop, len(self.changes))
        return [self.changes[i] for i in range(start, stop)]

    def status_extra(self):
        if self.dropped:
            return "oldest %d changes no longer shown" % self.dropped
        return ""
