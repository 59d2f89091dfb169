"""Flink 2.3's CAST written as Spark SQL (under Spark's ANSI mode), where Spark's CAST gives another answer.

Numbers to integers narrow as Java does, not with Spark's overflow error: an integer keeps its low bits
(CAST(300 AS TINYINT) is 44), a DOUBLE/FLOAT saturates to INT/BIGINT first (NaN is 0), a DECIMAL is truncated
and wraps modulo 2^64. A number that does not fit a DECIMAL(p, s) is NULL (of a NOT NULL number: fails, as Flink
fails writing that NULL into the cast's NOT NULL column); a NaN or an infinity fails. BOOLEAN to a string is
'TRUE' / 'FALSE'; a TIMESTAMP(p) to a string has exactly p fraction digits; an ARRAY, MAP or ROW is written as
Flink writes it ('[1, NULL]', '{k=v}', '(a, TRUE)', at any depth); CHAR(n) pads and VARCHAR(n) cuts. What Flink
refuses at run time (a malformed string to a number, a date, a boolean) stays Spark's error, which
runtime/errors.py words as dynsql's. `rewrite(node, source, target, sub)` -> the Spark tree, or None when
Spark's CAST is Flink's."""

from sqlglot import exp

from .arithmetic import INTEGRAL_BITS, WRAP_DECIMAL, template, wrap_integral

_FLOATING = ("FLOAT", "DOUBLE")
_SATURATE = {"INT": ("-2147483648D", "2147483647D"), "BIGINT": ("-9223372036854775808D", "9223372036854775807D")}


def rewrite(node, source, target, sub):
    if source is None or target is None:
        return None
    s, t = source.name, target.name
    if t in INTEGRAL_BITS and s in ("STRING", "VARCHAR", "CHAR"):      # Flink reads '1.5' as 1, TRY_CAST too
        cast = "try_cast" if isinstance(node, exp.TryCast) else "CAST"
        return template("%s(regexp_replace(_x, '^( *[+-]?[0-9]+)[.][0-9]*( *)$', '$1$2') AS %s)" % (cast, t),
                        x=sub(node.this))
    if t == "TIME" and s in ("STRING", "VARCHAR", "CHAR", "TIME"):
        return _time_text(node, target, sub)
    if t == "BOOLEAN" and s in ("STRING", "VARCHAR", "CHAR"):
        return _boolean_text(node, sub)
    if isinstance(node, exp.TryCast):
        return None
    if t in INTEGRAL_BITS and s in INTEGRAL_BITS:
        if INTEGRAL_BITS[t] >= INTEGRAL_BITS[s]:
            return None
        return wrap_integral(template("CAST(_x AS BIGINT)", x=sub(node.this)), t)
    if t in INTEGRAL_BITS and s in _FLOATING:
        wide = "BIGINT" if t == "BIGINT" else "INT"
        lo, hi = _SATURATE[wide]
        # (not greatest/least: Spark's skip a NULL, and NULL became the bound)
        saturated = template("CAST(CASE WHEN isnan(_x) THEN 0D WHEN _x < %s THEN %s WHEN _x > %s THEN %s ELSE _x END "
                             "AS %s)" % (lo, lo, hi, hi, wide), x=sub(node.this))
        return saturated if t in ("INT", "BIGINT") else \
            wrap_integral(template("CAST(_x AS BIGINT)", x=saturated), t)
    if t in INTEGRAL_BITS and s == "DECIMAL":
        x = sub(node.this)
        as_bigint = template("coalesce(try_cast(_x AS BIGINT), %s)"
                             % (WRAP_DECIMAL % "if(_x < 0, ceil(_x), floor(_x))"), x=x)
        return as_bigint if t == "BIGINT" else wrap_integral(as_bigint, t)
    if t == "DECIMAL" and s in _FLOATING:          # NaN and the infinities: Flink fails (BigDecimal has none)
        p, sc = target.params
        return template("if(%s, %s, %s)" % (
            NOT_A_DECIMAL, no_decimal_error("CAST to DECIMAL(%d, %d)" % (p, sc)), _decimal_fit(source, p, sc)),
            x=sub(node.this))
    if t == "DECIMAL" and (s in INTEGRAL_BITS or s == "DECIMAL"):
        p, sc = target.params
        return template(_decimal_fit(source, p, sc), x=sub(node.this))
    if t in ("STRING", "VARCHAR", "CHAR"):
        return _to_string(node, source, target, sub)
    return None


NOT_A_DECIMAL = "isnan(_x) OR abs(_x) = double('Infinity')"


def _decimal_fit(source, p, sc):
    """A number `_x` as DECIMAL(p, sc): NULL when it does not fit, as Flink's cast gives; but a cast of a NOT NULL
    value is typed NOT NULL, and Flink fails writing that NULL into its NOT NULL column (its sink's not-null
    enforcer: "Column 'EXPR$1' is NOT NULL, however, a null value is being written into it"): dynsql fails there
    too, naming the cast and the value. (Flink fails only where the NULL is written: a WHERE comparing it
    filters the row out; dynsql fails wherever the cast is computed.)"""
    fitted = "try_cast(_x AS DECIMAL(%d, %d))" % (p, sc)
    if source.nullable:
        return fitted
    return ("coalesce(%s, raise_error(concat('CAST to DECIMAL(%d, %d): the value ', CAST(_x AS STRING), ' does not "
            "fit DECIMAL(%d, %d); the cast is NOT NULL here (its value is), so Flink fails writing the NULL it "
            "gives')))" % (fitted, p, sc, p, sc))


def no_decimal_error(what):
    """Spark SQL failing with dynsql's words for a FLOAT/DOUBLE `_x` (NaN, Infinity or -Infinity) that `what`
    (a function Flink computes in BigDecimal) cannot take."""
    return ("raise_error(concat('%s: the floating-point value ', CAST(_x AS STRING), ' has no decimal value "
            "(Flink fails on NaN, Infinity and -Infinity here)'))" % what)


def iso_t_refused(node, source, target, spark_cast):
    """A string cast to TIMESTAMP: Flink reads 'yyyy-MM-dd HH:mm:ss[.f]' (or a date alone) and fails on the ISO
    form with a 'T' ('2024-05-01T10:00:00'), which Spark's CAST reads; TRY_CAST gives NULL for it."""
    if source is None or target is None or source.name not in ("STRING", "VARCHAR", "CHAR") \
            or target.name != "TIMESTAMP":
        return spark_cast
    if isinstance(node, exp.TryCast):
        return template("if(_x rlike '[0-9][Tt][0-9]', CAST(NULL AS TIMESTAMP), _c)", x=node.this.copy(), c=spark_cast)
    return template("if(_x rlike '[0-9][Tt][0-9]', %s, _c)" % _cast_error(
        "%s: it is not a valid TIMESTAMP value (Flink reads yyyy-MM-dd HH:mm:ss, no T)" % target.text(False)),
        x=node.this.copy(), c=spark_cast)


def _cast_error(what):
    """Spark SQL failing with "Cannot cast '<_x>' to <what>" (runtime/errors.py passes a RAISE_ERROR's words)."""
    return "raise_error(concat('Cannot cast ', char(39), _x, char(39), ' to %s'))" % what


_EDGE_SPACE = r"_x rlike '^\\s|\\s$'"


def _boolean_text(node, sub):
    """Flink reads a string as a BOOLEAN untrimmed ('true', 'y', 'yes', '1', ... in any case; ' true ' fails),
    where Spark's CAST trims white space first."""
    if isinstance(node, exp.TryCast):
        return template("if(%s, CAST(NULL AS BOOLEAN), try_cast(_x AS BOOLEAN))" % _EDGE_SPACE, x=sub(node.this))
    return template("if(%s, %s, CAST(_x AS BOOLEAN))" % (_EDGE_SPACE, _cast_error(
        "BOOLEAN: it is not a valid BOOLEAN value (Flink reads it as written, white space included)")), x=sub(node.this))


def _time_text(node, target, sub):
    """A TIME is carried as its text 'HH:mm:ss[.SSS]' (types.py): a string or TIME cast to TIME(p) is read as a
    time of day ('1:2:3' is 01:02:03) and written with p fraction digits (Spark has no TIME to cast to)."""
    p = min(target.params[0] if target.params else 0, 3)
    cast = "try_cast" if isinstance(node, exp.TryCast) else "CAST"
    return template("date_format(%s(concat('1970-01-01 ', trim(_x)) AS TIMESTAMP), 'HH:mm:ss%s')"
                    % (cast, "." + "S" * p if p else ""), x=sub(node.this))


def _to_string(node, source, target, sub):
    s = source.name
    x = sub(node.this)
    if s == "ROW":          # its fields are read by name: through a lambda variable (`_x.f` would be a table's)
        text = template("transform(array(_x), __c0 -> %s)[0]" % _text(source, "__c0", 1), x=x)
    elif s in ("BOOLEAN", "TIMESTAMP", "TIMESTAMP_LTZ", "ARRAY", "MAP", "MULTISET"):
        text = template(_text(source, "_x", 0), x=x)
    elif target.name != "STRING":
        text = template("CAST(_x AS STRING)", x=x)
    else:
        return None
    return fit_string(text, target)


def _text(t, value, depth):
    """Spark SQL text giving Flink's text of `value` (Spark SQL of Flink type `t`), NULL when it is NULL: BOOLEAN
    'TRUE'/'FALSE', TIMESTAMP(p) with p fraction digits, ARRAY '[a, NULL]', MAP '{k=v}', MULTISET '{e=count}',
    ROW '(a, NULL)', a collection's values written the same way at any depth (Flink's CAST to STRING)."""
    n = t.name
    if n == "BOOLEAN":
        return "CASE WHEN %s THEN 'TRUE' WHEN NOT %s THEN 'FALSE' END" % (value, value)
    if n in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        p = t.params[0] if t.params else 6
        return "date_format(%s, 'yyyy-MM-dd HH:mm:ss%s')" % (value, "." + "S" * p if p else "")
    if n in ("VARCHAR", "CHAR"):
        return value
    v = "__c%d" % depth
    if n == "ARRAY":
        return ("concat('[', array_join(transform(%s, %s -> coalesce(%s, 'NULL')), ', '), ']')"
                % (value, v, _text(t.children[0], v, depth + 1)))
    if n in ("MAP", "MULTISET"):          # a MULTISET is a map of each element to its count: '{a=2, b=1}'
        key = _text(t.children[0], "%s.key" % v, depth + 1)
        val = _text(t.children[1], "%s.value" % v, depth + 1) if n == "MAP" else "CAST(%s.value AS STRING)" % v
        return ("concat('{', array_join(transform(map_entries(%s), %s -> concat(coalesce(%s, 'NULL'), '=', "
                "coalesce(%s, 'NULL'))), ', '), '}')" % (value, v, key, val))
    if n == "ROW":
        fields = ", ".join("coalesce(%s, 'NULL')" % _text(ft, "%s.`%s`" % (value, fn.replace("`", "``")), depth)
                           for fn, ft in t.children)
        return "if(%s IS NULL, NULL, concat('(', concat_ws(', ', %s), ')'))" % (value, fields)
    return "CAST(%s AS STRING)" % value


def fit_string(text, target):
    """A string tree made to fit a CAST's string type: VARCHAR(n) cuts to n characters, CHAR(n) pads to n."""
    n = target.params[0] if target.params else None
    if target.name == "VARCHAR" and n is not None and n < 2147483647:
        return template("substring(_x, 1, %d)" % n, x=text)
    if target.name == "CHAR" and n is not None:
        return template("rpad(_x, %d, ' ')" % n, x=text)
    return text
