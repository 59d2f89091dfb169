"""ALTER TABLE as Flink 2.3 has it, applied to a catalog table's definition:

    ALTER TABLE [IF EXISTS] t RENAME TO t2
    ALTER TABLE t SET ('k' = 'v', ...) | RESET ('k', ...)
    ALTER TABLE t ADD <column> [FIRST | AFTER c] | ADD (<column> [FIRST | AFTER c], WATERMARK ..., PRIMARY KEY ...)
    ALTER TABLE t MODIFY ... (the same items, each replacing the one of its name)
    ALTER TABLE t DROP c | DROP (c1, c2) | DROP PRIMARY KEY | DROP CONSTRAINT n | DROP WATERMARK
    ALTER TABLE t RENAME c TO c2

The changed table is checked as a new one is (columns, key, watermark, connector options) before it replaces the
old one; Flink's messages where it has them."""

import copy
import re

from sqlglot.tokens import TokenType

from .catalog import TableDef
from .connectors import check_table_options
from .ddl import _Cursor, _column, _options, _primary_key, _split_items, _watermark, check_table_definition
from .errors import SqlError

FAILED = "Failed to execute ALTER TABLE statement.\n"


def alter_table(catalog, text, line, col):
    """-> the message of an applied ALTER TABLE (the catalog holds the changed table)."""
    c = _Cursor(text, line, col)
    c.expect("ALTER", "TABLE")
    if_exists = c.words("IF", "EXISTS")
    name_tok = c.cur
    name = c.name("a table name")
    table = catalog.get(name)
    if not isinstance(table, TableDef):
        if if_exists and table is None:
            return
        quoted = ".".join("`%s`" % p for p in catalog.full_name(name).split("."))
        raise SqlError("Table %s doesn't exist or is a temporary table." % quoted, *c.pos(name_tok))
    new = copy.deepcopy(table)
    if c.words("RENAME", "TO"):
        new.name = c.name("the new table name")
        if "." in new.name:
            raise c.error("ALTER TABLE ... RENAME TO takes the new name alone, in the table's database")
    elif c.word("RENAME"):
        _rename_column(c, new)
    elif c.word("SET"):
        new.options.update(_options(c))
    elif c.word("RESET"):
        for key in _keys(c):
            if key == "connector":
                raise c.error("ALTER TABLE RESET does not support changing 'connector'")
            new.options.pop(key, None)
    elif c.word("ADD", "MODIFY"):
        how = c.toks[c.i - 1].text.upper()
        for item in _items(c):
            _apply(how, item, new, c)
    elif c.word("DROP"):
        _drop(c, new)
    else:
        raise c.error("Expected RENAME, SET, RESET, ADD, MODIFY or DROP after ALTER TABLE %s" % name)
    if not c.at_end():
        raise c.error("Unexpected '%s'" % c.cur.text)
    check_table_definition(new, line, col)
    check_table_options(new, line, col)
    catalog.replace_table(name, new)


def _keys(c):
    if not c.sym(TokenType.L_PAREN):
        raise c.error("Expected '(' and the option keys after RESET")
    keys = []
    while not c.sym(TokenType.R_PAREN):
        keys.append(c.string("an option key"))
        if not c.sym(TokenType.COMMA) and not (c.cur and c.cur.token_type == TokenType.R_PAREN):
            raise c.error("Expected ',' or ')' in the RESET keys")
    return keys


def _items(c):
    """ADD / MODIFY's items -> [(sub-cursor, last token index, position)], position None, ('FIRST',) or
    ('AFTER', column)."""
    if c.cur is not None and c.cur.token_type == TokenType.L_PAREN:
        c.i += 1
        spans = _split_items(c)
    else:
        if c.at_end():
            raise c.error("Expected a column, WATERMARK or PRIMARY KEY")
        spans = [(c.i, len(c.toks) - 1)]
        c.i = len(c.toks)
    items = []
    for first, last in spans:
        position = None
        if c.toks[last].text.upper() == "FIRST":
            position, last = ("FIRST",), last - 1
        elif last - 1 >= first and c.toks[last - 1].text.upper() == "AFTER":
            position, last = ("AFTER", c.toks[last].text), last - 2
        sub = _Cursor.__new__(_Cursor)
        sub.sql, sub.line0, sub.col0, sub.toks, sub.i = c.sql, c.line0, c.col0, c.toks[:last + 1], first
        items.append((sub, last, position))
    return items


def _apply(how, item, table, c):
    sub, last, position = item
    head = sub.cur.text.upper() if sub.cur.token_type != TokenType.IDENTIFIER else None
    if head == "WATERMARK":
        wm = _watermark(sub, last)
        if how == "ADD" and table.watermark is not None:
            raise sub.error(FAILED + "The base table has already defined the watermark strategy `%s` AS %s. You "
                            "might want to use ALTER TABLE MODIFY WATERMARK instead."
                            % (table.watermark.column, table.watermark.expression))
        if how == "MODIFY" and table.watermark is None:
            raise sub.error(FAILED + "The base table does not define any watermark. You might want to add a new one.")
        table.watermark = wm
        return
    if head in ("PRIMARY", "CONSTRAINT"):
        pk = _primary_key(sub, last)
        if how == "ADD" and table.primary_key:
            raise sub.error(FAILED + "The base table has already defined the primary key constraint [%s]. You might "
                            "want to drop it before adding a new one."
                            % ", ".join("`%s`" % k for k in table.primary_key))
        if how == "MODIFY" and not table.primary_key:
            raise sub.error(FAILED + "The base table does not define any primary key constraint. You might want to "
                            "add a new one.")
        table.primary_key = pk
        return
    name_tok = sub.cur
    column, is_key = _column(sub, last)
    at = next((i for i, x in enumerate(table.columns) if x.name == column.name), None)
    if how == "ADD" and at is not None:
        raise sub.error(FAILED + "Column `%s` already exists in the table." % column.name, name_tok)
    if how == "MODIFY":
        if at is None:
            raise sub.error(FAILED + "Try to modify a column `%s` which does not exist in the table." % column.name,
                            name_tok)
        if position is None:
            table.columns[at] = column
        else:
            del table.columns[at]
    if how == "ADD" or position is not None:
        if position is None:
            table.columns.append(column)
        elif position[0] == "FIRST":
            table.columns.insert(0, column)
        else:
            after = next((i for i, x in enumerate(table.columns) if x.name == position[1]), None)
            if after is None:
                raise sub.error(FAILED + "Referenced column `%s` by 'AFTER' does not exist in the table."
                                % position[1])
            table.columns.insert(after + 1, column)
    if is_key:
        if how == "ADD" and table.primary_key:
            raise sub.error(FAILED + "The base table has already defined the primary key constraint [%s]."
                            % ", ".join("`%s`" % k for k in table.primary_key))
        table.primary_key = [column.name]


def _drop(c, table):
    if c.words("PRIMARY", "KEY") or (c.word("CONSTRAINT") and c.name("a constraint name")):
        if not table.primary_key:
            raise c.error(FAILED + "The base table does not define any primary key.")
        table.primary_key = []
        return
    if c.word("WATERMARK"):
        if table.watermark is None:
            raise c.error(FAILED + "The base table does not define any watermark strategy.")
        table.watermark = None
        return
    names = []
    if c.sym(TokenType.L_PAREN):
        while not c.sym(TokenType.R_PAREN):
            names.append((c.cur, c.name("a column name")))
            c.sym(TokenType.COMMA)
    else:
        names.append((c.cur, c.name("a column name")))
    for tok, name in names:
        if table.column(name) is None:
            raise c.error(FAILED + "The column `%s` does not exist in the base table." % name, tok)
        if name in table.primary_key:
            raise c.error(FAILED + "The column `%s` is used as the primary key." % name, tok)
        if table.watermark is not None and (table.watermark.column == name or _refers(table.watermark.expression,
                                                                                      name)):
            raise c.error(FAILED + "The column `%s` is referenced by watermark expression." % name, tok)
        users = [x.name for x in table.columns if x.computed is not None and _refers(x.computed, name)]
        if users:
            raise c.error(FAILED + "The column `%s` is referenced by computed column `%s`." % (name, users[0]), tok)
        if name in table.partition_keys:
            raise c.error(FAILED + "The column `%s` is used as the partition keys." % name, tok)
        table.columns = [x for x in table.columns if x.name != name]


def _rename_column(c, table):
    tok = c.cur
    old = c.name("a column name")
    c.expect("TO")
    new = c.name("the new column name")
    column = table.column(old)
    if column is None:
        raise c.error(FAILED + "The column `%s` does not exist in the base table." % old, tok)
    if table.column(new) is not None:
        raise c.error(FAILED + "The column `%s` already existed in table schema." % new, tok)
    if table.watermark is not None and _refers(table.watermark.expression, old) and table.watermark.column != old:
        raise c.error(FAILED + "Old column %s is referred by watermark expression %s." % (old,
                                                                                        table.watermark.expression))
    users = [x.name for x in table.columns if x.computed is not None and _refers(x.computed, old)]
    if users:
        raise c.error(FAILED + "Old column %s is referred by computed column `%s`." % (old, users[0]))
    column.name = new
    table.primary_key = [new if k == old else k for k in table.primary_key]
    table.partition_keys = [new if k == old else k for k in table.partition_keys]
    if table.watermark is not None and table.watermark.column == old:
        table.watermark.column = new
        table.watermark.expression = re.sub(r"(?<![\w`])`?%s`?(?![\w`])" % re.escape(old), "`%s`" % new,
                                            table.watermark.expression)


def _refers(expression, name):
    return re.search(r"(?<![\w`])`?%s`?(?![\w`])" % re.escape(name), expression) is not None
