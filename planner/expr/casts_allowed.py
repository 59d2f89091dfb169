"""Which CASTs Flink 2.3 makes: `cast_refusal(source, target)` is Flink's refusal of `CAST(x AS target)` for an
`x` of type `source`, in its words, or None when Flink casts. Calcite's validator refuses a cast between
families it does not convert ("Cast function cannot convert value of type BOOLEAN to type DATE"); Flink's own
checks refuse a TIMESTAMP as a number and a number as a TIMESTAMP, naming the function to use instead; its
code generator refuses a string as a collection. (How a CAST that is made computes: casts.py.)"""

from .signatures import calcite

_NUMBER = {"TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL", "FLOAT", "DOUBLE"}
_STRING = {"CHAR", "VARCHAR"}
_COLLECTION = {"ARRAY", "MAP", "MULTISET", "ROW"}
_TIMESTAMPS = {"TIMESTAMP", "TIMESTAMP_LTZ"}

# source family -> target type names Calcite refuses (what is not listed is left to the later checks)
_CALCITE_REFUSES = {
    "BOOLEAN": {"DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ"},
    "NUMBER": {"DATE", "TIME", "BINARY", "VARBINARY"},
    "DATE": _NUMBER | {"BOOLEAN", "TIME"},
    "TIME": _NUMBER | {"BOOLEAN", "DATE"},
    "TIMESTAMP": {"BOOLEAN"},
}


def _family(t):
    if t.name in _NUMBER:
        return "NUMBER"
    if t.name in _TIMESTAMPS:
        return "TIMESTAMP"
    return t.name


def cast_refusal(source, target):
    if source is None or target is None or source.name == "NULL":
        return None
    family = _family(source)
    if target.name in _CALCITE_REFUSES.get(family, ()) or (
            family in _COLLECTION and target.name not in _STRING and target.name != source.name) or (
            target.name in _COLLECTION and family not in _STRING and family not in _COLLECTION):
        return "Cast function cannot convert value of type %s to type %s" % (calcite(source), calcite(target))
    if source.name == "TIMESTAMP_LTZ" and target.name in _NUMBER:
        return "The cast from TIMESTAMP_LTZ type to NUMERIC type is not allowed."
    if family == "TIMESTAMP" and target.name in _NUMBER:
        return ("The cast from TIMESTAMP type to NUMERIC type is not allowed. It's recommended to use "
                "UNIX_TIMESTAMP(CAST(timestamp_col AS STRING)) instead.")
    if family == "NUMBER" and target.name == "TIMESTAMP":
        return ("The cast from NUMERIC type to TIMESTAMP type is not allowed. It's recommended to use "
                "TO_TIMESTAMP(FROM_UNIXTIME(numeric_col)) instead, note the numeric is in seconds.")
    if family == "NUMBER" and target.name == "TIMESTAMP_LTZ":
        return ("The cast from NUMERIC type to TIMESTAMP_LTZ type is not allowed. It's recommended to use "
                "TO_TIMESTAMP_LTZ(numeric_col, precision) instead.")
    if family in _STRING and target.name in _COLLECTION:
        return "Unsupported cast from '%s' to '%s'." % (source.text(with_null=False), target.text(with_null=False))
    return None
