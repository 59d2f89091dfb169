"""TIMESTAMP_LTZ and the session time zone ('table.local-time-zone') on a Spark session that runs in UTC.

Both TIMESTAMP and TIMESTAMP_LTZ are Spark TIMESTAMPs, and Spark's session zone is always UTC: a TIMESTAMP
holds its wall-clock time as if it were UTC, a TIMESTAMP_LTZ its instant. What Flink computes in the session
zone is written here with Spark's explicit conversions, the zone a literal of the expression:
- CAST between TIMESTAMP_LTZ and TIMESTAMP / DATE / STRING (`FROM_UTC_TIMESTAMP` one way, `TO_UTC_TIMESTAMP`
  the other), and a TIMESTAMP_LTZ (or TIMESTAMP) cast to STRING with its precision's fraction digits;
- the fields of a TIMESTAMP_LTZ (HOUR, EXTRACT, DAYOFMONTH, ...), DATE_FORMAT of one (any DATE_FORMAT's
  pattern as Flink reads it: date_patterns.py), FLOOR / CEIL ... TO;
- CURRENT_DATE, LOCALTIMESTAMP, LOCALTIME (CURRENT_TIMESTAMP and NOW are instants: nothing to convert);
- FROM_UNIXTIME (the text of an epoch second in the zone), UNIX_TIMESTAMP(text[, format]) (the text read in
  the zone), TO_TIMESTAMP_LTZ (an epoch number at a precision of 0 to 9, or a text read in UTC or in
  the zone its third argument names).

`tag(tree, ctx)` writes the statement's zone into every node of a resolved tree (`meta["time_zone"]`), so that
a tree rules take apart and finish again keeps it; `localize(node, typeof)` is the Spark form of one node, or
None when the zone does not change it (`bind.expressions.to_spark` asks for each node, its arguments already
in Spark's form and typed through `typeof`). A tree without the tag is in UTC."""

from sqlglot import exp

from ..errors import SqlError
from ..literals import integer_literal
from .date_patterns import format_call

ZONE_KEY = "table.local-time-zone"
_STRINGS = ("CHAR", "VARCHAR")
_FIELDS = (exp.Hour, exp.Minute, exp.Second, exp.Year, exp.Month, exp.Quarter, exp.Week, exp.DayOfMonth,
           exp.DayOfYear, exp.DayOfWeek, exp.Extract)
_NIL_LOCAL = {"CURRENT_DATE", "LOCALTIMESTAMP", "LOCALTIME", "CURRENT_TIME"}


def session_zone(settings):
    zone = settings.get(ZONE_KEY) if settings is not None else None
    return "UTC" if not zone or zone == "default" else zone


def tag(tree, ctx):
    """`tree` with the session zone of `ctx` in each node's meta (nothing written for UTC)."""
    zone = session_zone(getattr(ctx, "settings", None)) if ctx is not None else "UTC"
    if zone != "UTC":
        for node in tree.walk():
            node.meta["time_zone"] = zone
    return tree


def _call(name, *args):
    node = exp.Anonymous(this=name, expressions=list(args))
    node.meta["spark"] = True                 # Spark's own function: not mapped again
    return node


def _lit(v):
    return exp.Literal.number(v) if isinstance(v, int) else exp.Literal.string(v)


def flink_trunc(unit, x):
    """FLOOR(x TO unit) as Flink rounds a date-time: Spark's DATE_TRUNC, but a week starts on Sunday (Calcite's
    floor of a WEEK; Spark's on Monday)."""
    if unit != "WEEK":
        return _call("DATE_TRUNC", _lit(unit), x)
    back = _call("MAKE_DT_INTERVAL", exp.Sub(this=_call("DAYOFWEEK", x.copy()), expression=_lit(1)))
    return exp.Sub(this=_call("DATE_TRUNC", _lit("DAY"), x), expression=back)


def _local(x, zone):
    """An instant -> its wall-clock time in `zone`."""
    return _call("FROM_UTC_TIMESTAMP", x, _lit(zone)) if zone != "UTC" else x


def _instant(x, zone):
    """A wall-clock time in `zone` -> its instant."""
    return _call("TO_UTC_TIMESTAMP", x, _lit(zone)) if zone != "UTC" else x


def _name(ft):
    return ft.name if ft is not None else None


def _precision(ft, default=6):
    return ft.params[0] if ft is not None and ft.params else default


def timestamp_text(x, precision):
    """Flink's CAST(<timestamp> AS STRING): 'yyyy-MM-dd HH:mm:ss' and `precision` fraction digits."""
    pattern = "yyyy-MM-dd HH:mm:ss" + ("." + "S" * precision if precision else "")
    return _call("DATE_FORMAT", x, _lit(pattern))


def localize(node, typeof):
    zone = node.meta.get("time_zone", "UTC")
    if isinstance(node, (exp.Cast, exp.TryCast)):
        return _cast(node, typeof, zone)
    if isinstance(node, exp.Anonymous) and not node.meta.get("spark"):
        handler = _CALLS.get(node.name.upper())
        return handler(node, typeof, zone) if handler is not None else None
    if zone == "UTC":
        return None
    if isinstance(node, _FIELDS):
        arg_key = "expression" if isinstance(node, exp.Extract) else "this"
        if _name(typeof(node.args.get(arg_key))) == "TIMESTAMP_LTZ":
            node.set(arg_key, _local(node.args[arg_key], zone))     # in place: the field itself as before
        return None
    if isinstance(node, (exp.Floor, exp.Ceil)) and node.args.get("to") is not None \
            and _name(typeof(node.this)) == "TIMESTAMP_LTZ":
        return _floor_ceil(node, zone)
    if isinstance(node, exp.CurrentDate):
        return _nil_local("CURRENT_DATE", zone)
    if isinstance(node, exp.Column) and "field" not in node.meta and not node.table and not node.this.quoted \
            and node.name.upper() in _NIL_LOCAL:
        return _nil_local(node.name.upper(), zone)
    return None


def _cast(node, typeof, zone):
    target, source = node.meta.get("flink_type"), typeof(node.this)
    to, frm = _name(target), _name(source)
    if target is None or source is None:
        return None
    x = node.this
    if frm == "TIMESTAMP_LTZ" and to in ("TIMESTAMP", "DATE"):
        node.set("this", _local(x, zone))
        return None                       # the cast itself as before (TIMESTAMP's precision, DATE)
    if frm in ("TIMESTAMP", "TIMESTAMP_LTZ") and to in _STRINGS:
        from .casts import fit_string        # VARCHAR(n) cuts, CHAR(n) pads, as for any CAST to a string
        return fit_string(timestamp_text(_local(x, zone) if frm == "TIMESTAMP_LTZ" else x, _precision(source)),
                          target)
    if frm in ("TIMESTAMP", "TIMESTAMP_LTZ") and to == "TIME":     # TIME is carried as its text (types.py)
        p = min(_precision(target, 0), 3)
        return _call("DATE_FORMAT", _local(x, zone) if frm == "TIMESTAMP_LTZ" else x,
                     _lit("HH:mm:ss" + ("." + "S" * p if p else "")))
    if to == "TIMESTAMP_LTZ" and frm in ("TIMESTAMP", "DATE") + _STRINGS and zone != "UTC":
        from .translate import _spark_cast
        return _instant(_spark_cast(node), zone)
    return None


def _floor_ceil(node, zone):
    """As Flink's timestampFloor / timestampCeil: the local time rounded, less the offset of the instant itself
    (across a DST change the result keeps the offset the value had)."""
    unit = node.args["to"].name.upper()
    x = node.this
    local = _local(x.copy(), zone)
    trunc = flink_trunc(unit, local)
    rounded = trunc if isinstance(node, exp.Floor) else exp.If(
        this=exp.EQ(this=trunc.copy(), expression=local.copy()), true=trunc.copy(),
        false=exp.Add(this=trunc.copy(), expression=exp.Interval(this=exp.Literal.string("1"), unit=exp.var(unit))))
    shift = exp.Sub(this=_call("UNIX_MICROS", rounded), expression=_call("UNIX_MICROS", local.copy()))
    return _call("TIMESTAMP_MICROS", exp.Add(this=_call("UNIX_MICROS", x), expression=exp.Paren(this=shift)))


def _nil_local(name, zone):
    local = _local(exp.CurrentTimestamp(), zone)
    if name == "CURRENT_DATE":
        return _call("TO_DATE", local)
    if name == "LOCALTIMESTAMP":
        return local
    return _call("DATE_FORMAT", local, _lit("HH:mm:ss"))


# ---------------------------------------------------------------------- calls
def _date_format(node, typeof, zone):
    args = node.expressions
    if len(args) != 2:
        return None
    ft = typeof(args[0])      # (its operand types were checked with the others': operand_checks.py)
    return format_call(_local(args[0], zone) if _name(ft) == "TIMESTAMP_LTZ" else args[0], args[1])


def _from_unixtime(node, typeof, zone):
    args = node.expressions
    if not 1 <= len(args) <= 2:
        return None                           # the mapping's own count check
    pattern = args[1] if len(args) == 2 else _lit("yyyy-MM-dd HH:mm:ss")
    return format_call(_local(_call("TIMESTAMP_SECONDS", args[0]), zone), pattern)


def _unix_timestamp(node, typeof, zone):
    """As Flink's (a SimpleDateFormat): the text's first part that reads as the pattern counts ('2024-03-15
    08:30:00.250' is 08:30:00; '8:30:00' is read too), a text that does not read is Long.MIN_VALUE, not an error."""
    args = node.expressions
    if not args or len(args) > 2:
        return None                           # UNIX_TIMESTAMP(): now, the same in every zone
    text = args[0]
    if len(args) == 1:
        prefix = _call("REGEXP_EXTRACT", text.copy(),
                       _lit(r"^\s*(\d{1,4}-\d{1,2}-\d{1,2} \d{1,2}:\d{1,2}:\d{1,2})"), exp.Literal.number(1))
        read = _call("TRY_TO_TIMESTAMP", prefix, _lit("y-M-d H:m:s"))
    else:
        pattern = args[1]
        read = _call("COALESCE", _call("TRY_TO_TIMESTAMP", text.copy(), pattern.copy()), _call(
            "TRY_TO_TIMESTAMP", _call("SUBSTRING", text.copy(), exp.Literal.number(1), _call("LENGTH", pattern.copy())),
            pattern.copy()))
    seconds = _call("UNIX_SECONDS", _instant(read, zone))
    return exp.If(this=exp.Is(this=text.copy(), expression=exp.Null()), true=exp.Null(),
                  false=_call("COALESCE", seconds, exp.Cast(this=_lit("-9223372036854775808"),
                                                            to=exp.DataType.build("BIGINT"))))


_INTEGERS = ("TINYINT", "SMALLINT", "INT", "BIGINT")
_DEFAULT_TEXT_PATTERN = "yyyy-MM-dd HH:mm:ss[.SSSSSS][.SSS]"


def _to_timestamp_ltz(node, typeof, zone):
    """TO_TIMESTAMP_LTZ(epoch[, precision]) and TO_TIMESTAMP_LTZ(text[, format[, zone]])."""
    args = node.expressions
    if not 1 <= len(args) <= 3:
        raise SqlError("Invalid number of arguments to function 'TO_TIMESTAMP_LTZ'. Was expecting 1 to 3 arguments")
    if _name(typeof(args[0])) in _STRINGS:
        pattern = args[1] if len(args) > 1 else _lit(_DEFAULT_TEXT_PATTERN)
        local = _call("TRY_TO_TIMESTAMP", args[0], pattern)
        # read in the zone the third argument names, else in UTC (not the session's zone), as Flink does
        return _call("TO_UTC_TIMESTAMP", local, args[2]) if len(args) == 3 else local
    if len(args) == 3:
        raise SqlError("TO_TIMESTAMP_LTZ takes a format and a time zone only after a text to read")
    precision = args[1] if len(args) == 2 else _lit(3)
    # a BIGINT (an INT's microseconds overflow an INT); a DECIMAL's or DOUBLE's whole units, as Flink's
    whole = args[0] if _name(typeof(args[0])) in _INTEGERS else _call("FLOOR", args[0])
    x = exp.Cast(this=whole, to=exp.DataType.build("BIGINT"))
    if isinstance(precision, exp.Literal) and not precision.is_string:
        p = integer_literal(precision, "TO_TIMESTAMP_LTZ precision")
        if p <= 6:
            return _call("TIMESTAMP_MICROS", exp.Mul(this=x, expression=_lit(10 ** (6 - p))))
        return _call("TIMESTAMP_MICROS", _whole_micros(x, _lit(10 ** (p - 6))))
    # a precision computed per row: 10^(6 - p) microseconds a unit, or 1 / 10^(p - 6)
    up = exp.Cast(this=_call("POWER", _lit(10), exp.Sub(this=_lit(6), expression=precision)),
                  to=exp.DataType.build("BIGINT"))
    down = exp.Cast(this=_call("POWER", _lit(10), exp.Sub(this=precision.copy(), expression=_lit(6))),
                    to=exp.DataType.build("BIGINT"))
    micros = exp.Case(ifs=[exp.If(this=exp.LTE(this=precision.copy(), expression=_lit(6)),
                                  true=exp.Mul(this=x, expression=up))], default=_whole_micros(x.copy(), down))
    return _call("TIMESTAMP_MICROS", micros)


def _whole_micros(x, per_micro):
    """`x` units of 1 / `per_micro` microsecond -> whole microseconds, rounded down (a BIGINT's digits kept)."""
    return exp.IntDiv(this=exp.Paren(this=exp.Sub(this=x, expression=_call("PMOD", x.copy(), per_micro))),
                      expression=per_micro.copy())


_CALLS = {"DATE_FORMAT": _date_format, "FROM_UNIXTIME": _from_unixtime, "UNIX_TIMESTAMP": _unix_timestamp,
          "TO_TIMESTAMP_LTZ": _to_timestamp_ltz}


def to_timestamp_ltz_type(args, typeof):
    """Flink's type of TO_TIMESTAMP_LTZ(args): TIMESTAMP_LTZ(6) and (9) at those precisions, else (3)."""
    if len(args) == 2 and _name(typeof(args[0])) not in _STRINGS and isinstance(args[1], exp.Literal) \
            and args[1].name in ("6", "9"):
        return "TIMESTAMP_LTZ(%s)" % args[1].name
    return "TIMESTAMP_LTZ(3)"


def window_time_zone(time_attribute, ctx):
    """The zone windows over `time_attribute` (a Field) are aligned in: the session's over a TIMESTAMP_LTZ (a
    proctime is one), None over a TIMESTAMP."""
    t = time_attribute.type
    if t is None or t.name != "TIMESTAMP_LTZ":
        return None
    return session_zone(getattr(ctx, "settings", None))
