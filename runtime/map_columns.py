"""Maps brought to the driver in their order. Spark hands a MAP to Python (DataFrame.collect) through a
java.util.HashMap of its entries (EvaluatePython.toJava), so a collected dict comes in that HashMap's order of
Spark's key objects, not in the map's: MAP['kiwi', 1, 'apple', 2, 'zeta', 3, 'é', 4] came as {zeta=3, apple=2,
é=4, kiwi=1}, where Flink prints {kiwi=1, apple=2, zeta=3, é=4}. Every map (at any depth: in arrays, rows, maps)
is sent as its array of entries (map_entries) and made a dict again in the entries' order."""

from pyspark.sql import Row, functions as F
from pyspark.sql import types as st


def has_map(t):
    if isinstance(t, st.MapType):
        return True
    if isinstance(t, st.ArrayType):
        return has_map(t.elementType)
    if isinstance(t, st.StructType):
        return any(has_map(f.dataType) for f in t.fields)
    return False


def as_entries(col, t):
    """A Column of Spark type `t` with each map in it as an array of (key, value) structs."""
    if not has_map(t):
        return col
    if isinstance(t, st.MapType):
        return F.transform(F.map_entries(col), lambda e: F.struct(as_entries(e["key"], t.keyType).alias("key"),
                                                                   as_entries(e["value"], t.valueType).alias("value")))
    if isinstance(t, st.ArrayType):
        return F.transform(col, lambda e: as_entries(e, t.elementType))
    fields = [as_entries(col[f.name], f.dataType).alias(f.name) for f in t.fields]
    return F.when(col.isNull(), F.lit(None)).otherwise(F.struct(*fields))


def from_entries(v, t):
    """A collected value of `as_entries(.., t)` -> the value a Row of type `t` holds, its maps dicts in order."""
    if v is None or not has_map(t):
        return v
    if isinstance(t, st.MapType):
        return {from_entries(e[0], t.keyType): from_entries(e[1], t.valueType) for e in v}
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
