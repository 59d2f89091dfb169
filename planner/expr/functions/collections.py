"""Flink's collection functions (ARRAY_*, MAP_*, SPLIT, CARDINALITY) on Spark, with Flink's NULL handling and
result types; registered into `functions.FLINK_FUNCTIONS` (the Spark rewrite) and `bind.types` (the type) by
`register`.

sqlglot parses several of these calls into typed nodes (`exp.ArrayAppend`, `exp.ArraySlice`, ...) whose
arguments and Spark output are sqlglot's; `canonical_call` turns them back into the Flink call as written, so
that every collection call is one `exp.Anonymous` the binder types and maps here. Where Spark's function of the
same name differs from Flink's (ARRAY_CONTAINS or ARRAY_REMOVE of NULL, ARRAY_POSITION's type, ARRAY_SLICE's
offsets, ARRAY_SORT's NULL order, SPLIT's regular expression, MAP_UNION's duplicate keys) the rewrite spells
Flink's semantics out with Spark's higher-order functions. Not here: JSON (functions_json.py)."""

import sqlglot
from sqlglot import exp

from ...errors import SqlError

# ---------------------------------------------------------------------- sqlglot's typed nodes -> Flink's calls
_TYPED = {
    exp.ArrayAppend: ("ARRAY_APPEND", ("this", "expression")),
    exp.ArrayPrepend: ("ARRAY_PREPEND", ("this", "expression")),
    exp.ArrayContains: ("ARRAY_CONTAINS", ("this", "expression")),
    exp.ArrayDistinct: ("ARRAY_DISTINCT", ("this",)),
    exp.ArrayPosition: ("ARRAY_POSITION", ("this", "expression")),
    exp.ArrayRemove: ("ARRAY_REMOVE", ("this", "expression")),
    exp.ArrayReverse: ("ARRAY_REVERSE", ("this",)),
    exp.ArraySlice: ("ARRAY_SLICE", ("this", "start", "end")),
    exp.ArraySort: ("ARRAY_SORT", ("this", "expression", "asc")),
    exp.ArrayConcat: ("ARRAY_CONCAT", ("this", "expressions")),
    exp.ArrayMax: ("ARRAY_MAX", ("this",)),
    exp.ArrayMin: ("ARRAY_MIN", ("this",)),
    exp.ArrayToString: ("ARRAY_JOIN", ("this", "expression", "null")),
    exp.ArrayExcept: ("ARRAY_EXCEPT", ("this", "expression")),
    exp.ArrayIntersect: ("ARRAY_INTERSECT", ("expressions",)),
    exp.Split: ("SPLIT", ("this", "expression")),
    exp.MapKeys: ("MAP_KEYS", ("this",)),
}


def canonical_call(node):
    """A typed sqlglot call of a collection function -> `exp.Anonymous` of Flink's name (and sqlglot's JSON nodes,
    functions_json.canonical_json); other nodes as they are."""
    from .json import canonical_json
    node = canonical_json(node)
    spec = _TYPED.get(type(node))
    if spec is None:
        return node
    name, keys = spec
    args = []
    for k in keys:
        v = node.args.get(k)
        if isinstance(v, list):
            args.extend(v)
        elif isinstance(v, exp.Expression):
            args.append(v)
    call = exp.Anonymous(this=name, expressions=args)
    call.meta.update(node.meta)
    return call


# ---------------------------------------------------------------------- Spark rewrites
def _template(sql, *args):
    """Spark SQL text with placeholders `__a0`, `__a1`, ... replaced by the argument trees (each a copy)."""
    tree = sqlglot.parse_one(sql, read="spark")

    def put(n):
        if isinstance(n, exp.Column) and not n.table and n.name.startswith("__a") and n.name[3:].isdigit():
            return args[int(n.name[3:])].copy()
        return n
    out = tree.transform(put)
    out.meta["spark"] = True
    return out


def _slice(a):
    arr, start = a[0], a[1]
    end = a[2] if len(a) > 2 else None
    e = "__a2" if end is not None else "SIZE(__a0)"
    s_norm = "GREATEST(CASE WHEN __a1 < 0 THEN SIZE(__a0) + __a1 + 1 WHEN __a1 = 0 THEN 1 ELSE __a1 END, 1)"
    e_norm = "LEAST(CASE WHEN %s < 0 THEN SIZE(__a0) + %s + 1 WHEN %s = 0 THEN 1 ELSE %s END, SIZE(__a0))" % (
        e, e, e, e)
    null = "__a0 IS NULL OR __a1 IS NULL" + (" OR __a2 IS NULL" if end is not None else "")
    sql = ("CASE WHEN %s THEN NULL WHEN %s < %s THEN FILTER(__a0, __e -> FALSE) "
           "ELSE SLICE(__a0, %s, %s - %s + 1) END" % (null, e_norm, s_norm, s_norm, e_norm, s_norm))
    return _template(sql, *([arr, start] + ([end] if end is not None else [])))


def _sort(a):
    arr = a[0]
    asc = a[1] if len(a) > 1 else exp.true()
    nulls_first = a[2] if len(a) > 2 else asc
    sorted_ = ("CASE WHEN __a1 THEN SORT_ARRAY(FILTER(__a0, __e -> __e IS NOT NULL), TRUE) "
               "ELSE SORT_ARRAY(FILTER(__a0, __e -> __e IS NOT NULL), FALSE) END")
    nulls = "FILTER(__a0, __e -> __e IS NULL)"
    sql = ("CASE WHEN __a1 IS NULL OR __a2 IS NULL THEN NULL WHEN __a2 THEN CONCAT(%s, %s) "
           "ELSE CONCAT(%s, %s) END" % (nulls, sorted_, sorted_, nulls))
    return _template(sql, arr, asc, nulls_first)


def _split(a):
    # Flink splits at the literal separator; an empty separator splits into characters
    # an empty string gives an empty array (Spark's SPLIT gives one empty string)
    return _template("CASE WHEN __a0 = '' THEN FILTER(SPLIT(__a0, ','), __e -> FALSE) WHEN __a1 = '' THEN SPLIT(__a0, '') "
                     "ELSE SPLIT(__a0, CONCAT('\\\\Q', __a1, '\\\\E'), -1) END", a[0], a[1])


def _map_union(a):
    out = a[0]
    for m in a[1:]:
        out = _template("MAP_CONCAT(MAP_FILTER(__a0, (__k, __v) -> NOT ARRAY_CONTAINS(MAP_KEYS(__a1), __k)), __a1)",
                        out, m)
    return out


REWRITES = {
    # name: ((fewest, most) arguments, rewrite of the argument list)
    "CARDINALITY": ((1, 1), lambda a: _template("CASE WHEN __a0 IS NULL THEN NULL ELSE SIZE(__a0) END", *a)),
    # Flink: NULL for an empty array, the element of a one-element array, and a failed job for more
    "ELEMENT": ((1, 1), lambda a: _template(
        "CASE WHEN SIZE(__a0) > 1 THEN RAISE_ERROR('ELEMENT: the array has more than one element') "
        "WHEN SIZE(__a0) = 1 THEN ELEMENT_AT(__a0, 1) END", *a)),
    "ARRAY_APPEND": ((2, 2), lambda a: _template("ARRAY_APPEND(__a0, __a1)", *a)),
    "ARRAY_PREPEND": ((2, 2), lambda a: _template("ARRAY_PREPEND(__a0, __a1)", *a)),
    "ARRAY_CONTAINS": ((2, 2), lambda a: _template(
        "CASE WHEN __a0 IS NULL THEN NULL ELSE EXISTS(__a0, __e -> __e <=> __a1) END", *a)),
    "ARRAY_DISTINCT": ((1, 1), lambda a: _template("ARRAY_DISTINCT(__a0)", *a)),
    "ARRAY_POSITION": ((2, 2), lambda a: _template(
        "CASE WHEN __a0 IS NULL OR __a1 IS NULL THEN NULL ELSE CAST(ARRAY_POSITION(__a0, __a1) AS INT) END", *a)),
    "ARRAY_REMOVE": ((2, 2), lambda a: _template("FILTER(__a0, __e -> NOT (__e <=> __a1))", *a)),
    "ARRAY_REVERSE": ((1, 1), lambda a: _template("REVERSE(__a0)", *a)),
    "ARRAY_SLICE": ((2, 3), _slice),
    "ARRAY_SORT": ((1, 3), _sort),
    "ARRAY_UNION": ((2, 2), lambda a: _template("ARRAY_UNION(__a0, __a1)", *a)),
    "ARRAY_CONCAT": ((1, None), lambda a: _template("CONCAT(%s)" % ", ".join("__a%d" % i for i in range(len(a))), *a)),
    "ARRAY_EXCEPT": ((2, 2), lambda a: _template("ARRAY_EXCEPT(__a0, __a1)", *a)),
    "ARRAY_INTERSECT": ((2, 2), lambda a: _template("ARRAY_INTERSECT(__a0, __a1)", *a)),
    "ARRAY_MAX": ((1, 1), lambda a: _template("ARRAY_MAX(__a0)", *a)),
    "ARRAY_MIN": ((1, 1), lambda a: _template("ARRAY_MIN(__a0)", *a)),
    "ARRAY_JOIN": ((2, 3), lambda a: _template("ARRAY_JOIN(%s)" % ", ".join("__a%d" % i for i in range(len(a))), *a)),
    "SPLIT": ((2, 2), _split),
    "MAP_KEYS": ((1, 1), lambda a: _template("MAP_KEYS(__a0)", *a)),
    "MAP_VALUES": ((1, 1), lambda a: _template("MAP_VALUES(__a0)", *a)),
    "MAP_ENTRIES": ((1, 1), lambda a: _template("MAP_ENTRIES(__a0)", *a)),
    # arrays of two lengths fail as Flink's do, in its words (Spark's named its MapData)
    "MAP_FROM_ARRAYS": ((2, 2), lambda a: _template(
        "CASE WHEN SIZE(__a0) <> SIZE(__a1) THEN RAISE_ERROR(CONCAT('Invalid function MAP_FROM_ARRAYS call: the "
        "length of the keys array ', SIZE(__a0), ' is not equal to the length of the values array ', SIZE(__a1))) "
        "ELSE MAP_FROM_ARRAYS(__a0, __a1) END", *a)),
    "MAP_UNION": ((1, None), _map_union),
}


# ---------------------------------------------------------------------- Flink's result types
def _t(text, nullable=True):
    from ..inference import t
    return t(text, nullable)


def _array(elem, nullable):
    from ..types import FlinkType
    return FlinkType("ARRAY", (), [elem], nullable=nullable)


def _nullable(ft, value):
    from ..inference import nullable
    return nullable(ft, value)


def _any_null(types):
    return any(x is None or x.nullable for x in types)


def _need(name, ft, kinds, what):
    """Flink's refusal of an argument of the wrong kind (its 'Invalid function call' error)."""
    if ft is not None and ft.name not in kinds and ft.name != "NULL":
        raise SqlError("Invalid function call: %s expects %s, not %s" % (name, what, ft.text()))


def _array_arg(name, types):
    _need(name, types[0], ("ARRAY",), "an ARRAY as its first argument")
    return types[0]


def _element_match(name, arr, value):
    """The needle or element must be comparable with the array's elements (Flink refuses ARRAY[1] and 2.0)."""
    if arr is None or value is None or arr.name != "ARRAY" or value.name == "NULL":
        return
    elem = arr.children[0]
    if elem is None:
        return
    from ..inference import least_restrictive
    common = least_restrictive([elem, value])
    if common is None or (common.name, common.params) != (elem.name, elem.params) and not (
            elem.name in ("CHAR", "VARCHAR") and value.name in ("CHAR", "VARCHAR")):
        raise SqlError("Invalid function call: %s cannot take a %s with an %s" % (name, value.text(), arr.text()))


def _same_array(name):
    def typ(types, args):
        arr = _array_arg(name, types)
        return _nullable(arr, _any_null(types)) if arr is not None else None
    return typ


def _with_element(name):
    def typ(types, args):
        arr = _array_arg(name, types)
        _element_match(name, arr, types[1])
        if arr is None or arr.name != "ARRAY":
            return None
        return _array(arr.children[0], arr.nullable)
    return typ


def _combined(name):
    def typ(types, args):
        for x in types:
            _need(name, x, ("ARRAY",), "ARRAY arguments")
        if any(x is None or x.name != "ARRAY" for x in types):
            return None
        from ..inference import least_restrictive
        elem = least_restrictive([x.children[0] for x in types])
        if elem is None:
            raise SqlError("Invalid function call: %s takes arrays of one element type, not %s" % (
                name, ", ".join(x.text() for x in types)))
        return _array(elem, _any_null(types))
    return typ


def _contains(types, args):
    _array_arg("ARRAY_CONTAINS", types)
    _element_match("ARRAY_CONTAINS", types[0], types[1])
    return _t("BOOLEAN", types[0] is None or types[0].nullable)


def _position(types, args):
    _array_arg("ARRAY_POSITION", types)
    _element_match("ARRAY_POSITION", types[0], types[1])
    return _t("INT", _any_null(types))


def _remove(types, args):
    arr = _array_arg("ARRAY_REMOVE", types)
    _element_match("ARRAY_REMOVE", arr, types[1])
    return _nullable(arr, arr.nullable) if arr is not None else None


def _extreme(name):
    def typ(types, args):
        arr = _array_arg(name, types)
        if arr is None or arr.name != "ARRAY":
            return None
        elem = arr.children[0]
        if elem is not None and elem.name in ("ARRAY", "MAP", "ROW", "MULTISET"):
            raise SqlError("Invalid function call: %s needs elements that can be ordered, not %s" % (
                name, elem.text()))
        return _nullable(elem, True)
    return typ


def _join(types, args):
    arr = _array_arg("ARRAY_JOIN", types)
    if arr is not None and arr.name == "ARRAY" and arr.children[0] is not None \
            and arr.children[0].name not in ("CHAR", "VARCHAR", "NULL"):
        raise SqlError("Invalid function call: ARRAY_JOIN expects an ARRAY of strings, not %s" % arr.text())
    for x in types[1:]:
        _need("ARRAY_JOIN", x, ("CHAR", "VARCHAR"), "string delimiters")
    return _t("STRING", _any_null(types))


def _split_type(types, args):
    for x in types:
        _need("SPLIT", x, ("CHAR", "VARCHAR"), "strings")
    return _array(_t("STRING"), _any_null(types))


def _map_arg(name, types):
    _need(name, types[0], ("MAP",), "a MAP")
    return types[0] if types[0] is not None and types[0].name == "MAP" else None


def _map_keys(types, args):
    m = _map_arg("MAP_KEYS", types)
    return _array(m.children[0], m.nullable) if m is not None else None


def _map_values(types, args):
    m = _map_arg("MAP_VALUES", types)
    return _array(m.children[1], m.nullable) if m is not None else None


def _map_entries(types, args):
    from ..types import FlinkType
    m = _map_arg("MAP_ENTRIES", types)
    if m is None:
        return None
    row = FlinkType("ROW", (), [("key", m.children[0]), ("value", m.children[1])], nullable=True)
    return _array(row, m.nullable)


def _map_from_arrays(types, args):
    from ..types import FlinkType
    for x in types:
        _need("MAP_FROM_ARRAYS", x, ("ARRAY",), "two ARRAYs")
    if any(x is None or x.name != "ARRAY" for x in types):
        return None
    return FlinkType("MAP", (), [types[0].children[0], types[1].children[0]], nullable=_any_null(types))


def _map_union(types, args):
    for x in types:
        _need("MAP_UNION", x, ("MAP",), "MAP arguments")
    if any(x is None or x.name != "MAP" for x in types):
        return None
    from ..inference import least_restrictive        # Flink's common map type: MAP<STRING, INT> and MAP['k', 1]
    from ..types import FlinkType
    key = least_restrictive([x.children[0] for x in types])
    value = least_restrictive([x.children[1] for x in types])
    if key is None or value is None:
        raise SqlError("Invalid function call: MAP_UNION takes maps of one type, not %s"
                       % ", ".join(x.text() for x in types))
    return FlinkType("MAP", (), [key, value], nullable=_any_null(types))


def _cardinality(types, args):
    _need("CARDINALITY", types[0], ("ARRAY", "MAP", "MULTISET"), "an ARRAY, MAP or MULTISET")
    if types[0] is not None and types[0].name == "MULTISET":     # Flink's code generation: "Expect an array or a map."
        raise SqlError("CARDINALITY of a MULTISET (%s) is refused: Flink 2.3 cannot compile it (\"Expect an array "
                       "or a map.\")" % types[0].text())
    return _t("INT", _any_null(types))


RETURN_TYPES = {
    "CARDINALITY": _cardinality,
    "ARRAY_APPEND": _with_element("ARRAY_APPEND"), "ARRAY_PREPEND": _with_element("ARRAY_PREPEND"),
    "ARRAY_CONTAINS": _contains, "ARRAY_POSITION": _position, "ARRAY_REMOVE": _remove,
    "ARRAY_DISTINCT": _same_array("ARRAY_DISTINCT"), "ARRAY_REVERSE": _same_array("ARRAY_REVERSE"),
    "ARRAY_SLICE": _same_array("ARRAY_SLICE"), "ARRAY_SORT": _same_array("ARRAY_SORT"),
    "ARRAY_UNION": _combined("ARRAY_UNION"), "ARRAY_CONCAT": _combined("ARRAY_CONCAT"),
    "ARRAY_EXCEPT": _combined("ARRAY_EXCEPT"), "ARRAY_INTERSECT": _combined("ARRAY_INTERSECT"),
    "ARRAY_MAX": _extreme("ARRAY_MAX"), "ARRAY_MIN": _extreme("ARRAY_MIN"),
    "ARRAY_JOIN": _join, "SPLIT": _split_type,
    "MAP_KEYS": _map_keys, "MAP_VALUES": _map_values, "MAP_ENTRIES": _map_entries,
    "MAP_FROM_ARRAYS": _map_from_arrays, "MAP_UNION": _map_union,
}


def register(functions, mapping_class):
    """Put the collection functions into FLINK_FUNCTIONS (functions.py calls this once, at import)."""
    for name, (bounds, rewrite) in REWRITES.items():
        functions[name] = mapping_class("collection", rewrite=rewrite, args=bounds)
