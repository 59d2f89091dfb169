"""The function registry: every function dynsql knows, its Flink return type and its translation to Spark.

`FLINK_FUNCTIONS` maps a Flink function name to a `FunctionMapping`: either the same call in Spark
(`same`), a renamed call (`spark=NAME`), or a rewrite of the sqlglot call node (`rewrite`); `RETURN_TYPES`
maps it to Flink's return-type rule (return_types.py; collections.py and json.py for theirs), which the type
inference (planner/expr/inference.py) asks for through `return_type_rule`. A call to a function that is
neither here nor known to Flink gets an error naming it.

`register_function(name, returns, ...)` adds a scalar function at run time (a user-defined function:
its signatures, return type and translation, e.g. the Spark name a Python UDF is registered under);
`unregister_function(name)` takes it away again. Both act on this process's registry."""

import copy
from dataclasses import dataclass

from sqlglot import exp

from ...errors import SqlError, UnsupportedError
from ...literals import integer_literal
from ..lenient_dates import lenient_to_date
from ..spark_template import spark_template


@dataclass(frozen=True)
class FunctionMapping:
    category: str
    spark: str = None        # Spark function name when it differs only by name
    rewrite: object = None   # callable(args: list[exp.Expression]) -> exp.Expression
    aggregate: bool = False
    doc: str = ""
    args: tuple = None       # (fewest, most) arguments a rewrite takes (most None: any number); checked first


def _call(name, *args):
    return exp.Anonymous(this=name, expressions=list(args))


def _lit(v):
    return exp.Literal.number(v) if isinstance(v, (int, float)) else exp.Literal.string(v)


# Flink's TO_TIMESTAMP(text): DateTimeUtils.parseTimestampData(text, 3) with its DEFAULT_TIMESTAMP_FORMATTER,
# `yyyy-[MM][M]-[dd][d][ [HH][H]:[mm][m]:[ss][s][.fraction]]`, SMART resolver: a 4-digit year of era (0000 and a
# fifth digit are NULL), each other field one or two digits within its range (month 13, hour 24, second 60 are
# NULL), a day past the month's end (up to 31) the month's last day (2024-02-30 is 2024-02-29), the time of day
# optional (midnight). A fraction past microseconds is cut (the result is TIMESTAMP(3)).
_TO_TIMESTAMP_TEXT = (
    "CASE WHEN {0} RLIKE '^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
    "( [0-9][0-9]?:[0-9][0-9]?:[0-9][0-9]?([.][0-9]+)?)?$' "
    "AND TRY_CAST(SUBSTR({0}, 1, 4) AS INT) >= 1 "
    "AND TRY_CAST(REGEXP_EXTRACT({0}, '^[0-9]+-([0-9]+)', 1) AS INT) BETWEEN 1 AND 12 "
    "AND TRY_CAST(REGEXP_EXTRACT({0}, '^[0-9]+-[0-9]+-([0-9]+)', 1) AS INT) BETWEEN 1 AND 31 "
    "AND COALESCE(TRY_CAST(NULLIF(REGEXP_EXTRACT({0}, ' ([0-9]+):', 1), '') AS INT), 0) <= 23 "
    "AND COALESCE(TRY_CAST(NULLIF(REGEXP_EXTRACT({0}, ':([0-9]+):', 1), '') AS INT), 0) <= 59 "
    "AND COALESCE(TRY_CAST(NULLIF(REGEXP_EXTRACT({0}, ':([0-9]+)([.]|$)', 1), '') AS INT), 0) <= 59 "
    "THEN MAKE_TIMESTAMP_NTZ(TRY_CAST(SUBSTR({0}, 1, 4) AS INT), "
    "TRY_CAST(REGEXP_EXTRACT({0}, '^[0-9]+-([0-9]+)', 1) AS INT), "
    "LEAST(TRY_CAST(REGEXP_EXTRACT({0}, '^[0-9]+-[0-9]+-([0-9]+)', 1) AS INT), DAY(LAST_DAY(MAKE_DATE("
    "TRY_CAST(SUBSTR({0}, 1, 4) AS INT), TRY_CAST(REGEXP_EXTRACT({0}, '^[0-9]+-([0-9]+)', 1) AS INT), 1)))), "
    "COALESCE(TRY_CAST(NULLIF(REGEXP_EXTRACT({0}, ' ([0-9]+):', 1), '') AS INT), 0), "
    "COALESCE(TRY_CAST(NULLIF(REGEXP_EXTRACT({0}, ':([0-9]+):', 1), '') AS INT), 0), "
    "TRY_CAST(CONCAT(COALESCE(NULLIF(REGEXP_EXTRACT({0}, ':([0-9]+)([.]|$)', 1), ''), '0'), "
    "SUBSTR(REGEXP_EXTRACT({0}, '([.][0-9]+)$', 1), 1, 7)) AS DECIMAL(8, 6))) END")


def _to_timestamp(args):
    """Flink's TO_TIMESTAMP is NULL for a text its pattern does not read (Spark's fails under ANSI); with a pattern
    it falls back to java.sql.Timestamp's lenient reading (lenient_timestamps.py)."""
    if len(args) == 1:
        return spark_template(_TO_TIMESTAMP_TEXT, list(args))
    from ..lenient_timestamps import to_timestamp_with_pattern
    return to_timestamp_with_pattern(*args)


def _to_date(args):
    """TO_DATE(text, pattern): Flink's lenient SimpleDateFormat where the pattern is one lenient_dates.py computes;
    else Spark's TRY_TO_DATE (Flink's TO_DATE is NULL for a text its pattern does not read; Spark's TO_DATE fails
    under ANSI). TO_DATE(text) is Flink's DateTimeUtils.parseDate: the text up to a blank as [y]-[m]-[d], a year
    in 0..9999 (its isIllegalDate), as Spark's cast reads it; the year 0 Flink gives (0000-01-01) is NULL here, a
    year no DATE of dynsql holds (nor Python's), and a longer year Spark reads is NULL as in Flink."""
    lenient = lenient_to_date(*args) if len(args) == 2 else None
    if lenient is not None:
        return lenient
    call = "TRY_TO_DATE({0})" if len(args) == 1 else "TRY_TO_DATE({0}, {1})"
    return spark_template("CASE WHEN YEAR(%s) BETWEEN 1 AND 9999 THEN %s END" % (call, call), list(args))


def _split_index(args):
    # Flink: split by the literal separator, 0-based index, NULL when out of range or negative.
    # '\Q...\E' quotes the separator for Spark's regex split; the index is written once (spark_template)
    return spark_template("CASE WHEN {2} >= 0 THEN TRY_ELEMENT_AT(SPLIT({0}, CONCAT('\\\\Q', {1}, '\\\\E')), "
                          "{2} + 1) ELSE NULL END", list(args))


def _timestampadd(args):
    unit, n, ts = args
    return _call("TIMESTAMPADD", exp.var(unit.name.upper()), n, ts)


def _unix_timestamp(args):
    if not args:
        return _call("UNIX_TIMESTAMP")
    return _call("UNIX_TIMESTAMP", *args)


def _listagg(args):
    sep = args[1] if len(args) > 1 else _lit(",")
    return _call("ARRAY_JOIN", _call("COLLECT_LIST", args[0]), sep)


def _json_value(args):
    return _call("GET_JSON_OBJECT", args[0], args[1])


def _from_unixtime(args):
    return _call("FROM_UNIXTIME", *args)


# Flink's CONVERT_TZ (DateTimeUtils.convertTz) takes and returns 'yyyy-MM-dd HH:mm:ss' text, read in the first
# zone by a java.util SimpleDateFormat: a wall-clock time that happens twice (a DST change back) is the later of
# the two instants (standard time), where Spark's zone conversions take the earlier. The later one is the time
# less the offset an instant 3 hours on has, when that instant reads back as the same wall-clock time.
_CONVERT_TZ = (
    "DATE_FORMAT(FROM_UTC_TIMESTAMP(TRANSFORM(ARRAY(TO_TIMESTAMP({0})), t -> "
    "TRANSFORM(ARRAY(TO_UTC_TIMESTAMP(t, {1})), u -> "
    "TRANSFORM(ARRAY(t - (FROM_UTC_TIMESTAMP(u + INTERVAL 3 HOURS, {1}) - (u + INTERVAL 3 HOURS))), c -> "
    "IF(c > u AND FROM_UTC_TIMESTAMP(c, {1}) = t, c, u))[0])[0])[0], {2}), 'yyyy-MM-dd HH:mm:ss')")


def _convert_tz(args):
    return spark_template(_CONVERT_TZ, args)


def _now(args):
    return exp.CurrentTimestamp()


def _proctime(args):
    return exp.CurrentTimestamp()


def _date_format(args):
    return _call("DATE_FORMAT", *args)


def _element(args):
    arr = args[0]
    return exp.Case(ifs=[exp.If(this=exp.EQ(this=_call("SIZE", arr), expression=_lit(1)),
                                true=_call("ELEMENT_AT", arr, _lit(1)))],
                    default=exp.Null())


_SAME = "same"

FLINK_FUNCTIONS = {
    # comparison / logic
    "COALESCE": FunctionMapping("conditional"), "IF": FunctionMapping("conditional"),
    "NULLIF": FunctionMapping("conditional"), "IFNULL": FunctionMapping("conditional"),
    "IS_DIGIT": FunctionMapping("string", args=(1, 1), rewrite=lambda a: exp.RegexpLike(this=a[0], expression=_lit("^[0-9]+$"))),
    "IS_ALPHA": FunctionMapping("string", args=(1, 1), rewrite=lambda a: exp.RegexpLike(this=a[0], expression=_lit("^[A-Za-z]+$"))),
    "GREATEST": FunctionMapping("conditional"), "LEAST": FunctionMapping("conditional"),
    # arithmetic
    "ABS": FunctionMapping("math"), "MOD": FunctionMapping("math"), "POWER": FunctionMapping("math"),
    "SQRT": FunctionMapping("math"),
    "EXP": FunctionMapping("math"), "LN": FunctionMapping("math"), "LOG10": FunctionMapping("math"),
    "LOG2": FunctionMapping("math"), "LOG": FunctionMapping("math"), "CEIL": FunctionMapping("math"),
    "CEILING": FunctionMapping("math", spark="CEIL"), "FLOOR": FunctionMapping("math"),
    "ROUND": FunctionMapping("math"),     # TRUNCATE: functions/math.py
    "SIGN": FunctionMapping("math"), "SIN": FunctionMapping("math"), "COS": FunctionMapping("math"),
    "TAN": FunctionMapping("math"), "ASIN": FunctionMapping("math"), "ACOS": FunctionMapping("math"),
    "ATAN": FunctionMapping("math"), "ATAN2": FunctionMapping("math"), "DEGREES": FunctionMapping("math"),
    "RADIANS": FunctionMapping("math"), "PI": FunctionMapping("math"), "E": FunctionMapping("math"),
    "RAND": FunctionMapping("math"), "RAND_INTEGER": FunctionMapping("math", args=(1, 2), rewrite=lambda a: exp.Cast(
        this=_call("FLOOR", exp.Mul(this=_call("RAND"), expression=a[-1])), to=exp.DataType.build("INT"))),
    "UUID": FunctionMapping("math"), "BIN": FunctionMapping("math"), "HEX": FunctionMapping("math"),
    # strings
    "CHAR_LENGTH": FunctionMapping("string"), "CHARACTER_LENGTH": FunctionMapping("string"),
    "UPPER": FunctionMapping("string"), "LOWER": FunctionMapping("string"), "INITCAP": FunctionMapping("string"),
    "CONCAT": FunctionMapping("string"), "CONCAT_WS": FunctionMapping("string"),
    "SUBSTRING": FunctionMapping("string"), "SUBSTR": FunctionMapping("string"),
    "TRIM": FunctionMapping("string"), "LTRIM": FunctionMapping("string"), "RTRIM": FunctionMapping("string"),
    "REPLACE": FunctionMapping("string"), "REPEAT": FunctionMapping("string"), "REVERSE": FunctionMapping("string"),
    "LPAD": FunctionMapping("string"), "RPAD": FunctionMapping("string"), "LEFT": FunctionMapping("string"),
    "RIGHT": FunctionMapping("string"), "POSITION": FunctionMapping("string"), "LOCATE": FunctionMapping("string"),
    "INSTR": FunctionMapping("string"), "ASCII": FunctionMapping("string"), "CHR": FunctionMapping("string"),
    "REGEXP_REPLACE": FunctionMapping("string"), "REGEXP_EXTRACT": FunctionMapping("string"),
    "REGEXP": FunctionMapping("string", spark="REGEXP_LIKE"),
    "SPLIT_INDEX": FunctionMapping("string", args=(3, 3), rewrite=_split_index),
    "MD5": FunctionMapping("string"), "SHA1": FunctionMapping("string"),
    "SHA256": FunctionMapping("string", args=(1, 1), rewrite=lambda a: _call("SHA2", a[0], _lit(256))),
    "TO_BASE64": FunctionMapping("string", spark="BASE64"),
    # Flink's FROM_BASE64 returns a STRING, Spark's UNBASE64 bytes
    "FROM_BASE64": FunctionMapping("string", args=(1, 1), rewrite=lambda a: exp.Cast(
        this=_call("UNBASE64", a[0]), to=exp.DataType.build("STRING"))),
    "JSON_VALUE": FunctionMapping("json", args=(2, None), rewrite=_json_value),
    "STR_TO_MAP": FunctionMapping("string"),
    # temporal
    "DATE_FORMAT": FunctionMapping("temporal", rewrite=_date_format),
    "TO_TIMESTAMP_LTZ": FunctionMapping("temporal", args=(1, 3)),      # written by bind/time_zones.py
    "TO_TIMESTAMP": FunctionMapping("temporal", rewrite=_to_timestamp),
    "TO_DATE": FunctionMapping("temporal", rewrite=_to_date, args=(1, 2)),
    "TIMESTAMPADD": FunctionMapping("temporal", args=(3, 3), rewrite=_timestampadd),
    "TIMESTAMPDIFF": FunctionMapping("temporal"),
    "UNIX_TIMESTAMP": FunctionMapping("temporal", rewrite=_unix_timestamp),
    "FROM_UNIXTIME": FunctionMapping("temporal", rewrite=_from_unixtime),
    "NOW": FunctionMapping("temporal", rewrite=_now),
    "CURRENT_TIMESTAMP": FunctionMapping("temporal"), "LOCALTIMESTAMP": FunctionMapping("temporal"),
    "CURRENT_DATE": FunctionMapping("temporal"), "CURRENT_ROW_TIMESTAMP": FunctionMapping("temporal", rewrite=_now),
    "PROCTIME": FunctionMapping("temporal", rewrite=_proctime),
    "YEAR": FunctionMapping("temporal"), "QUARTER": FunctionMapping("temporal"), "MONTH": FunctionMapping("temporal"),
    "WEEK": FunctionMapping("temporal", spark="WEEKOFYEAR"), "DAYOFYEAR": FunctionMapping("temporal"),
    "DAYOFMONTH": FunctionMapping("temporal"), "DAYOFWEEK": FunctionMapping("temporal"),
    "HOUR": FunctionMapping("temporal"), "MINUTE": FunctionMapping("temporal"), "SECOND": FunctionMapping("temporal"),
    "EXTRACT": FunctionMapping("temporal"), "CONVERT_TZ": FunctionMapping("temporal", args=(3, 3), rewrite=_convert_tz),
    # collections
    "CARDINALITY": FunctionMapping("collection", spark="SIZE"),
    "ELEMENT": FunctionMapping("collection", args=(1, 1), rewrite=_element),
    "ARRAY_CONTAINS": FunctionMapping("collection"), "ARRAY_DISTINCT": FunctionMapping("collection"),
    "ARRAY_JOIN": FunctionMapping("collection"), "MAP_KEYS": FunctionMapping("collection"),
    "MAP_VALUES": FunctionMapping("collection"),
    # aggregates
    "COUNT": FunctionMapping("aggregate", aggregate=True), "SUM": FunctionMapping("aggregate", aggregate=True),
    "AVG": FunctionMapping("aggregate", aggregate=True), "MIN": FunctionMapping("aggregate", aggregate=True),
    "MAX": FunctionMapping("aggregate", aggregate=True),
    "STDDEV_POP": FunctionMapping("aggregate", aggregate=True), "STDDEV_SAMP": FunctionMapping("aggregate", aggregate=True),
    "VAR_POP": FunctionMapping("aggregate", aggregate=True), "VAR_SAMP": FunctionMapping("aggregate", aggregate=True),
    "COLLECT": FunctionMapping("aggregate", aggregate=True, rewrite=lambda a: _call("COLLECT_LIST", *a)),
    "LISTAGG": FunctionMapping("aggregate", aggregate=True, args=(1, 2), rewrite=_listagg),
    "FIRST_VALUE": FunctionMapping("aggregate", aggregate=True), "LAST_VALUE": FunctionMapping("aggregate", aggregate=True),
    # planned by planner/aggregate_functions.py (their arguments are fields: never mapped to Spark by name)
    "ARRAY_AGG": FunctionMapping("aggregate", aggregate=True), "JSON_ARRAYAGG": FunctionMapping("aggregate", aggregate=True),
    "JSON_OBJECTAGG": FunctionMapping("aggregate", aggregate=True),
    "APPROX_COUNT_DISTINCT": FunctionMapping("aggregate", aggregate=True),
    # window / ranking
    "ROW_NUMBER": FunctionMapping("window"), "RANK": FunctionMapping("window"),
    "DENSE_RANK": FunctionMapping("window"), "LAG": FunctionMapping("window"), "LEAD": FunctionMapping("window"),
    "NTILE": FunctionMapping("window"), "PERCENT_RANK": FunctionMapping("window"), "CUME_DIST": FunctionMapping("window"),
    # group windows and window TVFs (planned by the window operators)
    "TUMBLE": FunctionMapping("window-tvf"), "HOP": FunctionMapping("window-tvf"),
    "CUMULATE": FunctionMapping("window-tvf"), "SESSION": FunctionMapping("window-tvf"),
    "TUMBLE_START": FunctionMapping("group-window"), "TUMBLE_END": FunctionMapping("group-window"),
    "TUMBLE_ROWTIME": FunctionMapping("group-window"), "HOP_START": FunctionMapping("group-window"),
    "HOP_END": FunctionMapping("group-window"), "SESSION_START": FunctionMapping("group-window"),
    "SESSION_END": FunctionMapping("group-window"), "DESCRIPTOR": FunctionMapping("window-tvf"),
    # MATCH_RECOGNIZE
    "MATCH_ROWTIME": FunctionMapping("match_recognize"), "MATCH_PROCTIME": FunctionMapping("match_recognize"),
    "CLASSIFIER": FunctionMapping("match_recognize"), "MATCH_NUMBER": FunctionMapping("match_recognize"),
    "PREV": FunctionMapping("match_recognize"), "NEXT": FunctionMapping("match_recognize"),
    "FIRST": FunctionMapping("match_recognize"), "LAST": FunctionMapping("match_recognize"),
    # casts
    "CAST": FunctionMapping("conversion"), "TRY_CAST": FunctionMapping("conversion"),
    # Flink names types in upper case (INT, STRING, DECIMAL(10, 2)); nullability is not known here
    "TYPEOF": FunctionMapping("conversion", args=(1, 2), rewrite=lambda a: _call("UPPER", _call("TYPEOF", a[0]))),
}

# Functions Flink has that dynsql does not map (yet): named in the error so the user knows it is Flink's.
FLINK_UNMAPPED = {
    "JSON_QUERY", "JSON_OBJECT", "JSON_ARRAY", "JSON_EXISTS", "JSON_STRING", "URL_DECODE", "URL_ENCODE",
    "PARSE_URL", "SOURCE_WATERMARK", "CURRENT_WATERMARK", "ENCODE", "DECODE", "OVERLAY", "TRANSLATE",
}

_AGGREGATE_NAMES = {n for n, m in FLINK_FUNCTIONS.items() if m.aggregate}


def is_aggregate_name(name):
    return name.upper() in _AGGREGATE_NAMES


def map_anonymous(node):
    """Rewrite an `exp.Anonymous` Flink call into Spark's form; raise for unknown functions."""
    name = node.name.upper()
    mapping = FLINK_FUNCTIONS.get(name)
    if mapping is None:
        if name in FLINK_UNMAPPED:
            raise UnsupportedError("Flink function %s is not supported by dynsql yet" % name)
        raise SqlError("No match found for function signature %s(...)" % name,
                       hint="SHOW FUNCTIONS lists the functions dynsql knows")
    if mapping.rewrite is not None:
        _check_argument_count(name, mapping.args, len(node.expressions))
        return mapping.rewrite(list(node.expressions))
    if mapping.spark:
        return _call(mapping.spark, *node.expressions)
    return node


def _check_argument_count(name, bounds, count):
    """Flink's "Invalid number of arguments to function 'X'. Was expecting 3 arguments" for a call whose
    rewrite would not find the arguments it reads."""
    if bounds is None:
        return
    fewest, most = bounds
    if count >= fewest and (most is None or count <= most):
        return
    if fewest == most:
        expected = "%d argument%s" % (fewest, "" if fewest == 1 else "s")
    elif most is None:
        expected = "at least %d arguments" % fewest
    else:
        expected = "%d to %d arguments" % (fewest, most)
    raise SqlError("Invalid number of arguments to function '%s'. Was expecting %s" % (name, expected))


# ---------------------------------------------------------------------- calls sqlglot parses into typed nodes
# sqlglot reads some Flink calls into typed nodes (exp.Greatest, exp.RegexpExtract, ...), which never reach
# `map_anonymous`; where Spark's function of the same name differs from Flink's, `map_parsed` rewrites them.

def _spark_call(name, *args):
    node = _call(name, *args)
    node.meta["spark"] = True
    return node


def _parsed_greatest(node, name):
    """Flink's GREATEST / LEAST are NULL when an argument is NULL (Spark's skip NULLs); each argument written
    once (spark_template)."""
    args = [node.this] + list(node.expressions)
    places = ", ".join("{%d}" % i for i in range(len(args)))
    nulls = " OR ".join("{%d} IS NULL" % i for i in range(len(args)))
    return spark_template("CASE WHEN %s THEN NULL ELSE %s(%s) END" % (nulls, name, places), args)


def _parsed_regexp_extract(node):
    # sqlglot's base parser reads Flink's third argument (the group) as `position`, which its Spark
    # generator drops; Flink's default group is 0 (the whole match), Spark's is 1
    # Flink gives NULL when the pattern does not match (Spark: '')
    group = node.args.get("group") or node.args.get("position") or _lit(0)
    extract = _spark_call("REGEXP_EXTRACT", node.this.copy(), node.expression.copy(), group.copy())
    return exp.Case(ifs=[exp.If(this=exp.RegexpLike(this=node.this.copy(), expression=node.expression.copy()),
                                true=extract)], default=exp.Null())


# STR_TO_MAP as Flink's SqlFunctionUtils.strToMap builds it: the text split by the pair delimiter (a regex, as
# Java's String.split, whose empty pieces at the end are dropped), each piece split once by the key-value
# delimiter (a piece without one is a key with a NULL value), put into CollectionUtil.newHashMapWithExpectedSize(
# pieces): a java.util.HashMap<String, String>. Spark splits the text into its (key, value) pieces; the map is
# made by the Python kernel DYNSQL_STR_TO_MAP_ENTRIES (runtime/connectors/map_order.py: a key put twice at its
# first place with its last value, the entries in that HashMap's order, tree bins and all, by the simulation the
# JSON formats' maps and COLLECT use).
_STR_TO_MAP_PIECES = "SLICE({0}, 1, COALESCE(ARRAY_MAX(TRANSFORM({0}, (p, i) -> IF(p != '', i + 1, 0))), 0))"
_STR_TO_MAP_PAIRS = ("TRANSFORM({0}, p -> TRANSFORM(ARRAY(SPLIT(p, {1}, 2)), kv -> NAMED_STRUCT("
                     "'k', IF(SIZE(kv) < 2, p, kv[0]), 'v', IF(SIZE(kv) < 2, CAST(NULL AS STRING), kv[1])))[0])")
_STR_TO_MAP_IN_HASH_MAP_ORDER = "MAP_FROM_ENTRIES(DYNSQL_STR_TO_MAP_ENTRIES({0}))"


# Python's words for a regular expression that Java's java.util.regex refuses too (an unclosed or unmatched
# group or class, a quantifier with nothing before it): the other refusals of Python's `re` may be Java syntax
_JAVA_REFUSES_TOO = ("missing ), unterminated subpattern", "unbalanced parenthesis", "unterminated character set",
                     "nothing to repeat")


def _check_delimiter(node, delim, which):
    """STR_TO_MAP's literal delimiter `delim` is a regular expression (Java's String.split): one Java refuses
    fails the query in words that name the function and the delimiter (Spark's text named neither)."""
    if not isinstance(delim, exp.Literal) or not delim.is_string:
        return
    import re as python_re
    try:
        python_re.compile(delim.this)
    except python_re.error as e:
        if any(e.msg.startswith(m) for m in _JAVA_REFUSES_TOO):
            raise SqlError("STR_TO_MAP's %s delimiter '%s' is not a valid regular expression (it splits the text "
                           "as Java's String.split): %s at position %d" % (which, delim.this, e.msg, e.pos or 0),
                           hint="a special character is written with a backslash before it, as '\\('") \
                from None


def _parsed_str_to_map(node):
    """Flink's STR_TO_MAP: Java's split of the text into a HashMap<String, String> sized for its pieces, the
    entries in that map's order."""
    pair = node.args.get("pair_delim") or _lit(",")
    kv = node.args.get("key_value_delim") or _lit("=")   # Flink's default, Spark's is ':'
    _check_delimiter(node, pair, "pair")
    _check_delimiter(node, kv, "key-value")
    pieces = spark_template(_STR_TO_MAP_PIECES, [_spark_call("SPLIT", node.this.copy(), pair.copy(), _lit(-1))])
    pairs = spark_template(_STR_TO_MAP_PAIRS, [pieces, kv.copy()])
    return spark_template(_STR_TO_MAP_IN_HASH_MAP_ORDER, [pairs])


def _parsed_regexp_replace(node):
    """Flink's REGEXP_REPLACE puts the replacement in as written (Java's Matcher.quoteReplacement): '$1' and '\1'
    are text, not groups, where Spark's reads them as groups."""
    return spark_template(r"REGEXP_REPLACE({0}, {1}, REPLACE(REPLACE({2}, '\\', '\\\\'), '$', '\\$'))",
                          [node.this.copy(), node.expression.copy(), node.args["replacement"].copy()])


# EXTRACT's units Spark's EXTRACT lacks (or names otherwise), as Calcite computes them: MILLISECOND and smaller
# are the second's fraction only (10:00:03.250 has 250 milliseconds), CENTURY and MILLENNIUM count from year 1,
# EPOCH is the seconds since 1970-01-01 00:00:00 of the wall-clock time
_EXTRACT_UNITS = {
    "MILLISECOND": "CAST(FLOOR(DATE_PART('SECOND', {0}) * 1000) % 1000 AS BIGINT)",
    "MICROSECOND": "CAST(FLOOR(DATE_PART('SECOND', {0}) * 1000000) % 1000000 AS BIGINT)",
    "NANOSECOND": "CAST(FLOOR(DATE_PART('SECOND', {0}) * 1000000) % 1000000 AS BIGINT) * 1000",
    "DECADE": "CAST(FLOOR(YEAR({0}) / 10) AS BIGINT)",
    "CENTURY": "CAST(IF(YEAR({0}) > 0, (YEAR({0}) + 99) DIV 100, (YEAR({0}) - 99) DIV 100) AS BIGINT)",
    "MILLENNIUM": "CAST(IF(YEAR({0}) > 0, (YEAR({0}) + 999) DIV 1000, (YEAR({0}) - 999) DIV 1000) AS BIGINT)",
    "EPOCH": "UNIX_SECONDS(CAST({0} AS TIMESTAMP))",
    "ISODOW": "CAST(EXTRACT(DAYOFWEEK_ISO FROM {0}) AS BIGINT)",
    "ISOYEAR": "CAST(EXTRACT(YEAROFWEEK FROM {0}) AS BIGINT)",
}


def _parsed_extract(node):
    text = _EXTRACT_UNITS.get(node.this.name.upper())
    return spark_template(text, [node.expression.copy()]) if text is not None else node


_PARSED = {
    exp.Extract: _parsed_extract,
    exp.RegexpReplace: _parsed_regexp_replace,
    exp.Greatest: lambda n: _parsed_greatest(n, "GREATEST"),
    exp.Least: lambda n: _parsed_greatest(n, "LEAST"),
    exp.RegexpExtract: _parsed_regexp_extract,
    exp.StrToMap: _parsed_str_to_map,
    # Flink's CONCAT_WS skips NULL arguments, as Spark's does (sqlglot would make it NULL-if-any-NULL)
    exp.ConcatWs: lambda n: _spark_call("CONCAT_WS", *[e.copy() for e in n.expressions]),
    exp.FromBase64: lambda n: exp.Cast(this=_spark_call("UNBASE64", n.this.copy()), to=exp.DataType.build("STRING")),
    exp.Typeof: lambda n: _spark_call("UPPER", _spark_call("TYPEOF", n.this.copy())),
    exp.Week: lambda n: _spark_call("WEEKOFYEAR", n.this.copy()),
}


def is_mapped_call(node):
    """Whether `map_anonymous` or `map_parsed` rewrites `node` (and may refuse it)."""
    return isinstance(node, exp.Anonymous) or type(node) in _PARSED


def map_parsed(node):
    """A typed sqlglot call node -> its Flink semantics on Spark (the node itself when nothing differs).
    The query planner calls it for every node, as it calls `map_anonymous` for anonymous calls."""
    rewrite = _PARSED.get(type(node))
    return rewrite(node) if rewrite is not None else node

from . import collections as functions_collections  # noqa: E402  (Flink's ARRAY_* / MAP_* functions, in their own module)
functions_collections.register(FLINK_FUNCTIONS, FunctionMapping)
from . import json as functions_json  # noqa: E402  (Flink's JSON functions, in their own module)
functions_json.register(FLINK_FUNCTIONS, FunctionMapping)

# Flink's semantics where Spark's functions differ, and the functions Spark has under other names: one module
# an area, registered here
from . import flink_builtins, math as functions_math, strings as functions_string  # noqa: E402

for _area in (functions_string, functions_math):
    FLINK_FUNCTIONS.update(_area.functions(FunctionMapping))
    _PARSED.update(_area.parsed())
    FLINK_UNMAPPED |= _area.REFUSED
FLINK_UNMAPPED = (FLINK_UNMAPPED | flink_builtins.NAMES) - set(FLINK_FUNCTIONS)     # Flink's, refused by name


# ---------------------------------------------------------------------- return types
from . import return_types  # noqa: E402

RETURN_TYPES = return_types.rules()          # name -> rule(node, args, typeof) -> Flink type
_CALL_TYPES = {**functions_collections.RETURN_TYPES, **functions_json.RETURN_TYPES}   # rule(types, args)


def return_type_rule(name, node):
    """The return-type rule of a call of `name` (`node`: the sqlglot call), or None when none is known."""
    if isinstance(node, exp.Anonymous):
        rule = _CALL_TYPES.get(name)
        if rule is not None:
            return lambda n, args, typeof: _flink_words(name, rule, [typeof(a) for a in args], args)
    return RETURN_TYPES.get(name)


def _flink_words(name, rule, types, args):
    """A collection function's refusal as Flink words it: the call with its argument types (the reason as a hint)."""
    try:
        return rule(types, args)
    except SqlError as err:
        if name not in functions_collections.RETURN_TYPES or not err.message.startswith("Invalid function call: "):
            raise
        from ..signatures import CALCITE, calcite_refusal
        refusal = calcite_refusal(name, types, (err.line, err.column)) if name in CALCITE else None
        if refusal is not None:           # CARDINALITY, ELEMENT: Calcite's operators in Flink
            raise refusal from None
        given = ", ".join(t.text() if t is not None else "?" for t in types)
        raise SqlError("Invalid function call:\n%s(%s)" % (name, given), err.line, err.column,
                       hint=err.message[len("Invalid function call: "):]) from None


# ---------------------------------------------------------------------- functions added at run time
USER_FUNCTIONS = set()                       # names register_function added


def register_function(name, returns, signatures=None, spark=None, translate=None, doc=""):
    """Add scalar function `name` (or replace one added before); a built-in function's name is refused.

    returns     its Flink type as text ('INT', 'DECIMAL(10, 2)', 'ARRAY<STRING>'): nullable, as Flink types a
                function's result; or a callable(argument Flink types) -> FlinkType
    signatures  the argument types it takes: [(type text, ...), ...], one tuple a signature; a call whose
                arguments fit none is Flink's "Invalid function call" error at bind time (an INT argument fits
                a BIGINT or DOUBLE parameter, any string type a STRING one, NULL any). None: any arguments
    spark       the Spark SQL function the call becomes (e.g. the name a Python UDF is registered under on
                the session); None with no `translate`: the same name
    translate   or a callable(args: [Spark sqlglot trees]) -> the Spark sqlglot tree of the call"""
    from ..types import parse_type
    key = name.upper()
    if key in FLINK_FUNCTIONS and key not in USER_FUNCTIONS or key in FLINK_UNMAPPED:
        raise SqlError("Function %s is a built-in function: it cannot be registered again" % key)
    parsed = [tuple(parse_type(x) for x in sig) for sig in signatures] if signatures is not None else None
    result = parse_type(returns) if isinstance(returns, str) else None
    counts = [len(sig) for sig in parsed] if parsed is not None else None
    FLINK_FUNCTIONS[key] = FunctionMapping("user-defined", spark=spark, rewrite=translate, doc=doc,
                                           args=(min(counts), max(counts)) if counts else None)
    RETURN_TYPES[key] = _user_return_rule(key, parsed, result if result is not None else returns)
    USER_FUNCTIONS.add(key)


def unregister_function(name):
    """Take away a function register_function added; False when there was none."""
    key = name.upper()
    if key not in USER_FUNCTIONS:
        return False
    USER_FUNCTIONS.discard(key)
    FLINK_FUNCTIONS.pop(key, None)
    RETURN_TYPES.pop(key, None)
    return True


def _user_return_rule(name, signatures, returns):
    def rule(node, args, typeof):
        types = [typeof(a) for a in args]
        if signatures is not None and not any(_fits(types, sig) for sig in signatures):
            given = ", ".join(x.text(with_null=False) if x is not None else "?" for x in types)
            expected = "; ".join("%s(%s)" % (name, ", ".join(p.text(with_null=False) for p in sig))
                                 for sig in signatures)
            raise SqlError("Invalid function call: %s(%s)" % (name, given), hint="the signatures: " + expected)
        if callable(returns):
            return returns(types)
        out = copy.copy(returns)
        out.nullable = True
        return out
    return rule


_STRINGS = {"CHAR", "VARCHAR", "STRING"}
_WIDENS_TO = {"TINYINT": 0, "SMALLINT": 1, "INT": 2, "BIGINT": 3, "DECIMAL": 4, "FLOAT": 5, "DOUBLE": 6}


def _fits(types, signature):
    """Whether arguments of `types` can be passed as `signature`'s parameters (Flink's implicit casts)."""
    if len(types) != len(signature):
        return False
    for given, wanted in zip(types, signature):
        if given is None or given.name == "NULL":
            continue
        if given.name in _STRINGS and wanted.name in _STRINGS:
            continue
        if given.name in _WIDENS_TO and wanted.name in _WIDENS_TO:
            if _WIDENS_TO[given.name] <= _WIDENS_TO[wanted.name]:
                continue
            return False
        if given.name != wanted.name:
            return False
    return True
