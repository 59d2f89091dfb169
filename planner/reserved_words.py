"""Flink 2.3's reserved words, and `check_reserved_identifiers(tree, text, line, column)`: an unquoted reserved
word used as a name is a parse error, as in Flink.

Flink's parser (Calcite's grammar with Flink's additions) refuses a reserved word wherever it reads a name: a
column (`SELECT value`, `t.value`, `r.value`), an alias (`AS year`), a table, view or CTE name, a column
declared in CREATE TABLE, a field of a ROW type; written in backticks (`value`) each is a name like any
other. The list below is Flink 2.3's own (`FlinkSqlParserImpl`'s metadata, `isReservedWord`), the words its
documentation's "Reserved Keywords" page marks. A reserved word that Flink reads as a function without
parentheses (`USER`, `CURRENT_DATE`, ...) stays a function call. This module does not parse: it looks at the
names sqlglot (planner/parse.py) and the DDL reader (planner/ddl.py) found."""

from sqlglot import exp

from .errors import SqlError

RESERVED = frozenset("""
    ABS ALL ALLOCATE ALLOW ALTER AND ANY ARE ARRAY ARRAY_CONCAT_AGG ARRAY_MAX_CARDINALITY AS ASENSITIVE ASYMMETRIC
    AT ATOMIC AUTHORIZATION AVG BEGIN BEGIN_FRAME BEGIN_PARTITION BETWEEN BIGINT BINARY BIT BITMAP BLOB BOOLEAN BOTH
    BUCKETS BY BYTES CALL CALLED CARDINALITY CASCADED CASE CAST CATALOGS CEIL CEILING CHAR CHARACTER
    CHARACTER_LENGTH CHAR_LENGTH CHECK CLASSIFIER CLOB CLOSE COALESCE COLLATE COLLECT COLUMN COMMENT COMMIT
    CONDITION CONNECT CONNECTIONS CONSTRAINT CONTAINS CONTAINS_SUBSTR CONTINUOUS CONVERT CORR CORRESPONDING COUNT
    COVAR_POP COVAR_SAMP CREATE CROSS CUBE CUME_DIST CURRENT CURRENT_CATALOG CURRENT_DATE
    CURRENT_DEFAULT_TRANSFORM_GROUP CURRENT_PATH CURRENT_ROLE CURRENT_ROW CURRENT_SCHEMA CURRENT_TIME
    CURRENT_TIMESTAMP CURRENT_TRANSFORM_GROUP_FOR_TYPE CURRENT_USER CURSOR CYCLE DATABASES DATE DATETIME
    DATETIME_TRUNC DATE_TRUNC DAY DEALLOCATE DEC DECIMAL DECLARE DEFAULT DEFINE DELETE DENSE_RANK DEREF DESCRIBE
    DETERMINISTIC DISALLOW DISCONNECT DISTINCT DISTRIBUTED DISTRIBUTION DOT DOUBLE DROP DYNAMIC EACH ELEMENT ELSE
    EMPTY END END_FRAME END_PARTITION EQUALS ESCAPE EVERY EXCEPT EXEC EXECUTE EXISTS EXP EXPLAIN EXTEND EXTENDED
    EXTERNAL EXTRACT FALSE FETCH FILTER FIRST_VALUE FLOAT FLOOR FOR FOREIGN FRAME_ROW FREE FRESHNESS FRIDAY FROM
    FULL FUNCTION FUNCTIONS FUSION GET GLOBAL GRANT GROUP GROUPING GROUPS GROUP_CONCAT HASH HAVING HOLD HOUR
    IDENTITY ILIKE IMPORT IN INCLUDE INDICATOR INITIAL INNER INOUT INSENSITIVE INSERT INT INTEGER INTERSECT
    INTERSECTION INTERVAL INTO IS JOIN JSON_ARRAY JSON_ARRAYAGG JSON_EXISTS JSON_OBJECT JSON_OBJECTAGG JSON_QUERY
    JSON_SCOPE JSON_VALUE LAG LANGUAGE LARGE LAST_VALUE LATERAL LEAD LEADING LEFT LIKE LIKE_REGEX LIMIT LN LOCAL
    LOCALTIME LOCALTIMESTAMP LOWER MATCH MATCHES MATCH_NUMBER MATCH_RECOGNIZE MATERIALIZED MAX MEASURES MEMBER MERGE
    METHOD MIN MINUS MINUTE MOD MODELS MODIFIES MODIFY MODULE MODULES MONDAY MONTH MULTISET NATIONAL NATURAL NCHAR
    NCLOB NEW NEXT NO NONE NORMALIZE NOT NTH_VALUE NTILE NULL NULLIF NUMERIC OCCURRENCES_REGEX OCTET_LENGTH OF
    OFFSET OLD OMIT ON ONE ONLY OPEN OR ORDER ORDINAL OUT OUTER OVER OVERLAPS OVERLAY PARAMETER PARTITION PATTERN
    PER PERCENT PERCENTILE_CONT PERCENTILE_DISC PERCENT_RANK PERIOD PERMUTE PIVOT PORTION POSITION POSITION_REGEX
    POWER PRECEDES PRECISION PREPARE PREV PRIMARY PROCEDURE PROCEDURES QUALIFY QUARTERS RANGE RANK RAW READS REAL
    RECURSIVE REF REFERENCES REFERENCING REFRESH REFRESH_MODE REGR_AVGX REGR_AVGY REGR_COUNT REGR_INTERCEPT REGR_R2
    REGR_SLOPE REGR_SXX REGR_SXY REGR_SYY RELEASE RENAME RESET RESULT RESUME RETURN RETURNS REVOKE RIGHT RLIKE
    ROLLBACK ROLLUP ROW ROWS ROW_NUMBER RUNNING SAFE_CAST SAFE_OFFSET SAFE_ORDINAL SATURDAY SAVEPOINT SCALA SCOPE
    SCROLL SEARCH SECOND SEEK SELECT SENSITIVE SEPARATOR SESSION_USER SET SHOW SIMILAR SKIP SMALLINT SOME SPECIFIC
    SPECIFICTYPE SQL SQLEXCEPTION SQLSTATE SQLWARNING SQRT START STATEMENT STATIC STDDEV_POP STDDEV_SAMP STREAM
    STRING STRING_AGG STRUCTURED SUBMULTISET SUBSET SUBSTRING SUBSTRING_REGEX SUCCEEDS SUM SUNDAY SUSPEND SYMMETRIC
    SYSTEM SYSTEM_TIME SYSTEM_USER TABLE TABLES TABLESAMPLE THEN THURSDAY TIME TIMESTAMP TIMESTAMP_DIFF
    TIMESTAMP_LTZ TIMESTAMP_TRUNC TIMEZONE_HOUR TIMEZONE_MINUTE TIME_DIFF TIME_TRUNC TINYINT TO TRAILING TRANSLATE
    TRANSLATE_REGEX TRANSLATION TREAT TRIGGER TRIM TRIM_ARRAY TRUE TRUNCATE TRY_CAST TUESDAY UESCAPE UNION UNIQUE
    UNKNOWN UNNEST UNPIVOT UPDATE UPPER UPSERT USE USER USING VALUE VALUES VALUE_OF VARBINARY VARCHAR VARIANT
    VARYING VAR_POP VAR_SAMP VERSIONING VIEWS WATERMARK WATERMARKS WEDNESDAY WEEKS WHEN WHENEVER WHERE WIDTH_BUCKET
    WINDOW WITH WITHIN WITHOUT YEAR
""".split())

# reserved words Flink reads as a call when they stand alone (Calcite's niladic functions)
NILADIC_FUNCTIONS = frozenset("""
    USER CURRENT_USER SESSION_USER SYSTEM_USER CURRENT_ROLE CURRENT_PATH CURRENT_CATALOG CURRENT_SCHEMA
    CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP LOCALTIME LOCALTIMESTAMP
""".split())

# time units, read as keywords where a function takes one (TIMESTAMPADD(DAY, 1, ts), TIMESTAMPDIFF(SECOND, a, b))
TIME_UNITS = frozenset("""
    YEAR QUARTER MONTH WEEK DAY HOUR MINUTE SECOND MILLISECOND MICROSECOND NANOSECOND EPOCH DOW DOY ISODOW
    ISOYEAR DECADE CENTURY MILLENNIUM
""".split())


def reserved_word_error(word, line, column):
    """Flink's parse error for a reserved word where a name belongs, with the way out."""
    return SqlError('SQL parse failed. Encountered "%s": %s is a reserved word in Flink SQL' % (word, word.upper()),
                    line, column,
                    "to use it as a name, quote it with backticks: `%s`" % word)


def check_reserved_identifiers(tree, text, line=1, column=1):
    """Raises the parse error for the first unquoted reserved word that tree uses as a name; text is the
    statement tree was parsed from (it starts at line:column of the user's input)."""
    found = []
    for ident in tree.find_all(exp.Identifier):
        name = ident.this if isinstance(ident.this, str) else None
        if ident.quoted or name is None or name.upper() not in RESERVED:
            continue
        start, end = ident.meta.get("start"), ident.meta.get("end")
        if start is None or end is None or text[start:end + 1].upper() != name.upper():
            continue            # a name the parser made, not one written in the statement
        parent = ident.parent
        if isinstance(parent, exp.Column) and not parent.table and (
                name.upper() in NILADIC_FUNCTIONS
                or (name.upper() in TIME_UNITS and isinstance(parent.parent, exp.Func)
                    and not isinstance(parent.parent, exp.AggFunc))):
            continue
        found.append(start)
    if found:
        start = min(found)
        word = text[start:start + len(_word_at(text, start))]
        raise reserved_word_error(word, *_position(text, start, line, column))


def _word_at(text, start):
    end = start
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return text[start:end]


def _position(text, offset, line, column):
    before = text[:offset]
    if "\n" not in before:
        return line, column + offset
    return line + before.count("\n"), offset - before.rfind("\n")
