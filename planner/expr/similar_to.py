"""`s [NOT] SIMILAR TO pattern [ESCAPE c]`: the SQL standard's regular expressions, as Flink runs them (Calcite's
`SqlLikeUtils.sqlToRegexSimilar`): the whole string must match; `_` is any character, `%` any run of them;
`| * + ? {m,n} ( ) [ ]` keep their regular-expression meaning; every other character is itself; the ESCAPE
character makes the next one literal. `similar_to_regexp(node, position)` turns the node into Spark's RLIKE
over the translated (anchored) Java regular expression; the pattern must be a string literal."""

from sqlglot import exp

from ..errors import SqlError, UnsupportedError

_REGEX_OPERATORS = set("|*+?{}()[]")
_SPECIAL = set("\\.^$")          # Java regex characters that SIMILAR TO reads as themselves


def similar_to_regexp(node, position):
    """exp.SimilarTo (possibly under exp.Escape) -> exp.RegexpLike."""
    escape = None
    if isinstance(node, exp.Escape):
        escape = _literal_text(node.expression, "ESCAPE", position)
        if len(escape) != 1:
            raise SqlError("Invalid escape sequence '%s': an ESCAPE is one character" % escape, *position)
        node = node.this
    pattern = _literal_text(node.expression, "SIMILAR TO", position)
    return exp.RegexpLike(this=node.this, expression=exp.Literal.string(similar_regex(pattern, escape, position)))


def similar_regex(pattern, escape=None, position=(None, None)):
    out, i, bracket = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if escape is not None and c == escape:
            if i + 1 >= len(pattern):
                raise SqlError("Invalid escape sequence '%s': the pattern ends after its ESCAPE character"
                               % pattern, *position)
            out.append(_literal(pattern[i + 1]))
            i += 2
            continue
        if bracket:
            if c == "]":
                bracket = False
            out.append("\\\\" if c == "\\" else c)
        elif c == "_":
            out.append(".")
        elif c == "%":
            out.append(".*")
        elif c == "[":
            bracket = True
            out.append(c)
        elif c in _REGEX_OPERATORS:
            out.append(c)
        else:
            out.append(_literal(c))
        i += 1
    return "^(?:" + "".join(out) + ")$"


def _literal(c):
    return "\\" + c if c in _SPECIAL or c in _REGEX_OPERATORS or c in "_%" else c


def _literal_text(node, what, position):
    if not (isinstance(node, exp.Literal) and node.is_string):
        raise UnsupportedError("%s needs a string literal here" % what, *position)
    return node.this
