"""Flink's string functions where Spark's function of the same name differs, and those Spark has under
another name; registered into `functions.FLINK_FUNCTIONS` (calls sqlglot leaves anonymous) and its typed-node
rewrites (calls sqlglot parses into its own nodes: `exp.Initcap`, `exp.Pad`, ...). Each rewrite is Spark SQL
with Flink's semantics, checked against Flink 2.3's outputs by tests/test_function_table.py.

Not here: JSON, collection and temporal functions (their own modules), the mapping table itself
(functions.py)."""

import re

from sqlglot import exp

from ...catalog import DATABASE
from ...errors import UnsupportedError
from ..spark_template import spark_template, template

# INITCAP: Flink upper-cases an ASCII letter that starts a word and lower-cases the other ASCII letters; a
# word is a run of ASCII letters and digits (anything else, non-ASCII letters too, separates words).
# Spark's INITCAP splits on spaces only and changes every letter.
_INITCAP = ("ARRAY_JOIN(TRANSFORM(SPLIT({0}, ''), (_fc, _fi) -> CASE WHEN _fc RLIKE '^[A-Za-z]$' THEN "
            "IF(_fi = 0 OR NOT SUBSTRING({0}, _fi, 1) RLIKE '^[A-Za-z0-9]$', UPPER(_fc), LOWER(_fc)) "
            "ELSE _fc END), '')")

# LPAD / RPAD: NULL for a negative length or an empty pad (Spark: '' and the string cut to the length).
_PAD = "CASE WHEN {1} < 0 OR {2} = '' THEN NULL ELSE %s({0}, {1}, {2}) END"


def _initcap(node):
    return spark_template(_INITCAP, [node.this])


def _pad(node):
    name = "LPAD" if node.args.get("is_left") else "RPAD"
    fill = node.args.get("fill_pattern") or exp.Literal.string(" ")
    return spark_template(_PAD % name, [node.this, node.expression, fill])


def _substring(node):
    start = node.args.get("start") or exp.Literal.number(1)
    length = node.args.get("length")
    if length is None:
        return spark_template("SUBSTRING({0}, {1})", [node.this, start])
    # a negative length gives NULL (Spark: '')
    return spark_template("CASE WHEN {2} < 0 THEN NULL ELSE SUBSTRING({0}, {1}, {2}) END", [node.this, start, length])


def _position(node):
    position = node.args.get("position")
    if position is None:
        return spark_template("LOCATE({1}, {0})", [node.this, node.args["substr"]])
    # a start before the first character starts at the first (Spark: 0, not found)
    return spark_template("LOCATE({1}, {0}, GREATEST({2}, 1))", [node.this, node.args["substr"], position])


def _replace(node):
    # an empty search string matches between every two characters, as Java's String.replace
    return spark_template("CASE WHEN {1} = '' THEN IF({0} = '', {2}, CONCAT({2}, ARRAY_JOIN(SPLIT({0}, ''), {2}), {2})) "
                          "ELSE REPLACE({0}, {1}, {2}) END", [node.this, node.expression, node.args["replacement"]])


def _overlay(node):
    # Flink: a start outside the string gives the string; the rest after `length` characters is kept only
    # when it lies within the string and the length is positive
    s, r, start = node.this, node.expression, node.args["from_"]
    length = node.args.get("for_") or exp.Anonymous(this="CHAR_LENGTH", expressions=[r.copy()])
    return spark_template(
        "CASE WHEN {2} <= 0 OR {2} > CHAR_LENGTH({0}) THEN {0} ELSE CONCAT(SUBSTRING({0}, 1, {2} - 1), {1}, "
        "IF({2} + {3} <= CHAR_LENGTH({0}) AND {3} > 0, SUBSTRING({0}, {2} + {3}), '')) END", [s, r, start, length])


def _split(node):
    # the separator taken literally; an empty one splits into characters (no empty last element)
    return spark_template("CASE WHEN {1} = '' THEN SPLIT({0}, '') ELSE SPLIT({0}, CONCAT('\\\\Q', {1}, '\\\\E'), -1) END",
                          [node.this, node.expression])


def _elt(node):
    values = list(node.expressions)
    text = "CASE WHEN {0} BETWEEN 1 AND %d THEN ELT(%s) END" % (
        len(values), ", ".join("{%d}" % i for i in range(len(values) + 1)))
    return spark_template(text, [node.this] + values)


def _parse_url(node):
    args = [node.this, node.args["part_to_extract"]] + ([node.args["key"]] if node.args.get("key") else [])
    return _spark_call("TRY_PARSE_URL", args)      # NULL for a malformed URL (Spark: an error)


def _regexp_extract_all(node):
    """Flink: group 1 by default, NULL when the pattern has fewer groups (Spark: an error)."""
    s, pattern = node.this, node.expression
    group = node.args.get("group") or node.args.get("position") or exp.Literal.number(1)
    if pattern.is_string and isinstance(group, exp.Literal) and not group.is_string:
        try:
            groups = re.compile(pattern.name).groups
        except re.error:
            groups = None
        if groups is not None and int(group.name) > groups:
            return spark_template("CAST(NULL AS ARRAY<STRING>)", [])
    return _spark_call("REGEXP_EXTRACT_ALL", [s, pattern, group])


def _hash_code(args):
    """Java's String.hashCode: h = 31 * h + c over the UTF-16 characters, in 32-bit arithmetic."""
    from .math import flink_type
    ft = flink_type(args[0])
    if ft is None or ft.name not in ("CHAR", "VARCHAR", "STRING"):
        raise UnsupportedError("HASH_CODE of a %s is not supported yet (only of strings)"
                               % (ft.text() if ft is not None else "value of unknown type"))
    return spark_template(
        "AGGREGATE(SPLIT({0}, ''), CAST(0 AS BIGINT), (_fh, _fc) -> PMOD(_fh * 31 + ASCII(_fc), 4294967296), "
        "_fh -> CAST(IF(_fh >= 2147483648, _fh - 4294967296, _fh) AS INT))", args)


def _printf(args):
    from .math import flink_type
    for a in args[1:]:
        ft = flink_type(a)
        if ft is not None and ft.name == "DECIMAL":
            raise UnsupportedError("PRINTF with a DECIMAL argument is not supported (Flink 2.3 gives NULL for "
                                   "it); cast it to DOUBLE")
    return _spark_call("FORMAT_STRING", args)


def functions(mapping):
    """{Flink name: FunctionMapping} of the calls sqlglot leaves anonymous."""
    return {
        "BTRIM": mapping("string", args=(1, 2), rewrite=lambda a: _spark_call("BTRIM", a)),
        "SHA224": mapping("string", args=(1, 1), rewrite=template("SHA2({0}, 224)")),
        "SHA384": mapping("string", args=(1, 1), rewrite=template("SHA2({0}, 384)")),
        "SHA512": mapping("string", args=(1, 1), rewrite=template("SHA2({0}, 512)")),
        "URL_ENCODE": mapping("string", args=(1, 1), rewrite=template("URL_ENCODE({0})")),
        "URL_DECODE": mapping("string", args=(1, 1), rewrite=template("TRY_URL_DECODE({0})")),
        "PRINTF": mapping("string", args=(1, None), rewrite=_printf),
        "HASH_CODE": mapping("string", args=(1, 1), rewrite=_hash_code),
        # Flink: FALSE (not NULL) for NULL
        "IS_DIGIT": mapping("string", args=(1, 1), rewrite=template("COALESCE({0} RLIKE '^[0-9]+$', FALSE)")),
        "IS_ALPHA": mapping("string", args=(1, 1), rewrite=template("COALESCE({0} RLIKE '^[A-Za-z]+$', FALSE)")),
        "IS_DECIMAL": mapping("string", args=(1, 1), rewrite=template(
            "COALESCE({0} RLIKE '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$', FALSE)")),
        "INET_ATON": mapping("string", args=(1, 1), rewrite=template(_INET_ATON)),
        "INET_NTOA": mapping("string", args=(1, 1), rewrite=template(_INET_NTOA)),
    }


# INET_ATON: 'a.b.c.d' -> a*2^24 + b*2^16 + c*2^8 + d; a short form's last part fills the bytes left
# ('1.2.3' -> 1*2^24 + 2*2^16 + 3); NULL when a part is out of range or the text is no address
_INET_ATON = ("CASE WHEN {0} RLIKE '^[0-9]{1,10}([.][0-9]{1,10}){0,3}$' THEN AGGREGATE("
              "SPLIT({0}, '[.]'), NAMED_STRUCT('v', CAST(0 AS BIGINT), 'i', 1, 'ok', TRUE), "
              "(_fa, _fx) -> NAMED_STRUCT('v', IF(_fa.i < SIZE(SPLIT({0}, '[.]')), "
              "_fa.v + CAST(_fx AS BIGINT) * CAST(POW(256, 4 - _fa.i) AS BIGINT), _fa.v + CAST(_fx AS BIGINT)), "
              "'i', _fa.i + 1, 'ok', _fa.ok AND IF(_fa.i < SIZE(SPLIT({0}, '[.]')), CAST(_fx AS BIGINT) <= 255, "
              "CAST(_fx AS BIGINT) < CAST(POW(256, 5 - _fa.i) AS BIGINT))), "
              "_fa -> IF(_fa.ok, _fa.v, NULL)) END")
_INET_NTOA = ("CASE WHEN {0} BETWEEN 0 AND 4294967295 THEN CONCAT_WS('.', CAST(SHIFTRIGHT(CAST({0} AS BIGINT), 24) AS STRING), "
              "CAST(SHIFTRIGHT(CAST({0} AS BIGINT), 16) % 256 AS STRING), CAST(SHIFTRIGHT(CAST({0} AS BIGINT), 8) % 256 AS STRING), "
              "CAST(CAST({0} AS BIGINT) % 256 AS STRING)) END")


def parsed():
    """{sqlglot node class: rewrite(node)} of the calls sqlglot parses into typed nodes."""
    return {
        exp.Initcap: _initcap,
        exp.Pad: _pad,
        exp.Substring: _substring,
        exp.StrPosition: _position,
        exp.Replace: _replace,
        exp.Overlay: _overlay,
        exp.Split: _split,
        exp.Elt: _elt,
        exp.ParseUrl: _parse_url,
        exp.RegexpExtractAll: _regexp_extract_all,
        exp.CurrentDatabase: lambda n: exp.Literal.string(DATABASE),
        # odd length: Flink's first byte is 0 (the first digit only checked), the rest as pairs
        exp.Unhex: lambda n: spark_template(
            "CASE WHEN CHAR_LENGTH({0}) % 2 = 1 THEN IF(SUBSTRING({0}, 1, 1) RLIKE '^[0-9A-Fa-f]$', "
            "CONCAT(X'00', UNHEX(SUBSTRING({0}, 2))), NULL) ELSE UNHEX({0}) END", [n.this]),
    }


# Flink's string functions dynsql refuses by name (no Spark function with their semantics yet)
REFUSED = {"PRINT"}


def _spark_call(name, args):
    call = exp.Anonymous(this=name, expressions=[a.copy() for a in args])
    call.meta["spark"] = True
    return call
