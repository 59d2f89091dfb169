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
  offset << 32 | length in the slot; a NULL field or element is a zero slot with its null bit set (an array's
  setNullLong), except a NULL row field of a DECIMAL or TIMESTAMP kept in the variable-length part below:
  Flink's generated code writes it with writeDecimal / writeTimestamp of null (CodeGenUtils.binaryWriterWriteNull),
  which keeps its zeroed bytes there and offset << 32 in the slot;
- a DECIMAL (AbstractBinaryWriter.writeDecimal): of 18 digits or fewer (DecimalData.isCompact) its unscaled
  value as a long in the slot; a longer one's unscaled BigInteger.toByteArray (big-endian, two's complement,
  fewest bytes) in 16 bytes of the variable-length part, offset << 32 | its byte count in the slot;
- a TIMESTAMP (writeTimestamp): of precision 3 or less (TimestampData.isCompact) its epoch milliseconds as a long
  in the slot; a finer one's milliseconds in 8 bytes of the variable-length part, offset << 32 | the nanoseconds
  of the millisecond in the slot.
Fields of other types (TIMESTAMP_LTZ, nested ROW / ARRAY / MAP, ...) are not written here: `row_hash` and
`array_hash` give None and COLLECT keeps such elements in arrival order."""

import datetime
import decimal
import struct

_EPOCH = datetime.date(1970, 1, 1)
_M32 = 0xFFFFFFFF

# type name -> (struct format of the value in its slot, bytes an array element takes)
_FIXED = {"BOOLEAN": ("<?", 1), "TINYINT": ("<b", 1), "SMALLINT": ("<h", 2), "INT": ("<i", 4),
          "INTEGER": ("<i", 4), "DATE": ("<i", 4), "TIME": ("<i", 4), "FLOAT": ("<f", 4), "BIGINT": ("<q", 8),
          "DOUBLE": ("<d", 8)}
_VARIABLE = {"CHAR", "VARCHAR", "STRING", "BINARY", "VARBINARY", "BYTES"}
_EPOCH_TIME = datetime.datetime(1970, 1, 1)


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
    return all(t.name in _FIXED or t.name in _VARIABLE or t.name in ("DECIMAL", "TIMESTAMP") for t in types)


def _unscaled(value, scale):
    """The unscaled integer of a DECIMAL value of `scale`, exactly (no context rounding: up to 38 digits)."""
    sign, digits, exponent = decimal.Decimal(value).as_tuple()
    n = int("".join(map(str, digits)) or "0")
    shift = exponent + scale
    n = n * 10 ** shift if shift >= 0 else n // 10 ** -shift
    return -n if sign else n


def _epoch_micros(value):
    """A TIMESTAMP's wall clock as microseconds from 1970-01-01 00:00 (a text as Python reads it)."""
    if isinstance(value, str):
        value = datetime.datetime.fromisoformat(value)
    delta = value.replace(tzinfo=None) - _EPOCH_TIME
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def _precision(flink_type, default):
    return flink_type.params[0] if flink_type.params else default


def _variable_length(flink_type):
    """Whether a DECIMAL or TIMESTAMP is kept in the variable-length part (DecimalData / TimestampData.isCompact)."""
    return flink_type.name == "DECIMAL" and _precision(flink_type, 10) > 18 or \
        flink_type.name == "TIMESTAMP" and _precision(flink_type, 6) > 3


def _write(buf, slot, value, flink_type, base, var):
    """Writes `value` into the slot at `slot` of `buf` (a value that needs the variable-length part appended to
    `var`, whose offset counts from `base`, the value's start: the fixed part's length)."""
    name = flink_type.name
    if name in _FIXED:
        fmt, _ = _FIXED[name]
        struct.pack_into(fmt, buf, slot, _scalar(value, name))
        return
    if name == "DECIMAL":
        unscaled = _unscaled(value, flink_type.params[1] if len(flink_type.params) > 1 else 0)
        if not _variable_length(flink_type):
            struct.pack_into("<q", buf, slot, unscaled)
            return
        data = unscaled.to_bytes((unscaled if unscaled >= 0 else ~unscaled).bit_length() // 8 + 1, "big", signed=True)
        struct.pack_into("<q", buf, slot, (base + len(var)) << 32 | len(data))
        var += data + bytes(16 - len(data))
        return
    if name == "TIMESTAMP":
        millis, micros = divmod(_epoch_micros(value), 1000)
        if not _variable_length(flink_type):
            struct.pack_into("<q", buf, slot, millis)
            return
        struct.pack_into("<q", buf, slot, (base + len(var)) << 32 | micros * 1000)
        var += struct.pack("<q", millis)
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
            if _variable_length(t):
                struct.pack_into("<q", fixed, nulls + 8 * i, (len(fixed) + len(var)) << 32)
                var += bytes(16 if t.name == "DECIMAL" else 8)
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

