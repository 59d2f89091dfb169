"""The order of a map's entries as Flink's java.util.HashMap gives it, for the maps the JSON formats read: Flink's
json reader (JsonParserToRowDataConverters.createMapConverter) puts each key (a BinaryStringData: the JSON format
allows string keys only) into a `new HashMap<>()`, so a map's entries iterate in the hash table's order, which
every consumer shows (the printed row, MAP_KEYS, MAP_VALUES, MAP_ENTRIES, UNNEST, CAST to STRING).

A vectorized kernel over an Arrow MapArray (numpy): each key's hash is BinaryStringData.hashCode, Murmur3_32 with
seed 42 over its UTF-8 bytes (4-byte little-endian words, then the tail bytes one by one as signed bytes); a
HashMap of n keys has a table of 16 slots, doubled while n > 0.75 * slots; a key's slot is (h ^ (h >>> 16)) &
(slots - 1); the entries iterate slot by slot, in insertion order within a slot. (A key written twice is one entry
at its first place, with its last value: the reader's dict already is.) A map with 9 keys or more in one slot of
16 is ordered by `_simulated`, which follows HashMap's extra resizes for a chain of 9 (checked against Java's
HashMap). Not followed: a chain of 9 keys in one slot of a table of 64 slots or more, which Java turns into a tree
bin (its root moved first, later keys linked after their tree parent); here its keys keep insertion order."""

import numpy as np
import pyarrow as pa

SEED = 42
_C1, _C2 = np.uint32(0xCC9E2D51), np.uint32(0x1B873593)


def _rotl(x, r):
    return (x << np.uint32(r)) | (x >> np.uint32(32 - r))


def _mix_k1(k):
    return _rotl(k * _C1, 15) * _C2


def _mix_h1(h, k):
    return _rotl(h ^ k, 13) * np.uint32(5) + np.uint32(0xE6546B64)


def string_hashes(strings):
    """BinaryStringData.hashCode of each string of an Arrow string array (no NULLs), as uint32."""
    strings = strings.cast(pa.large_string())
    n = len(strings)
    buffers = strings.buffers()
    offsets = np.frombuffer(buffers[1], dtype=np.int64)[strings.offset:strings.offset + n + 1]
    data = np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None else np.zeros(0, np.uint8)
    starts = offsets[:-1]
    lengths = offsets[1:] - starts
    words = lengths // 4
    h = np.full(n, SEED, dtype=np.uint32)
    with np.errstate(over="ignore"):
        for j in range(int(words.max()) if n else 0):
            at = np.nonzero(words > j)[0]
            p = starts[at] + 4 * j
            k = data[p].astype(np.uint32) | (data[p + 1].astype(np.uint32) << np.uint32(8)) | \
                (data[p + 2].astype(np.uint32) << np.uint32(16)) | (data[p + 3].astype(np.uint32) << np.uint32(24))
            h[at] = _mix_h1(h[at], _mix_k1(k))
        tail_start = starts + 4 * words
        for t in range(3):
            at = np.nonzero(lengths - 4 * words > t)[0]
            b = data[tail_start[at] + t].view(np.int8).astype(np.int32).view(np.uint32)
            h[at] = _mix_h1(h[at], _mix_k1(b))
        h ^= lengths.astype(np.uint32)
        h ^= h >> np.uint32(16)
        h *= np.uint32(0x85EBCA6B)
        h ^= h >> np.uint32(13)
        h *= np.uint32(0xC2B2AE35)
        h ^= h >> np.uint32(16)
    return h


def table_sizes(counts):
    """The HashMap table size after `counts` distinct keys were put: 16, doubled while count > 0.75 * size."""
    size = np.full(len(counts), 16, dtype=np.int64)
    while True:
        grow = 4 * counts > 3 * size
        if not grow.any():
            return size
        size[grow] *= 2


def hash_map_permutation(offsets, hashes):
    """The entries' order (indexes from `offsets[0]`) of the maps that `offsets` (n + 1) delimit, whose keys
    hash to `hashes`: each map's entries in Java HashMap iteration order."""
    counts = np.diff(offsets).astype(np.int64)
    total = int(counts.sum())
    if total == 0:
        return np.arange(0, dtype=np.int64)
    map_of = np.repeat(np.arange(len(counts)), counts)
    spread = (hashes ^ (hashes >> np.uint32(16))).astype(np.int64)
    slot = spread & (table_sizes(counts)[map_of] - 1)
    first = offsets[0]
    order = np.argsort((map_of << 32) | slot, kind="stable")      # by map, slot, then place in the map
    crowded = np.bincount(map_of * 16 + (spread & 15), minlength=16 * len(counts)).reshape(-1, 16).max(axis=1) >= 9
    for m in np.nonzero(crowded)[0]:
        a, b = offsets[m] - first, offsets[m + 1] - first
        order[a:b] = np.asarray(_simulated(spread[a:b]), dtype=np.int64) + a
    return order


def _simulated(spread):
    """Java HashMap's iteration order of keys put in this order, with the resize a chain of 9 keys makes in a
    table of fewer than 64 slots (treeifyBin)."""
    size = 16
    slots = {}
    for i, s in enumerate(spread.tolist()):
        chain = slots.setdefault(s & (size - 1), [])
        chain.append(i)
        if len(chain) >= 9 and size < 64:
            size, slots = _resized(slots, size, spread)
        if 4 * (i + 1) > 3 * size:
            size, slots = _resized(slots, size, spread)
    return [i for slot in sorted(slots) for i in slots[slot]]


def _resized(slots, size, spread):
    size *= 2
    out = {}
    for slot in sorted(slots):
        for i in slots[slot]:
            out.setdefault(int(spread[i]) & (size - 1), []).append(i)
    return size, out


def in_hash_map_order(array):
    """`array` (an Arrow array of any type) with every map in it, at any depth, in Java HashMap order."""
    t = array.type
    if not _has_map(t):
        return array
    if isinstance(array, pa.ChunkedArray):
        return pa.chunked_array([in_hash_map_order(c) for c in array.chunks], type=t)
    mask = array.is_null() if array.null_count else None
    if pa.types.is_map(t):
        offsets = np.asarray(array.offsets)
        first, n = offsets[0], offsets[-1] - offsets[0]
        keys, items = array.keys.slice(first, n), in_hash_map_order(array.items.slice(first, n))
        new_offsets = pa.array(offsets - first, type=pa.int32())
        if pa.types.is_string(t.key_type) or pa.types.is_large_string(t.key_type):
            order = hash_map_permutation(offsets, string_hashes(keys))
            keys, items = keys.take(order), items.take(order)
        return pa.MapArray.from_arrays(new_offsets, keys, items, type=t, mask=mask)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        offsets = np.asarray(array.offsets)
        values = in_hash_map_order(array.values.slice(offsets[0], offsets[-1] - offsets[0]))
        cls = pa.ListArray if pa.types.is_list(t) else pa.LargeListArray
        return cls.from_arrays(pa.array(offsets - offsets[0], type=array.offsets.type), values, type=t, mask=mask)
    if pa.types.is_struct(t):
        fields = [in_hash_map_order(f) for f in array.flatten()]
        return pa.StructArray.from_arrays(fields, fields=list(t), mask=mask)
    return array


def _has_map(t):
    if pa.types.is_map(t):
        return True
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return _has_map(t.value_type)
    if pa.types.is_struct(t):
        return any(_has_map(f.type) for f in t)
    return False
