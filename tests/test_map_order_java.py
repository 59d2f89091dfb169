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
