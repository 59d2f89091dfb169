"""Match: MATCH_RECOGNIZE over its input (Flink's StreamPhysicalMatch).

The node holds the validated `MatchRecognizeSpec` (planner/match_recognize: parsing, Flink's rules, result
types) and the input columns it was validated against. It consumes inserts only (refusing updates as
"Match Recognize", Flink's name) and produces inserts only. Its output row is the PARTITION BY columns then
the measures (ONE ROW PER MATCH); a `MATCH_ROWTIME()` measure is a rowtime attribute of the output (a
`MATCH_PROCTIME()` one a proctime attribute), every other measure a plain value, as in Flink's physical plan.
It does not run anything: runtime/operators/match.py does."""

from ..match_recognize.expressions import SEMANTICS_MARKERS, call_args, func_name
from ..match_recognize.spec import pattern_to_text
from ..match_recognize.types import parse_type_text
from ..expr.types import parse_type
from .changelog import InsertOnlyInOut
from .fields import PROCTIME, ROWTIME, Field
from .node import PlanNode

_SKIP = {"PAST_LAST_ROW": "SKIP PAST LAST ROW", "NEXT_ROW": "SKIP TO NEXT ROW", "TO_FIRST": "SKIP TO FIRST %s",
         "TO_LAST": "SKIP TO LAST %s"}


def output_fields(spec, columns):
    """MATCH_RECOGNIZE's output columns [(name, Flink type text)] -> Fields: only MATCH_ROWTIME() /
    MATCH_PROCTIME() measures keep their time attribute."""
    timed = {m.name: _time_function(m.expr) for m in spec.measures}
    out = []
    for name, text in columns:
        info = parse_type_text(text)
        base = info.base + ("" if info.nullable else " NOT NULL")
        time = timed.get(name)
        out.append(Field(name, parse_type(base) if info.name != "NULL" else None, time))
    return out


def _time_function(tree):
    """ROWTIME for `MATCH_ROWTIME()` (FINAL or not), PROCTIME for `MATCH_PROCTIME()`, else None."""
    name = func_name(tree)
    while name in SEMANTICS_MARKERS:
        tree = call_args(tree)[0]
        name = func_name(tree)
    return {"MATCH_ROWTIME": ROWTIME, "MATCH_PROCTIME": PROCTIME}.get(name)


class Match(InsertOnlyInOut, PlanNode):
    name = "Match"
    requester = "Match Recognize"

    def __init__(self, input, spec, input_columns, fields, position=None):
        super().__init__((input,), position)
        self.spec = spec
        self.input_columns = list(input_columns)     # [(name, Flink type text)] the spec was validated against
        self.fields = list(fields)

    @property
    def event_time(self):
        """Ordered by a rowtime: rows wait for the watermark (the runtime sets the sources' watermarks)."""
        spec = self.spec
        return spec.ordered_by_rowtime()

    def explain_detail(self):
        spec = self.spec
        parts = ["partitionBy=[%s]" % ", ".join(spec.partition_by),
                 "orderBy=[%s]" % ", ".join("%s %s" % (k.column, "ASC" if k.ascending else "DESC")
                                            for k in spec.order_by),
                 "measures=[%s]" % ", ".join("%s AS %s" % (_one_line(m.text), m.name) for m in spec.measures),
                 "rowsPerMatch=[%s ROW%s PER MATCH]" % (spec.rows_per_match, "" if spec.rows_per_match == "ONE"
                                                         else "S")]
        skip = spec.after_match
        parts.append("after=[%s]" % (_SKIP[skip.kind] % skip.variable if "%s" in _SKIP[skip.kind]
                                     else _SKIP[skip.kind]))
        parts.append("pattern=[%s]" % _one_line(spec.pattern_text or pattern_to_text(spec.pattern)))
        if spec.within_ms is not None:
            parts.append("within=[%s]" % (spec.within_text or "%d ms" % spec.within_ms))
        parts.append("define=[%s]" % ", ".join("%s AS %s" % (d.variable, _one_line(d.text)) for d in spec.definitions))
        return ", ".join(parts)


def _one_line(text):
    return " ".join(text.split())
