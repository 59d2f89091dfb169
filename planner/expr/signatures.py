"""The operand types Flink 2.3's functions and operators take, and Flink's refusal of any other, in its words.

Flink validates most built-in calls with Calcite's operand type checkers: each operand must be of a type
family (NUMERIC, INTEGER, CHARACTER, DATETIME, ...), with no implicit cast (`UPPER(1)`, `'a' + 1`, `ABS('1')`
are refused), and a bare NULL literal is refused where a family is asked for ("Illegal use of 'NULL'").
Its refusal names the call with its operand types as Calcite writes them and lists the supported forms:

    Cannot apply 'ABS' to arguments of type 'ABS(<CHAR(1)>)'. Supported form(s): 'ABS(<NUMERIC>)'
    'ABS(<DATETIME_INTERVAL>)'

`CALCITE` holds each function's forms (recorded from Flink 2.3's messages); `calcite_refusal` judges one
call. Functions Flink types with its own input strategies (GREATEST, COALESCE, ARRAY_*, ...) refuse with
"Invalid function call:" and the call's Flink types: `FLINK_STACK`, `flink_refusal`. Nothing here walks a
tree (operand_checks.py does) or knows Spark."""

from ..errors import SqlError

_INTEGER = {"TINYINT", "SMALLINT", "INT", "BIGINT"}
_NUMERIC = _INTEGER | {"DECIMAL", "FLOAT", "DOUBLE"}
_CHARACTER = {"CHAR", "VARCHAR"}
FAMILIES = {
    "NUMERIC": _NUMERIC, "INTEGER": _INTEGER, "EXACT_NUMERIC": _INTEGER | {"DECIMAL"},
    "CHARACTER": _CHARACTER, "STRING": _CHARACTER | {"BINARY", "VARBINARY"}, "BINARY": {"BINARY", "VARBINARY"},
    "BOOLEAN": {"BOOLEAN"}, "DATE": {"DATE"}, "TIME": {"TIME"}, "TIMESTAMP": {"TIMESTAMP", "TIMESTAMP_LTZ"},
    "DATETIME": {"DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ"}, "DATETIME_INTERVAL": {"INTERVAL"},
    "ARRAY": {"ARRAY"}, "MAP": {"MAP"}, "MULTISET": {"MULTISET"}, "ANY": None,
}

N, I, C, S = "NUMERIC", "INTEGER", "CHARACTER", "STRING"
_DI = "DATETIME_INTERVAL"


def _forms(*forms):
    return [tuple(f) if isinstance(f, (tuple, list)) else (f,) for f in forms]


# name -> [form: (family, ...)]; a form ending in "..." repeats its last family (CONCAT(<CHARACTER>...))
CALCITE = {
    "ABS": _forms(N, _DI), "SIGN": _forms(N), "SQRT": _forms(N), "EXP": _forms(N), "LN": _forms(N),
    "LOG10": _forms(N), "LOG2": _forms(N), "LOG": _forms(N, (N, N)), "POWER": _forms((N, N)),
    "ATAN2": _forms((N, N)), "MOD": _forms(("EXACT_NUMERIC", "EXACT_NUMERIC")),
    "ROUND": _forms((N, I), N), "TRUNCATE": _forms((N, I), N), "RAND": _forms((), N),
    "CEIL": _forms(N, _DI), "FLOOR": _forms(N, _DI),
    "BIN": _forms(I), "HEX": _forms(I, C), "CHR": _forms(I), "ASCII": _forms(C),
    "UPPER": _forms(C), "LOWER": _forms(C), "INITCAP": _forms(C), "REVERSE": _forms(C),
    "CHAR_LENGTH": _forms(C), "CHARACTER_LENGTH": _forms(C),
    "CONCAT": _forms((C, "...")), "CONCAT_WS": _forms((C, "...")),
    "SUBSTRING": _forms((C, I), (C, I, I)), "LEFT": _forms((C, I)), "RIGHT": _forms((C, I)),
    "REPEAT": _forms((C, I)), "LPAD": _forms((C, I, C)), "RPAD": _forms((C, I, C)),
    "REPLACE": _forms((C, C, C)), "REGEXP_REPLACE": _forms((C, C, C)),
    "SPLIT_INDEX": _forms((C, I, I), (C, C, I)), "LOCATE": _forms((C, C), (C, C, I)),
    "MD5": _forms(S), "SHA1": _forms(S), "SHA256": _forms(S), "TO_BASE64": _forms(S),
    "DATE_FORMAT": _forms(("TIMESTAMP", C), (C, C)), "TO_TIMESTAMP": _forms(C, (C, C)),
    "TO_DATE": _forms(C, (C, C)), "CONVERT_TZ": _forms((C, C, C)), "FROM_UNIXTIME": _forms(I, (I, C)),
    "UNIX_TIMESTAMP": _forms((), C, (C, C)), "TIMESTAMPADD": _forms((I, "DATETIME")),
    "TIMESTAMPDIFF": _forms(("DATETIME", "DATETIME")),       # (after the unit, which any symbol fits)
    "CARDINALITY": _forms("MULTISET", "ARRAY", "MAP"), "ELEMENT": _forms("MULTISET", "ARRAY"),
    "SUM": _forms(N), "AVG": _forms(N), "STDDEV_POP": _forms(N), "STDDEV_SAMP": _forms(N),
    "VAR_POP": _forms(N), "VAR_SAMP": _forms(N), "STDDEV": _forms(N), "VARIANCE": _forms(N),
    "LISTAGG": _forms(C, (C, "CHARACTER_LITERAL")),
    "TRIM": _forms(S), "LTRIM": _forms(C, (C, C)), "RTRIM": _forms(C, (C, C)),
    "EXTRACT": _forms(_DI, "DATETIME"), "POSITION": _forms((S, S), (S, S, I)),
    "REGEXP_EXTRACT": _forms((C, C, I), (C, C)), "REGEXP": _forms((C, C)), "FROM_BASE64": _forms(S),
    "STR_TO_MAP": _forms(C, (C, C, C)), "RAND_INTEGER": _forms(N, (N, N)),
}
for _name in ("SIN", "COS", "TAN", "ASIN", "ACOS", "ATAN", "COT", "DEGREES", "RADIANS", "SINH", "COSH", "TANH"):
    CALCITE[_name] = _forms(N)

# How a form is written where it is not `NAME(<F>, ...)` (operators, keyword syntax)
_SHOWN = {
    "+": ["'<NUMERIC> + <NUMERIC>'", "'<DATETIME_INTERVAL> + <DATETIME_INTERVAL>'",
          "'<DATETIME> + <DATETIME_INTERVAL>'", "'<DATETIME_INTERVAL> + <DATETIME>'"],
    "-": ["'<NUMERIC> - <NUMERIC>'", "'<DATETIME_INTERVAL> - <DATETIME_INTERVAL>'",
          "'<DATETIME> - <DATETIME_INTERVAL>'"],
    "*": ["'<NUMERIC> * <NUMERIC>'", "'<DATETIME_INTERVAL> * <NUMERIC>'", "'<NUMERIC> * <DATETIME_INTERVAL>'"],
    "/": ["'<NUMERIC> / <NUMERIC>'", "'<DATETIME_INTERVAL> / <NUMERIC>'"],
    "NEG": ["'-<NUMERIC>'", "'-<DATETIME_INTERVAL>'"],
    "CEIL": ["'CEIL(<NUMERIC>)'", "'CEIL(<DATETIME_INTERVAL>)'", "'CEIL(<DATE> TO <TIME_UNIT>)'",
             "'CEIL(<TIME> TO <TIME_UNIT>)'", "'CEIL(<TIMESTAMP> TO <TIME_UNIT>)'"],
    "FLOOR": ["'FLOOR(<NUMERIC>)'", "'FLOOR(<DATETIME_INTERVAL>)'", "'FLOOR(<DATE> TO <TIME_UNIT>)'",
              "'FLOOR(<TIME> TO <TIME_UNIT>)'", "'FLOOR(<TIMESTAMP> TO <TIME_UNIT>)'"],
    "CONCAT": ["'CONCAT(<CHARACTER>)'"], "CONCAT_WS": ["'CONCAT_WS(<CHARACTER>)'"],
    "POSITION": ["'POSITION(<STRING> IN <STRING>)'", "'POSITION(<STRING> IN <STRING> FROM <INTEGER>)'",
                 "INSTR(<STRING>, <STRING>, <INTEGER>, <INTEGER>)"],
    "EXTRACT": ["'EXTRACT(<DATETIME_INTERVAL> FROM <DATETIME_INTERVAL>)'",
                "'EXTRACT(<DATETIME_INTERVAL> FROM <DATETIME>)'"],
    "TRIM": ["'TRIM([BOTH|LEADING|TRAILING] <ANY> FROM <STRING>)'"],
    "LIKE": ["'LIKE(<STRING>, <STRING>, <STRING>)'"],
    "SIMILAR TO": ["'SIMILAR TO(<STRING>, <STRING>, <STRING>)'"],
    "||": ["'<STRING> || <STRING>'", "'<EQUIVALENT_TYPE> || <EQUIVALENT_TYPE>'"],
    "IF": ["'IF(<ANY_TYPE>, <NUMERIC_TYPE>, <NUMERIC_TYPE>)'", "'IF(<BOOLEAN>, <CHARACTER>, <CHARACTER>)'",
           "'IF(<BOOLEAN>, <BOOLEAN>, <BOOLEAN>)'", "'IF(<BOOLEAN>, <CHARACTER>, <CHARACTER>)'",
           "'IF(<BOOLEAN>, <BINARY>, <BINARY>)'", "'IF(<BOOLEAN>, <DATE>, <DATE>)'",
           "'IF(<BOOLEAN>, <TIMESTAMP>, <TIMESTAMP>)'", "'IF(<BOOLEAN>, <TIME>, <TIME>)'"],
    "TIMESTAMPADD": ["'TIMESTAMPADD(<ANY>, <INTEGER>, <DATETIME>)'"],
    "TIMESTAMPDIFF": ["'TIMESTAMPDIFF(<ANY>, <DATETIME>, <DATETIME>)'"],
    "ITEM": ["<ARRAY>[<INTEGER>]", "<MAP>[<ANY>]", "<ROW>[<CHARACTER>|<INTEGER>]",
             "<VARIANT>[<CHARACTER>|<INTEGER>]"],
}


def calcite(t):
    """A type as Calcite names it in a message: INTEGER, VARCHAR(2147483647), TIMESTAMP(0), INTEGER ARRAY."""
    if t.name == "NULL":
        return "NULL"
    if t.name in ("ARRAY", "MULTISET"):
        return "%s %s" % (calcite(t.children[0]), t.name)
    if t.name == "MAP":
        return "(%s, %s) MAP" % (calcite(t.children[0]), calcite(t.children[1]))
    if t.name == "ROW":
        return "RecordType(%s)" % ", ".join("%s %s" % (calcite(ft), fn) for fn, ft in t.children)
    if t.name == "TIMESTAMP_LTZ":
        return "TIMESTAMP_WITH_LOCAL_TIME_ZONE(%d)" % (t.params[0] if t.params else 6)
    if t.name == "INTERVAL":
        return t.text(with_null=False)
    text = t.text(with_null=False)
    return {"INT": "INTEGER", "STRING": "VARCHAR(2147483647)", "BYTES": "VARBINARY(2147483647)"}.get(text, text)


def in_family(t, family):
    """Whether a value of type `t` is an operand of `family` as Calcite's checkers take it (no implicit cast)."""
    members = FAMILIES.get(family)
    return members is None or t.name in members


def _fits(types, form):
    if form and form[-1] == "...":
        return len(types) >= 1 and all(in_family(t, form[0]) for t in types)
    if len(types) != len(form):
        return False
    return all(in_family(t, f) or f == "CHARACTER_LITERAL" and t.name in _CHARACTER for t, f in zip(types, form))


def shown_forms(name):
    shown = _SHOWN.get(name)
    if shown is not None:
        return shown
    return ["'%s(%s)'" % (name, ", ".join("<%s>" % f for f in form)) for form in CALCITE[name]]


def cannot_apply(name, written, forms, position):
    """Calcite's refusal: `written` is the call with its operand types ('ABS(<CHAR(1)>)', '<DATE> + <INTEGER>');
    `position`: (line, column), or a function giving it (asked for only when refusing)."""
    if callable(position):
        position = position()
    return SqlError("Cannot apply '%s' to arguments of type '%s'. Supported form(s): %s"
                    % (name, written, "\n".join(forms)), *position)


def calcite_refusal(name, types, position, written=None, shown=None):
    """The SqlError Flink gives for a call of `name` (a key of CALCITE) with operands of `types`, or None when
    they fit a form. An unknown operand type (None) is not judged."""
    if any(t is None for t in types) or any(t.name == "NULL" for t in types):
        return None
    forms = CALCITE[name]
    if not any(len(form) == len(types) or form and form[-1] == "..." for form in forms):
        return None               # a wrong number of arguments: Flink's count error, raised where the call is mapped
    if any(_fits(types, form) for form in forms):
        return None
    if callable(written):
        written = written()
    if written is None:
        written = "%s(%s)" % (name, ", ".join("<%s>" % calcite(t) for t in types))
    return cannot_apply(name, written, shown or shown_forms(name), position)


_AGGREGATES = ("SUM", "AVG", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "STDDEV", "VARIANCE", "LISTAGG")


def check_aggregate(name, types, position):
    """Raise Flink's refusal of aggregate `name` over arguments of `types` (SUM of a string, AVG of a BOOLEAN)."""
    if name in _AGGREGATES:
        refusal = calcite_refusal(name, types, position)
        if refusal is not None:
            raise refusal


# ---------------------------------------------------------------------- Flink's own input type strategies
def _kind(t):
    if t.name in _NUMERIC:
        return "NUMERIC"
    if t.name in _CHARACTER:
        return "CHARACTER"
    if t.name in FAMILIES["DATETIME"]:
        return "DATETIME"
    return t.name


def _comparable(types):
    """Flink's COMPARABLE / common-type strategies: numbers with numbers, strings with strings, times with
    times (a DATE with a TIMESTAMP passes validation), anything else with its own kind."""
    from .inference import least_restrictive
    known = [t for t in types if t.name != "NULL"]
    if len({_kind(t) for t in known}) > 1:
        return False
    return len({t.name for t in known}) <= 1 or _kind(known[0]) != known[0].name or \
        least_restrictive(known) is not None


def _array_and_element(types):
    from .inference import least_restrictive
    return len(types) == 2 and types[0].name == "ARRAY" and (
        types[1].name == "NULL" or least_restrictive([types[0].children[0], types[1]]) is not None)


def _is(family, t):
    return t.name == "NULL" or in_family(t, family)


FLINK_STACK = {
    "GREATEST": _comparable, "LEAST": _comparable, "COALESCE": _comparable, "IFNULL": _comparable,
    "ARRAY_CONTAINS": _array_and_element, "ARRAY_POSITION": _array_and_element,
    "ARRAY_REMOVE": _array_and_element, "ARRAY_APPEND": _array_and_element, "ARRAY_PREPEND": _array_and_element,
    "ARRAY_JOIN": lambda ts: 2 <= len(ts) <= 3 and ts[0].name == "ARRAY" and ts[0].children[0].name in _CHARACTER
    and all(_is(C, t) for t in ts[1:]),
    "ARRAY_SLICE": lambda ts: 2 <= len(ts) <= 3 and ts[0].name == "ARRAY" and all(_is(I, t) for t in ts[1:]),
    "ARRAY_DISTINCT": lambda ts: len(ts) == 1 and ts[0].name == "ARRAY",
    "ARRAY_REVERSE": lambda ts: len(ts) == 1 and ts[0].name == "ARRAY",
    "ARRAY_MAX": lambda ts: len(ts) == 1 and ts[0].name == "ARRAY",
    "ARRAY_MIN": lambda ts: len(ts) == 1 and ts[0].name == "ARRAY",
    "ARRAY_SORT": lambda ts: 1 <= len(ts) <= 3 and ts[0].name == "ARRAY" and all(_is("BOOLEAN", t) for t in ts[1:]),
    "ARRAY_CONCAT": lambda ts: len(ts) >= 1 and all(t.name in ("ARRAY", "NULL") for t in ts),
    "ARRAY_UNION": lambda ts: len(ts) == 2 and all(t.name == "ARRAY" for t in ts) and _comparable(ts),
    "ARRAY_EXCEPT": lambda ts: len(ts) == 2 and all(t.name == "ARRAY" for t in ts) and _comparable(ts),
    "ARRAY_INTERSECT": lambda ts: len(ts) == 2 and all(t.name == "ARRAY" for t in ts) and _comparable(ts),
    "SPLIT": lambda ts: len(ts) == 2 and all(_is(C, t) for t in ts),
    "MAP_KEYS": lambda ts: len(ts) == 1 and ts[0].name == "MAP",
    "MAP_VALUES": lambda ts: len(ts) == 1 and ts[0].name == "MAP",
    "MAP_ENTRIES": lambda ts: len(ts) == 1 and ts[0].name == "MAP",
    "MAP_FROM_ARRAYS": lambda ts: len(ts) == 2 and all(t.name == "ARRAY" for t in ts),
    "MAP_UNION": lambda ts: len(ts) >= 1 and all(t.name == "MAP" for t in ts),
    "URL_ENCODE": lambda ts: len(ts) == 1 and _is(C, ts[0]),
    "URL_DECODE": lambda ts: len(ts) == 1 and _is(C, ts[0]),
    "TO_TIMESTAMP_LTZ": lambda ts: len(ts) == 1 and (_is(N, ts[0]) or _is(C, ts[0]))
    or len(ts) == 2 and (_is(N, ts[0]) and _is(I, ts[1]) or _is(C, ts[0]) and _is(C, ts[1]))
    or len(ts) == 3 and all(_is(C, t) for t in ts),
}


def flink_refusal(name, types, position):
    """Flink's "Invalid function call" for a call of `name` (a key of FLINK_STACK), or None when it fits."""
    if any(t is None for t in types) or FLINK_STACK[name](types):
        return None
    if callable(position):
        position = position()
    return SqlError("Invalid function call:\n%s(%s)" % (name, ", ".join(t.text() for t in types)), *position)
