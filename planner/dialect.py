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
- a syntax error carries the token it happened at (`error.token`, and `error.at_end` when the statement
  ended first), so that `planner.parse` can say where it is in the user's terms."""

from sqlglot import exp, parser, tokens
from sqlglot.errors import ParseError
from sqlglot.dialects.dialect import Dialect
from sqlglot.tokens import TokenType



class TableArgument(exp.Expression):
    """`TABLE t [PARTITION BY k | PARTITION BY (k1, k2)]` passed to a table-valued function."""
    arg_types = {"this": True, "partition_by": False}


class MatchRecognizeClause(exp.Expression):
    """`MATCH_RECOGNIZE ( <raw> )`: raw text between the parentheses and where it starts (1-based)."""
    arg_types = {"raw": True, "line": False, "col": False, "alias": False}


class Flink(Dialect):
    NORMALIZATION_STRATEGY = "case_sensitive"

    class Tokenizer(tokens.Tokenizer):
        IDENTIFIERS = ["`"]
        QUOTES = ["'"]
        STRING_ESCAPES = ["'"]
        KEYWORDS = {
            **tokens.Tokenizer.KEYWORDS,
            "STRING": TokenType.TEXT,
            "MATCH_RECOGNIZE": TokenType.MATCH_RECOGNIZE,
        }
        KEYWORDS.pop("SESSION", None)     # SESSION(...) is a window function (legacy group window, TVF)

    class Parser(parser.Parser):
        def raise_error(self, message, token=None):
            token = token or self._curr or self._prev
            try:
                super().raise_error(message, token)
            except ParseError as error:
                error.token = token
                error.at_end = not self._curr       # sqlglot's end marker is a falsy token
                raise

        def _parse_interval_span(self, this, parse_function_unit=True):
            if this is not None and this.is_string:
                interval = super()._parse_interval_span(exp.Literal.string("0"), parse_function_unit)
                interval.set("this", this)
                return interval
            return super()._parse_interval_span(this, parse_function_unit)

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
            TableArgument: lambda self, e: "TABLE " + self.sql(e, "this") + (
                " PARTITION BY (%s)" % self.expressions(e, "partition_by", flat=True)
                if e.args.get("partition_by") else ""),
            MatchRecognizeClause: lambda self, e: "MATCH_RECOGNIZE (%s)%s" % (
                e.args["raw"], (" AS " + self.sql(e, "alias")) if e.args.get("alias") else ""),
        }


def _position(sql, offset):
    line = sql.count("\n", 0, offset) + 1
    col = offset - (sql.rfind("\n", 0, offset) + 1) + 1
    return line, col
