"""What may come next at the cursor: a pure function of the text, in the manner of pgcli's sqlcompletion.

`suggest_type(full_text, text_before_cursor)` returns a tuple of suggestions (Keyword, Table, Column,
Function, SetKey, SetValue) for the statement the cursor is in. It reads the text with a small
scanner that knows strings, quoted identifiers and comments; it never looks at the catalog (the
completer matches names) and it does not parse or validate SQL: it guesses from the tokens around the
cursor, and a guess that is a little wide is fine."""

import re
from dataclasses import dataclass, field

from .lexer import ALL_KEYWORDS


# --- suggestions -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class TableRef:
    name: str            # as the statement names it, without backticks or catalog path
    alias: str = None


@dataclass(frozen=True)
class Keyword:
    last_token: str = None     # the keyword before the cursor; None at the start of a statement


@dataclass(frozen=True)
class Table:
    path: tuple = ()           # `cat.` / `cat.db.` / `db.` typed before the cursor: the parts so far


@dataclass(frozen=True)
class Column:
    tables: tuple = ()         # TableRefs in scope (for `x.` only the one named x)
    qualifier: str = None      # `o.` typed before the cursor
    window_columns: bool = False   # a window TVF in the statement adds window_start/end/time


@dataclass(frozen=True)
class Function:
    pass


@dataclass(frozen=True)
class SetKey:
    quoted: bool = False       # the cursor is already inside the key's quotes


@dataclass(frozen=True)
class SetValue:
    key: str
    quoted: bool = False


# --- scanning --------------------------------------------------------------------------------------

@dataclass
class Token:
    kind: str          # word | quoted | string | number | punct | op
    text: str
    start: int

    @property
    def upper(self):
        return self.text.upper() if self.kind == "word" else None

    @property
    def name(self):
        """An identifier's name: backticks removed."""
        if self.kind == "quoted":
            return self.text[1:-1].replace("``", "`")
        return self.text


@dataclass
class Scan:
    tokens: list = field(default_factory=list)
    open_state: str = None     # None | 'string' | 'quoted' | 'comment' (unterminated at the end)
    open_start: int = None     # where the unterminated string / quoted name starts
    statement_start: int = 0   # offset after the last `;` that ends a statement
    statement_ends: list = field(default_factory=list)   # offsets of every `;` that ends a statement


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+")
_OPERATOR = re.compile(r"<>|!=|<=|>=|\|\||=>|->|[-+*/%=<>^|&~?{}]")


def scan(text):
    """Tokens of `text` from the start of the last statement (after the last top-level `;`)."""
    result = Scan()
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif text.startswith("--", i):
            end = text.find("\n", i)
            if end < 0:
                result.open_state, result.open_start = "comment", i
                return result
            i = end + 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                result.open_state, result.open_start = "comment", i
                return result
            i = end + 2
        elif c in "'`\"":
            j = i + 1
            while True:
                end = text.find(c, j)
                if end < 0:
                    result.open_state = "string" if c == "'" else "quoted"
                    result.open_start = i
                    return result
                if text.startswith(c + c, end):
                    j = end + 2
                    continue
                break
            result.tokens.append(Token("string" if c == "'" else "quoted", text[i:end + 1], i))
            i = end + 1
        elif c == ";":
            result.tokens = []
            result.statement_ends.append(i)
            result.statement_start = i + 1
            i += 1
        else:
            for kind, pattern in (("word", _WORD), ("number", _NUMBER), ("op", _OPERATOR)):
                m = pattern.match(text, i)
                if m:
                    result.tokens.append(Token(kind, m.group(0), i))
                    i = m.end()
                    break
            else:
                result.tokens.append(Token("punct", c, i))
                i += 1
    return result


def current_statement(full_text, text_before_cursor):
    """The whole statement the cursor is in: from the `;` before the cursor to the `;` after it."""
    cursor = len(text_before_cursor)
    ends = scan(full_text).statement_ends
    start = max([e + 1 for e in ends if e < cursor], default=0)
    end = min([e for e in ends if e >= cursor], default=len(full_text))
    return full_text[start:end]


# --- context ---------------------------------------------------------------------------------------

TABLE_KEYWORDS = {"FROM", "JOIN", "INTO", "UPDATE", "TABLE", "VIEW", "DESCRIBE"}
EXPRESSION_KEYWORDS = {"SELECT", "WHERE", "AND", "OR", "NOT", "ON", "BY", "HAVING", "WHEN", "THEN",
                       "ELSE", "CASE", "DISTINCT", "MEASURES", "DEFINE", "BETWEEN", "LIKE", "IN",
                       "SET", "WITHIN", "IS", "OVER", "RETURN"}
CLAUSE_KEYWORDS = {"SELECT", "FROM", "JOIN", "WHERE", "BY", "HAVING", "ON", "MEASURES", "DEFINE",
                   "PATTERN", "INTO", "VALUES", "WITH", "TABLE", "LIMIT", "SUBSET"}
WINDOW_FUNCTIONS = {"TUMBLE", "HOP", "CUMULATE", "SESSION"}


def suggest_type(full_text, text_before_cursor):
    """What may come at the cursor: a tuple of Keyword / Table / Column / Function / SetKey / SetValue."""
    before = scan(text_before_cursor)
    if before.open_state in ("quoted", "string"):
        # leave the unfinished quote out, or it would swallow the rest of the statement
        cut = before.open_start
        full_text = full_text[:cut] + " " + full_text[len(text_before_cursor):]
        statement = current_statement(full_text, text_before_cursor[:cut] + " ")
    else:
        statement = current_statement(full_text, text_before_cursor)
    stmt_tokens = scan(statement).tokens
    first = before.tokens[0].upper if before.tokens else None

    if before.open_state == "comment":
        return ()
    if before.open_state == "string":
        return _inside_string(before)
    if before.open_state == "quoted":
        tokens = before.tokens
        qualifier = _qualifier_before(tokens, before.open_start, text_before_cursor)
        if qualifier is not None:
            tokens = tokens[:-2]
        return _from_context(tokens, stmt_tokens, qualifier, first)

    chain = _name_chain_at_end(before.tokens, len(text_before_cursor))
    tokens = before.tokens[:len(before.tokens) - len(chain)]
    names = [t.name for t in chain if t.text != "."]
    qualifier = None
    if chain and chain[-1].text == ".":
        qualifier = names[-1]
    elif len(names) >= 2:
        qualifier = names[-2]
    if qualifier is not None and Table() in _from_context(tokens, stmt_tokens, None, first):
        path = names if chain[-1].text == "." else names[:-1]       # a table's catalog and database
        return (Table(path=tuple(path)),)
    return _from_context(tokens, stmt_tokens, qualifier, first)


def _name_chain_at_end(tokens, end):
    """The tokens of `a.b.c` / `o.` / `` `x y`. `` touching the end of the text: the name being typed."""
    chain = []
    for t in reversed(tokens):
        if t.start + len(t.text) != end or not (t.kind in ("word", "quoted") or t.text == "."):
            break
        chain.insert(0, t)
        end = t.start
    while chain and chain[0].text == ".":
        chain.pop(0)
    return chain


def _qualifier_before(tokens, open_start, text):
    """`o.`<cursor inside backticks>: the `o`."""
    if len(tokens) >= 2 and tokens[-1].text == "." and tokens[-1].start == open_start - 1 \
            and tokens[-2].kind in ("word", "quoted"):
        return tokens[-2].name
    return None


def _inside_string(before):
    tokens = before.tokens
    if not tokens:
        return ()
    head = tokens[0].upper
    if head in ("SET", "RESET") and len(tokens) == 1:
        return (SetKey(quoted=True),)
    if head == "SET" and len(tokens) == 3 and tokens[1].kind == "string" and tokens[2].text == "=":
        return (SetValue(_unquote(tokens[1].text), quoted=True),)
    return ()


def _unquote(text):
    return text[1:-1].replace("''", "'")


def _from_context(tokens, stmt_tokens, qualifier, first):
    tables = tables_in(stmt_tokens)
    window = any(t.upper in WINDOW_FUNCTIONS for t in stmt_tokens)
    if qualifier is not None:
        scoped = tuple(t for t in tables if qualifier in (t.alias, t.name, t.name.split(".")[-1]))
        return (Column(tables=scoped or (TableRef(qualifier),), qualifier=qualifier,
                       window_columns=window),)
    columns_and_functions = (Column(tables=tuple(tables), window_columns=window), Function())

    if not tokens:
        return (Keyword(None),)
    if first == "SET":
        if len(tokens) == 1:
            return (SetKey(),)
        if len(tokens) == 3 and tokens[1].kind == "string" and tokens[2].text == "=":
            return (SetValue(_unquote(tokens[1].text)),)
        return ()
    if first == "RESET":
        return (SetKey(),) if len(tokens) == 1 else ()

    last = tokens[-1]
    word = last.upper
    if word is not None:
        if word in ("DESC", "DESCRIBE") and len(tokens) == 1:
            return (Table(),)
        if word in TABLE_KEYWORDS:
            return (Table(),)
        if word == "AS":
            return _after_as(tokens)
        if word in EXPRESSION_KEYWORDS:
            if word == "SELECT" or word == "DISTINCT":
                return columns_and_functions + (Keyword(word),)
            return columns_and_functions
        return (Keyword(word),)                            # after a keyword or a name
    if last.text == ",":
        clause = _enclosing_clause(tokens)
        if clause in ("FROM", "JOIN"):
            return (Table(),)
        if clause in ("PATTERN", "SUBSET"):
            return ()
        if clause == "(":
            return columns_and_functions
        if clause in (None, "VALUES"):
            return (Keyword(None),) if clause is None else columns_and_functions
        return columns_and_functions
    if last.text == "(":
        before_paren = _previous_upper(tokens, 2)
        if before_paren == "TABLE":
            return (Function(),)                           # TABLE(TUMBLE(...))
        if before_paren == "FROM":
            return (Keyword("("),)                         # a subquery
        if before_paren in ("PATTERN",):
            return ()
        if before_paren == "DESCRIPTOR":
            return (Column(tables=tuple(tables), window_columns=False),)
        return columns_and_functions
    if last.kind == "op" or last.text == "[":
        return columns_and_functions
    if last.text == ".":
        return ()
    return (Keyword(last.text),)


def _after_as(tokens):
    """`CREATE VIEW v AS |` expects a query; `x AS |` an alias; `DEFINE A AS |` a condition."""
    clause = _enclosing_clause(tokens[:-1])
    if clause == "DEFINE":
        return (Column(), Function())
    uppers = [t.upper for t in tokens]
    if uppers and uppers[0] == "CREATE" and "SELECT" not in uppers:
        if "VIEW" in uppers or (len(tokens) >= 2 and tokens[-2].text == ")"):
            return (Keyword("AS"),)
        return (Column(), Function())                      # computed column: `c AS expr`
    return ()


def _previous_upper(tokens, back):
    if len(tokens) >= back:
        t = tokens[-back]
        return t.upper if t.kind == "word" else t.text
    return None


def _enclosing_clause(tokens):
    """The clause keyword (SELECT, FROM, ...) the end of `tokens` is in, at the current paren depth;
    `(` when the innermost open parenthesis comes first (a call's arguments)."""
    depth = 0
    for t in reversed(tokens):
        if t.text == ")":
            depth += 1
        elif t.text == "(":
            if depth == 0:
                return "("
            depth -= 1
        elif depth == 0 and t.upper in CLAUSE_KEYWORDS:
            return t.upper
    return None


def _is_keyword(word):
    return word in ALL_KEYWORDS


def tables_in(tokens):
    """TableRefs named in a statement's tokens: after FROM / JOIN / INTO / UPDATE / TABLE / VIEW /
    DESCRIBE and after `,` in a FROM clause; with their alias (`t AS x`, `t x`, and
    `t FOR SYSTEM_TIME AS OF o.ts AS x`)."""
    refs = []
    i, n = 0, len(tokens)
    clause_stack = [None]
    while i < n:
        t = tokens[i]
        up = t.upper
        if t.text == "(":
            clause_stack.append(None)
        elif t.text == ")":
            if len(clause_stack) > 1:
                clause_stack.pop()
        elif up in CLAUSE_KEYWORDS:
            clause_stack[-1] = up
        takes_table = up in ("FROM", "JOIN", "INTO", "UPDATE", "TABLE", "VIEW") or \
            (up in ("DESCRIBE", "DESC") and i == 0) or \
            (t.text == "," and clause_stack[-1] == "FROM")
        if not takes_table:
            i += 1
            continue
        j = i + 1
        # DROP TABLE IF EXISTS t / CREATE TABLE IF NOT EXISTS t
        while j < n and tokens[j].upper in ("IF", "NOT", "EXISTS"):
            j += 1
        if j >= n or tokens[j].kind not in ("word", "quoted") or \
                (tokens[j].kind == "word" and _is_keyword(tokens[j].upper)):
            i += 1
            continue
        name = tokens[j].name
        while j + 2 < n and tokens[j + 1].text == "." and tokens[j + 2].kind in ("word", "quoted"):
            j += 2
            name += "." + tokens[j].name          # cat.db.t: the whole name (the snapshot knows it)
        j += 1
        if j + 3 < n and [tokens[j + k].upper for k in range(4)] == ["FOR", "SYSTEM_TIME", "AS", "OF"]:
            j += 4
            depth = 0
            while j < n:
                u = tokens[j].upper
                if tokens[j].text == "(":
                    depth += 1
                elif tokens[j].text == ")":
                    depth -= 1
                elif depth == 0 and u in ("AS", "ON", "WHERE", "JOIN", "GROUP"):
                    break
                j += 1
        alias = None
        if j + 1 < n and tokens[j].upper == "AS" and tokens[j + 1].kind in ("word", "quoted"):
            alias = tokens[j + 1].name
        elif j < n and (tokens[j].kind == "quoted" or
                        (tokens[j].kind == "word" and not _is_keyword(tokens[j].upper))):
            alias = tokens[j].name
        refs.append(TableRef(name, alias))
        i = j
    return refs
