"""`CREATE TABLE t (...) WITH (...) LIKE source (merging options)`: the new table from the source table's
definition and the statement's own parts, merged as Flink's MergeTableLikeUtil merges them.

Features and their strategies (INCLUDING | EXCLUDING, and OVERWRITING where Flink allows it):
ALL, CONSTRAINTS (the primary key), PARTITIONS, GENERATED (computed columns), METADATA (metadata columns),
OPTIONS, WATERMARKS, and DISTRIBUTION (DISTRIBUTED BY / INTO), which ALL does not cover in Flink 2.3. Defaults: INCLUDING ALL, OVERWRITING OPTIONS. The source's physical columns always come
first; a name declared twice, a second primary key, watermark or partitioning (unless excluded or overwritten) is
Flink's error."""

import copy

from .catalog import TableDef
from .ddl import check_table_definition
from .errors import SqlError

FEATURES = ("CONSTRAINTS", "PARTITIONS", "GENERATED", "METADATA", "OPTIONS", "WATERMARKS")


def merging_strategies(like_options):
    """[(strategy, feature)] as written -> {feature: strategy}, ALL applied first, then each named feature."""
    strategies = {f: "INCLUDING" for f in FEATURES}
    strategies["OPTIONS"] = "OVERWRITING"
    strategies["DISTRIBUTION"] = "INCLUDING"       # not under ALL (as Flink 2.3 merges it)
    for strategy, feature in like_options:
        if feature == "ALL":
            for f in FEATURES:
                strategies[f] = strategy
    for strategy, feature in like_options:
        if feature != "ALL":
            strategies[feature] = strategy
    return strategies


def merge_like(create, source, line=None, column=None):
    """A CreateTable with LIKE (planner/ddl.py) and the source TableDef -> the new, checked TableDef."""
    if not isinstance(source, TableDef):
        raise SqlError("Source table '%s' of the LIKE clause can not be a VIEW" % create.like, *create.like_position)
    own = create.table
    how = merging_strategies(create.like_options)

    def kept(col):
        if col.computed is not None:
            return how["GENERATED"] != "EXCLUDING"
        if col.metadata is not None:
            return how["METADATA"] != "EXCLUDING"
        return True

    columns = [copy.deepcopy(c) for c in source.columns if kept(c)]
    for col in own.columns:
        at = next((i for i, c in enumerate(columns) if c.name == col.name), None)
        if at is None:
            columns.append(copy.deepcopy(col))
            continue
        base = columns[at]
        feature = "GENERATED" if base.computed is not None else "METADATA" if base.metadata is not None else None
        if feature is not None and (col.computed is not None or col.metadata is not None) and \
                how[feature] == "OVERWRITING":
            columns[at] = copy.deepcopy(col)
            continue
        hint = (" You might want to specify EXCLUDING %s or OVERWRITING %s." % (feature, feature)) if feature else ""
        raise SqlError("A column named '%s' already exists in the base table.%s" % (col.name, hint), line, column)

    watermark = source.watermark if how["WATERMARKS"] != "EXCLUDING" else None
    if own.watermark is not None:
        if watermark is not None and how["WATERMARKS"] == "INCLUDING":
            raise SqlError("There already exists a watermark spec for column '%s' in the base table. You might want "
                           "to specify EXCLUDING WATERMARKS or OVERWRITING WATERMARKS." % watermark.column,
                           line, column)
        watermark = own.watermark

    def one_of(inherited, declared, clash):
        """The base table's list (when INCLUDING) or the new table's own; both: Flink's error `clash`."""
        if inherited and declared:
            raise SqlError(clash, line, column)
        return list(declared or inherited)

    primary_key = one_of(source.primary_key if how["CONSTRAINTS"] == "INCLUDING" else [], own.primary_key,
                         "The base table already has a primary key. You might want to specify EXCLUDING "
                         "CONSTRAINTS.")
    partition_keys = one_of(source.partition_keys if how["PARTITIONS"] == "INCLUDING" else [], own.partition_keys,
                            "The base table already has a partition spec defined. You might want to specify "
                            "EXCLUDING PARTITIONS.")

    # (Flink 2.3 keeps the base table's distribution under EXCLUDING ALL: only EXCLUDING DISTRIBUTION drops it)
    distribution = own.distribution
    if source.distribution and how["DISTRIBUTION"] != "EXCLUDING":
        if own.distribution:
            raise SqlError("The base table already has a distribution defined. You might want to specify "
                           "EXCLUDING DISTRIBUTION.", line, column)
        distribution = copy.deepcopy(source.distribution)

    options = dict(source.options) if how["OPTIONS"] != "EXCLUDING" else {}
    for key, value in own.options.items():
        if key in options and how["OPTIONS"] == "INCLUDING":
            raise SqlError("There already exists an option ['%s' -> '%s']  in the base table. You might want to "
                           "specify EXCLUDING OPTIONS or OVERWRITING OPTIONS." % (key, options[key]), line, column)
        options[key] = value

    table = TableDef(name=own.name, columns=columns, options=options, watermark=watermark, primary_key=primary_key,
                     comment=own.comment, ddl=own.ddl, partition_keys=partition_keys, distribution=distribution,
                     legacy_connector=source.legacy_connector and how["OPTIONS"] != "EXCLUDING")
    return check_table_definition(table, line, column)
