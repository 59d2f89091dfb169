"""Syntax highlighting for the shell: a pygments lexer for Flink SQL.

Knows Flink's keywords and types, strings (`'it''s'`), quoted identifiers (backticks), numbers,
`--` and `/* */` comments, operators, and the streaming vocabulary (MATCH_RECOGNIZE and its
clauses, WATERMARK, FOR SYSTEM_TIME AS OF, the window TVFs, PROCTIME, ...), which gets its own
token type `Keyword.Streaming` so a style can set it apart. It only colours text: it does not
validate SQL (the planner does)."""

import re

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String,
                            Text, Whitespace)

# Streaming keywords written as several words: matched as one token so the phrase stays one colour.
STREAMING_PHRASES = (
    r"FOR\s+SYSTEM_TIME\s+AS\s+OF",
    r"AFTER\s+MATCH\s+SKIP\s+PAST\s+LAST\s+ROW",
    r"AFTER\s+MATCH\s+SKIP\s+TO\s+NEXT\s+ROW",
    r"AFTER\s+MATCH\s+SKIP\s+TO\s+(?:FIRST|LAST)",
    r"AFTER\s+MATCH\s+SKIP",
    r"ONE\s+ROW\s+PER\s+MATCH",
    r"ALL\s+ROWS\s+PER\s+MATCH",
    r"PRIMARY\s+KEY\s*(?:\([^)]*\)\s*)?NOT\s+ENFORCED",
)

STREAMING_KEYWORDS = (
    "MATCH_RECOGNIZE", "PATTERN", "DEFINE", "MEASURES", "WITHIN", "SUBSET", "PERMUTE",
    "WATERMARK", "SYSTEM_TIME", "TUMBLE", "HOP", "CUMULATE", "SESSION", "DESCRIPTOR",
    "PROCTIME", "MATCH_ROWTIME", "MATCH_PROCTIME", "CLASSIFIER", "MATCH_NUMBER", "PREV", "NEXT",
    "FIRST", "LAST", "RUNNING", "FINAL", "WINDOW_START", "WINDOW_END", "WINDOW_TIME",
    "TUMBLE_START", "TUMBLE_END", "TUMBLE_ROWTIME", "TUMBLE_PROCTIME", "HOP_START", "HOP_END",
    "HOP_ROWTIME", "SESSION_START", "SESSION_END", "SESSION_ROWTIME", "CURRENT_WATERMARK",
    "SOURCE_WATERMARK", "ENFORCED", "CHANGELOG_MODE", "METADATA", "VIRTUAL",
)

KEYWORDS = (
    "ADD", "ALL", "ALTER", "ANALYZE", "AND", "ANY", "ARRAY", "AS", "ASC", "AT", "BEGIN",
    "BETWEEN", "BOTH", "BY", "CALL", "CASCADE", "CASE", "CAST", "CATALOG", "CATALOGS", "COLUMN",
    "COLUMNS", "COMMENT", "COMPILE", "CONSTRAINT", "CREATE", "CROSS", "CUBE", "CURRENT", "DATABASE",
    "DATABASES", "DAY", "DEFAULT", "DELETE", "DESC", "DESCRIBE", "DISTINCT", "DROP", "ELSE", "END",
    "ESCAPE", "ESTIMATED_COST", "EXCEPT", "EXECUTE", "EXISTS", "EXPLAIN", "EXTENDED", "EXTRACT",
    "FALSE", "FETCH", "FILTER", "FOLLOWING", "FOR", "FROM", "FULL", "FUNCTION", "FUNCTIONS",
    "GROUP", "GROUPING", "HAVING", "HOUR", "IF", "ILIKE", "IN", "INNER", "INSERT", "INTERSECT",
    "INTERVAL", "INTO", "IS", "JAR", "JOB", "JOBS", "JOIN", "JSON_EXECUTION_PLAN", "KEY", "LATERAL",
    "LEADING", "LEFT", "LIKE", "LIMIT", "LOAD", "MAP", "MATCH", "MINUTE", "MODULE", "MODULES",
    "MONTH", "MULTISET", "NATURAL", "NOT", "NULL", "NULLS", "OF", "OFFSET", "ON", "ONLY", "OR",
    "ORDER", "OUTER", "OVER", "OVERWRITE", "PARTITION", "PARTITIONED", "PER", "PLAN", "PRECEDING",
    "PRIMARY", "RANGE", "RECURSIVE", "REMOVE", "RENAME", "REPLACE", "RESET", "RIGHT", "ROLLUP",
    "ROW", "ROWS", "SECOND", "SELECT", "SET", "SETS", "SHOW", "SIMILAR", "SKIP", "SOME", "STATEMENT",
    "STOP", "SYSTEM", "TABLE", "TABLES", "TABLESAMPLE", "TEMPORARY", "THEN", "TO", "TRAILING",
    "TRUE", "TRUNCATE", "UNBOUNDED", "UNION", "UNKNOWN", "UNLOAD", "UNNEST", "UPDATE", "USE",
    "USING", "VALUES", "VIEW", "VIEWS", "WEEK", "WHEN", "WHERE", "WINDOW", "WITH", "WITHOUT",
    "YEAR", "QUARTER", "MILLISECOND", "MICROSECOND", "NANOSECOND", "EPOCH", "DOW", "DOY",
    "SAVEPOINT", "LOCAL", "GLOBAL", "RETURNS", "LANGUAGE", "PYTHON", "JAVA", "SCALA",
    "HELP", "CLEAR", "QUIT", "EXIT",
)

TYPES = (
    "BIGINT", "BINARY", "BOOLEAN", "BYTES", "CHAR", "CHARACTER", "DATE", "DEC", "DECIMAL",
    "DOUBLE", "FLOAT", "INT", "INTEGER", "NUMERIC", "PRECISION", "RAW", "REAL", "SMALLINT",
    "STRING", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "TINYINT", "VARBINARY", "VARCHAR", "ZONE",
    "STRUCTURED", "VARIANT",
)

# Every word the lexer colours as a keyword; the completer offers the same list.
ALL_KEYWORDS = tuple(sorted(set(KEYWORDS) | set(STREAMING_KEYWORDS) | set(TYPES)))


def _quoted(quote, token, doubled_token):
    """Lexer state inside `quote`...`quote`, where a doubled quote stands for the character."""
    q = re.escape(quote)
    return [("[^%s]+" % q, token), (q + q, doubled_token), (q, token, "#pop")]


class FlinkSqlLexer(RegexLexer):
    """Flink SQL 2.x as the dynsql shell accepts it."""

    name = "Flink SQL"
    aliases = ["flinksql", "flink-sql"]
    filenames = ["*.flink.sql"]
    flags = re.IGNORECASE | re.MULTILINE

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"--.*?$", Comment.Single),
            (r"/\*", Comment.Multiline, "multiline-comment"),
            (r"'", String.Single, "string"),
            (r"`", Name.Quoted, "quoted-identifier"),
            (r'"', Name.Quoted, "double-quoted-identifier"),
            # Numbers: 1.5e3, .5, 42, 0x1F (hex strings are X'..' literals in Flink)
            (r"[0-9]+\.[0-9]*(?:e[+-]?[0-9]+)?\b", Number.Float),
            (r"\.[0-9]+(?:e[+-]?[0-9]+)?\b", Number.Float),
            (r"[0-9]+e[+-]?[0-9]+\b", Number.Float),
            (r"[0-9]+\b", Number.Integer),
            (r"x'", String.Single, "string"),      # X'0aff': the X is the literal's too (the echo shows it)
            *[(r"\b" + phrase + r"\b", Keyword.Streaming) for phrase in STREAMING_PHRASES],
            (words(STREAMING_KEYWORDS, suffix=r"\b"), Keyword.Streaming),
            (words(TYPES, suffix=r"\b"), Keyword.Type),
            (words(KEYWORDS, suffix=r"\b"), Keyword),
            # a name followed by `(` is a function call
            (r"([a-z_][a-z0-9_$]*)(\s*)(?=\()", bygroups(Name.Function, Whitespace)),
            (r"[a-z_][a-z0-9_$]*", Name),
            (r"<>|!=|<=|>=|\|\||=>|->|[-+*/%=<>^|&~]", Operator),
            (r"[?{}]", Operator),  # pattern quantifiers: A+? B{2,3}
            (r"[(),;.\[\]:]", Punctuation),
            (r".", Text),
        ],
        "string": _quoted("'", String.Single, String.Escape),
        "quoted-identifier": _quoted("`", Name.Quoted, Name.Quoted),
        "double-quoted-identifier": _quoted('"', Name.Quoted, Name.Quoted),
        "multiline-comment": [
            (r"[^*]+", Comment.Multiline),
            (r"\*/", Comment.Multiline, "#pop"),
            (r"\*", Comment.Multiline),
        ],
    }
