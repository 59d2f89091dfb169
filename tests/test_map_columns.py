"""A map brought to the driver whose keys are ARRAYs or MAPs (a MULTISET of arrays: COLLECT(ARRAY[..])): the keys
are kept hashable, printed as the arrays / maps they are (before: `unhashable type: 'list'`, a Python error at the
user's prompt). No Spark: runtime/map_columns.py's conversion of the collected entries."""

import decimal

from pyspark.sql import types as st

from repl.render import format_value
from runtime.map_columns import map_value

D = decimal.Decimal


def test_a_multiset_of_arrays_is_a_map_of_array_keys():
    m = map_value([([D("1.50")], 2), ([D("2.25")], 1), ([[1, 2]], 5)], st.ArrayType(st.DecimalType(3, 2)))
    assert list(m.items()) == [([D("1.50")], 2), ([D("2.25")], 1), ([[1, 2]], 5)]
    assert format_value(m, "MULTISET<ARRAY<DECIMAL(3, 2)>>") == "{[1.50]=2, [2.25]=1, [[1, 2]]=5}"


def test_a_map_keyed_by_maps():
    m = map_value([({"a": 1}, 1), ({"a": 2}, 2)], st.MapType(st.StringType(), st.IntegerType()))
    assert list(m.items()) == [({"a": 1}, 1), ({"a": 2}, 2)]
    assert format_value(m, "MAP<MAP<STRING, INT>, INT>") == "{{a=1}=1, {a=2}=2}"
