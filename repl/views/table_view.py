"""The `table` result mode: the query's materialized result, updated in place as changes arrive.

`MaterializedTable` applies a changelog to a list of rows the way Flink's SQL client does: +I and
+U add a row, -U and -D remove one equal row; a +U right after a -U takes the removed row's place, so
an updated row stays where it was. `TableView` shows it full screen. Neither knows about Spark."""

from .screen import StreamScreen


class MaterializedTable:
    def __init__(self, max_rows=None):
        """max_rows: keep at most this many rows, dropping the oldest ('sql-client.execution.max-table-result.rows',
        as Flink's client does)."""
        self.max_rows = max_rows
        self.dropped_rows = 0
        self.rows = []
        self.unmatched_retractions = 0   # -U/-D for a row the table does not hold
        self._freed_slot = None          # where the last -U removed a row

    def apply(self, op, row):
        row = tuple(row)
        if op == "+I":
            self.rows.append(row)
            self._freed_slot = None
            self._keep_max()
        elif op == "+U":
            slot = self._freed_slot
            if slot is not None and slot <= len(self.rows):
                self.rows.insert(slot, row)
            else:
                self.rows.append(row)
            self._freed_slot = None
            self._keep_max()
        elif op in ("-U", "-D"):
            index = self._find(row)
            if index is None:
                self.unmatched_retractions += 1
                self._freed_slot = None
                return
            del self.rows[index]
            self._freed_slot = index if op == "-U" else None
        else:
            raise ValueError("unknown row kind %r" % (op,))

    def _keep_max(self):
        if self.max_rows is not None and len(self.rows) > self.max_rows:
            drop = len(self.rows) - self.max_rows
            del self.rows[:drop]
            self.dropped_rows += drop

    def apply_all(self, changes):
        for op, row in changes:
            self.apply(op, row)
        return self

    def _find(self, row):
        """Index of the most recent row equal to `row`."""
        for index in range(len(self.rows) - 1, -1, -1):
            if self.rows[index] == row:
                return index
        return None

    def __len__(self):
        return len(self.rows)


class TableView(StreamScreen):
    view_name = "table view"

    def __init__(self, stream, max_column_width=30, time_zone="UTC", max_rows=None):
        super().__init__(stream, max_column_width, time_zone)
        self.table = MaterializedTable(max_rows)
        self.follow = False        # a table is read from the top

    def apply(self, op, row):
        self.table.apply(op, row)

    def row_count(self):
        return len(self.table)

    def visible_rows(self, start, stop):
        return [(None, row) for row in self.table.rows[start:stop]]

    def status_extra(self):
        text = "%d row%s" % (len(self.table), "" if len(self.table) == 1 else "s")
        if self.table.dropped_rows:
            text += " (%d oldest dropped: sql-client.execution.max-table-result.rows)" % self.table.dropped_rows
        if self.table.unmatched_retractions:
            text += ", %d retraction%s of absent rows" % (
                self.table.unmatched_retractions, "" if self.table.unmatched_retractions == 1 else "s")
        return text
