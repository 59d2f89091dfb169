"""`validate(spec, input_columns, rowtime, extensions=False, proctime=None)`: Flink's rules for MATCH_RECOGNIZE.

With extensions off (the default; session key 'dynsql.match-recognize.extensions') it refuses what
Flink 2.3 refuses, with Flink's wording and the rule named: alternation, group patterns, PERMUTE,
exclusion, anchors, reluctant optional quantifiers, patterns that can match empty, a greedy quantifier
on the last variable, ALL ROWS PER MATCH, PREV/NEXT with an offset, CLASSIFIER(),
MATCH_NUMBER(); SUBSET runs as Flink runs it (planner/match_recognize/subsets.py). Always refused: unknown
columns and variables, ORDER BY not starting with a time attribute ascending, DISTINCT aggregates, aggregates or FIRST/LAST mixing pattern variables.
dynsql accepts `{,m}` in both modes. It also decides which matching semantics the runtime uses:
'flink' (Flink's CEP automaton) for every pattern Flink accepts, 'standard' (SQL:2016 preferment)
for the rest. It does not run anything."""

from sqlglot import exp

from planner.errors import SqlError, UnsupportedError
from planner.match_recognize.expressions import (AGGREGATE_NAMES, SEMANTICS_MARKERS, call_args, func_name,
                                                 is_aggregate, qualifier)
from planner.match_recognize.pattern import can_match_empty, flat_elements, unwrap
from planner.match_recognize.subsets import check_subsets
from planner.match_recognize.spec import (Alternation, Anchor, Concat, Exclusion, Group, Permute, Quantified, Var,
                                          pattern_to_text)
from planner.match_recognize.types import TypeScope, infer, output_columns

EXTENSIONS_HINT = "SET 'dynsql.match-recognize.extensions' = 'true'; enables the SQL standard's form"


def validate(spec, input_columns, rowtime, extensions=False, proctime=None):
    """Check spec against the input (list of (name, flink type)) and Flink's rules; returns spec, annotated."""
    names = [n for n, _ in input_columns]
    spec.input_columns = list(input_columns)
    spec.rowtime = rowtime
    spec.proctime = proctime
    _check_columns(spec, names)
    _check_order(spec)
    variables = spec.variables()
    check_subsets(spec, variables, extensions)
    _check_variables(spec, variables)
    for m in spec.measures:
        _check_expression(spec, m.expr, variables, m.line, m.column, extensions, in_define=False)
    for d in spec.definitions:
        _check_expression(spec, d.expr, variables, d.line, d.column, extensions, in_define=True)
    scope = TypeScope(input_columns, rowtime, proctime)
    for d in spec.definitions:
        _typed(d.expr, scope, d.line, d.column)
    seen = set()
    for m in spec.measures:
        if m.name in seen:
            raise SqlError("Measure '%s' is defined twice" % m.name, m.line, m.column)
        seen.add(m.name)
        _typed(m.expr, scope, m.line, m.column)
    flink_refusal = _flink_pattern_refusal(spec)
    spec.semantics = "flink" if flink_refusal is None else "standard"
    if not extensions:
        if flink_refusal is not None:
            raise flink_refusal
        if spec.rows_per_match == "ALL":
            raise UnsupportedError("All rows per match mode is not supported yet.", spec.line, spec.column,
                                   EXTENSIONS_HINT)
    spec.output_columns = output_columns(spec, input_columns)      # typed once, here: the runtime reads them
    return spec


def _typed(expr, scope, line, column):
    try:
        return infer(expr, scope)
    except SqlError as e:
        if e.line is None:
            e.line, e.column = line, column
        raise


def _check_columns(spec, names):
    for p in spec.partition_by:
        if p not in names:
            raise SqlError("Column '%s' not found in the input of MATCH_RECOGNIZE (PARTITION BY)" % p,
                           spec.line, spec.column, "columns: " + ", ".join(names))
    for k in spec.order_by:
        if k.column not in names:
            raise SqlError("Column '%s' not found in the input of MATCH_RECOGNIZE (ORDER BY)" % k.column,
                           k.line, k.column_pos, "columns: " + ", ".join(names))


def _check_order(spec):
    if not spec.order_by:
        raise SqlError("You must specify either rowtime or proctime for order by.", spec.line, spec.column,
                       "MATCH_RECOGNIZE needs ORDER BY <time attribute> ASC")
    first = spec.order_by[0]
    if first.column not in (spec.rowtime, spec.proctime):
        raise SqlError("You must specify either rowtime or proctime for order by as the first one.",
                       first.line, first.column_pos,
                       "ORDER BY must start with the table's event-time (WATERMARK) or processing-time column")
    if not first.ascending:
        raise SqlError("Primary sort order of a streaming table must be ascending on time.",
                       first.line, first.column_pos)


def _check_variables(spec, variables):
    known = set(variables) | {s.name for s in spec.subsets}
    seen = set()
    for d in spec.definitions:
        if d.variable not in variables:
            raise SqlError("DEFINE names '%s', which is not a variable of the PATTERN" % d.variable,
                           d.line, d.column, "pattern variables: " + ", ".join(variables))
        if d.variable in seen:
            raise SqlError("Pattern variable '%s' is defined twice" % d.variable, d.line, d.column)
        seen.add(d.variable)
    am = spec.after_match
    if am.variable is not None and am.variable not in known:
        raise SqlError("AFTER MATCH SKIP TO %s: unknown pattern variable" % am.variable, am.line, am.column,
                       "pattern variables: " + ", ".join(variables))


def _vars_in(node):
    """Set of qualifiers of the column references under node (None = the default variable)."""
    return {qualifier(c) for c in node.find_all(exp.Column)}


def _check_expression(spec, node, variables, line, column, extensions, in_define):
    names = {n for n, _ in spec.input_columns}
    known = set(variables) | {s.name for s in spec.subsets}

    def fail(msg, hint=None, cls=SqlError):
        raise cls(msg, line, column, hint)

    for col in node.find_all(exp.Column):
        q = qualifier(col)
        if q is not None and q not in known:
            fail("Unknown pattern variable '%s' in '%s'" % (q, col.sql()),
                 "pattern variables: " + ", ".join(variables))
        if not isinstance(col.this, exp.Star) and col.name not in names:
            fail("Column '%s' not found in the input of MATCH_RECOGNIZE" % col.name,
                 "columns: " + ", ".join(sorted(names)))
    for agg in node.find_all(*AGGREGATE_NAMES):
        arg = agg.this
        if isinstance(arg, exp.Distinct) or agg.args.get("distinct"):
            fail("DISTINCT aggregations are not supported in MATCH_RECOGNIZE: %s" % agg.sql())
        if any(is_aggregate(a) for a in agg.find_all(*AGGREGATE_NAMES) if a is not agg):
            fail("Aggregates cannot be nested: %s" % agg.sql())
        qs = _vars_in(agg)
        if len(qs) > 1:
            fail("Aggregation must be applied to a single pattern variable: %s references %s"
                 % (agg.sql(), ", ".join(sorted(q or "(all rows)" for q in qs))))
    for call in node.find_all(exp.Func):
        name = func_name(call)
        if name in ("FIRST", "LAST", "PREV", "NEXT"):
            args = call_args(call)
            if not args or len(args) > 2:
                fail("%s takes an expression and an optional offset" % name)
            qs = _vars_in(args[0])
            if len(qs) > 1:
                fail("%s must be computed on a single pattern variable: %s" % (name, call.sql()))
            if len(args) == 2 and not (isinstance(args[1], exp.Literal) and not args[1].is_string
                                       and args[1].this.isdigit()):
                fail("The offset of %s must be a non-negative whole number: %s" % (name, call.sql()))
            if name in ("PREV", "NEXT") and not extensions:
                offset = int(args[1].this) if len(args) == 2 else 1
                if offset != 0:
                    fail("Flink does not support physical offsets within partition.", EXTENSIONS_HINT,
                         UnsupportedError)
        elif name in ("CLASSIFIER", "MATCH_NUMBER") and not extensions:
            fail("%s() is not supported by Flink's MATCH_RECOGNIZE" % name, EXTENSIONS_HINT, UnsupportedError)
        elif name == "__FINAL" and in_define:
            fail("FINAL cannot be used in DEFINE: conditions only see the rows matched so far")
        elif name in ("MATCH_ROWTIME", "MATCH_PROCTIME") and in_define:
            fail("%s() can only be used in MEASURES" % name)
        elif name == "MATCH_ROWTIME":
            args = call_args(call)
            if args and not (isinstance(args[0], exp.Column) and args[0].name == spec.rowtime):
                fail("MATCH_ROWTIME(x) needs the event-time attribute as its argument")


def _flink_pattern_refusal(spec):
    """The error Flink raises for the pattern, or None when Flink's CEP can run it."""
    node = spec.pattern

    def err(msg, n, hint=EXTENSIONS_HINT):
        return UnsupportedError(msg, n.line or spec.line, n.column or spec.column, hint)

    def walk(n):
        n = unwrap(n)
        if isinstance(n, Alternation):
            return err("Expression not supported: %s. Currently, CEP doesn't support branching patterns."
                       % pattern_to_text(n), n)
        if isinstance(n, Permute):
            return err("Expression not supported: %s. Currently, CEP doesn't support PERMUTE patterns."
                       % pattern_to_text(n), n)
        if isinstance(n, Exclusion):
            return err("Expression not supported: %s. Currently, CEP doesn't support '{-' '-}' patterns."
                       % pattern_to_text(n), n)
        if isinstance(n, Anchor):
            return err("Anchors ^ and $ are not supported: a stream has no partition start or end.", n)
        if isinstance(n, Concat):
            for i in n.items:
                e = walk(i)
                if e:
                    return e
            return None
        if isinstance(n, Quantified):
            body = unwrap(n.body)
            if not isinstance(body, Var):
                inner = walk(body)
                if inner is not None:
                    return inner
                return err("Expression not supported: %s Group patterns are not supported yet."
                           % pattern_to_text(n.body), n)
            return None
        return None

    e = walk(node)
    if e is not None:
        return e
    elements = flat_elements(node)
    if elements is None:
        return err("Pattern %s is not supported by Flink" % spec.pattern_text, node)
    seen = set()
    for name, lo, hi, greedy, q in elements:
        if name in seen:
            return err("Pattern variables must be unique. That might change in the future.", q or node)
        seen.add(name)
        if lo == 0 and hi == 1 and not greedy:
            return err("Reluctant optional variables are not supported yet.", q)
    if can_match_empty(node):
        return err("Patterns that can produce empty matches are not supported. There must be at least one "
                   "non-optional state.", node)
    name, lo, hi, greedy, q = elements[-1]
    if greedy and q is not None and not (lo == 0 and hi == 1) and lo != hi:
        return err("Greedy quantifiers are not allowed as the last element of a Pattern yet. Finish your "
                   "pattern with either a simple variable or reluctant quantifier.", q)
    return None
