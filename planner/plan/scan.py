"""Leaves of the plan: a catalog table's scan, and literal rows (VALUES, a SELECT without FROM)."""

from ..connectors import CHANGELOG_FORMATS
from ..expr.types import parse_type
from .changelog import ALL_KINDS, INSERT_ONLY_KINDS
from .fields import PROCTIME, ROWTIME, Field
from .node import PlanNode


class TableScan(PlanNode):
    """Reads a catalog table: its physical columns, its computed columns (`computed`: name -> Expr over the
    physical fields) and metadata columns, in declared order. The WATERMARK column is a rowtime attribute,
    a `PROCTIME()` column a proctime attribute. A changelog format (debezium-json, canal-json) produces
    updates and deletes."""
    name = "TableSourceScan"

    def __init__(self, table, computed, position=None):
        super().__init__((), position)
        self.table = table
        self.computed = dict(computed)
        fields = []
        for c in table.columns:
            time = ROWTIME if c.name == table.rowtime else PROCTIME if c.is_proctime else None
            if time == PROCTIME:
                t = parse_type("TIMESTAMP_LTZ(3) NOT NULL")
            elif c.computed is not None:
                t = self.computed[c.name].type if c.name in self.computed else None
            else:
                t = parse_type(c.type)
            fields.append(Field(c.name, t, time))
        self.fields = fields

    @property
    def changelog_source(self):
        return self.table.options.get("format") in CHANGELOG_FORMATS

    @property
    def watermark(self):
        """The table's WatermarkSpec, or None."""
        return self.table.watermark

    def provided_kinds(self, input_kinds):
        return ALL_KINDS if self.changelog_source else INSERT_ONLY_KINDS

    def derive_upsert_key(self):
        return tuple(self.table.primary_key) if self.table.primary_key and self.changelog_source else None

    def explain_detail(self):
        return "table=[[default_catalog, default_database, %s]], fields=[%s]" % (
            self.table.name, ", ".join(self.field_names))


class Values(PlanNode):
    """Literal rows: `rows` is a list of rows, each a list of Exprs over nothing."""

    def __init__(self, rows, fields, position=None):
        super().__init__((), position)
        self.rows = rows
        self.fields = list(fields)

    def provided_kinds(self, input_kinds):
        return INSERT_ONLY_KINDS

    def explain_detail(self):
        return "tuples=[%s]" % ", ".join("{ %s }" % ", ".join(str(e) for e in row) for row in self.rows[:5]) + \
            (", ..." if len(self.rows) > 5 else "")
