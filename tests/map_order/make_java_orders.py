#!/usr/bin/env python3
"""Writes java_orders.json: random key sets crowded into one slot of Java's HashMap (9 to 40 keys sharing the low
4 to 11 bits of their spread BinaryStringData hash, among 0 to 90 other keys, in random places), each with the
iteration order a real java.util.HashMap gives them (HashMapOrder.java, run on the Flink 2.3 jars' BinaryStringData).
tests/test_map_order_java.py compares runtime/connectors/map_order.py with it.

    make_java_orders.py [FLINK_LIB]     (default: the pyflink lib folder of ../flink-venv beside the project)"""

import glob
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
import pyarrow as pa

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
from runtime.connectors.map_order import string_hashes  # noqa: E402  (picks crowded keys; Java checks them)

ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-éß日€"
CASES = 160


def key_pool(rng, n=120000):
    keys = sorted({"".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 12))) for _ in range(n)})
    h = string_hashes(pa.array(keys)).astype(np.int64)
    spread = h ^ (h >> 16)
    return keys, spread


def case(rng, keys, spread, used):
    bits = rng.choice([4, 5, 6, 6, 7, 8, 9, 10, 11])
    crowds = [rng.randint(9, 40) for _ in range(rng.choice([1, 1, 1, 2]))]
    fill = rng.choice([0, 5, 20, 40, 48, 55, 70, 90])
    chosen = []
    for size in crowds:
        slot = int(spread[rng.randrange(len(keys))]) & ((1 << bits) - 1)
        members = [i for i in np.nonzero((spread & ((1 << bits) - 1)) == slot)[0].tolist() if i not in used]
        picked = rng.sample(members, min(size, len(members)))
        used.update(picked)
        chosen += picked
    others = [i for i in rng.sample(range(len(keys)), fill * 2) if i not in used][:fill]
    used.update(others)
    placed = chosen + others
    how = rng.choice(["shuffled", "crowd first", "crowd last"])
    if how == "shuffled":
        rng.shuffle(placed)
    elif how == "crowd last":
        placed = others + chosen
    hashes = {}
    out = []
    for i in placed:      # no two keys of a case with the same hash (Java orders those by identityHashCode)
        if int(spread[i]) not in hashes:
            hashes[int(spread[i])] = i
            out.append(keys[i])
    return out


def main():
    lib = sys.argv[1] if len(sys.argv) > 1 else glob.glob(os.path.join(
        os.path.dirname(ROOT), "flink-venv", "lib", "python3*", "site-packages", "pyflink", "lib"))[0]
    rng = random.Random(35)
    keys, spread = key_pool(rng)
    used = set()
    cases = [case(rng, keys, spread, used) for _ in range(CASES)]
    with tempfile.TemporaryDirectory() as tmp:
        lines = os.path.join(tmp, "keys.txt")
        with open(lines, "w", encoding="utf-8") as f:
            f.write("".join("\t".join(c) + "\n" for c in cases))
        out = subprocess.run(["java", "-cp", os.pathsep.join(glob.glob(os.path.join(lib, "*.jar"))),
                              os.path.join(HERE, "HashMapOrder.java"), lines],
                             check=True, capture_output=True, text=True).stdout.splitlines()
    with open(os.path.join(HERE, "java_orders.json"), "w", encoding="utf-8") as f:
        for keys_, order in zip(cases, out):
            f.write(json.dumps({"keys": keys_, "order": [int(x) for x in order.split()]}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
