"""`CREATE TABLE t [(schema)] WITH (...) AS <query>` (CTAS): the table's columns from the query's and the
statement's own schema, merged as Flink 2.x's MergeTableAsUtil merges them.

- No schema: the query's columns.
- Columns with types (physical, computed, metadata), a WATERMARK, a PRIMARY KEY: the declared columns the query
  does not have come first, then the query's columns in its order; a declared column the query has keeps the
  query's position with the declared type (which the query's type must cast to implicitly: a nullable one not to
  NOT NULL). A declared column the query lacks is NULL in every row, so it cannot be NOT NULL. The key's columns
  become NOT NULL; the watermark may name any column.
- Names alone, `(c, b, a)`: the query's columns in that order, every one named once; as in Flink, a WATERMARK or
  PRIMARY KEY beside them is not kept.

The INSERT that fills the table names the query's columns (`INSERT INTO t (a, b, c) <query>`), so a declared
column the query lacks is NULL, as Flink's rewritten query makes it. Flink refuses a temporary CTAS, and so
does dynsql, in Flink's words."""

from collections import OrderedDict

from .catalog import ColumnDef
from .errors import SqlError
from .expr.types import parse_type
from .python_functions.calls import _implicitly_castable as implicitly_castable


def ctas_columns(create, query_fields, line, col):
    """The table's columns for `create` (a ddl.CreateTable with a query) over the query's fields."""
    if create.temporary:
        raise SqlError("CREATE TABLE AS SELECT syntax does not support to create temporary table yet.", line, col)
    source = OrderedDict()
    for f in query_fields:
        if f.name in source:
            raise SqlError("A column named '%s' already exists in the schema. " % f.name, line, col,
                           hint="alias the query's columns so that each has a name of its own")
        source[f.name] = ColumnDef(f.name, f.type.text(), f.type.nullable)
    if create.column_names is not None:
        if len(create.column_names) != len(source):
            raise SqlError("The number of columns in the column list must match the number of columns in the "
                           "source schema.", line, col,
                           hint="the query's columns: " + ", ".join(source))
        for name in create.column_names:
            if name not in source:
                raise SqlError("Column '%s' not found in the source schema. " % name, line, col,
                               hint="the query's columns: " + ", ".join(source))
        # Flink's converter then takes the query's columns in that order and nothing else: a WATERMARK or PRIMARY
        # KEY written beside the names is not part of the table (SqlCreateTableAsConverter: reorderSchema)
        create.table.watermark, create.table.primary_key = None, []
        return [source[name] for name in create.column_names]
    declared = OrderedDict()
    for position, column in enumerate(create.table.columns):
        if column.name in declared:
            raise SqlError("A column named '%s' already exists in the schema. " % column.name, line, col)
        if column.name not in source:
            if column.is_physical and not (column.nullable and parse_type(column.type).nullable):
                # the rows written hold NULL in it (Flink's rewritten query fills it so)
                raise SqlError("Column '%s' has no default value and does not allow NULLs." % column.name, line, col)
            declared[column.name] = column
            continue
        if not column.is_physical:
            raise SqlError("A column named '%s' already exists in the source schema. Computed and metadata columns "
                           "cannot overwrite regular columns." % column.name, line, col)
        was, wanted = parse_type(source[column.name].type), parse_type(column.type)
        if not implicitly_castable(was, wanted) or (was.nullable and not (wanted.nullable and column.nullable)):
            raise SqlError("Incompatible types for sink column '%s' at position %d. The source column has type '%s', "
                           "while the target column has type '%s'." % (column.name, position, was.text(),
                                                                        wanted.text()), line, col)
        source[column.name] = column
    return list(declared.values()) + list(source.values())
