"""A seeded mutator of SQL statements: `mutate(text, rng)` -> (text, [mutation names]).

It works on a rough token list (words, numbers, strings, quoted names, comments, symbols, spaces) and
applies one to three mutations: token deletions, swaps, duplications, truncations, inserted keywords
and symbols, huge or odd numbers (5,000 digits, 1e309), NaN / Infinity / overflow in INTERVAL strings,
SET durations and type precisions, deep nesting (parentheses, function calls, CASE, NOT, unary minus,
subqueries), long AND / OR chains, unicode, NUL and control characters, broken quotes and comments,
statement headers glued onto other statements, and items dropped, repeated or emptied in the lists of the
Flink-specific clauses (PARTITION BY, MEASURES, DEFINE, SUBSET, a window TVF's arguments, WITH options). The same (text, rng state) gives the same output;
nothing here plans or runs SQL."""

import re

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>--[^\n]*|/\*.*?\*/)
  | (?P<string>'(?:[^']|'')*')
  | (?P<quoted>`(?:[^`]|``)*`)
  | (?P<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)
  | (?P<word>[^\W\d]\w*\$?)
  | (?P<op><>|<=|>=|!=|\|\||=>|::|.)
""", re.S | re.X)

KEYWORDS = (
    "SELECT", "FROM", "WHERE", "GROUP BY", "HAVING", "ORDER BY", "LIMIT", "UNION ALL", "JOIN", "LEFT JOIN",
    "ON", "AS", "AND", "OR", "NOT", "NULL", "IS", "IN", "BETWEEN", "LIKE", "CASE", "WHEN", "THEN", "ELSE",
    "END", "CAST", "INTERVAL", "TABLE", "TUMBLE", "HOP", "SESSION", "CUMULATE", "DESCRIPTOR", "OVER",
    "PARTITION BY", "ROW_NUMBER()", "MATCH_RECOGNIZE", "PATTERN", "DEFINE", "MEASURES", "WITHIN",
    "FOR SYSTEM_TIME AS OF", "WATERMARK FOR", "PRIMARY KEY", "NOT ENFORCED", "WITH", "METADATA", "VIRTUAL",
    "COMMENT", "DISTINCT", "ALL", "EXISTS", "VALUES", "LATERAL", "UNNEST", "ROW", "ARRAY", "MAP", "TIMESTAMP",
    "TIMESTAMP_LTZ", "DECIMAL", "VARCHAR", "CHAR", "TIME", "DATE", "BIGINT", "STRING", "PROCTIME()",
    "CURRENT_TIMESTAMP", "TRUE", "FALSE", "EXPLAIN", "CHANGELOG_MODE", "INSERT INTO", "SET", "RESET",
)
SYMBOLS = ("(", ")", ",", ";", "'", "`", '"', ".", "*", "=", "<", ">", "+", "-", "/", "%", "||", "[", "]",
           "{", "}", "?", ":", "$", "@", "#", "\\", "=>", "::")
HUGE_DIGITS = "9" * 5000
NUMBERS = (HUGE_DIGITS, "1" + "0" * 5000, "1e309", "-1e309", "1e-400", "9223372036854775808",
           "-9223372036854775809", "2147483648", "0.0000000000000000000000000000000000000001", "-0", "00",
           "1.5", "0", "-1", "1e3", ".5", "0x1F", "1_000", "٣", "1" * 40)
INTERVAL_VALUES = ("NaN", "Infinity", "-Infinity", "inf", "1e309", HUGE_DIGITS, "-" + HUGE_DIGITS, "",
                   " ", "-5", "+5", "1.5", "1:30", "1:2:3:4", "10 20", "1.5.5", "0", "00:00:00.000",
                   "99999999999999999999", "١٢", "1e3", "0x10", "1_0", "\x00", "5 MINUTE")
INTERVAL_UNITS = ("SECOND", "MINUTE", "HOUR", "DAY", "MILLISECOND", "MONTH", "YEAR", "WEEK",
                  "HOUR TO MINUTE", "DAY TO SECOND", "MINUTE TO SECOND", "SECOND(3)", "SECONDS", "FORTNIGHT")
DURATIONS = ("NaN", "NaN ms", "Infinity", "Infinity s", "1e309 s", HUGE_DIGITS, HUGE_DIGITS + " ms",
             "-1 s", "", " ", "1 fortnight", "5 min 3 s", "0", "0x10 s", "١ s", "1.5 s", "9" * 25 + " d")
TYPES = ("TIMESTAMP(99)", "TIMESTAMP(10)", "TIMESTAMP(-1)", "TIMESTAMP_LTZ(10)", "TIME(10)", "TIME(9)",
         "DECIMAL(39, 0)", "DECIMAL(0)", "DECIMAL(0, 0)", "DECIMAL(5, 6)", "DECIMAL(38, 38)", "DECIMAL(1)",
         "DECIMAL(%s)" % HUGE_DIGITS, "TIMESTAMP(%s)" % HUGE_DIGITS, "VARCHAR(0)", "CHAR(0)", "VARCHAR(-1)",
         "BINARY(0)", "VARBINARY(0)", "VARCHAR(2147483648)", "ARRAY<", "MAP<INT>", "ROW<>", "ROW<a>",
         "ARRAY<ARRAY<ARRAY<INT>>>", "MULTISET<STRING>", "TIMESTAMP(3) WITH LOCAL TIME ZONE",
         "TIMESTAMP(3) WITHOUT TIME ZONE", "DOUBLE PRECISION", "INTERVAL DAY", "RAW('x', 'y')", "NULL",
         "DECIMAL(10, 2) NOT NULL", "TIMESTAMP(3) NOT", "INT NOT NULL NOT NULL")
UNICODE = ("ü", "表", "😀", "\u200b", "\u202e", "\u0301", "\ufeff", "\u2028", "\xa0", "（", "）", "；",
           "＇", "ｓｅｌｅｃｔ", "𝕊𝔼𝕃𝔼ℂ𝕋", "İ", "ß", "\ud7ff", "ﬁ", "٣", "\U0010ffff")
CONTROL = ("\x00", "\x00" * 3, "\x1b", "\x1b[2J", "\r", "\x0c", "\x08", "\x7f", "\t")
HEADERS = ("SHOW ", "SHOW CREATE TABLE ", "SHOW CREATE VIEW ", "DESCRIBE ", "DESC ", "SET ", "RESET ",
           "DROP TABLE ", "DROP VIEW IF EXISTS ", "DROP TEMPORARY VIEW ", "STOP JOB ", "STOP JOB '",
           "EXPLAIN ", "EXPLAIN CHANGELOG_MODE ", "EXPLAIN PLAN FOR ", "INSERT INTO ", "INSERT INTO t ",
           "INSERT OVERWRITE ", "INSERT INTO `x` (a, b) ", "CREATE VIEW v AS ", "CREATE TEMPORARY VIEW v (a) AS ",
           "CREATE TABLE t ", "CREATE TABLE IF NOT EXISTS ", "CREATE OR REPLACE VIEW ", "WITH x AS ",
           "VALUES ", "( ", "USE ", "ALTER TABLE ", "HELP ", "QUIT ", "")
BARE = ("SHOW", "SHOW CREATE", "SHOW CREATE TABLE", "SHOW JOBS", "SHOW TABLES extra", "DESCRIBE", "DESC",
        "SET", "SET 'a'", "SET 'a' =", "SET = 'b'", "SET ''=''", "SET 'table.exec.state.ttl' = ''",
        "RESET", "RESET ''", "RESET 'x", "DROP", "DROP TABLE", "STOP", "STOP JOB", "STOP JOB ''",
        "STOP JOB 'x' WITH", "EXPLAIN", "EXPLAIN CHANGELOG_MODE", "INSERT", "INSERT INTO", "CREATE",
        "CREATE VIEW", "CREATE VIEW v AS", "CREATE TABLE", "CREATE TABLE t", "CREATE TABLE t ()",
        "CREATE TABLE t (a INT) WITH", "CREATE TABLE t (a INT) WITH (", "SELECT", "WITH", "VALUES", "(",
        ")", "'", "`", "/*", "--", "*/", ";", "SELECT 1 FROM", "SELECT * FROM t WHERE", "\x00")
SET_KEYS = ("table.exec.state.ttl", "table.exec.emit.allow-lateness", "table.exec.emit.late-fire.delay",
            "table.exec.emit.early-fire.delay", "table.display.max-column-width", "table.local-time-zone",
            "execution.runtime-mode", "sql-client.execution.result-mode", "sql-client.verbose",
            "dynsql.match-recognize.extensions", "spark.sql.shuffle.partitions", "", " ", "x", "table.",
            "unknown.key")
DEPTHS = (50, 200, 1000, 1000, 1001, 3000, 20000)
CHAIN_LENGTHS = (100, 800, 3000, 8000)


def tokenize(text):
    """Text -> [(kind, text)]; the texts joined give `text` back."""
    return [(m.lastgroup, m.group()) for m in TOKEN.finditer(text)]


def join(tokens):
    return "".join(t for _, t in tokens)


def _significant(tokens):
    return [i for i, (kind, _) in enumerate(tokens) if kind not in ("ws", "comment")]


def _pick_index(rng, tokens, kinds=None, words=None):
    idx = [i for i, (kind, text) in enumerate(tokens)
           if (kinds is None or kind in kinds) and kind not in ("ws",)
           and (words is None or text.upper() in words)]
    return rng.choice(idx) if idx else None


# ---------------------------------------------------------------------- token edits
def delete_token(rng, tokens):
    i = _pick_index(rng, tokens)
    return tokens if i is None else tokens[:i] + tokens[i + 1:]


def _span(rng, tokens, shortest, longest):
    """(first, last) token indexes of a random run of significant tokens, or None when there are none."""
    sig = _significant(tokens)
    if not sig:
        return None
    a = rng.randrange(len(sig))
    return sig[a], sig[min(a + rng.randint(shortest, longest), len(sig) - 1)]


def delete_span(rng, tokens):
    span = _span(rng, tokens, 2, 8)
    return tokens if span is None else tokens[:span[0]] + tokens[span[1] + 1:]


def swap_adjacent(rng, tokens):
    sig = _significant(tokens)
    if len(sig) < 2:
        return tokens
    k = rng.randrange(len(sig) - 1)
    i, j = sig[k], sig[k + 1]
    out = list(tokens)
    out[i], out[j] = out[j], out[i]
    return out


def swap_any(rng, tokens):
    sig = _significant(tokens)
    if len(sig) < 2:
        return tokens
    i, j = rng.sample(sig, 2)
    out = list(tokens)
    out[i], out[j] = out[j], out[i]
    return out


def duplicate_token(rng, tokens):
    i = _pick_index(rng, tokens)
    if i is None:
        return tokens
    return tokens[:i + 1] + [("ws", " "), tokens[i]] + tokens[i + 1:]


def duplicate_span(rng, tokens):
    span = _span(rng, tokens, 1, 10)
    if span is None:
        return tokens
    first, last = span
    return tokens[:last + 1] + [("ws", " ")] + tokens[first:last + 1] + tokens[last + 1:]


def truncate_chars(rng, tokens):
    text = join(tokens)
    return tokenize(text[:rng.randrange(len(text) + 1)]) if text else tokens


def truncate_tokens(rng, tokens):
    sig = _significant(tokens)
    return tokens[:sig[rng.randrange(len(sig))]] if sig else tokens


def insert_keyword(rng, tokens):
    i = rng.randrange(len(tokens) + 1)
    return tokens[:i] + [("ws", " "), ("word", rng.choice(KEYWORDS)), ("ws", " ")] + tokens[i:]


def insert_symbol(rng, tokens):
    i = rng.randrange(len(tokens) + 1)
    return tokens[:i] + [("op", rng.choice(SYMBOLS))] + tokens[i:]


def replace_word(rng, tokens):
    i = _pick_index(rng, tokens, kinds=("word", "quoted", "number", "string"))
    if i is None:
        return tokens
    choice = rng.choice(KEYWORDS + SYMBOLS + ("x", "`a`", "'s'", "NULL", "*", "t.*", "``"))
    return tokens[:i] + [("word", choice)] + tokens[i + 1:]


def change_case(rng, tokens):
    return [(k, t.lower() if rng.random() < 0.5 else t.upper()) if k == "word" else (k, t) for k, t in tokens]


# ---------------------------------------------------------------------- values
def huge_number(rng, tokens):
    i = _pick_index(rng, tokens, kinds=("number",))
    value = rng.choice(NUMBERS)
    if i is None:
        i = _pick_index(rng, tokens, kinds=("word", "quoted"))
        if i is None:
            return tokens + [("ws", " "), ("number", value)]
    return tokens[:i] + [("number", value)] + tokens[i + 1:]


def interval_value(rng, tokens):
    """The string of an INTERVAL literal (or a new INTERVAL in place of a number or a string)."""
    literal = "'%s'" % rng.choice(INTERVAL_VALUES).replace("'", "''")
    for i, (kind, text) in enumerate(tokens):
        if kind == "word" and text.upper() == "INTERVAL" and rng.random() < 0.7:
            j = next((j for j in range(i + 1, len(tokens)) if tokens[j][0] != "ws"), None)
            if j is not None and tokens[j][0] == "string":
                out = tokens[:j] + [("string", literal)] + tokens[j + 1:]
                if rng.random() < 0.3:
                    k = next((k for k in range(j + 1, len(out)) if out[k][0] != "ws"), None)
                    if k is not None and out[k][0] == "word":
                        out = out[:k] + [("word", rng.choice(INTERVAL_UNITS))] + out[k + 1:]
                return out
    i = _pick_index(rng, tokens, kinds=("number", "string"))
    new = [("word", "INTERVAL"), ("ws", " "), ("string", literal), ("ws", " "),
           ("word", rng.choice(INTERVAL_UNITS))]
    if i is None:
        return tokens + [("ws", " ")] + new
    return tokens[:i] + new + tokens[i + 1:]


def type_precision(rng, tokens):
    """A type (in DDL or CAST) replaced by one at or past Flink's limits."""
    names = {"TIMESTAMP", "TIMESTAMP_LTZ", "TIME", "DECIMAL", "DEC", "NUMERIC", "VARCHAR", "CHAR", "STRING",
             "INT", "BIGINT", "DOUBLE", "BOOLEAN", "DATE", "BINARY", "VARBINARY", "INTEGER", "FLOAT"}
    i = _pick_index(rng, tokens, kinds=("word",), words=names)
    new = [("word", rng.choice(TYPES))]
    if i is None:
        j = _pick_index(rng, tokens, kinds=("word", "number", "quoted"))
        if j is None:
            return tokens
        return tokens[:j] + [("word", "CAST("), tokens[j], ("word", " AS "), new[0], ("op", ")")] + tokens[j + 1:]
    end = i + 1
    # drop the old parameters `(p, s)` with the name
    k = end
    while k < len(tokens) and tokens[k][0] == "ws":
        k += 1
    if k < len(tokens) and tokens[k][1] == "(":
        close = next((m for m in range(k, len(tokens)) if tokens[m][1] == ")"), None)
        if close is not None:
            end = close + 1
    return tokens[:i] + new + tokens[end:]


def set_duration(rng, tokens):
    """A SET statement with an odd key or value (durations: NaN, Infinity, 5,000 digits, ...)."""
    key = rng.choice(SET_KEYS)
    value = rng.choice(DURATIONS + ("table", "batch", "BATCH", "true", "maybe", "Mars/Olympus", "+25:00", "0"))
    quote = rng.choice(("'", "'", "`", ""))
    return tokenize("SET %s%s%s = '%s'" % (quote, key, quote, value.replace("'", "''")))


# ---------------------------------------------------------------------- structure
def _wrap(inner, depth, kind):
    if kind == "parens":
        return "(" * depth + inner + ")" * depth
    if kind == "function":
        return "ABS(" * depth + inner + ")" * depth
    if kind == "case":
        return "CASE WHEN TRUE THEN " * depth + inner + " END" * depth
    if kind == "not":
        return "NOT " * depth + "(" + inner + " IS NULL)"
    if kind == "minus":
        return "- " * depth + inner
    if kind == "cast":
        return "CAST(" * depth + inner + " AS STRING)" * depth
    return "COALESCE(" * depth + inner + ", 1)" * depth


def deep_nesting(rng, tokens):
    """An operand wrapped `depth` times, or the FROM table in `depth` subqueries."""
    depth = rng.choice(DEPTHS)
    kind = rng.choice(("parens", "function", "case", "not", "minus", "cast", "coalesce", "subquery"))
    if kind == "subquery":
        i = _pick_index(rng, tokens, words={"FROM"})
        if i is not None:
            rest = join(tokens[i + 1:]).strip()
            m = re.match(r"(`(?:[^`]|``)+`|\w+)(.*)", rest, re.S)
            if m:
                body = "(SELECT * FROM " * depth + m.group(1) + ")" * depth
                return tokenize(join(tokens[:i + 1]) + " " + body + m.group(2))
        kind = "parens"
    i = _pick_index(rng, tokens, kinds=("word", "number", "quoted", "string"))
    if i is None:
        return tokens
    return tokens[:i] + [("word", _wrap(tokens[i][1], depth, kind))] + tokens[i + 1:]


def long_chain(rng, tokens):
    """A WHERE / HAVING / ON condition (or a select item) replaced by a long AND / OR / + chain."""
    n = rng.choice(CHAIN_LENGTHS)
    op = rng.choice((" AND ", " OR ", " + ", " || ", " AND NOT "))
    i = _pick_index(rng, tokens, words={"WHERE", "HAVING", "ON"})
    operand = rng.choice(("1 = 1", "TRUE", "x > %d", "COUNT(*) > %d", "%d < 5"))
    chain = op.join(operand % k if "%d" in operand else operand for k in range(n))
    if i is None:
        i = _pick_index(rng, tokens, words={"SELECT"})
        if i is None:
            return tokens
        return tokens[:i + 1] + [("ws", " "), ("word", chain), ("op", ",")] + tokens[i + 1:]
    return tokens[:i + 1] + [("ws", " "), ("word", chain), ("word", " AND ")] + tokens[i + 1:]


def many_items(rng, tokens):
    """A long IN list, a long UNION ALL, many columns or many WITH options."""
    n = rng.choice(CHAIN_LENGTHS)
    text = join(tokens)
    kind = rng.choice(("in", "union", "columns", "options"))
    if kind == "in":
        return tokenize(text + " WHERE 1 IN (" + ", ".join(str(k) for k in range(n)) + ")")
    if kind == "union":
        return tokenize(" UNION ALL ".join([text] * max(min(n, 300, MAX_LENGTH // (len(text) + 11)), 2)))
    if kind == "columns":
        return tokenize(re.sub(r"(?i)\bSELECT\b", "SELECT " + ", ".join("%d AS c%d" % (k, k) for k in range(n)) + ",",
                               text, count=1))
    return tokenize(re.sub(r"(?i)\bWITH\s*\(", "WITH (" + ", ".join("'k%d' = 'v'" % k for k in range(n)) + ", ",
                           text, count=1))


# the words that open a list of the Flink-specific clauses (MATCH_RECOGNIZE's, a window TVF's arguments, DDL's)
CLAUSE_WORDS = {"PARTITION", "MEASURES", "DEFINE", "SUBSET", "PATTERN", "DESCRIPTOR", "TUMBLE", "HOP", "CUMULATE",
                "SESSION", "WITH", "ORDER", "KEY", "WATERMARK", "PARTITIONED", "OVER", "MATCH_RECOGNIZE"}


def _list_items(tokens, start):
    """The comma-separated items of the list that follows token `start` (inside the parentheses that open
    right after it, or up to the end of its clause): [(first, last)] token index ranges, or []."""
    i = start + 1
    while i < len(tokens) and tokens[i][0] in ("ws", "comment") or i < len(tokens) and tokens[i][1].upper() == "BY":
        i += 1
    if i < len(tokens) and tokens[i][1] == "(":
        i += 1
    items, depth, first = [], 0, i
    while i < len(tokens):
        text = tokens[i][1]
        if text in ("(", "["):
            depth += 1
        elif text in (")", "]"):
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (text == "," or text == ";" or tokens[i][0] == "word" and text.upper() in (
                "FROM", "WHERE", "GROUP", "ONE", "ALL", "AFTER", "PATTERN", "DEFINE", "MEASURES", "WITHIN",
                "SUBSET", "ORDER")) and i > first:
            items.append((first, i - 1))
            if text != ",":
                return items
            first = i + 1
        i += 1
    if i > first:
        items.append((first, i - 1))
    return items


def clause_items(rng, tokens):
    """In a Flink-specific clause's list (PARTITION BY, MEASURES, DEFINE, SUBSET, a window TVF's or DESCRIPTOR's
    arguments, WITH options, PRIMARY KEY, ...): drop an item and leave its comma, drop it with its comma,
    repeat it, or empty the whole list."""
    i = _pick_index(rng, tokens, kinds=("word",), words=CLAUSE_WORDS)
    if i is None:
        return tokens
    items = _list_items(tokens, i)
    if not items:
        return tokens
    first, last = rng.choice(items)
    how = rng.choice(("drop", "drop-comma", "repeat", "repeat", "empty"))
    if how == "drop":
        return tokens[:first] + [("ws", " ")] + tokens[last + 1:]
    if how == "drop-comma":
        end = last + 2 if last + 1 < len(tokens) and tokens[last + 1][1] == "," else last + 1
        return tokens[:first] + tokens[end:]
    if how == "repeat":
        return tokens[:last + 1] + [("op", ","), ("ws", " ")] + tokens[first:last + 1] + tokens[last + 1:]
    return tokens[:items[0][0]] + [("ws", " ")] + tokens[items[-1][1] + 1:]


def unicode_chars(rng, tokens):
    text = join(tokens)
    if rng.random() < 0.5:
        i = _pick_index(rng, tokens, kinds=("word", "quoted"))
        if i is not None:
            return tokens[:i] + [("word", tokens[i][1] + rng.choice(UNICODE))] + tokens[i + 1:]
    pos = rng.randrange(len(text) + 1)
    return tokenize(text[:pos] + rng.choice(UNICODE) + text[pos:])


def control_chars(rng, tokens):
    text = join(tokens)
    pos = rng.randrange(len(text) + 1)
    return tokenize(text[:pos] + rng.choice(CONTROL) + text[pos:])


def break_quotes(rng, tokens):
    """An unclosed string, quoted name or comment; a quote removed; a stray `;` inside a literal."""
    i = _pick_index(rng, tokens, kinds=("string", "quoted"))
    choice = rng.randrange(4)
    if i is not None and choice == 0:
        return tokens[:i] + [(tokens[i][0], tokens[i][1][:-1])] + tokens[i + 1:]
    if i is not None and choice == 1:
        t = tokens[i][1]
        return tokens[:i] + [(tokens[i][0], t[0] + t[1:-1] + ";" + t[-1])] + tokens[i + 1:]
    text = join(tokens)
    pos = rng.randrange(len(text) + 1)
    return tokenize(text[:pos] + rng.choice(("'", "`", '"', "/*", "*/", "--", "''", "``", "\\'")) + text[pos:])


def glue_header(rng, tokens):
    """Another statement's header glued in front, or a bare statement header on its own."""
    if rng.random() < 0.3:
        return tokenize(rng.choice(BARE))
    text = join(tokens)
    if rng.random() < 0.5:
        return tokenize(rng.choice(HEADERS) + text)
    words = text.split(None, 3)
    return tokenize(rng.choice(HEADERS) + (words[-1] if words else ""))


def many_statements(rng, tokens):
    text = join(tokens)
    return tokenize(rng.choice((";", ";;", "; ;", ";\n--x\n;", "; HELP;", "; QUIT")).join([text] * rng.randint(2, 3)))


MUTATIONS = (
    (delete_token, 8), (delete_span, 5), (swap_adjacent, 5), (swap_any, 4), (duplicate_token, 4),
    (duplicate_span, 4), (truncate_chars, 5), (truncate_tokens, 4), (insert_keyword, 6), (insert_symbol, 6),
    (replace_word, 6), (change_case, 1), (huge_number, 5), (interval_value, 6), (type_precision, 6),
    (set_duration, 3), (deep_nesting, 3), (long_chain, 1), (many_items, 1), (unicode_chars, 4),
    (control_chars, 3), (break_quotes, 4), (glue_header, 5), (many_statements, 2), (clause_items, 8),
)
_FUNCTIONS = [f for f, _ in MUTATIONS]
_WEIGHTS = [w for _, w in MUTATIONS]
MAX_LENGTH = 120_000       # a mutation that would grow a statement past this is skipped (8,000 AND-ed
                           # conditions are about 100,000 characters)


def mutate(text, rng):
    """Apply 1-3 mutations (weighted) to `text`; returns (mutated text, [their names])."""
    tokens = tokenize(text)
    names = []
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        fn = rng.choices(_FUNCTIONS, _WEIGHTS)[0]
        result = fn(rng, tokens)
        if len(join(result)) > MAX_LENGTH:
            continue
        tokens = result
        names.append(fn.__name__)
    return join(tokens), names
