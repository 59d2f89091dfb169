"""Flink's math, hash and conditional functions where Spark's function of the same name differs, and those
Spark has under another name; registered into `functions.FLINK_FUNCTIONS` (anonymous calls) and its
typed-node rewrites, as functions_string.py does for strings. Checked against Flink 2.3's outputs by
tests/test_function_table.py.

Not here: arithmetic operators, CAST, aggregates (their own areas)."""

from typing import NamedTuple, Optional

from sqlglot import exp

from ...errors import UnsupportedError
from ..arithmetic import template
from ..casts import NOT_A_DECIMAL, no_decimal_error
from ..spark_template import spark_template

_INTEGRAL = ("TINYINT", "SMALLINT", "INT", "BIGINT")


def flink_type(arg):
    """The Flink type of a resolved argument (None when it cannot be told)."""
    from ..translate import typer, typeof_now      # (the binder imports this module's registry)
    known = typeof_now(arg)                       # inside to_spark: the type the argument had before its rewrite
    if known is not None:
        return known
    try:
        return typer({})(arg)
    except Exception:
        return None


def _truncate(args):
    """TRUNCATE(x [, d]): toward zero to d decimals (d < 0: tens, hundreds, ...), in x's type; a DOUBLE
    through its shortest decimal text, as Flink's BigDecimal.valueOf does."""
    x = args[0]
    d = args[1] if len(args) > 1 else exp.Literal.number(0)
    ft = flink_type(x)
    name = ft.name if ft is not None else None
    if name in ("DOUBLE", "FLOAT"):
        return _decimal_of("CAST(IF(_x < 0, CEIL(CAST(_x AS DECIMAL(38, 18)), _d), "
                           "FLOOR(CAST(_x AS DECIMAL(38, 18)), _d)) AS %s)" % name, "TRUNCATE", x=x, d=d)
    if name == "DECIMAL":
        p, s = ft.params
        scale = int(d.name) if isinstance(d, exp.Literal) and not d.is_string else s
        return spark_template("CAST(IF({0} < 0, CEIL({0}, {1}), FLOOR({0}, {1})) AS DECIMAL(%d, %d))"
                              % (p, max(0, min(scale, s))), [x, d])
    if name in _INTEGRAL:
        return spark_template("CAST(IF({0} < 0, CEIL({0}, {1}), FLOOR({0}, {1})) AS %s)" % name, [x, d])
    return spark_template("IF({0} < 0, CEIL({0}, {1}), FLOOR({0}, {1}))", [x, d])


def _decimal_of(text, name, **operands):
    """Spark SQL `text` over a FLOAT/DOUBLE `_x`, computed through x's decimal value, failing with dynsql's words
    where x is NaN or an infinity: Flink's ROUND and TRUNCATE fail there (BigDecimal has no such value; Spark's
    give x or NULL)."""
    return template("if(%s, %s, %s)" % (NOT_A_DECIMAL, no_decimal_error(name), text), **operands)


def _round(node):
    ft = flink_type(node.this)
    if ft is None or ft.name not in ("DOUBLE", "FLOAT"):
        return node
    d = node.args.get("decimals")
    if d is None:
        return _decimal_of("ROUND(_x)", "ROUND", x=node.this)
    return _decimal_of("ROUND(_x, _d)", "ROUND", x=node.this, d=d)


def _java_math(name, arity=1):
    """Spark SQL text of java.lang.Math's `name` over `{0}` (`{1}`), the function Flink calls (Spark's EXP, LN,
    LOG10, POWER are StrictMath's, which differ in the last digit for some inputs: EXP(1), LOG10(4)); through
    Spark's reflection, whose text of the double (Double.toString) reads back to the same double. NULL for
    a NULL argument (reflection would fail on it)."""
    args = ["{%d}" % i for i in range(arity)]
    return ("CASE WHEN %s THEN NULL ELSE CAST(java_method('java.lang.Math', '%s', %s) AS DOUBLE) END"
            % (" OR ".join("%s IS NULL" % a for a in args), name,
               ", ".join("CAST(%s AS DOUBLE)" % a for a in args)))


_JAVA_LOG = _java_math("log")
_STRICT = {"exp": "EXP", "log": "LN", "log10": "LOG10", "pow": "POWER"}     # Spark's: StrictMath's


class JoinCondition(NamedTuple):
    """A join condition as Spark takes it (join_condition_sql)."""
    sql: Optional[str]          # what the join tests (None: nothing)
    left: list                  # [(name, Spark SQL)]: columns computed on the left input, below the join
    right: list                 # the same for the right input
    after: Optional[str]        # (an INNER join's) what the joined rows are filtered by


def join_condition_sql(sql, left=(), right=(), inner=False):
    """A join condition's Spark SQL that Spark accepts there -> JoinCondition. Spark's analyzer counts a call by
    reflection as nondeterministic and refuses it in a join condition: a java.lang.Math call that reads the
    columns of one side only (`left`, `right`: their names) is computed on that side, below the join, as a column
    `__jmN` the condition reads; a conjunct with one that reads both sides filters the joined rows of an `inner`
    join (a Filter may call it), and is Spark's own function elsewhere (StrictMath's: the last digit may differ
    from Flink's)."""
    if "java_method(" not in sql.lower():
        return JoinCondition(sql, [], [], None)
    import sqlglot
    left, right = set(left), set(right)
    below, crossing = ([], []), []

    def lifted(n, in_lambda=False):
        """`n` with its largest parts that call java.lang.Math and read one side's columns computed below."""
        if not any(_is_java_math(c) for c in n.walk()):
            return n
        if not in_lambda and not isinstance(n, (exp.Lambda, exp.PropertyEQ)):     # (not `a0 := ..` of a struct)
            bound = {i.name for lam in n.find_all(exp.Lambda) for i in lam.expressions}
            names = {c.name for c in n.find_all(exp.Column) if c.name not in bound and c.table not in bound}
            side = 0 if names <= left else 1 if names <= right else None
            if side is not None:
                name = "__jm%d" % (len(below[0]) + len(below[1]))
                below[side].append((name, n.sql(dialect="spark")))
                return exp.column(name, quoted=True)
            if _is_java_math(n):
                crossing.append(n)
        elif _is_java_math(n):
            crossing.append(n)
        for key, value in list(n.args.items()):
            inside = in_lambda or isinstance(n, exp.Lambda)
            if isinstance(value, exp.Expression):
                n.set(key, lifted(value, inside))
            elif isinstance(value, list):
                n.set(key, [lifted(v, inside) if isinstance(v, exp.Expression) else v for v in value])
        return n

    def strict(n):
        if _is_java_math(n) and n.expressions[1].name in _STRICT:
            return exp.Anonymous(this=_STRICT[n.expressions[1].name], expressions=n.expressions[2:])
        return n
    kept, after = [], []
    for part in _conjuncts(sqlglot.parse_one(sql, read="spark")):
        crossing.clear()
        part = lifted(part)
        if not crossing:
            kept.append(part)
        elif inner:
            after.append(part)
        else:
            kept.append(part.transform(strict))

    def text(parts):
        return " AND ".join("(%s)" % p.sql(dialect="spark") for p in parts) if parts else None
    return JoinCondition(text(kept), below[0], below[1], text(after))


def _conjuncts(tree):
    while isinstance(tree, exp.Paren):
        tree = tree.this
    if isinstance(tree, exp.And):
        return _conjuncts(tree.this) + _conjuncts(tree.expression)
    return [tree]


def _is_java_math(n):
    return isinstance(n, exp.Anonymous) and n.name.lower() == "java_method" and len(n.expressions) > 2 and \
        n.expressions[0].name == "java.lang.Math"


def _log(node):
    """LN(x), LOG(x), LOG10(x), LOG2(x), LOG(b, x): java.lang.Math's log, -Infinity at 0, NaN below."""
    if isinstance(node, exp.Ln) or node.args.get("expression") is None:
        return spark_template(_JAVA_LOG, [node.this])
    base, x = node.this, node.expression
    if isinstance(base, exp.Literal) and not base.is_string and base.name == "10":
        return spark_template(_java_math("log10"), [x])
    # Flink: Math.log(x) / Math.log(b); a base of 1 keeps the cases written before (Spark's `/` fails on 0)
    return spark_template(
        "CASE WHEN {0} IS NULL OR {1} IS NULL THEN NULL WHEN {0} != 1 THEN (%s) / (%s) "
        "WHEN {0} = 1 AND {1} > 0 THEN LOG({0}, {1}) "
        "ELSE CAST('NaN' AS DOUBLE) END" % (_JAVA_LOG.replace("{0}", "{1}"), _JAVA_LOG), [base, x])


def _floor_ceil(node):
    """FLOOR(x) / CEIL(x) of a DOUBLE or FLOAT as Java's Math.floor / Math.ceil: NaN, the infinities, -0.0 and
    the integral values past 2^52 are x itself, CEIL of a number in (-1, 0) is -0.0 (Spark's go through a BIGINT:
    NaN became 0.0, -0.0 became 0.0)."""
    if node.args.get("to") is not None or node.args.get("decimals") is not None:
        return node
    ft = flink_type(node.this)
    if ft is None or ft.name not in ("DOUBLE", "FLOAT"):
        return node
    ceil = isinstance(node, exp.Ceil)
    return spark_template(
        "CASE WHEN isnan({0}) OR abs({0}) >= 4503599627370496D OR {0} = 0 THEN {0} "
        + ("WHEN {0} < 0 AND {0} > -1 THEN CAST(CAST('-0.0' AS DOUBLE) AS %s) " % ft.name if ceil else "")
        + "ELSE CAST(%s({0}) AS %s) END" % ("CEIL" if ceil else "FLOOR", ft.name), [node.this])


def _seeded(name):
    raise UnsupportedError("%s with a seed is not supported: Spark's generator gives other numbers than "
                           "Flink's (java.util.Random) for the same seed" % name)


def _rand_integer(args):
    if len(args) == 2:
        _seeded("RAND_INTEGER")
    return spark_template("CAST(FLOOR(RAND() * {0}) AS INT)", args)


def _rand(node):
    if node.this is not None:
        _seeded("RAND")
    return node


def functions(mapping):
    """{Flink name: FunctionMapping} of the calls sqlglot leaves anonymous."""
    return {
        "TRUNCATE": mapping("math", args=(1, 2), rewrite=_truncate),
        "RAND_INTEGER": mapping("math", args=(1, 2), rewrite=_rand_integer),
    }


def parsed():
    """{sqlglot node class: rewrite(node)} of the calls sqlglot parses into typed nodes."""
    return {
        exp.Rand: _rand,
        exp.Ln: _log,
        # Flink fails on a bit length other than 224, 256, 384 or 512 (Spark: NULL; 0 is 256)
        exp.SHA2: lambda n: spark_template(
            "CASE WHEN {0} IS NULL OR {1} IS NULL THEN NULL WHEN {1} IN (224, 256, 384, 512) THEN SHA2({0}, {1}) "
            "ELSE RAISE_ERROR(CONCAT('SHA2: unsupported hash length ', CAST({1} AS STRING), "
            "' (224, 256, 384 or 512)')) END", [n.this, n.args.get("length") or exp.Literal.number(256)]),
        exp.Log: _log,
        exp.Exp: lambda n: spark_template(_java_math("exp"), [n.this]),
        exp.Pow: lambda n: spark_template(_java_math("pow", 2), [n.this, n.expression]),
        exp.Floor: _floor_ceil,
        exp.Round: _round,
        exp.Ceil: _floor_ceil,
        exp.Trunc: lambda n: _truncate([n.this] + ([n.args["decimals"]] if n.args.get("decimals") else [])),
    }


REFUSED = set()
