"""Flink DDL: `CREATE TABLE` (columns with Flink types, computed and metadata columns, WATERMARK FOR,
PRIMARY KEY ... NOT ENFORCED, WITH options) into a catalog `TableDef`.

Expressions (computed columns, the watermark) are kept as Flink SQL text and checked with sqlglot;
the runtime evaluates them on Spark."""

import re
from dataclasses import dataclass, field

from sqlglot import exp
from sqlglot.tokens import TokenType

from .catalog import ColumnDef, TableDef, WatermarkSpec
from .errors import SqlError
from .literals import interval_ms as _interval_ms
from .parse import parse_sql, tokenize
from .reserved_words import RESERVED, reserved_word_error
from .expr.types import parse_type


class _Cursor:
    """Tokens of one statement with positions mapped to the user's input."""

    def __init__(self, sql, line0, col0):
        self.sql = sql
        self.line0, self.col0 = line0, col0
        self.toks = _split_multiword(tokenize(sql, line0, col0))
        self.i = 0

    def pos(self, tok=None):
        if tok is None and not self.toks:
            return self.line0, self.col0
        tok = tok or (self.toks[self.i] if self.i < len(self.toks) else self.toks[-1])
        return position(self.sql, tok.start, self.line0, self.col0)

    def error(self, message, tok=None, hint=None):
        line, col = self.pos(tok)
        return SqlError(message, line, col, hint)

    @property
    def cur(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def at_end(self):
        return self.i >= len(self.toks)

    def word(self, *words):
        t = self.cur
        if t is not None and t.text.upper() in words and t.token_type not in (TokenType.STRING,
                                                                             TokenType.IDENTIFIER):
            self.i += 1
            return t.text.upper()
        return None

    def words(self, *seq):
        save = self.i
        for w in seq:
            if not self.word(w):
                self.i = save
                return False
        return True

    def expect(self, *seq, what=None):
        if not self.words(*seq):
            got = self.cur.text if self.cur else "end of statement"
            raise self.error("Expected %s but found '%s'" % (what or " ".join(seq), got))

    def sym(self, token_type):
        if self.cur is not None and self.cur.token_type == token_type:
            self.i += 1
            return True
        return False

    def name(self, what="a name"):
        t = self.cur
        if t is None or t.token_type in (TokenType.STRING, TokenType.L_PAREN, TokenType.R_PAREN,
                                         TokenType.COMMA, TokenType.SEMICOLON):
            raise self.error("Expected %s but found '%s'" % (what, t.text if t else "end of statement"))
        self.i += 1
        parts = [t.text]
        while self.cur is not None and self.cur.token_type == TokenType.DOT:
            self.i += 1
            if self.cur is None or self.cur.token_type in (TokenType.STRING, TokenType.L_PAREN, TokenType.R_PAREN,
                                                           TokenType.COMMA, TokenType.DOT):
                raise self.error("Expected a name after '.' but found '%s'"
                                 % (self.cur.text if self.cur else "end of statement"))
            parts.append(self.cur.text)
            self.i += 1
        return ".".join(parts)

    def string(self, what="a string"):
        t = self.cur
        if t is None or t.token_type != TokenType.STRING:
            raise self.error("Expected %s in single quotes but found '%s'"
                             % (what, t.text if t else "end of statement"))
        self.i += 1
        return t.text

    def text_between(self, first, last):
        return self.sql[self.toks[first].start:self.toks[last].end + 1]


def position(sql, offset, line0=1, col0=1):
    """Offset in a statement -> (line, column) in the user's input, the statement starting at line0:col0."""
    line = sql.count("\n", 0, offset)
    col = offset - (sql.rfind("\n", 0, offset) + 1) + 1
    return line0 + line, (col0 + col - 1) if line == 0 else col


def _split_multiword(toks):
    """sqlglot reads `PRIMARY KEY`, `ORDER BY`, ... as one token: give each word its own."""
    from sqlglot.tokens import Token
    out = []
    for t in toks:
        if " " in t.text and t.token_type not in (TokenType.STRING, TokenType.IDENTIFIER):
            offset = t.start
            for w in t.text.split():
                at = offset + t.text[offset - t.start:].index(w)
                out.append(Token(TokenType.VAR, w, t.line, t.col, at, at + len(w) - 1))
                offset = at + len(w)
        else:
            out.append(t)
    return out


@dataclass
class CreateTable:
    """A CREATE TABLE statement as written: the table it declares, and for `... LIKE source (options)` the source's
    name and the merging options ({feature: INCLUDING | EXCLUDING | OVERWRITING}), for `... AS <query>` (CTAS) the
    query's text and its offset in the statement."""
    table: TableDef
    if_not_exists: bool = False
    temporary: bool = False
    like: str = None
    like_options: list = field(default_factory=list)     # [(strategy, feature)] in the order written
    like_position: tuple = (1, 1)
    query: str = None
    query_offset: int = 0
    column_names: list = None     # CTAS `(c, b, a)`: the query's columns by name, in the table's order


def parse_create_table(sql, line=1, column=1):
    """A plain CREATE TABLE (its columns declared) -> (TableDef, if_not_exists)."""
    create = parse_create_table_statement(sql, line, column)
    if create.like is not None or create.query is not None:
        raise SqlError("Expected a CREATE TABLE with its columns, not ... %s" % ("LIKE" if create.like else "AS"),
                       line, column)
    return create.table, create.if_not_exists


def parse_create_table_statement(sql, line=1, column=1):
    """CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name [(columns, WATERMARK, PRIMARY KEY)] [COMMENT] [PARTITIONED BY]
    [WITH (options)] [LIKE source [(merging options)] | AS query] -> a CreateTable. A plain table is checked
    here (check_table_definition); one made LIKE another or AS a query is checked once it is complete."""
    c = _Cursor(sql, line, column)
    c.expect("CREATE")
    temporary = bool(c.word("TEMPORARY"))
    c.expect("TABLE")
    if_not_exists = c.words("IF", "NOT", "EXISTS")
    _not_reserved(c, c.cur)
    name = c.name("a table name")
    derived = _top_level_word(c, "LIKE") or _top_level_word(c, "AS")     # its columns come from elsewhere
    columns, watermark, pk = [], None, []
    names_only = None       # `(c, b, a)`: a CTAS's columns named without types, to order the query's columns
    list_start = c.cur
    if c.sym(TokenType.L_PAREN):
        for item in _split_items(c):
            first, last = item
            sub = _Cursor.__new__(_Cursor)
            sub.sql, sub.line0, sub.col0, sub.toks, sub.i = c.sql, c.line0, c.col0, c.toks[:last + 1], first
            head = sub.cur.text.upper() if sub.cur.token_type != TokenType.IDENTIFIER else None
            if head not in ("WATERMARK", "PRIMARY", "CONSTRAINT") and (
                    names_only is not None or (first == last and not columns)):
                # Flink reads the list as names when its first column is a name alone; a type after one is then
                # its parser's error
                if first != last:
                    raise sub.error('Encountered "%s"' % c.toks[first + 1].text, c.toks[first + 1],
                                    hint="a CREATE TABLE AS SELECT lists its columns either all with types, or "
                                         "all as names (to order the query's columns)")
                names_only = (names_only or []) + [sub.name("a column name")]
            elif head == "WATERMARK":
                if watermark is not None:
                    raise sub.error("A table can have only one WATERMARK")
                watermark = _watermark(sub, last)
            elif head in ("PRIMARY", "CONSTRAINT"):
                if pk:
                    raise sub.error("A table can have only one PRIMARY KEY")
                pk = _primary_key(sub, last)
            else:
                col, col_pk = _column(sub, last)
                if any(x.name == col.name for x in columns):
                    raise sub.error("Duplicate column '%s'" % col.name, c.toks[first])
                columns.append(col)
                if col_pk:
                    pk = [col.name]
    elif not derived:
        raise c.error("Expected '(' and the column list after the table name")
    if names_only is not None and not _top_level_word(c, "AS"):
        raise c.error("Columns identifiers without types in the schema are supported on CTAS/RTAS statements only.",
                      list_start)
    comment = None
    if c.word("COMMENT"):
        comment = c.string("a comment")
    distribution = None
    if c.word("DISTRIBUTED"):
        distribution = _distribution(c)
    partition_keys = []
    if c.words("PARTITIONED", "BY"):
        partition_keys = _partition_keys(c, None if derived else columns)
    options = {}
    if c.word("WITH"):
        options = _options(c)
    create = CreateTable(TableDef(name=name, columns=columns, options=options, watermark=watermark, primary_key=pk,
                                  comment=comment, ddl=sql, partition_keys=partition_keys,
                                  distribution=distribution),
                         if_not_exists, temporary, column_names=names_only)
    if c.word("LIKE"):
        create.like_position = c.pos()
        create.like = c.name("the source table of LIKE")
        if c.sym(TokenType.L_PAREN):
            create.like_options = _like_options(c)
    elif c.cur is not None and c.cur.text.upper() == "AS" and c.cur.token_type != TokenType.IDENTIFIER:
        c.i += 1
        if c.at_end():
            raise c.error("Expected a query after AS")
        create.query_offset = c.cur.start
        create.query = sql[c.cur.start:]
        return create
    if not c.at_end():
        raise c.error("Unexpected '%s' after the table definition" % c.cur.text)
    if create.like is None:
        check_table_definition(create.table, line, column)
    return create


def _top_level_word(c, word):
    """True when `word` stands outside any parentheses after the cursor (LIKE / AS ending a CREATE TABLE)."""
    depth = 0
    for t in c.toks[c.i:]:
        if t.token_type == TokenType.L_PAREN:
            depth += 1
        elif t.token_type == TokenType.R_PAREN:
            depth -= 1
        elif depth == 0 and t.text.upper() == word and t.token_type not in (TokenType.STRING, TokenType.IDENTIFIER):
            return True
    return False


LIKE_FEATURES = ("ALL", "CONSTRAINTS", "PARTITIONS", "GENERATED", "OPTIONS", "WATERMARKS", "METADATA", "DISTRIBUTION")


def _like_options(c):
    """`(INCLUDING ALL EXCLUDING OPTIONS ...)` after LIKE source -> [(strategy, feature)]."""
    out = []
    while not c.sym(TokenType.R_PAREN):
        strategy = c.word("INCLUDING", "EXCLUDING", "OVERWRITING")
        if not strategy:
            raise c.error("Expected INCLUDING, EXCLUDING or OVERWRITING in the LIKE options but found '%s'"
                          % (c.cur.text if c.cur else "end of statement"))
        tok = c.cur
        feature = c.word(*LIKE_FEATURES)
        if not feature:
            raise c.error("Expected one of %s after %s" % (", ".join(LIKE_FEATURES), strategy))
        if strategy == "OVERWRITING" and feature in ("ALL", "CONSTRAINTS", "PARTITIONS", "DISTRIBUTION"):
            raise c.error("Illegal merging strategy 'OVERWRITING' for '%s' option." % feature, tok)
        if any(f == feature for _, f in out):
            raise c.error("Each like option feature can be declared only once.", tok)
        out.append((strategy, feature))
        c.sym(TokenType.COMMA)
    return out


def check_table_definition(table, line=None, column=None):
    """A complete table's columns, key and watermark as Flink checks them; computed columns get their types and
    key columns NOT NULL."""
    columns, pk, watermark, name = table.columns, table.primary_key, table.watermark, table.name
    if not columns:
        raise SqlError("A table needs at least one column", line, column)
    from .computed_columns import computed_column_type
    known = {x.name: x.type for x in columns if x.is_physical}
    for x in columns:
        if x.computed is not None:
            x.type = "TIMESTAMP_LTZ(3) NOT NULL" if x.is_proctime else computed_column_type(x.computed, known)
    names = {x.name for x in columns}
    for k in pk:
        if k not in names:
            raise SqlError("PRIMARY KEY column '%s' is not a column of '%s'" % (k, name), line, column)
        col = next(x for x in columns if x.name == k)
        if not col.is_physical:
            raise SqlError("PRIMARY KEY column '%s' must be a physical column" % k, line, column)
        col.nullable = False
        if not col.type.endswith("NOT NULL"):
            col.type += " NOT NULL"
    for k in table.partition_keys:
        col = table.column(k)
        if col is None or not col.is_physical:
            raise SqlError("Partition column '%s' not defined in the table schema. Available columns: [%s]"
                           % (k, ", ".join("'%s'" % x.name for x in columns if x.is_physical)), line, column)
    for k in (table.distribution or {}).get("keys", ()):
        col = table.column(k)
        if col is None or not col.is_physical:
            raise SqlError("Invalid bucket key '%s'. A bucket key for a distribution must reference a physical column "
                           "in the schema. Available columns are: [%s]"
                           % (k, ", ".join(x.name for x in columns if x.is_physical)), line, column)
    if watermark is not None:
        wcol = next((x for x in columns if x.name == watermark.column), None)
        if wcol is None:
            raise SqlError("The rowtime attribute '%s' of the WATERMARK is not a column of '%s'"
                           % (watermark.column, name), line, column)
        if wcol.type and not re.match(r"TIMESTAMP(_LTZ)?\b", wcol.type):
            raise SqlError("The rowtime attribute '%s' must be of type TIMESTAMP or TIMESTAMP_LTZ, not %s"
                           % (wcol.name, wcol.type), line, column,
                           hint="declare it TIMESTAMP(3), or compute one: ts AS TO_TIMESTAMP(...)")
    return table


def _not_reserved(c, tok):
    """A name written without backticks must not be one of Flink's reserved words (planner/reserved_words.py)."""
    if tok is not None and tok.token_type != TokenType.IDENTIFIER and tok.text.upper() in RESERVED:
        raise reserved_word_error(tok.text, *c.pos(tok))


def _split_items(c):
    """Top-level comma-separated items of the column list, as (first, last) token indexes; leaves the
    cursor after the closing parenthesis."""
    items, depth, angle, start = [], 0, 0, c.i
    type_mode = None
    while True:
        t = c.cur
        if t is None:
            raise c.error("The column list is not closed: expected ')'")
        tt = t.token_type
        if c.i == start + 1:
            prev = c.toks[start]
            type_mode = prev.text.upper() not in ("WATERMARK", "PRIMARY", "CONSTRAINT") and t.text.upper() != "AS"
        if tt == TokenType.L_PAREN:
            depth += 1
        elif tt == TokenType.R_PAREN:
            if depth == 0:
                if c.i > start:
                    items.append((start, c.i - 1))
                c.i += 1
                return items
            depth -= 1
        elif type_mode and tt == TokenType.LT:
            angle += 1
        elif type_mode and tt == TokenType.GT:
            angle -= 1
        elif type_mode and tt == TokenType.GTE:  # sqlglot reads `>>` of nested types as tokens too
            angle -= 1
        elif tt == TokenType.COMMA and depth == 0 and angle <= 0:
            if c.i == start:
                raise c.error("Expected a column definition before ','")
            items.append((start, c.i - 1))
            start = c.i + 1
            angle = 0
        c.i += 1


def _column(c, last):
    name_tok = c.cur
    name = c.name("a column name")
    _not_reserved(c, name_tok)
    if c.cur is None or c.i > last:
        raise c.error("Column '%s' needs a type" % name, name_tok)
    if c.cur.text.upper() == "AS":
        c.i += 1
        first = c.i
        end = last
        comment = None
        # trailing COMMENT 'x'
        if last - first >= 1 and c.toks[last].token_type == TokenType.STRING and \
                c.toks[last - 1].text.upper() == "COMMENT":
            comment = c.toks[last].text
            end = last - 2
        if end < first:
            raise c.error("Computed column '%s' needs an expression after AS" % name, name_tok)
        expr = c.text_between(first, end)
        _check_expression(expr, c, c.toks[first])
        return ColumnDef(name=name, type="", computed=expr, comment=comment), False
    # physical or metadata column: the type runs until a constraint keyword
    first = c.i
    stops = {"NOT", "NULL", "PRIMARY", "COMMENT", "METADATA", "CONSTRAINT"}
    j = first
    angle = 0
    while j <= last:
        tt = c.toks[j].token_type
        word = c.toks[j].text.upper()
        if tt == TokenType.LT:
            angle += 1
        elif tt == TokenType.GT:
            angle -= 1
        if angle == 0 and word in stops and j > first and tt not in (TokenType.STRING, TokenType.IDENTIFIER):
            # `NOT NULL` is part of the column, not of the type
            break
        j += 1
    type_text = c.text_between(first, j - 1)
    ftype = parse_type(type_text, c.pos(c.toks[first]))
    c.i = j
    nullable, pk, metadata, comment = True, False, None, None
    while c.i <= last:
        if c.words("NOT", "NULL"):
            nullable = False
        elif c.word("NULL"):
            nullable = True
        elif c.words("PRIMARY", "KEY"):
            if not c.words("NOT", "ENFORCED"):
                raise c.error("Flink supports only PRIMARY KEY ... NOT ENFORCED",
                              hint="write PRIMARY KEY NOT ENFORCED")
            pk = True
        elif c.word("COMMENT"):
            comment = c.string("a comment")
        elif c.word("METADATA"):
            metadata = name
            if c.word("FROM"):
                metadata = c.string("a metadata key")
            c.word("VIRTUAL")
        else:
            raise c.error("Unexpected '%s' in the definition of column '%s'" % (c.cur.text, name))
    ftype.nullable = nullable and ftype.nullable
    return ColumnDef(name=name, type=ftype.text(), nullable=ftype.nullable, metadata=metadata,
                     comment=comment), pk


def _watermark(c, last):
    c.expect("WATERMARK")
    c.expect("FOR")
    col = c.name("the rowtime column")
    c.expect("AS", what="AS and the watermark expression")
    if c.i > last:
        raise c.error("WATERMARK FOR %s AS needs an expression" % col)
    expr = c.text_between(c.i, last)
    where = c.pos(c.cur)
    _check_expression(expr, c, c.cur)
    return WatermarkSpec(column=col, expression=expr, delay_ms=watermark_delay_ms(col, expr, where))


def watermark_delay_ms(col, expr, position=None):
    """`col` -> 0, `col - INTERVAL 'n' unit` -> n in ms; another shape -> None (strategy not bounded).
    An interval Flink refuses (NaN, past its precision, ...) is a SqlError at `position` (line, column of
    `expr`)."""
    line, column = position or (1, 1)
    e = parse_sql(expr, line, column)
    if isinstance(e, exp.Column) and e.name == col:
        return 0
    if isinstance(e, exp.Sub) and isinstance(e.this, exp.Column) and e.this.name == col:
        iv = e.expression
        if isinstance(iv, exp.Interval):
            return interval_ms(iv, position)
    return None


def interval_ms(iv, position=None):
    """sqlglot Interval (INTERVAL '5' SECOND, INTERVAL '1:30' HOUR TO MINUTE, INTERVAL '1.5' SECOND) -> ms,
    with Flink's rules (see planner.literals.interval_ms)."""
    return _interval_ms(iv, position)


def _primary_key(c, last):
    if c.word("CONSTRAINT"):
        c.name("a constraint name")
    c.expect("PRIMARY", "KEY")
    cols = _name_list(c, "PRIMARY KEY", "the key columns", "a key column")
    if not c.words("NOT", "ENFORCED"):
        raise c.error("Flink supports only PRIMARY KEY (...) NOT ENFORCED", hint="add NOT ENFORCED")
    if c.i <= last:
        raise c.error("Unexpected '%s' after the PRIMARY KEY" % c.cur.text)
    return cols


def _name_list(c, clause, what, each):
    """`(a, b, ...)` after `clause` -> the names."""
    if not c.sym(TokenType.L_PAREN):
        raise c.error("Expected '(' and %s after %s" % (what, clause))
    names = []
    while True:
        names.append(c.name(each))
        if c.sym(TokenType.R_PAREN):
            return names
        if not c.sym(TokenType.COMMA):
            raise c.error("Expected ',' or ')' in the %s column list" % clause)


def _partition_keys(c, columns):
    """`PARTITIONED BY (a, b)`: physical columns of the table, each once."""
    if not c.sym(TokenType.L_PAREN):
        raise c.error("Expected '(' and the partition columns after PARTITIONED BY")
    keys = []
    while True:
        tok = c.cur
        key = c.name("a partition column")
        col = next((x for x in columns if x.name == key), None) if columns is not None else True
        if col is None or (columns is not None and not col.is_physical):
            raise c.error("Partition column '%s' not defined in the table schema. Available columns: [%s]"
                          % (key, ", ".join("'%s'" % x.name for x in columns or [] if x.is_physical)), tok)
        if key in keys:
            raise c.error("Partition column '%s' is listed twice" % key, tok)
        keys.append(key)
        if c.sym(TokenType.R_PAREN):
            return keys
        if not c.sym(TokenType.COMMA):
            raise c.error("Expected ',' or ')' in the PARTITIONED BY column list")


def _distribution(c):
    """After DISTRIBUTED, Flink 2.x's bucketing: `BY [HASH | RANGE] (k, ...) [INTO n BUCKETS]` or `INTO n BUCKETS`
    -> {"kind": "HASH" | "RANGE" | None, "keys": [...], "buckets": n or None}. dynsql keeps it with the table (SHOW
    CREATE TABLE, LIKE); a write into the table is refused, as Flink refuses it for every sink it has (none
    implements SupportsBucketing): planner.py `refuse_distributed_sink`."""
    kind, keys, buckets = None, [], None
    if c.word("BY"):
        kind = c.word("HASH", "RANGE")
        keys = _name_list(c, "DISTRIBUTED BY" + (" " + kind if kind else ""), "the bucket key columns",
                          "a bucket key column")
        if c.word("INTO"):
            buckets = _bucket_count(c)
    elif c.word("INTO"):
        buckets = _bucket_count(c)
    else:
        raise c.error("Expected BY or INTO after DISTRIBUTED",
                      hint="DISTRIBUTED BY HASH(k) INTO 4 BUCKETS, DISTRIBUTED BY (k), or DISTRIBUTED INTO 4 BUCKETS")
    return {"kind": kind, "keys": keys, "buckets": buckets}


def _bucket_count(c):
    tok = c.cur
    if tok is None or tok.token_type != TokenType.NUMBER or not tok.text.isdigit():
        raise c.error("Expected the number of buckets after INTO", tok)
    c.i += 1
    if not c.word("BUCKETS"):
        raise c.error("Expected BUCKETS after INTO %s" % tok.text)
    if int(tok.text) < 1:
        raise c.error("Invalid bucket count '%s'. The number of buckets for a distributed table must be at least 1."
                      % tok.text, tok)
    return int(tok.text)


def distribution_text(distribution):
    """A table's distribution as Flink's SHOW CREATE TABLE writes it."""
    d = distribution
    out = "DISTRIBUTED"
    if d["keys"]:
        out += " BY %s(%s)" % (d["kind"] or "", ", ".join("`%s`" % k for k in d["keys"]))
    if d["buckets"] is not None:
        out += " INTO %d BUCKETS" % d["buckets"]
    return out


def _options(c):
    if not c.sym(TokenType.L_PAREN):
        raise c.error("Expected '(' after WITH")
    options = {}
    while not c.sym(TokenType.R_PAREN):
        key_tok = c.cur
        key = c.string("an option key")
        if not c.sym(TokenType.EQ):
            raise c.error("Expected '=' after option '%s'" % key)
        value = c.string("the value of option '%s'" % key)
        if key in options:
            raise c.error("Option '%s' is given twice" % key, key_tok)
        options[key] = value
        if not c.sym(TokenType.COMMA):
            if not c.sym(TokenType.R_PAREN):
                raise c.error("Expected ',' or ')' in the WITH options")
            break
    return options


def _check_expression(expr, c, tok):
    """A computed column's or the watermark's expression parses (errors at their place in the DDL)."""
    parse_sql(expr, *c.pos(tok))
