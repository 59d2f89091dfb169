"""Operands Flink 2.3's validator refuses where Spark would convert them: a comparison of types Calcite does
not compare (DATE with TIMESTAMP, TIME with TIMESTAMP, BOOLEAN with a number, a string with a number), and
MOD / % of a number that is not exact (DOUBLE, FLOAT). Each refusal in Flink's words, at the operator. Run by
`expressions.finish` over a typed tree; the types come from bind/types.py, this module only judges them."""

from sqlglot import exp

from ..errors import SqlError

_EXACT = ("TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL")
_NUMBER = _EXACT + ("FLOAT", "DOUBLE")
_STRING = ("CHAR", "VARCHAR")
_TIMES = ("DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ")
_COMPARISONS = {exp.EQ: "=", exp.NEQ: "<>", exp.LT: "<", exp.LTE: "<=", exp.GT: ">", exp.GTE: ">="}


def check_operands(tree, typeof, position):
    """Raise Flink's SqlError for the first operator in `tree` whose operand types Flink refuses."""
    for node in tree.walk():
        symbol = _COMPARISONS.get(type(node))
        if symbol is not None:
            _comparison(node, symbol, typeof, position)
        elif isinstance(node, exp.Mod):
            _mod(node, typeof, position)


def _comparison(node, symbol, typeof, position):
    a, b = typeof(node.this), typeof(node.expression)
    if a is None or b is None or a.name == b.name:
        return
    names = {a.name, b.name}
    if names & set(_STRING) and names & set(_NUMBER):
        raise SqlError("implicit type conversion between %s and %s is not supported now"
                       % (_family(a), _family(b)), *position(node))
    times = names <= set(_TIMES) and names != {"TIMESTAMP", "TIMESTAMP_LTZ"}
    if times or "BOOLEAN" in names and names & set(_NUMBER):
        raise SqlError("Cannot apply '%s' to arguments of type '<%s> %s <%s>'. Supported form(s): "
                       "'<COMPARABLE_TYPE> %s <COMPARABLE_TYPE>'" % (symbol, calcite(a), symbol, calcite(b), symbol),
                       *position(node))


def _mod(node, typeof, position):
    a, b = typeof(node.this), typeof(node.expression)
    if a is None or b is None or (a.name in _EXACT and b.name in _EXACT):
        return
    if a.name in _NUMBER and b.name in _NUMBER:
        raise SqlError("Cannot apply 'MOD' to arguments of type 'MOD(<%s>, <%s>)'. Supported form(s): "
                       "'MOD(<EXACT_NUMERIC>, <EXACT_NUMERIC>)'" % (calcite(a), calcite(b)), *position(node))


def _family(t):
    return "CHAR" if t.name in _STRING else calcite(t)


def calcite(t):
    """A type as Calcite names it in a message: INTEGER, VARCHAR(2147483647), TIMESTAMP(0)."""
    text = t.text(with_null=False)
    return {"INT": "INTEGER", "STRING": "VARCHAR(2147483647)"}.get(text, text)
