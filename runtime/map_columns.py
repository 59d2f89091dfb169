"""Maps brought to the driver in their order. Spark hands a MAP to Python (DataFrame.collect) through a
java.util.HashMap of its entries (EvaluatePython.toJava), so a collected dict comes in that HashMap's order of
Spark's key objects, not in the map's: MAP['kiwi', 1, 'apple', 2, 'zeta', 3, 'é', 4] came as {zeta=3, apple=2,
é=4, kiwi=1}, where Flink prints {kiwi=1, apple=2, zeta=3, é=4}. Every map (at any depth: in arrays, rows, maps)
is sent as its keys' and values' arrays and made a dict again in their order."""

from pyspark.sql import Row, functions as F
from pyspark.sql import types as st

from .java_float import JavaFloat


def has_map(t):
    if isinstance(t, st.MapType):
        return True
    if isinstance(t, st.ArrayType):
        return has_map(t.elementType)
    if isinstance(t, st.StructType):
        return any(has_map(f.dataType) for f in t.fields)
    return False


def as_entries(col, t):
    """A Column of Spark type `t` with each map in it as a struct of its keys' array and its values' array (in
    the map's order; one Row a map on the Python side, not one an entry)."""
    if not has_map(t):
        return col
    if isinstance(t, st.MapType):
        keys, values = F.map_keys(col), F.map_values(col)
        if has_map(t.keyType):
            keys = F.transform(keys, lambda k: as_entries(k, t.keyType))
        if has_map(t.valueType):
            values = F.transform(values, lambda v: as_entries(v, t.valueType))
        return F.when(col.isNotNull(), F.struct(keys.alias("k"), values.alias("v")))
    if isinstance(t, st.ArrayType):
        return F.transform(col, lambda e: as_entries(e, t.elementType))
    fields = [as_entries(col[f.name], f.dataType).alias(f.name) for f in t.fields]
    return F.when(col.isNotNull(), F.struct(*fields))


class RepeatedKeyMap(dict):
    """A map one of whose keys comes more than once (a parquet file's map: Flink's columnar reader keeps every
    entry, and prints, casts and unnests them all): a dict (each key once, at its first place, with its last
    value) that remembers all its entries in order for the printer (`all_items`)."""

    def __init__(self, entries):
        super().__init__(entries)
        self.entries = entries

    def all_items(self):
        return list(self.entries)


class ArrayKey(list):
    """An ARRAY that is a map's key (a MULTISET of arrays: COLLECT(ARRAY[..])): a list, printed as one, that a
    dict can hold (a plain list cannot be hashed)."""

    def __hash__(self):
        from .operators.keyed_state import freeze
        return hash(freeze(list(self)))


class MapKey(dict):
    """A MAP that is a map's key: a dict, printed as one, that a dict can hold."""

    def __hash__(self):
        from .operators.keyed_state import freeze
        return hash(freeze(dict(self)))


def _key(k):
    return ArrayKey(k) if type(k) is list else MapKey(k) if type(k) is dict else k


def map_value(pairs, key_type):
    """A map's (key, value) pairs in order -> the dict a Row holds: DOUBLE and FLOAT keys as JavaFloat (-0.0 and
    0.0 two keys, as in Java's map); ARRAY and MAP keys hashable (ArrayKey, MapKey); a RepeatedKeyMap when a key
    comes twice."""
    if isinstance(key_type, (st.DoubleType, st.FloatType)):
        pairs = [(k if k is None else JavaFloat(k), v) for k, v in pairs]
    elif isinstance(key_type, (st.ArrayType, st.MapType)):
        pairs = [(_key(k), v) for k, v in pairs]
    pairs = list(pairs)
    value = dict(pairs)
    return value if len(value) == len(pairs) else RepeatedKeyMap(pairs)


def from_entries(v, t):
    """A collected value of `as_entries(.., t)` -> the value a Row of type `t` holds, its maps dicts in order."""
    if v is None or not has_map(t):
        return v
    if isinstance(t, st.MapType):
        keys, values = v
        if has_map(t.keyType):
            keys = [from_entries(k, t.keyType) for k in keys]
        if has_map(t.valueType):
            values = [from_entries(x, t.valueType) for x in values]
        return map_value(zip(keys, values), t.keyType)
    if isinstance(t, st.ArrayType):
        return [from_entries(x, t.elementType) for x in v]
    return Row(*[f.name for f in t.fields])(*[from_entries(x, f.dataType) for x, f in zip(v, t.fields)])


def maps_as_entries(df):
    """(`df` with each column holding maps as entry arrays, {position: Spark type} of those columns): a
    collected row's value v at such a position is `from_entries(v, type)`."""
    types = {i: f.dataType for i, f in enumerate(df.schema.fields) if has_map(f.dataType)}
    if not types:
        return df, types
    return df.select(*[as_entries(df[i], types[i]).alias(n) if i in types else df[i]
                       for i, n in enumerate(df.columns)]), types
