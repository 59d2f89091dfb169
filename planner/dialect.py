"""The Flink SQL dialect for sqlglot: only what differs from sqlglot's base dialect.

- identifiers quoted with backticks, strings with single quotes;
- `TABLE t` as an argument of a table-valued function (window TVFs: `TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts),
  INTERVAL '1' HOUR))`), parsed as a `TableArgument`;
- `MATCH_RECOGNIZE ( ... )` kept as its raw text with its position (`MatchRecognizeClause`): its grammar
  (PATTERN's regular expressions, DEFINE, WITHIN, ...) is parsed by `planner.match_recognize`;
- `FOR SYSTEM_TIME AS OF expr` (sqlglot's base parser already reads it as a table `version`);
- an INTERVAL's string is kept as written: Flink's unit follows the string (`INTERVAL '5' MINUTE`), so
  sqlglot's look for a unit inside it is skipped (it read `INTERVAL '1e309' SECOND` as `INTERVAL '1' E
  AS SECOND`, and its regular expression is quadratic in the string's length: seconds for 5,000
  digits); `planner.literals` checks the string with Flink's rules;
- a syntax error speaks the SQL's language: what was expected or unexpected, never sqlglot's classes or
  tokens (`Expected an expression after "*"`, not `Required keyword: 'expression' missing for <class
  'sqlglot.expressions.core.Mul'>`), and carries the token it happened at (`error.token`, and
  `error.at_end` when the statement ended first), so that `planner.parse` can say where it is. Every
  parse with this dialect gets these messages, `sqlglot.parse_one(..., read=Flink)` included."""

import re

from sqlglot import exp, parser, tokens
from sqlglot.errors import ParseError
from sqlglot.parser import build_logarithm
from sqlglot.dialects.dialect import Dialect
from sqlglot.tokens import TokenType

from . import dialect_json



class TableArgument(exp.Expression):
    """`TABLE t [PARTITION BY k | PARTITION BY (k1, k2)]` passed to a table-valued function."""
    arg_types = {"this": True, "partition_by": False}


class MatchRecognizeClause(exp.Expression):
    """`MATCH_RECOGNIZE ( <raw> )`: raw text between the parentheses and where it starts (1-based)."""
    arg_types = {"raw": True, "line": False, "col": False, "alias": False}


def _placed(node, token):
    """A NULL / TRUE / FALSE literal with its token's place (sqlglot gives other literals theirs); `IS UNKNOWN`'s
    UNKNOWN, read as NULL, marked `unknown`."""
    node.meta.update(line=token.line, col=token.col - len(token.text) + 1, start=token.start, end=token.end)
    if token.text.upper() == "UNKNOWN":
        node.meta["unknown"] = True
    return node


def _unary_plus(start, operand):
    """`+x` is x, marked with the plus sign's offset (`unary_plus`) for the operand check Flink makes."""
    if operand is not None:
        operand.meta["unary_plus"] = start
        if not isinstance(operand, exp.Null):     # (Flink places `+NULL`'s error at the NULL)
            operand.meta["open"] = start
    return operand


def _mod_call(args):
    """MOD(a, b), marked as a call: `a % b` is the same node, refused in Flink's words for `%`."""
    node = parser.build_mod(args)
    node.meta["call"] = True
    return node


def _log_of_base(args, base, name):
    """LOG10(x) / LOG2(x) as sqlglot's Log node of that base; one argument only (sqlglot's own builders dropped a
    second)."""
    if len(args) != 1:
        message = "Too many arguments for %s: %d given, at most 1 allowed" % (name, len(args)) if args else \
            "Not enough arguments for %s: it needs one" % name
        raise ParseError.new(message, description=message)
    return exp.Log(this=exp.Literal.number(base), expression=args[0])


def _log_call(args, dialect):
    """LOG(x), LOG(b, x). LOG10(x) is java.lang.Math's log10 in Flink, LOG(10, x) Math.log(x) / Math.log(10)
    (LOG(10, 1000) is 2.9999999999999996), and sqlglot reads both as a Log node of base 10: a written base 10 is
    kept in parentheses, which tells them apart (expr/functions/math.py takes a bare literal 10 for LOG10)."""
    node = build_logarithm(args, dialect)
    base = node.this if isinstance(node, exp.Log) and node.expression is not None else None
    if isinstance(base, exp.Literal) and not base.is_string and base.name == "10":
        node.set("this", exp.Paren(this=base))
    return node


def _typed_literal(cast):
    cast.meta["typed_literal"] = True
    return cast


class Flink(Dialect):
    NORMALIZATION_STRATEGY = "case_sensitive"

    class Tokenizer(tokens.Tokenizer):
        IDENTIFIERS = ["`"]
        QUOTES = ["'"]
        STRING_ESCAPES = ["'"]
        HEX_STRINGS = [("x'", "'"), ("X'", "'")]          # X'0aff': a BINARY literal
        KEYWORDS = {
            **tokens.Tokenizer.KEYWORDS,
            "STRING": TokenType.TEXT,
            "MATCH_RECOGNIZE": TokenType.MATCH_RECOGNIZE,
        }
        KEYWORDS.pop("SESSION", None)     # SESSION(...) is a window function (legacy group window, TVF)

    class Parser(parser.Parser):
        FUNCTION_PARSERS = {**parser.Parser.FUNCTION_PARSERS, **dialect_json.FUNCTION_PARSERS}   # JSON clauses

        def raise_error(self, message, token=None):
            token = token or self._curr or self._prev
            found = self.sql[token.start:token.end + 1] if token and self.sql else ""
            message = sql_terms(message, found, not self._curr, self._tokens, token)
            try:
                super().raise_error(message, token)
            except ParseError as error:
                error.token = token
                error.at_end = not self._curr       # sqlglot's end marker is a falsy token
                raise

        # where each operand's text opens (`meta["open"]`: its offset in the statement), so that an error in a
        # CASE, a CAST, `DATE '..'`, `ARRAY[..]`, a NULL or TRUE is placed where Flink places it: at its first
        # token, not at the first column inside it (bind/context.py `start`)
        def _parse_unary(self):
            opening = self._curr
            node = super()._parse_unary()
            if opening is not None and node is not None and not isinstance(node, (exp.Paren, exp.Subquery)) \
                    and "open" not in node.meta:
                node.meta["open"] = opening.start
            return node

        def _parse_in(self, this, alias=False):
            opening = self._curr        # `(` of `x IN (a, b)`: where Flink places an error in the list
            node = super()._parse_in(this, alias)
            if opening is not None and isinstance(node, exp.In) and node.expressions:
                node.meta["list_open"] = opening.start
            return node

        UNARY_PARSERS = {
            **parser.Parser.UNARY_PARSERS,
            # `+x`: sqlglot drops it; Flink checks its operand (`+<NUMERIC>`, `+<DATETIME_INTERVAL>`)
            TokenType.PLUS: lambda self: _unary_plus(self._prev.start, self._parse_unary()),
        }

        PRIMARY_PARSERS = {
            **parser.Parser.PRIMARY_PARSERS,
            # NULL (and UNKNOWN in `IS [NOT] UNKNOWN`, marked: Flink asks a BOOLEAN of it), TRUE, FALSE with
            # their places, as other literals have theirs
            **{t: (lambda base: lambda self, token: _placed(base(self, token), token))(parser.Parser.PRIMARY_PARSERS[t])
               for t in (TokenType.NULL, TokenType.TRUE, TokenType.FALSE)},
            TokenType.HEX_STRING: lambda self, token: self._binary_literal(token),
        }

        def _binary_literal(self, token):
            """X'0aff': Flink's BINARY literal, its hexits checked as Flink's parser checks them (Calcite's)."""
            if len(token.text) % 2:
                self.raise_error("Binary literal string must contain an even number of hexits", token)
            if not re.fullmatch(r"[0-9a-fA-F]*", token.text):
                self.raise_error("Binary literal string must contain only characters '0' - '9', 'A' - 'F'", token)
            return self.expression(exp.HexString(this=token.text), token)

        def _parse_types(self, check_func=False, schema=False, allow_identifiers=True, **kwargs):
            """Flink's `ROW<name type, ..>` / `ROW(name type, ..)` type (a CAST's target), as sqlglot's STRUCT;
            anything else (the `ROW(1, 'a')` constructor too) as sqlglot reads it."""
            if self._curr and self._curr.token_type == TokenType.ROW and self._next \
                    and self._next.token_type in (TokenType.LT, TokenType.L_PAREN):
                index = self._index
                row = self._row_type()
                if row is not None:
                    return row
                self._retreat(index)
            return super()._parse_types(check_func=check_func, schema=schema, allow_identifiers=allow_identifiers,
                                        **kwargs)

        def _row_type(self):
            self._advance(2)
            close = TokenType.GT if self._prev.token_type == TokenType.LT else TokenType.R_PAREN
            fields = []
            while True:
                name = self._parse_id_var(any_token=False)
                kind = self._parse_types() if name is not None else None
                if kind is None:
                    return None
                if self._curr and self._curr.token_type == TokenType.STRING:     # a field's description
                    self._advance()
                fields.append(exp.ColumnDef(this=name, kind=kind))
                if not self._match(TokenType.COMMA):
                    break
            if not self._match(close):
                return None
            return exp.DataType(this=exp.DType.STRUCT, expressions=fields, nested=True)

        def _parse_interval_span(self, this, parse_function_unit=True):
            if this is not None and this.is_string:
                interval = super()._parse_interval_span(exp.Literal.string("0"), parse_function_unit)
                interval.set("this", this)
                return interval
            return super()._parse_interval_span(this, parse_function_unit)

        # TIMESTAMP '...' / TIME '...' literals: typed by their fraction digits, not as a CAST (expr/translate.py)
        TYPE_LITERAL_PARSERS = {
            **parser.Parser.TYPE_LITERAL_PARSERS,
            **{t: lambda self, this, data_type: _typed_literal(self.expression(exp.Cast(this=this, to=data_type)))
               for t in (exp.DType.TIMESTAMP, exp.DType.TIME)},
        }

        FUNCTIONS = {
            **parser.Parser.FUNCTIONS,
            # TIMESTAMPDIFF(unit, a, b) as written: sqlglot's node reads `b` as a unit (a column `lz` became `LZ`)
            "TIMESTAMPDIFF": lambda args: exp.Anonymous(this="TIMESTAMPDIFF", expressions=args),
            # not Flink's functions (Flink: "No match found for function signature POW(...)"): kept by their
            # names, not read as POWER / CHAR_LENGTH / sqlglot's LogicalAnd, so that the function registry refuses them
            "POW": lambda args: exp.Anonymous(this="POW", expressions=args),
            "LENGTH": lambda args: exp.Anonymous(this="LENGTH", expressions=args),
            "BOOL_AND": lambda args: exp.Anonymous(this="BOOL_AND", expressions=args),
            "BOOL_OR": lambda args: exp.Anonymous(this="BOOL_OR", expressions=args),
            "MOD": _mod_call,
            "LOG": _log_call,
            "LOG10": lambda args: _log_of_base(args, 10, "LOG10"),
            "LOG2": lambda args: _log_of_base(args, 2, "LOG2"),
        }

        LAMBDAS = {
            **parser.Parser.LAMBDAS,
            TokenType.FARROW: lambda self, expressions: self.expression(
                exp.Kwarg(this=exp.var(expressions[0].name),
                          expression=self._parse_table_argument()
                          or self._parse_disjunction() or self._parse_select())),
        }

        def _parse_table_argument(self):
            if (self._curr and self._curr.token_type == TokenType.TABLE and self._next
                    and self._next.token_type not in (TokenType.L_PAREN, TokenType.COMMA, TokenType.R_PAREN)):
                self._advance()
                table = self._parse_table_parts()
                partition = None
                if self._match(TokenType.PARTITION_BY):
                    if self._match(TokenType.L_PAREN):
                        partition = self._parse_csv(self._parse_column)
                        self._match_r_paren()
                    else:
                        partition = [self._parse_column()]
                return self.expression(TableArgument(this=table, partition_by=partition))
            return None

        def _parse_lambda(self, alias=False):
            return self._parse_table_argument() or super()._parse_lambda(alias=alias)

        def _parse_json_key_value(self):
            """`[KEY] k VALUE v` of JSON_OBJECT / JSON_OBJECTAGG: the key is any expression (`s || 'x'`), as in
            Flink; sqlglot reads a column only."""
            self._match_text_seq("KEY")
            key = self._parse_bitwise()
            self._match_set(self.JSON_KEY_VALUE_SEPARATOR_TOKENS)
            self._match_text_seq("VALUE")
            value = self._parse_bitwise()
            if not key and not value:
                return None
            return self.expression(exp.JSONKeyValue(this=key, expression=value))

        def _parse_match_recognize(self):
            if not self._match(TokenType.MATCH_RECOGNIZE):
                return None
            if not self._match(TokenType.L_PAREN):
                self.raise_error("Expecting ( after MATCH_RECOGNIZE")
            open_token = self._prev
            depth = 1
            first = self._curr
            last = None
            while self._curr and depth:
                if self._curr.token_type == TokenType.L_PAREN:
                    depth += 1
                elif self._curr.token_type == TokenType.R_PAREN:
                    depth -= 1
                    if depth == 0:
                        break
                last = self._curr
                self._advance()
            if depth:
                self.raise_error("MATCH_RECOGNIZE ( ... ) is not closed", open_token)
            close = self._curr
            self._advance()
            raw = self.sql[open_token.end + 1:close.start] if first is not close else ""
            line, col = _position(self.sql, open_token.end + 1)
            alias = self._parse_table_alias()
            return self.expression(MatchRecognizeClause(raw=raw, line=line, col=col, alias=alias))

    class Generator(Dialect.generator_class):
        TRANSFORMS = {
            **Dialect.generator_class.TRANSFORMS,
            **dialect_json.TRANSFORMS,
            TableArgument: lambda self, e: "TABLE " + self.sql(e, "this") + (
                " PARTITION BY (%s)" % self.expressions(e, "partition_by", flat=True)
                if e.args.get("partition_by") else ""),
            MatchRecognizeClause: lambda self, e: "MATCH_RECOGNIZE (%s)%s" % (
                e.args["raw"], (" AS " + self.sql(e, "alias")) if e.args.get("alias") else ""),
        }


# ---------------------------------------------------------------------- syntax errors in SQL terms
_NEAR_CHARS = 40
_OPERATORS = {
    "Add": "+", "Sub": "-", "Mul": "*", "Div": "/", "Mod": "%", "DPipe": "||", "EQ": "=", "NEQ": "<>",
    "GT": ">", "GTE": ">=", "LT": "<", "LTE": "<=", "And": "AND", "Or": "OR", "Not": "NOT", "Neg": "-",
    "Like": "LIKE", "ILike": "ILIKE", "Is": "IS", "In": "IN", "Between": "BETWEEN", "Alias": "AS",
    "Xor": "XOR", "BitwiseAnd": "&", "BitwiseOr": "|", "BitwiseXor": "^", "NullSafeEQ": "<=>",
    "Escape": "ESCAPE", "SimilarTo": "SIMILAR TO", "Distinct": "DISTINCT",
}
_CLAUSES = {
    "Where": "a condition after WHERE", "Having": "a condition after HAVING", "Qualify": "a condition after QUALIFY",
    "Order": "an expression after ORDER BY", "Group": "an expression after GROUP BY", "Limit": "a number after LIMIT",
    "Offset": "a number after OFFSET", "Fetch": "a number after FETCH", "Join": "a table after JOIN",
    "Window": "a window definition", "Cast": "a type after AS", "TryCast": "a type after AS", "Case": "WHEN ... THEN",
    "If": "a condition", "Interval": "a value after INTERVAL", "Paren": "an expression inside the parentheses",
    "Tuple": "an expression", "Column": "a column name", "Table": "a table name", "Identifier": "a name",
    "Dot": "a name after '.'", "Ordered": "an expression", "Lambda": "an expression after '=>'",
    "Kwarg": "a value after '=>'", "PropertyEQ": "a value after ':='", "Subquery": "a query", "CTE": "a query",
    "Union": "a query after UNION", "Except": "a query after EXCEPT", "Intersect": "a query after INTERSECT",
    "Aliases": "names after AS",
}
_TOKEN_REPR = re.compile(r"<Token token_type: TokenType\.(\w+), text: (.*?), line: \d+, col: \d+, start: (\d+), "
                         r"end: \d+, comments: \[.*?\]>", re.S)
_CLASS_REPR = re.compile(r"<class '(?:[\w]+\.)*(\w+)'>")
_INTERNAL = re.compile(r"<|>|\bclass\b|sqlglot|TokenType|\bexp\.|\bNone\b|_\w+_|'this'|'expressions?'|\bkwarg")


def shorten(text, width=_NEAR_CHARS):
    """`text` on one line, cut to `width` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def quoted(text):
    """A piece of the SQL in double quotes, as Flink's parser errors quote it (`Encountered "FROM"`)."""
    return '"%s"' % shorten(text)


def sql_terms(description, found, at_end, tokens, token):
    """A sqlglot parser message in the SQL's terms. `found`: the text of the token it happened at;
    `at_end`: the statement ended first; `tokens`: the statement's tokens."""
    m = re.match(r"Required keyword: '(\w+)' missing for " + _CLASS_REPR.pattern, description)
    if m:
        name = m.group(2)
        cls = getattr(exp, name, None)
        if name in _OPERATORS:
            return "Expected an expression after %s" % quoted(_OPERATORS[name])
        if isinstance(cls, type) and issubclass(cls, exp.Func):
            names = cls.sql_names()
            return "Missing argument of %s" % names[0] if names else "Missing function argument"
        return "Expected %s" % _CLAUSES.get(name, "an expression")
    m = re.match(r"Expected (table|database) name but got (.*)", description, re.S)
    if m:
        what = "a %s name" % m.group(1)
        got = _TOKEN_REPR.search(m.group(2))
        if got is None or got.group(1) == "SENTINEL":
            return "Expected %s" % what
        return "Expected %s but found %s" % (what, quoted(got.group(2)))
    if description.startswith("Invalid expression / Unexpected token"):
        return "Unexpected %s" % quoted(found) if found and not at_end else "Unexpected end of statement"
    m = re.match(r"Expecting (.+)$", description)
    if m:
        return "Expected %s" % (quoted(m.group(1)) if len(m.group(1)) <= 2 else m.group(1))
    m = re.match(r"The number of provided arguments \((\d+)\) is greater than the maximum number of supported "
                 r"arguments \((\d+)\)", description)
    if m:
        fn = _function_before(tokens, token)
        return "Too many arguments%s: %s given, at most %s allowed" % (
            (" for %s" % fn) if fn else "", m.group(1), m.group(2))
    if description == "Expected TYPE after CAST":
        return "Expected a type after AS"
    if description.startswith("Expected CTE to have alias"):
        return "Expected a name for the WITH query"
    cleaned = _TOKEN_REPR.sub(lambda t: "end of statement" if t.group(1) == "SENTINEL" else quoted(t.group(2)),
                              description)
    cleaned = _CLASS_REPR.sub(lambda c: _OPERATORS.get(c.group(1)) or c.group(1).upper(), cleaned)
    if _INTERNAL.search(cleaned):
        return "Syntax error"
    return cleaned.rstrip(".")


def _function_before(tokens, token):
    """The name of the function whose argument list holds `token` (None when not found)."""
    if token is None or not tokens:
        return None
    index = next((i for i, t in enumerate(tokens) if t.start == token.start), None)
    if index is None:
        return None
    depth = 0
    for i in range(index, -1, -1):
        kind = tokens[i].token_type
        if kind == TokenType.R_PAREN and i != index:
            depth += 1
        elif kind == TokenType.L_PAREN:
            if depth == 0:
                return tokens[i - 1].text.upper() if i > 0 else None
            depth -= 1
    return None


def _position(sql, offset):
    line = sql.count("\n", 0, offset) + 1
    col = offset - (sql.rfind("\n", 0, offset) + 1) + 1
    return line, col
