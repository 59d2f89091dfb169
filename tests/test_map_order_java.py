"""The order of a map read from JSON (runtime/connectors/map_order.py) against a real java.util.HashMap of Flink's
BinaryStringData keys: tests/map_order/java_orders.json holds 160 key sets crowded into one slot (9 to 40 keys
sharing 4 to 11 low bits of their hash, among up to 90 others), with the order Java iterates them in
(tests/map_order/make_java_orders.py wrote it with HashMapOrder.java on the Flink 2.3 jars). Crowded slots of 64 or
more become Java's tree bins (red-black trees, the root first, a key linked after its tree parent), split or
turned back into lists as the table grows."""

import json
import os

import numpy as np
import pyarrow as pa

from runtime.connectors.map_order import in_hash_map_order, string_hashes

HERE = os.path.dirname(os.path.abspath(__file__))


def java_cases():
    with open(os.path.join(HERE, "map_order", "java_orders.json"), encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def as_map_array(cases):
    return pa.array([[(k, i) for i, k in enumerate(c["keys"])] for c in cases], type=pa.map_(pa.string(), pa.int32()))


def test_every_case_is_ordered_as_javas_hash_map_orders_it():
    cases = java_cases()
    ordered = in_hash_map_order(as_map_array(cases))
    got = [[v for _, v in m] for m in ordered.to_pylist()]
    wrong = [n for n, (c, g) in enumerate(zip(cases, got)) if g != c["order"]]
    assert wrong == [], "%d of %d cases differ from Java, first: %s" % (len(wrong), len(cases), wrong[:5])


def test_the_cases_hold_tree_bins():
    """At least 60 cases have 9 keys or more in one slot of a table of 64 slots or more (Java's tree bins)."""
    trees = 0
    for c in java_cases():
        h = string_hashes(pa.array(c["keys"])).astype(np.int64)
        spread = h ^ (h >> 16)
        slots = 16
        while 4 * len(c["keys"]) > 3 * slots:
            slots *= 2
        trees += slots >= 64 and np.bincount(spread & (slots - 1)).max() >= 9
    assert trees >= 60


# Keys of equal hashes in a tree bin are ordered by compareTo where their class is Comparable (Long, Double, ...):
# BIGINT or DOUBLE elements whose hashCodes are all equal, in the order a java.util.HashMap<Long, _> /
# HashMap<Double, _> iterates them after putting them in this order (JDK 17)
LONGS = [k * 4294967297 for k in (5, 11, 2, 8, 0, 9, 3, 7, 10, 1, 6, 4)]       # Long.hashCode: k ^ k = 0
LONGS_IN_JAVA = [k * 4294967297 for k in (5, 11, 2, 8, 0, 9, 3, 4, 7, 10, 1, 6)]
DOUBLES = [1.0000049388667371, 1.0000011241694706, 1.000008753564, 1.0000030315181039, 1.000000170495154,
           1.0000068462153704, 1.0000020778437873, 1.0000077998896835, 1.0000039851924205, 1.0000058925410538,
           -1.000003508355262, -1.0000006473323122, -1.0000025546809455, -1.0000016010066288]   # one hashCode
DOUBLES_IN_JAVA = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 11]
# Flink 2.3's COLLECT of LONGS (tests/sql/collect_element_types.sqltest): its HashMap copied once in streaming
# mode, twice in batch mode, each copy a tree bin of another order
LONGS_IN_FLINK_STREAMING = [k * 4294967297 for k in (5, 11, 2, 8, 0, 9, 3, 4, 7, 6, 10, 1)]
LONGS_IN_FLINK_BATCH = [k * 4294967297 for k in (5, 11, 2, 8, 0, 1, 9, 3, 4, 7, 6, 10)]


def test_comparable_keys_of_one_hash_are_ordered_by_compare_to_in_a_tree_bin():
    from planner.expr.types import FlinkType
    from runtime.connectors.map_order import java_hash_map_order
    from runtime.java_float import JavaFloat
    assert java_hash_map_order(LONGS, FlinkType("BIGINT"), puts=1) == LONGS_IN_JAVA
    ordered = java_hash_map_order([JavaFloat(d) for d in DOUBLES], FlinkType("DOUBLE"), puts=1)
    assert [DOUBLES.index(d) for d in ordered] == DOUBLES_IN_JAVA
    assert java_hash_map_order(LONGS, FlinkType("BIGINT")) == LONGS_IN_FLINK_STREAMING


def test_batch_collect_orders_a_tree_bin_as_flinks_batch_aggregate():
    from runtime.connectors.map_order import _long_hash, elements_in_java_order
    elements = [{"i": i, "v": v, "h": _long_hash(v)} for i, v in enumerate(LONGS)]
    lists = pa.array([elements], type=pa.list_(pa.struct([("i", pa.int64()), ("v", pa.int64()), ("h", pa.int64())])))
    assert [e["v"] for e in elements_in_java_order(lists).to_pylist()[0]] == LONGS_IN_FLINK_BATCH
