"""`check_subsets(spec, variables, extensions)`: MATCH_RECOGNIZE's SUBSET clause, as Flink 2.3 validates and runs it.

Flink 2.3 accepts `SUBSET S = (A, B)` (Calcite's rules: a subset's name is no pattern variable or earlier
subset, "Pattern variable 'A' has already been defined"; its members are pattern variables or earlier subsets,
"Unknown pattern 'X'"), but its CEP runtime has no pattern named S: in MEASURES a subset's rows are none
(`S.price`, `FIRST(S.x)`, `AVG(S.price)` are NULL, `COUNT(S.price)` is 0), a DEFINE that reads S fails to
plan ("Table 'S' not found") and so does `AFTER MATCH SKIP TO FIRST/LAST S`. dynsql gives those same rows
and errors. With 'dynsql.match-recognize.extensions' on, a subset is the SQL standard's union of its
variables' rows, in MEASURES and DEFINE. The result is in each Subset's `variables`, the pattern variables
whose rows the runtime reads for it."""

import re

from planner.errors import SqlError

_FLINK_HINT = ("Flink 2.3 runs SUBSET but reads no rows for it: "
               "SET 'dynsql.match-recognize.extensions' = 'true'; gives the SQL standard's subsets")


def check_subsets(spec, variables, extensions):
    """Checks the SUBSET clause against the pattern and resolves each subset to its pattern variables."""
    known = {}                                       # name -> pattern variables it stands for
    for v in variables:
        known[v] = [v]
    for s in spec.subsets:
        if s.name in known:
            raise SqlError("Pattern variable '%s' has already been defined" % s.name, s.line, s.column,
                           "a SUBSET needs a name of its own")
        members = []
        for name, line, column in s.written or [(v, s.line, s.column) for v in s.variables]:
            if name not in known:
                raise SqlError("Unknown pattern '%s'" % name, line, column,
                               "pattern variables: " + ", ".join(variables))
            members.extend(v for v in known[name] if v not in members)
        known[s.name] = members
        s.variables = members if extensions else []
    if extensions or not spec.subsets:
        return
    names = {s.name for s in spec.subsets}
    am = spec.after_match
    if am.variable in names:
        raise SqlError("The pattern name specified in AfterMatchSkipStrategy can not be found in the given Pattern",
                       am.line, am.column, _FLINK_HINT)
    for d in spec.definitions:
        for name in names:
            m = re.search(r"(?<![\w`.])`?%s`?\s*\." % re.escape(name), d.text)
            if m is not None:
                line, column = _position(d, m.start())
                raise SqlError("Table '%s' not found" % name, line, column,
                               "DEFINE cannot read a SUBSET in Flink 2.3; " + _FLINK_HINT)


def _position(definition, offset):
    before = definition.text[:offset]
    if "\n" not in before:
        return definition.text_line or definition.line, (definition.text_column or definition.column) + offset
    return (definition.text_line or definition.line) + before.count("\n"), offset - before.rfind("\n")
