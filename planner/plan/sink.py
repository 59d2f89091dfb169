"""The root of every plan: where the query's changes go. `CollectSink` is the shell's result (it takes
every change, with -U rows); `TableSink` is INSERT INTO a table, which takes what its connector takes
(a filesystem table only inserts)."""

from .changelog import ALL_KINDS, INSERT_ONLY_KINDS
from .node import PlanNode


class CollectSink(PlanNode):
    name = "Sink"

    def __init__(self, input, position=None):
        super().__init__((input,), position)
        self.fields = list(input.fields)

    def input_update_before(self, i, required):
        return True

    def explain_detail(self):
        return "table=[*anonymous_collect*], fields=[%s]" % ", ".join(self.field_names)


class TableSink(PlanNode):
    name = "Sink"

    def __init__(self, input, table, position=None):
        super().__init__((input,), position)
        self.table = table
        self.fields = list(input.fields)

    @property
    def requester(self):
        return "Table sink 'default_catalog.default_database.%s'" % self.table.name

    def accepted_kinds(self, i):
        return INSERT_ONLY_KINDS if self.table.options.get("connector") == "filesystem" else ALL_KINDS

    def input_update_before(self, i, required):
        return True

    def explain_detail(self):
        return "table=[default_catalog.default_database.%s], fields=[%s]" % (self.table.name,
                                                                             ", ".join(self.field_names))
