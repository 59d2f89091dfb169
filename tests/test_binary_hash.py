"""COLLECT's order of ROW and ARRAY elements holding DECIMAL and TIMESTAMP, without Spark: the elements of
tests/sql/collect_binary_decimal_timestamp.sqltest (make test-slow) put in java.util.HashMap order by their hash
over Flink's binary format (runtime/connectors/binary_hash.py), as the streaming accumulator
(map_order.java_hash_map_order) and the batch kernel (map_order.elements_in_java_order) order them; the
expected orders are Flink 2.3's, that file's last rows."""

import datetime
from decimal import Decimal

import pyarrow as pa
import pytest

from planner.expr.types import FlinkType

D72, D202 = FlinkType("DECIMAL", (7, 2)), FlinkType("DECIMAL", (20, 2))
T3, T6 = FlinkType("TIMESTAMP", (3,)), FlinkType("TIMESTAMP", (6,))


def row_of(*types):
    return FlinkType("ROW", (), [("EXPR$%d" % i, t) for i, t in enumerate(types)])


def ts(text):
    return datetime.datetime.fromisoformat(text)


# dt.csv's rows, each distinct element at its first arrival
D = [Decimal(x) for x in ("1.50", "-3.10", "100.00", "0.01", "7.77", "12345.67")]
Y = [Decimal(x) for x in ("12345678901234567.89", "-98765432109876543.21", "1.50")] + \
    [None] + [Decimal(x) for x in ("424242424242424242.42", "-1.00")]
T3S = [ts(x) for x in ("2024-01-01 10:00:00.123", "1969-12-31 23:59:59.999", "1970-01-01 00:00:00",
                       "2100-12-31 12:00:00.500", "2000-02-29 08:00:00", "2000-03-01 09:00:00")]
T6S = [ts(x) for x in ("2024-01-01 10:00:00.123456", "1969-12-31 23:59:59.999999", "1970-01-01 00:00:00.000001",
                       "2100-12-31 12:00:00.500001", "2000-02-29 08:00:00.000999", "2000-03-01 09:00:00.100000")]
# (elements in arrival order, their type, Flink's order of them)
CASES = {
    "ROW(d, t3)": (list(zip(D, T3S)), row_of(D72, T3), [4, 5, 2, 3, 0, 1]),
    "ROW(y, t6)": (list(zip(Y, T6S)), row_of(D202, T6), [2, 1, 0, 4, 5, 3]),
    "ARRAY[y]": ([[y] for y in Y], FlinkType("ARRAY", (), [D202]), [0, 1, 3, 5, 4, 2]),
    "ARRAY[t6]": ([[t] for t in T6S], FlinkType("ARRAY", (), [T6]), [5, 1, 0, 3, 2, 4]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_streaming_accumulator_orders_elements_as_flink(name):
    from runtime.connectors.map_order import java_hash_map_order
    elements, flink_type, order = CASES[name]
    assert java_hash_map_order(elements, flink_type) == [elements[i] for i in order]


@pytest.mark.parametrize("name", list(CASES))
def test_batch_kernel_orders_elements_as_flink(name):
    from runtime.connectors.map_order import elements_in_java_order
    elements, flink_type, order = CASES[name]
    if flink_type.name == "ROW":                 # (an Arrow struct reads back as a dict)
        values = [{"EXPR$%d" % i: v for i, v in enumerate(e)} for e in elements]
        value_type = pa.struct([(n, _arrow(t)) for n, t in flink_type.children])
    else:
        values, value_type = elements, pa.list_(_arrow(flink_type.children[0]))
    entries = [{"i": i, "v": v, "h": None} for i, v in enumerate(values)]
    lists = pa.array([entries], type=pa.list_(pa.struct([("i", pa.int32()), ("v", value_type), ("h", pa.int64())])))
    assert [e["i"] for e in elements_in_java_order(lists, flink_type).to_pylist()[0]] == order


def _arrow(flink_type):
    if flink_type.name == "DECIMAL":
        return pa.decimal128(*flink_type.params)
    return pa.timestamp("us")
