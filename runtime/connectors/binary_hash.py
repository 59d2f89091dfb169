"""The hashCode of a ROW or ARRAY value as Flink's COLLECT keys its MULTISET by it (runtime/connectors/map_order.py):
the element reaches the aggregate inside a serialized row (the exchange before it), so it is a NestedRowData or a
BinaryArrayData over Flink's binary format, and both hash as BinarySection.hashCode does: Murmur3_32 with seed
42 over the value's bytes as 4-byte little-endian words (MurmurHashUtil.hashByteWords).

The bytes are written here as BinaryRowWriter / BinaryArrayWriter write them (Flink 2.3):
- a row: a header long (byte 0 the RowKind, INSERT = 0; then a null bit per field from bit 8), 8 bytes a field,
  then the variable-length part, 8-byte aligned;
- an array: its length as an int, a null bit per element in 4-byte words, the elements (1 byte for BOOLEAN and
  TINYINT, 2 for SMALLINT, 4 for INT, FLOAT, DATE, TIME, 8 for the others), rounded up to 8 bytes, then the
  variable-length part;
- a fixed-size value little-endian in its slot; a string or BYTES of 7 bytes or fewer in the slot itself (its
  bytes, the last byte 0x80 | length), longer ones in the variable-length part (zero-padded to 8 bytes) with
  offset << 32 | length in the slot; a NULL field or element is a zero slot.
Fields of other types (DECIMAL, TIMESTAMP, nested ROW / ARRAY / MAP, ...) are not written here: `row_hash` and
`array_hash` give None and COLLECT keeps such elements in arrival order."""

import datetime
import struct

_EPOCH = datetime.date(1970, 1, 1)
_M32 = 0xFFFFFFFF

# type name -> (struct format of the value in its slot, bytes an array element takes)
_FIXED = {"BOOLEAN": ("<?", 1), "TINYINT": ("<b", 1), "SMALLINT": ("<h", 2), "INT": ("<i", 4),
          "INTEGER": ("<i", 4), "DATE": ("<i", 4), "TIME": ("<i", 4), "FLOAT": ("<f", 4), "BIGINT": ("<q", 8),
          "DOUBLE": ("<d", 8)}
_VARIABLE = {"CHAR", "VARCHAR", "STRING", "BINARY", "VARBINARY", "BYTES"}


def _murmur_words(data):
    """MurmurHashUtil.hashBytesByWords: Murmur3_32, seed 42, over 4-byte little-endian words (len % 4 == 0)."""
    h = 42
    for (k,) in struct.iter_unpack("<I", data):
        k = (k * 0xCC9E2D51) & _M32
        k = ((k << 15) | (k >> 17)) & _M32
        k = (k * 0x1B873593) & _M32
        h ^= k
        h = ((h << 13) | (h >> 19)) & _M32
        h = (h * 5 + 0xE6546B64) & _M32
    h ^= len(data)
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _M32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _M32
    return h ^ (h >> 16)


def _scalar(value, type_name):
    """A fixed-size value as Flink holds it (a DATE's days, a TIME's milliseconds)."""
    if type_name == "DATE":
        return (value - _EPOCH).days
    if type_name == "TIME":
        if isinstance(value, str):
            value = datetime.time.fromisoformat(value)
        return ((value.hour * 60 + value.minute) * 60 + value.second) * 1000 + value.microsecond // 1000
    return value


def _writable(types):
    return all(t.name in _FIXED or t.name in _VARIABLE for t in types)


def _write(buf, slot, value, flink_type, base, var):
    """Writes `value` into the slot at `slot` of `buf` (a value that needs the variable-length part appended to
    `var`, whose offset counts from `base`, the value's start: the fixed part's length)."""
    name = flink_type.name
    if name in _FIXED:
        fmt, _ = _FIXED[name]
        struct.pack_into(fmt, buf, slot, _scalar(value, name))
        return
    data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    if len(data) <= 7:
        buf[slot:slot + len(data)] = data
        buf[slot + 7] = 0x80 | len(data)
        return
    struct.pack_into("<q", buf, slot, (base + len(var)) << 32 | len(data))
    var += data + bytes(-len(data) % 8)


def row_hash(values, field_types):
    """NestedRowData.hashCode of a ROW of `values` whose fields are of FlinkTypes `field_types`, or None."""
    if not _writable(field_types):
        return None
    n = len(values)
    nulls = (n + 63 + 8) // 64 * 8
    fixed = bytearray(nulls + 8 * n)
    var = bytearray()
    for i, (v, t) in enumerate(zip(values, field_types)):
        if v is None:
            fixed[(i + 8) >> 3] |= 1 << ((i + 8) & 7)
        else:
            _write(fixed, nulls + 8 * i, v, t, len(fixed), var)
    return _murmur_words(bytes(fixed + var))


def array_hash(values, element_type):
    """BinaryArrayData.hashCode of an ARRAY of `values` of FlinkType `element_type`, or None."""
    if not _writable([element_type]):
        return None
    n = len(values)
    size = _FIXED[element_type.name][1] if element_type.name in _FIXED else 8
    header = 4 + (n + 31) // 32 * 4
    fixed = bytearray(-(-(header + size * n) // 8) * 8)
    struct.pack_into("<i", fixed, 0, n)
    var = bytearray()
    for i, v in enumerate(values):
        if v is None:
            fixed[4 + (i >> 3)] |= 1 << (i & 7)
        else:
            _write(fixed, header + size * i, v, element_type, len(fixed), var)
    return _murmur_words(bytes(fixed + var))


def hashable(flink_type):
    """Whether `value_hash` hashes values of a ROW or ARRAY FlinkType."""
    if flink_type.name == "ROW":
        return _writable([t for _, t in flink_type.children])
    return flink_type.name == "ARRAY" and _writable(flink_type.children[:1])


def value_hash(value, flink_type):
    """The hashCode of a ROW (a tuple or Row) or ARRAY (a list) value of a `hashable` FlinkType, in [0, 2^32)."""
    from ..operators.keyed_state import thaw        # (a value kept in a multiset: NaN as keyed_state.NAN)
    value = [thaw(v) for v in value]
    if flink_type.name == "ROW":
        return row_hash(value, [t for _, t in flink_type.children])
    return array_hash(value, flink_type.children[0])


_ARROW_NAMES = {"int8": "TINYINT", "int16": "SMALLINT", "int32": "INT", "int64": "BIGINT", "float": "FLOAT",
                "double": "DOUBLE", "bool": "BOOLEAN", "date32[day]": "DATE", "string": "VARCHAR",
                "large_string": "VARCHAR", "binary": "BYTES", "large_binary": "BYTES"}


def arrow_value_hash(value, arrow_type):
    """value_hash of a ROW (an Arrow struct's dict) or ARRAY (list) value as the batch kernel reads it, by its
    Arrow type (a struct's or list's fields of the types value_hash writes: the planner sends no other)."""
    from planner.expr.types import FlinkType

    def flink(t):
        return FlinkType(_ARROW_NAMES[str(t)])
    if isinstance(value, dict):
        return row_hash(list(value.values()), [flink(f.type) for f in arrow_type])
    return array_hash(value, flink(arrow_type.value_type))
