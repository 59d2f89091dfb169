"""LookupJoin: a processing-time temporal join (`JOIN t FOR SYSTEM_TIME AS OF l.proctime ON <expr over l> =
t.k`) against a table Flink can look up: each probe row is joined with the table's rows as they are when the
row arrives. The looked-up table is no input of the node (the runtime reads it whole, bounded, in Spark's
stream-static join, or, a jdbc table, queries it by the lookup keys); `lookup` is its TableScan. INNER drops a probe row without a match, LEFT pads it with
NULLs; the output keeps the probe row's kind (insert-only when the probe side is) and its time attributes
become plain timestamps. Nothing here runs anything: runtime/operators/lookup_join.py does."""

from .changelog import ALL_KINDS
from .join import JOIN_TYPES, joined_fields
from .node import PlanNode


class LookupJoin(PlanNode):
    name = "LookupJoin"

    def __init__(self, left, lookup, kind, condition, lookup_keys, position=None, rest_sql=None):
        super().__init__((left,), position)
        self.lookup = lookup              # the looked-up table's TableScan (not an input)
        self.kind = kind                  # INNER or LEFT
        self.condition = condition        # the whole ON: an Expr over the output fields
        # [(looked-up output field, the probe side's key text)], and the probe side's keys as Spark SQL over the
        # output fields (a jdbc table is queried by them)
        self.lookup_keys = [k[:2] for k in lookup_keys]
        self.probe_key_sql = [k[2] if len(k) > 2 else None for k in lookup_keys]
        # the ON's conjuncts other than the lookup keys, as Spark SQL over the output fields (None: none): Flink
        # looks the keys up (a FLOAT/DOUBLE key by Double.equals) and filters the rows found by these
        self.rest_sql = rest_sql
        self.fields = joined_fields(left, lookup, kind)

    @property
    def left(self):
        return self.inputs[0]

    def accepted_kinds(self, i):
        return ALL_KINDS

    def provided_kinds(self, input_kinds):
        return input_kinds[0]

    def explain_detail(self):
        table = "default_catalog.default_database.%s" % self.lookup.table.name
        return "table=[%s], joinType=[%s], lookup=[%s], where=[%s], select=[%s]" % (
            table, JOIN_TYPES[self.kind], ", ".join("%s=%s" % k for k in self.lookup_keys),
            self.condition.text, ", ".join(self.field_names))
