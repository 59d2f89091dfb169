"""The order of a map's entries as Flink's java.util.HashMap gives it: for the maps the JSON formats read, for
STR_TO_MAP's map and for COLLECT's MULTISET (its streaming accumulator, and its batch aggregate: the Python
and Arrow kernels str_to_map_entries and elements_in_java_order). Flink's
json reader (JsonParserToRowDataConverters.createMapConverter) puts each key (a BinaryStringData: the JSON format
allows string keys only) into a `new HashMap<>()`, so a map's entries iterate in the hash table's order, which
every consumer shows (the printed row, MAP_KEYS, MAP_VALUES, MAP_ENTRIES, UNNEST, CAST to STRING).

A vectorized kernel over an Arrow MapArray (numpy): each key's hash is BinaryStringData.hashCode, Murmur3_32 with
seed 42 over its UTF-8 bytes (4-byte little-endian words, then the tail bytes one by one as signed bytes); a
HashMap of n keys has a table of 16 slots, doubled while n > 0.75 * slots; a key's slot is (h ^ (h >>> 16)) &
(slots - 1); the entries iterate slot by slot, in insertion order within a slot. (A key written twice is one entry
at its first place, with its last value: the reader's dict already is.) A map with 9 keys or more in one slot of
16 (the only maps where a slot's list can reach 9) is ordered by `_simulated`, which puts its keys one by one into
a simulation of java.util.HashMap: a list of 9 keys doubles a table of fewer than 64 slots, else becomes a tree bin
(a red-black tree by hash, its root first, a later key linked after its tree parent), split on resize, a half of 6
keys or fewer a list again (tests/test_map_order_java.py checks it against a real HashMap of BinaryStringData)."""

import calendar
import datetime
import decimal
import math
import struct

import numpy as np
import pyarrow as pa

from . import binary_hash

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


def hash_map_permutation(offsets, hashes, order_keys=None, puts=1):
    """The entries' order (indexes from `offsets[0]`) of the maps that `offsets` (n + 1) delimit, whose keys
    hash to `hashes`: each map's entries in Java HashMap iteration order (`order_keys`: the entries' compareTo
    order for Comparable keys; `puts`: _simulated)."""
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
        keys = order_keys[a:b] if order_keys is not None else None
        order[a:b] = np.asarray(_simulated(spread[a:b], order_keys=keys, puts=puts), dtype=np.int64) + a
    return order


def _simulated(spread, capacity=16, order_keys=None, puts=1):
    """Java HashMap's iteration order of keys put in this order whose spread hashes are `spread`, into a table
    of `capacity` slots: the keys put one by one into a simulated HashMap (_JavaHashMap; `order_keys`: the keys'
    compareTo order for equal hashes, where the keys are Comparable). `puts` > 1: the map copied that many
    times less one, each copy a new HashMap (16 slots) its entries put into in the last one's order (a tree bin's
    order changes from one copy to the next: Flink's COLLECT copies its map, streaming once, batch twice)."""
    spread = np.asarray(spread).tolist()
    order = list(range(len(spread)))
    for n in range(puts):
        table = _JavaHashMap(capacity if n == 0 else 16, [order_keys[i] for i in order] if order_keys else None)
        for place, i in enumerate(order):
            s = spread[i]
            table.put(place, s - (1 << 32) if s >= 1 << 31 else s)     # Java compares the hashes as signed ints
        order = [order[place] for place in table.order()]
    return order


def java_hash_map_order_of(hashes, capacity=16, order_keys=None, puts=1):
    """The iteration order (indexes into `hashes`) of distinct keys put in this order into a java.util.HashMap
    whose table starts with `capacity` slots (a power of two: `new HashMap<>()` 16, STR_TO_MAP's
    newHashMapWithExpectedSize(n) tableSizeFor(n / 0.75)), whose Java hashCodes are `hashes` (ints): by slot of
    the table the puts grew it to, in put order within a slot, or, where 9 keys or more share a slot of the
    first table (the only keys whose slot's list can reach 9), as the simulated HashMap orders them (tree bins
    and all). The one implementation of the order for the JSON formats' maps, COLLECT in either mode and
    STR_TO_MAP. `order_keys`: for Comparable keys (java.lang.String), values that
    sort as their compareTo does, which orders keys of equal hashes in a tree bin; `puts`: _simulated."""
    h = np.asarray(hashes, dtype=np.int64).astype(np.uint32)
    spread = (h ^ (h >> np.uint32(16))).astype(np.int64)
    if len(h) >= 9 and np.bincount(spread & (capacity - 1)).max() >= 9:
        return _simulated(spread, capacity, order_keys, puts)
    size = capacity
    while 4 * len(h) > 3 * size:
        size *= 2
    return np.argsort(spread & (size - 1), kind="stable").tolist()


def java_string_hash(s):
    """java.lang.String.hashCode: 31 * h + each UTF-16 unit, as an int in [0, 2^32)."""
    units = s.encode("utf-16-be")
    h = 0
    for i in range(0, len(units), 2):
        h = (31 * h + (units[i] << 8 | units[i + 1])) & 0xFFFFFFFF
    return h


def str_to_map_entries(pairs):
    """Flink's STR_TO_MAP map from its (key, value) pieces in order: CollectionUtil.newHashMapWithExpectedSize(
    pieces), a table of tableSizeFor(pieces <= 2 ? pieces + 1 : ceil(pieces / 0.75)) slots, keys by
    String.hashCode; a key put twice keeps its first place and takes its last value. The (key, value) entries
    in the HashMap's order."""
    n = len(pairs)
    wanted = n + 1 if n <= 2 else -(-4 * n // 3)
    capacity = 1 << (wanted - 1).bit_length()
    values = {}
    for k, v in pairs:
        values[k] = v
    keys = list(values)
    order = java_hash_map_order_of([java_string_hash(k) for k in keys], capacity,
                                   [k.encode("utf-16-be") for k in keys])     # String.compareTo: by UTF-16 unit
    return [(keys[i], values[keys[i]]) for i in order]


# COLLECT's HashMap is filled, then copied into a new HashMap by iterating it: streaming, the state's map
# (put in arrival order) into getValue's; batch, the local aggregate's into the global one's, and that into
# getValue's (as Flink 2.3's orders show: its streaming and batch orders of 12 BIGINTs of one hash,
# tests/test_map_order_java.py, are those of 2 and 3 puts). Only a tree bin's order changes on a copy.
STREAMING_PUTS, BATCH_PUTS = 2, 3


def elements_in_java_order(lists: pa.Array, element_type=None) -> pa.Array:
    """Arrow kernel of batch COLLECT: each list of elements (structs with `i`: first arrival, `v`: the value,
    `h`: its Java hashCode, NULL for a DECIMAL of more than 18 digits, a ROW or an ARRAY, whose hash is taken
    here from the value and its type: the scale, binary_hash.value_hash of FlinkType `element_type`, whose
    TIMESTAMP precisions the Arrow type does not hold) put in its java.util.HashMap order
    (java_hash_map_order_of: by slot, then first arrival, or, where 9 elements or more share a slot of 16,
    resizes and tree bins, BATCH_PUTS). The lists keep their type."""
    offsets = np.asarray(lists.offsets, dtype=np.int64)
    values = lists.values
    arrival = np.asarray(values.field("i").to_numpy(zero_copy_only=False), dtype=np.int64)
    hashes = values.field("h")
    if hashes.null_count:
        v_type = values.field("v").type
        hash_of = (lambda v: _decimal_hash(v, v_type.scale)) if pa.types.is_decimal(v_type) else \
            (lambda v: binary_hash.value_hash(list(v.values()) if isinstance(v, dict) else v, element_type))
        h = np.array([hash_of(v) if x is None else x
                      for x, v in zip(hashes.to_pylist(), values.field("v").to_pylist())], dtype=np.int64)
    else:
        h = np.asarray(hashes.to_numpy(zero_copy_only=False), dtype=np.int64)
    take, keys = [], None
    for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist()):
        by_arrival = np.argsort(arrival[a:b], kind="stable")
        group_keys = None
        if b - a >= 9:                # (only a slot of 9 or more can become a tree bin)
            keys = keys if keys is not None else _arrow_compare_keys(values.field("v"))
            group_keys = [keys[a + i] for i in by_arrival.tolist()] if keys else None
        order = java_hash_map_order_of(h[a:b][by_arrival], order_keys=group_keys, puts=BATCH_PUTS)
        take.append(by_arrival[np.asarray(order, dtype=np.int64)] + a)
    indices = np.concatenate(take) if take else np.zeros(0, np.int64)
    return pa.ListArray.from_arrays(pa.array(offsets - offsets[0], type=pa.int32()), values.take(indices),
                                    type=lists.type, mask=lists.is_null() if lists.null_count else None)


def _arrow_compare_keys(values):
    """java_compare_keys of an Arrow array of COLLECT's elements ([] where they are not Comparable in Flink)."""
    t = values.type
    if pa.types.is_floating(t):
        return [_double_compare_key(v) for v in values.to_pylist()]
    if pa.types.is_integer(t) or pa.types.is_decimal(t) or pa.types.is_timestamp(t) or pa.types.is_boolean(t) \
            or pa.types.is_date(t) or pa.types.is_time(t):
        return values.to_pylist()
    return []


def register_udfs(spark):
    """STR_TO_MAP's Python kernel on `spark`: `dynsql_str_to_map_entries(pieces ARRAY<STRUCT<k, v>>) ->
    ARRAY<STRUCT<k, v>>`, its entries in order (str_to_map_entries). (Batch COLLECT's kernel,
    elements_in_java_order, is typed by its query: collecting_aggregates makes it an arrow_udf there.)"""
    import pandas as pd
    from pyspark.sql.functions import pandas_udf

    @pandas_udf("array<struct<k: string, v: string>>")
    def dynsql_str_to_map_entries(pieces):
        return pd.Series([None if p is None else
                          [{"k": k, "v": v} for k, v in str_to_map_entries([(e["k"], e["v"]) for e in p])]
                          for p in pieces], dtype=object)

    spark.udf.register("dynsql_str_to_map_entries", dynsql_str_to_map_entries)


class _Node:
    """A HashMap.Node, and a TreeNode when `tree`."""
    __slots__ = ("place", "hash", "next", "tree", "parent", "left", "right", "prev", "red")

    def __init__(self, place, h, nxt=None):
        self.place, self.hash, self.next = place, h, nxt
        self.tree, self.parent, self.left, self.right, self.prev, self.red = False, None, None, None, None, False


class _JavaHashMap:
    """java.util.HashMap's put, resize and tree bins (JDK 17's HashMap.java, followed line by line) for distinct
    keys known by their spread hash: a slot's list grows to 9 keys -> the table doubles while smaller than 64
    slots, else the slot becomes a red-black tree ordered by hash (TreeNode.treeify, balanceInsertion), its root
    moved to the front of the slot's `next` list and a later key linked right after its tree parent
    (putTreeVal); a resize splits a tree into two `next`-ordered halves, a half of 6 keys or fewer becoming a
    list again, a half of more re-treeified when the other half is not empty. Keys with equal hashes are
    ordered by compareTo where the keys are `class C implements Comparable<C>` (java.lang.String, Long, Double,
    DecimalData, TimestampData: `order_keys`, java_compare_keys), else by System.identityHashCode in Java
    (BinaryStringData, byte[] are not), an order no one can foretell: here the later key goes left."""

    def __init__(self, capacity=16, order_keys=None):
        self.tab, self.size, self.threshold = [None] * capacity, 0, capacity * 3 // 4
        self.order_keys = order_keys

    def _dir(self, p, place, h):
        """TreeNode's direction from tree node p for a key (its place, its hash): -1 left, 1 right."""
        if p.hash != h:
            return -1 if p.hash > h else 1
        if self.order_keys is not None and self.order_keys[place] > self.order_keys[p.place]:
            return 1
        return -1

    def order(self):
        out = []
        for e in self.tab:
            while e is not None:
                out.append(e.place)
                e = e.next
        return out

    def put(self, place, h):
        tab = self.tab
        i = h & (len(tab) - 1)
        p = tab[i]
        if p is None:
            tab[i] = _Node(place, h)
        elif p.tree:
            self._put_tree_val(p, place, h)
        else:
            bin_count = 0
            while p.next is not None:
                p = p.next
                bin_count += 1
            p.next = _Node(place, h)
            if bin_count >= 7:
                self._treeify_bin(h)
        self.size += 1
        if self.size > self.threshold:
            self._resize()

    def _resize(self):
        old = self.tab
        old_cap, cap = len(old), 2 * len(old)
        self.threshold *= 2
        tab = self.tab = [None] * cap
        for j, e in enumerate(old):
            if e is None:
                continue
            if e.next is None:
                tab[e.hash & (cap - 1)] = e
            elif e.tree:
                self._split(e, j, old_cap)
            else:
                lo, hi = [], []
                while e is not None:
                    (hi if e.hash & old_cap else lo).append(e)
                    e = e.next
                for index, part in ((j, lo), (j + old_cap, hi)):
                    if part:
                        for a, b in zip(part, part[1:] + [None]):
                            a.next = b
                        tab[index] = part[0]

    def _treeify_bin(self, h):
        tab = self.tab
        if len(tab) < 64:
            self._resize()
            return
        e = tab[h & (len(tab) - 1)]
        prev = None
        while e is not None:
            e.tree, e.prev, prev = True, prev, e
            e = e.next
        self._treeify(tab[h & (len(tab) - 1)])

    def _treeify(self, head):
        root = None
        x = head
        while x is not None:
            nxt = x.next
            x.left = x.right = None
            if root is None:
                x.parent, x.red, root = None, False, x
            else:
                p = root
                while True:
                    d = self._dir(p, x.place, x.hash)
                    xp, p = p, (p.left if d <= 0 else p.right)
                    if p is None:
                        x.parent = xp
                        if d <= 0:
                            xp.left = x
                        else:
                            xp.right = x
                        root = _balance_insertion(root, x)
                        break
            x = nxt
        self._move_root_to_front(root)

    def _put_tree_val(self, first, place, h):
        root = first
        while root.parent is not None:
            root = root.parent
        p = root
        while True:
            d = self._dir(p, place, h)
            xp, p = p, (p.left if d <= 0 else p.right)
            if p is None:
                xpn = xp.next
                x = _Node(place, h, xpn)
                x.tree = True
                if d <= 0:
                    xp.left = x
                else:
                    xp.right = x
                xp.next = x
                x.parent = x.prev = xp
                if xpn is not None:
                    xpn.prev = x
                self._move_root_to_front(_balance_insertion(root, x))
                return

    def _move_root_to_front(self, root):
        tab = self.tab
        index = root.hash & (len(tab) - 1)
        first = tab[index]
        if root is not first:
            tab[index] = root
            rp, rn = root.prev, root.next
            if rn is not None:
                rn.prev = rp
            if rp is not None:
                rp.next = rn
            if first is not None:
                first.prev = root
            root.next, root.prev = first, None

    def _split(self, b, index, bit):
        lo, hi = [], []
        e = b
        while e is not None:
            nxt = e.next
            (hi if e.hash & bit else lo).append(e)
            e = nxt
        for at, part, other in ((index, lo, hi), (index + bit, hi, lo)):
            if not part:
                continue
            for a, c in zip(part, part[1:] + [None]):
                a.next, a.prev = c, None
            for a, c in zip(part, part[1:]):
                c.prev = a
            self.tab[at] = part[0]
            if len(part) <= 6:
                for a in part:                        # untreeify: plain nodes, same order
                    a.tree, a.parent, a.left, a.right, a.prev = False, None, None, None, None
            elif other:
                self._treeify(part[0])


def _rotate(root, p, down):
    """HashMap.TreeNode.rotateLeft (down = "left": p goes down to the left of its right child) or rotateRight."""
    up = "right" if down == "left" else "left"
    r = getattr(p, up) if p is not None else None
    if r is not None:
        moved = getattr(r, down)
        setattr(p, up, moved)
        if moved is not None:
            moved.parent = p
        pp = r.parent = p.parent
        if pp is None:
            root = r
            r.red = False
        elif getattr(pp, down) is p:
            setattr(pp, down, r)
        else:
            setattr(pp, up, r)
        setattr(r, down, p)
        p.parent = r
    return root


def _balance_insertion(root, x):
    """HashMap.TreeNode.balanceInsertion (CLR's red-black insertion), its two mirrored halves as one: `side` is
    the side of its parent's parent that x's parent hangs on."""
    x.red = True
    while True:
        xp = x.parent
        if xp is None:
            x.red = False
            return x
        xpp = xp.parent
        if not xp.red or xpp is None:
            return root
        side, other = ("left", "right") if xp is xpp.left else ("right", "left")
        uncle = getattr(xpp, other)
        if uncle is not None and uncle.red:
            uncle.red = xp.red = False
            xpp.red = True
            x = xpp
            continue
        if x is getattr(xp, other):
            x = xp
            root = _rotate(root, x, side)
            xp = x.parent
            xpp = xp.parent if xp is not None else None
        if xp is not None:
            xp.red = False
            if xpp is not None:
                xpp.red = True
                root = _rotate(root, xpp, other)


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


# ---------------------------------------------------------------------- Java's hashCode of Flink's internal values
# what a java.util.HashMap of Flink values hashes each by (COLLECT's MULTISET is a HashMap of its elements to
# their counts): the boxed Java object Flink holds for a value of the type
def _int_hash(v):
    return v & 0xFFFFFFFF                                   # Byte, Short, Integer.hashCode: the value


def _long_hash(v):
    u = v & 0xFFFFFFFFFFFFFFFF
    return (u ^ (u >> 32)) & 0xFFFFFFFF                     # Long.hashCode: (int) (v ^ (v >>> 32))


def _double_hash(v):
    bits = 0x7FF8000000000000 if v != v else struct.unpack(">Q", struct.pack(">d", v))[0]
    return (bits ^ (bits >> 32)) & 0xFFFFFFFF               # Double.hashCode over doubleToLongBits


def _float_hash(v):
    return 0x7FC00000 if v != v else struct.unpack(">I", struct.pack(">f", v))[0]   # Float.floatToIntBits


def _big_integer_hash(u):
    """java.math.BigInteger.hashCode of the integer u: 31 * h + each 32-bit word of |u| from the top, signed."""
    m, h, words = abs(u), 0, []
    while m:
        words.append(m & 0xFFFFFFFF)
        m >>= 32
    for w in reversed(words):
        h = (31 * h + w) & 0xFFFFFFFF
    return -h if u < 0 else h


def _decimal_hash(v, scale):
    """DecimalData.hashCode: its BigDecimal's, 31 * the unscaled value's BigInteger hash + the type's scale."""
    unscaled = int(decimal.Decimal(v).scaleb(scale).to_integral_value())
    return (31 * _big_integer_hash(unscaled) + scale) & 0xFFFFFFFF


def _time_hash(v):
    """A TIME is an Integer of milliseconds of the day in Flink (dynsql holds 'HH:MM:SS[.fff]' or a time)."""
    if isinstance(v, str):
        v = datetime.time.fromisoformat(v)
    return ((v.hour * 60 + v.minute) * 60 + v.second) * 1000 + v.microsecond // 1000


def _timestamp_hash(v):
    """TimestampData.hashCode: 31 * (int) (millis ^ (millis >>> 32)) + nanos of the millisecond (a TIMESTAMP's
    wall clock and a TIMESTAMP_LTZ's instant, both as UTC)."""
    micros = calendar.timegm(v.utctimetuple()) * 1_000_000 + v.microsecond
    millis, nanos = micros // 1000, micros % 1000 * 1000
    return (31 * _long_hash(millis) + nanos) & 0xFFFFFFFF


_HASH_CODES = {
    "BOOLEAN": lambda v: 1231 if v else 1237,
    "TINYINT": _int_hash, "SMALLINT": _int_hash, "INT": _int_hash, "INTEGER": _int_hash,
    "DATE": lambda v: _int_hash((v - _EPOCH).days),      # Flink holds a DATE as an Integer of days
    "BIGINT": _long_hash, "DOUBLE": _double_hash, "FLOAT": _float_hash,
    "TIME": _time_hash, "TIMESTAMP": _timestamp_hash, "TIMESTAMP_LTZ": _timestamp_hash,
}
_EPOCH = datetime.date(1970, 1, 1)


def _scale(decimal_type):
    return decimal_type.params[1] if len(decimal_type.params) > 1 else 0


def _double_compare_key(v):
    """Double.compareTo / Float.compareTo as a sort key: -0.0 below 0.0, NaN above everything."""
    return (1, 0.0, 0.0) if v != v else (0, v, math.copysign(1.0, v))


# the types whose Flink objects are `class C implements Comparable<C>` (HashMap.comparableClassFor): Byte, Short,
# Integer, Long, Float, Double, Boolean, DecimalData, TimestampData (a TIME and a DATE are Integers); not
# BinaryStringData (it implements StringData), byte[], GenericRowData, ArrayData
_COMPARABLE = {"BOOLEAN", "TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT", "DATE", "TIME", "DECIMAL", "TIMESTAMP",
               "TIMESTAMP_LTZ"}


def java_compare_keys(values, flink_type):
    """Keys that sort `values` of FlinkType `flink_type` as their Flink objects' compareTo does, or None where
    those objects are not Comparable (a tree bin then orders keys of equal hashes by identity hash)."""
    type_name = flink_type.name if flink_type is not None else None
    if type_name in ("DOUBLE", "FLOAT"):
        return [_double_compare_key(v) for v in values]
    if type_name in _COMPARABLE:
        return list(values)        # numbers, Decimal, datetime, date, time: Python orders them as Java does
    return None


def java_hash_map_order(values, flink_type, puts=STREAMING_PUTS):
    """Distinct `values` of FlinkType `flink_type`, in the order they were first put, in the order a
    java.util.HashMap of Flink's internal objects for them iterates (strings by BinaryStringData's hash, DECIMAL
    by DecimalData's, TIME, TIMESTAMP and TIMESTAMP_LTZ by their Integer's and TimestampData's, numbers, BOOLEAN
    and DATE by their boxed Java object's, ROW and ARRAY of numbers, BOOLEAN, DATE, TIME, DECIMAL, TIMESTAMP and
    strings by their binary format's: binary_hash.py); as they are for a type whose Java hashCode is not followed here (BYTES:
    byte[] keys by identity, an order that changes from run to run; MAP; ROW and ARRAY of other types: README)."""
    type_name = flink_type.name if flink_type is not None else None
    if len(values) < 2:
        return list(values)
    if type_name in ("CHAR", "VARCHAR", "STRING"):
        hashes = string_hashes(pa.array(values, type=pa.string()))
    elif type_name == "DECIMAL":
        hashes = np.array([_decimal_hash(v, _scale(flink_type)) for v in values], dtype=np.uint32)
    elif type_name in _HASH_CODES:
        hashes = np.array([_HASH_CODES[type_name](v) & 0xFFFFFFFF for v in values], dtype=np.uint32)
    elif type_name in ("ROW", "ARRAY") and binary_hash.hashable(flink_type):
        hashes = np.array([binary_hash.value_hash(v, flink_type) for v in values], dtype=np.uint32)
    else:
        return list(values)
    keys = java_compare_keys(values, flink_type) if len(values) >= 9 else None
    return [values[i] for i in hash_map_permutation(np.array([0, len(values)]), hashes, keys, puts)]
