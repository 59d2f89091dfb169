"""Flink's JSON function clauses for the sqlglot dialect (planner/dialect.py registers these parsers):
`JSON_VALUE(j, path [RETURNING type] [NULL | ERROR | DEFAULT e ON EMPTY] [... ON ERROR])`,
`JSON_QUERY(j, path [WITH [CONDITIONAL | UNCONDITIONAL] [ARRAY] WRAPPER | WITHOUT [ARRAY] WRAPPER]
[NULL | EMPTY ARRAY | EMPTY OBJECT | ERROR ON EMPTY] [... ON ERROR])`, `JSON_EXISTS(j, path [TRUE | FALSE |
UNKNOWN | ERROR ON ERROR])` and `JSON_ARRAY(v, ... [NULL | ABSENT ON NULL])`, `JSON_ARRAYAGG(v [NULL | ABSENT ON NULL])`. Each becomes an `exp.Anonymous`
call of the function's name whose arguments after the value and the path are `JsonOption`s; JSON_OBJECT is
sqlglot's own `exp.JSONObject`. What the clauses mean is planner/functions_json.py's."""

from sqlglot import exp


class JsonOption(exp.Expression):
    """One clause of a JSON function: `this` its words (`RETURNING`, `DEFAULT ON EMPTY`, `NULL ON ERROR`,
    `WITH CONDITIONAL ARRAY WRAPPER`, `ABSENT ON NULL`, ...), `expression` a DEFAULT's value, `to` RETURNING's
    type."""
    arg_types = {"this": True, "expression": False, "to": False}

    @property
    def words(self):
        return self.args["this"]


def _option_sql(gen, e):
    words = e.words
    if words == "RETURNING":
        return "RETURNING " + gen.sql(e, "to")
    if e.args.get("expression") is not None:          # DEFAULT <e> ON EMPTY
        first, _, rest = words.partition(" ")
        return "%s %s %s" % (first, gen.sql(e, "expression"), rest)
    return words


TRANSFORMS = {JsonOption: _option_sql}


def _behaviour(self, choices, targets):
    """`<choice> ON <target>` -> JsonOption, or None (nothing consumed)."""
    index = self._index
    for words in choices:
        if words == ("DEFAULT",):
            if not self._match_text_seq("DEFAULT"):
                continue
            value = self._parse_bitwise()
            for target in targets:
                if self._match_text_seq("ON", target):
                    return JsonOption(this="DEFAULT ON " + target, expression=value)
            self._retreat(index)
            return None
        if self._match_text_seq(*words):
            for target in targets:
                if self._match_text_seq("ON", target):
                    return JsonOption(this="%s ON %s" % (" ".join(words), target))
            self._retreat(index)
    return None


def _wrapper(self):
    for words in (("WITHOUT", "ARRAY", "WRAPPER"), ("WITHOUT", "WRAPPER"),
                  ("WITH", "CONDITIONAL", "ARRAY", "WRAPPER"), ("WITH", "CONDITIONAL", "WRAPPER"),
                  ("WITH", "UNCONDITIONAL", "ARRAY", "WRAPPER"), ("WITH", "UNCONDITIONAL", "WRAPPER"),
                  ("WITH", "ARRAY", "WRAPPER"), ("WITH", "WRAPPER")):
        if self._match_text_seq(*words):
            return JsonOption(this=" ".join(words))
    return None


def _arguments(self, name, clause_parsers):
    from sqlglot.tokens import TokenType
    args = [self._parse_disjunction()]
    if args[0] is None:
        self.raise_error("Expecting a JSON text as the first argument of %s" % name)
    if not self._match(TokenType.COMMA):
        self.raise_error("Expecting , and a JSON path in %s" % name)
    args.append(self._parse_disjunction())
    if args[-1] is None:
        self.raise_error("Expecting a JSON path as the second argument of %s" % name)
    while self._curr and self._curr.token_type != TokenType.R_PAREN:
        option = None
        for parse in clause_parsers:
            option = parse(self)
            if option is not None:
                break
        if option is None:
            self.raise_error("Unexpected %s in %s" % (self._curr.text, name))
            break                   # (an error level that collects errors goes on: no endless loop here)
        args.append(option)
    return exp.Anonymous(this=name, expressions=[a for a in args if a is not None])


def _returning(self):
    if self._match_text_seq("RETURNING"):
        return JsonOption(this="RETURNING", to=self._parse_types())
    return None


def _parse_json_value(self):
    return _arguments(self, "JSON_VALUE", [
        _returning, lambda p: _behaviour(p, (("NULL",), ("ERROR",), ("DEFAULT",)), ("EMPTY", "ERROR"))])


def _parse_json_query(self):
    return _arguments(self, "JSON_QUERY", [
        _returning, _wrapper,
        lambda p: _behaviour(p, (("NULL",), ("ERROR",), ("EMPTY", "ARRAY"), ("EMPTY", "OBJECT")),
                             ("EMPTY", "ERROR"))])


def _parse_json_exists(self):
    return _arguments(self, "JSON_EXISTS", [
        lambda p: _behaviour(p, (("TRUE",), ("FALSE",), ("UNKNOWN",), ("ERROR",)), ("ERROR",))])


def _parse_json_array(self):
    from sqlglot.tokens import TokenType
    args = []
    while self._curr and self._curr.token_type != TokenType.R_PAREN:
        option = _behaviour(self, (("NULL",), ("ABSENT",)), ("NULL",))
        if option is not None:
            args.append(option)
            continue
        start = self._index
        value = self._parse_disjunction()
        if value is None or self._index == start:
            self.raise_error("Unexpected %s in JSON_ARRAY" % self._curr.text)
            break                   # nothing read: no endless loop
        args.append(value)
        self._match(TokenType.COMMA)
    return exp.Anonymous(this="JSON_ARRAY", expressions=args)


def _parse_json_arrayagg(self):
    args = [self._parse_disjunction()]
    option = _behaviour(self, (("NULL",), ("ABSENT",)), ("NULL",))
    if option is not None:          # a Var: an aggregate call is compared by its Spark SQL text
        args.append(exp.Var(this=option.words))
    return exp.Anonymous(this="JSON_ARRAYAGG", expressions=args)


FUNCTION_PARSERS = {
    "JSON_ARRAYAGG": _parse_json_arrayagg,
    "JSON_VALUE": _parse_json_value,
    "JSON_QUERY": _parse_json_query,
    "JSON_EXISTS": _parse_json_exists,
    "JSON_ARRAY": _parse_json_array,
}
