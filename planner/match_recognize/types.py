"""Result types of MATCH_RECOGNIZE: `output_columns(spec, input_columns)` and expression type inference.

Types are Flink type texts as Flink's SQL client prints them (`BIGINT`, `BIGINT NOT NULL`,
`TIMESTAMP(3) *ROWTIME*`): AVG of a BIGINT is a BIGINT, COUNT is `BIGINT NOT NULL`, a measure that
reads the event-time attribute (START_ROW.rowtime, FIRST(rowtime), MATCH_ROWTIME()) keeps *ROWTIME*.
Scalar functions usable inside MEASURES/DEFINE are listed in SCALAR_FUNCTIONS (the runtime evaluator
implements exactly these); their types are the expression layer's (planner/expr: the function registry's
return-type rules, Flink's arithmetic and common types), as in SELECT."""

import re
from dataclasses import dataclass

from sqlglot import exp

from planner.errors import SqlError, UnsupportedError
from planner.expr import inference as binder_types
from planner.expr.translate import cast_type
from planner.match_recognize.expressions import SEMANTICS_MARKERS, FlinkDialect, call_args, func_name

_NUM_RANK = {"TINYINT": 1, "SMALLINT": 2, "INT": 3, "BIGINT": 4, "DECIMAL": 5, "FLOAT": 6, "DOUBLE": 7}

# the scalar functions the runtime evaluator implements (runtime/match_recognize); typed by the registry
SCALAR_FUNCTIONS = {
    "ABS", "CEIL", "CEILING", "FLOOR", "ROUND", "MOD", "SIGN", "POWER", "SQRT", "LN", "LOG10", "LOG", "EXP",
    "UPPER", "LOWER", "CONCAT", "SUBSTRING", "SUBSTR", "TRIM", "CHAR_LENGTH", "CHARACTER_LENGTH",
    "COALESCE", "IFNULL", "NULLIF", "GREATEST", "LEAST", "TIMESTAMPDIFF",
}


@dataclass
class TypeInfo:
    base: str                  # e.g. 'BIGINT', 'TIMESTAMP(3)', 'DECIMAL(10, 2)', 'STRING'
    nullable: bool = True
    time_attr: str = None      # None | 'ROWTIME' | 'PROCTIME'

    def text(self):
        s = self.base + ("" if self.nullable else " NOT NULL")
        if self.time_attr:
            s += " *%s*" % self.time_attr
        return s

    @property
    def name(self):
        return re.match(r"[A-Z_]+", self.base).group(0)


def parse_type_text(text):
    """'TIMESTAMP(3) NOT NULL *ROWTIME*' -> TypeInfo."""
    t = text.strip()
    time_attr = None
    m = re.search(r"\*(ROWTIME|PROCTIME)\*", t, re.I)
    if m:
        time_attr = m.group(1).upper()
        t = (t[:m.start()] + t[m.end():]).strip()
    nullable = True
    if re.search(r"\bNOT\s+NULL\b", t, re.I):
        nullable = False
        t = re.sub(r"\s*\bNOT\s+NULL\b", "", t, flags=re.I).strip()
    t = re.sub(r"\s*\bNULL\b$", "", t, flags=re.I).strip() or "NULL"
    base = _normalize_base(t)
    return TypeInfo(base, nullable, time_attr)


def _normalize_base(t):
    u = t.upper()
    if u in ("VARCHAR(2147483647)", "STRING"):
        return "STRING"
    if u == "INTEGER":
        return "INT"
    if u == "TIMESTAMP":
        return "TIMESTAMP(6)"
    if u == "TIMESTAMP_LTZ":
        return "TIMESTAMP_LTZ(6)"
    if u.startswith("TIMESTAMP(") and "WITH LOCAL TIME ZONE" in u:
        return "TIMESTAMP_LTZ" + u[len("TIMESTAMP"):u.index(")") + 1]
    if u in ("DECIMAL", "DEC", "NUMERIC"):
        return "DECIMAL(10, 0)"
    return re.sub(r"\s*,\s*", ", ", _upper_but_field_names(t))


_TYPE_TOKEN = re.compile(r"`(?:[^`]|``)*`|[A-Za-z_][A-Za-z_0-9$]*|.", re.S)


def _upper_but_field_names(t):
    """A type's text in upper case, except the field names of a ROW (`ROW<a INT>`, `ROW(a INT)`), which keep
    theirs: a ROW value's fields are found by name."""
    out, open_kinds, keyword, expect_name = [], [], None, False
    for m in _TYPE_TOKEN.finditer(t):
        tok = m.group(0)
        if tok in ("<", "("):
            open_kinds.append(keyword)
            expect_name = keyword == "ROW"
        elif tok in (">", ")"):
            if open_kinds:
                open_kinds.pop()
            expect_name = False
        elif tok == ",":
            expect_name = bool(open_kinds) and open_kinds[-1] == "ROW"
        elif tok.startswith("`") or tok[0].isalpha() or tok[0] == "_":
            if expect_name:
                expect_name = False
            else:
                tok = tok.upper()
                keyword = tok
        out.append(tok)
    return "".join(out)


class TypeScope:
    """What an expression's columns refer to: input column types and the time attributes."""

    def __init__(self, input_columns, rowtime=None, proctime=None):
        self.types = {name: parse_type_text(t) for name, t in input_columns}
        self.rowtime = rowtime
        self.proctime = proctime

    def column(self, name):
        t = self.types.get(name)
        if t is None:
            return None
        attr = t.time_attr
        if name == self.rowtime:
            attr = "ROWTIME"
        elif name == self.proctime:
            attr = "PROCTIME"
        return TypeInfo(t.base, t.nullable, attr)


def _decimal_params(base):
    m = re.match(r"DECIMAL\((\d+), (\d+)\)", base)
    return (int(m.group(1)), int(m.group(2))) if m else (10, 0)


def _flink_type(t):
    return binder_types.t(t.base, t.nullable)


def numeric_result(a, b, op):
    """Flink's result type of a op b for numeric a, b (op in + - * / %): the binder's derivation
    (planner/bind/types.py `arithmetic`, Flink's LogicalTypeMerging), so SELECT and MATCH_RECOGNIZE agree."""
    nullable = a.nullable or b.nullable
    if a.name == "NULL":
        return TypeInfo(b.base, True)
    if b.name == "NULL":
        return TypeInfo(a.base, True)
    if a.name not in _NUM_RANK or b.name not in _NUM_RANK:
        if a.name.startswith("TIMESTAMP") and b.name.startswith("INTERVAL"):
            return TypeInfo(a.base, nullable)
        raise SqlError("Cannot apply '%s' to %s and %s" % (op, a.base, b.base))
    out = binder_types.arithmetic(op, _flink_type(a), _flink_type(b))
    return TypeInfo(out.text(with_null=False), nullable)


def infer(node, scope):
    """TypeInfo of a MEASURES/DEFINE expression (sqlglot tree)."""
    if isinstance(node, exp.Paren):
        return infer(node.this, scope)
    if isinstance(node, exp.Column):
        if isinstance(node.this, exp.Star):
            return TypeInfo("BIGINT", False)
        t = scope.column(node.name)
        if t is None:
            raise SqlError("Column '%s' not found in the input of MATCH_RECOGNIZE" % node.name)
        return TypeInfo(t.base, True, t.time_attr)
    if isinstance(node, (exp.Literal, exp.Boolean, exp.Null)):
        return _layer_type(node, scope)
    if isinstance(node, exp.Neg):
        t = infer(node.this, scope)
        return TypeInfo(t.base, t.nullable)
    if isinstance(node, (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod)):
        op = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/", exp.Mod: "%"}[type(node)]
        a, b = infer(node.this, scope), infer(node.expression, scope)
        if isinstance(node.expression, exp.Interval):
            return TypeInfo(a.base, a.nullable)
        return numeric_result(a, b, op)
    if isinstance(node, exp.Interval):
        return TypeInfo("INTERVAL", False)
    if isinstance(node, exp.DPipe):
        a, b = infer(node.this, scope), infer(node.expression, scope)
        return TypeInfo("STRING", a.nullable or b.nullable)
    if isinstance(node, (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.And, exp.Or, exp.Like, exp.ILike,
                         exp.Between, exp.In)):
        ts = [infer(c, scope) for c in node.iter_expressions()]
        return TypeInfo("BOOLEAN", any(t.nullable for t in ts))
    if isinstance(node, exp.Not):
        t = infer(node.this, scope)
        return TypeInfo("BOOLEAN", t.nullable)
    if isinstance(node, exp.Is):
        infer(node.this, scope)
        return TypeInfo("BOOLEAN", False)
    if isinstance(node, (exp.Cast, exp.Case, exp.If)):
        return _layer_type(node, scope)
    if isinstance(node, exp.Count):
        return TypeInfo("BIGINT", False)
    if isinstance(node, (exp.Sum, exp.Avg, exp.Min, exp.Max)):
        arg = node.this
        if isinstance(arg, exp.Distinct):
            arg = arg.expressions[0]
        t = infer(arg, scope)
        if isinstance(node, exp.Sum) and t.name == "DECIMAL":
            return TypeInfo("DECIMAL(38, %d)" % _decimal_params(t.base)[1], True)
        if isinstance(node, exp.Avg) and t.name == "DECIMAL":
            return TypeInfo("DECIMAL(38, %d)" % max(6, _decimal_params(t.base)[1]), True)
        if isinstance(node, (exp.Sum, exp.Avg)) and t.name not in _NUM_RANK:
            raise SqlError("%s needs a numeric argument, not %s" % (func_name(node), t.base))
        return TypeInfo(t.base, True, None)
    name = func_name(node)
    args = call_args(node) if isinstance(node, exp.Func) else []
    if name in SEMANTICS_MARKERS:
        return infer(args[0], scope)
    if name in ("FIRST", "LAST", "PREV", "NEXT"):
        t = infer(args[0], scope)
        for a in args[1:]:
            infer(a, scope)
        return TypeInfo(t.base, True, t.time_attr)
    if name == "MATCH_ROWTIME":
        if args:
            t = infer(args[0], scope)
            return TypeInfo(t.base, True, "ROWTIME")
        if scope.rowtime is None:
            raise SqlError("MATCH_ROWTIME() needs an input with an event-time attribute")
        t = scope.column(scope.rowtime)
        return TypeInfo(t.base, False, "ROWTIME")
    if name == "MATCH_PROCTIME":
        return TypeInfo("TIMESTAMP_LTZ(3)", False, "PROCTIME")
    if name == "MATCH_NUMBER":
        return TypeInfo("BIGINT", False)
    if name == "CLASSIFIER":
        return TypeInfo("STRING", False)
    if isinstance(node, exp.Coalesce) or name in ("COALESCE", "IFNULL"):
        return _layer_type(node, scope)
    if isinstance(node, exp.TimestampDiff) or name == "TIMESTAMPDIFF":
        return TypeInfo("INT", True)
    if isinstance(node, exp.Length):
        infer(node.this, scope)
        return TypeInfo("INT", True)
    if isinstance(node, exp.Pow):
        return TypeInfo("DOUBLE", True)
    if name in SCALAR_FUNCTIONS:
        out = _registry_type(node, name, args, scope)
        if out is not None:
            return out
    raise UnsupportedError("Function %s is not supported inside MATCH_RECOGNIZE"
                           % (name or node.sql(dialect=FlinkDialect)))


class _NoPlace:
    """A CAST's type read outside a statement's binding: its errors carry no position (MATCH_RECOGNIZE's
    validation places them)."""
    @staticmethod
    def pos(node):
        return None, None


def _layer_type(node, scope):
    """The type the expression layer gives `node` (planner/expr/inference.py: literals, CAST, CASE, IF,
    COALESCE), its operands typed here: MEASURES and DEFINE type them as SELECT does."""
    def typeof(child):
        info = infer(child, scope)
        return binder_types.FlinkType("NULL") if info.name == "NULL" else _flink_type(info)
    if isinstance(node, (exp.Cast, exp.TryCast)) and "flink_type" not in node.meta:
        node.meta["flink_type"] = cast_type(node, _NoPlace)
    out = binder_types.infer(node, typeof)
    if out is None:
        raise UnsupportedError("The type of %s inside MATCH_RECOGNIZE is not known" % node.sql(dialect=FlinkDialect))
    return TypeInfo(out.text(with_null=False), out.nullable)


def _registry_type(node, name, args, scope):
    """The call's type by the function registry's rule (as the binder types it in SELECT), or None."""
    rule = binder_types.return_type_rule(binder_types.function_name(node), node)
    if rule is None:
        return None
    types = {id(a): infer(a, scope) for a in args}

    def typeof(a):
        info = types.get(id(a)) or infer(a, scope)
        if info.name == "NULL":
            return binder_types.FlinkType("NULL")
        return _flink_type(info)
    out = rule(node, args, typeof)
    return TypeInfo(out.text(with_null=False), out.nullable) if out is not None else None


def output_columns(spec, input_columns):
    """[(name, flink type text)] of the MATCH_RECOGNIZE result.

    ONE ROW PER MATCH: partition columns, then measures. ALL ROWS PER MATCH (the standard): partition
    columns, ORDER BY columns, measures, then the remaining input columns in input order."""
    scope = TypeScope(input_columns, spec.rowtime, spec.proctime)
    given = dict(input_columns)
    out = []
    for p in spec.partition_by:
        out.append((p, parse_type_text(given[p]).text()))
    if spec.rows_per_match == "ALL":
        for k in spec.order_by:
            if k.column not in spec.partition_by:
                out.append((k.column, scope.column(k.column).text()))
    for m in spec.measures:
        t = infer(m.expr, scope)
        if spec.rows_per_match == "ALL":   # unmatched rows and empty matches give NULL measures
            t = TypeInfo(t.base, True, t.time_attr)
        if t.name == "NULL":
            t = TypeInfo("NULL", True)
        out.append((m.name, t.text()))
    if spec.rows_per_match == "ALL":
        used = {c for c, _ in out}
        for name, t in input_columns:
            if name not in used:
                out.append((name, scope.column(name).text()))
    return out
