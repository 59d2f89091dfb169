"""MATCH_RECOGNIZE bound over any FROM item: a table, a view, a subquery (a join's output inside it).

The clause's text is parsed and validated by planner/match_recognize (Flink's rules and messages) against
the input node's fields: PARTITION BY / ORDER BY / MEASURES / DEFINE name them, ORDER BY must start with one of
its time attributes (the rules run on the input first: an interval join keeps its rowtimes). The result is a `Match` node whose scope is the clause's alias (`... ) AS MR`).
Updating input is not refused here: the inference pass refuses it with Flink's message, before Flink's
ORDER BY check would (as Flink reports it)."""

from ..match_recognize import parse_match_recognize, validate
from ..plan.changelog import INSERT_ONLY_KINDS
from ..plan.fields import PROCTIME, ROWTIME
from ..plan.match import Match, output_fields
from .scope import Scope, ScopeEntry


def bind_match_recognize(binder, node, scope, clause, rel):
    ctx = binder.ctx
    line, column = _absolute(ctx, clause.args.get("line") or 1, clause.args.get("col") or 1)
    spec = parse_match_recognize(clause.args["raw"], line, column)
    from ..rules import apply
    node = apply(node, ctx)            # e.g. an interval join below keeps its rowtimes
    columns = [(f.name, f.type_text()) for f in node.fields]
    rowtime, proctime = _time_attributes(node, spec)
    extensions = str(ctx.settings.get("dynsql.match-recognize.extensions")).lower() == "true"
    validate(spec, columns, rowtime, extensions=extensions, proctime=proctime)
    fields = output_fields(spec, spec.output_columns)
    match = Match(node, spec, columns, fields, position=(spec.line, spec.column))
    alias = clause.args.get("alias")
    qualifier = alias.name if alias is not None and alias.name else None
    return match, Scope([ScopeEntry(qualifier, f.name, f) for f in match.fields])


def _time_attributes(node, spec):
    """(rowtime, proctime) field names the clause may order by: the first ORDER BY column when it is one,
    else the input's first. Over updating input the first ORDER BY column stands in for the rowtime (Flink
    refuses the updates before it checks ORDER BY)."""
    first = spec.order_by[0].column if spec.order_by else None
    times = {f.name: f.time for f in node.fields}
    from ..infer import provided_kinds
    if first in times and times[first] is None and provided_kinds(node) != INSERT_ONLY_KINDS:
        return first, None
    rowtime = first if times.get(first) == ROWTIME else next((n for n, t in times.items() if t == ROWTIME), None)
    proctime = first if times.get(first) == PROCTIME else next((n for n, t in times.items() if t == PROCTIME), None)
    return rowtime, proctime


def _absolute(ctx, line, column):
    """A position inside the statement (or view) text -> the position in the user's SQL."""
    return ctx.line + line - 1, (ctx.column + column - 1) if line == 1 else column
