"""GROUP BY with GROUPING SETS, ROLLUP and CUBE, and the GROUPING / GROUPING_ID functions, bound as Flink plans
them: the grouping sets (the cross product of the GROUP BY items' sets, a set repeated kept), an `Expand` under
the aggregate when there is more than one set (the aggregate then groups by the keys and `$e`), and a Calc over
the aggregate computing each GROUPING call from `$e` (0 for a plain GROUP BY).

`group_sets` reads the GROUP BY items (sqlglot trees) into sets of key trees; `expand_keys` builds the Expand
and gives each aggregate argument that is a key some set lacks its own copy (the aggregate reads its values,
not the NULLs of the copies); `grouping_calc` adds the GROUPING values. Flink's refusals are here too: GROUPING
outside a grouped query, an argument that is not a grouping key."""

from collections import Counter
from dataclasses import replace as replaced

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..plan.calc import Calc
from ..plan.expand import Expand
from ..expr.bound import Expr, quote
from ..expr.types import parse_type

GROUPING_CALLS = (exp.Grouping, exp.GroupingId)
_SET_SYNTAX = (exp.GroupingSets, exp.Rollup, exp.Cube)


def has_grouping_sets(group):
    return group is not None and any(isinstance(k, _SET_SYNTAX) for k in group.expressions)


def group_sets(items):
    """The grouping sets of GROUP BY `items`: [[key tree]], the cross product of each item's sets."""
    sets = [[]]
    for item in items:
        sets = [s + t for s in sets for t in _item_sets(item)]
    return sets


def _item_sets(item):
    if isinstance(item, exp.GroupingSets):
        out = []
        for element in item.expressions:
            out += _item_sets(element) if isinstance(element, _SET_SYNTAX) else [_elements(element)]
        return out
    if isinstance(item, exp.Rollup):
        parts = [_elements(e) for e in item.expressions]
        return [sum(parts[:n], []) for n in range(len(parts), -1, -1)]
    if isinstance(item, exp.Cube):
        parts = [_elements(e) for e in item.expressions]
        out = []
        for mask in range(2 ** len(parts) - 1, -1, -1):     # all of them first, the empty set last
            out.append(sum((p for i, p in enumerate(parts) if mask >> (len(parts) - 1 - i) & 1), []))
        return out
    return [_elements(item)]


def _elements(e):
    """A set's keys: `(a, b)` and `()` are sets of their elements, `(a)` and `a` of one."""
    if isinstance(e, exp.Tuple):
        return list(e.expressions)
    if isinstance(e, exp.Paren):
        return [e.this]
    return [e]


def grouping_calls(trees):
    """The GROUPING / GROUPING_ID / GROUP_ID calls in `trees`, each once per occurrence."""
    out = []
    for t in trees:
        if isinstance(t, exp.Expression):
            out += [n for n in t.walk() if isinstance(n, GROUPING_CALLS) or _is_group_id(n)]
    return out


def _is_group_id(node):
    return isinstance(node, exp.Anonymous) and node.name.upper() == "GROUP_ID"


def _call_name(call):
    return "GROUP_ID" if _is_group_id(call) else "GROUPING" if isinstance(call, exp.Grouping) else "GROUPING_ID"


def _call_pos(ctx, call):
    """Where the call's name starts (the parser marks where it ends)."""
    line, column = ctx.pos(call)
    if "line" in call.meta and not _is_group_id(call) and column is not None:
        column = max(column - len(_call_name(call)) + 1, 1)
    return line, column


def check_grouped(select, ctx, aggregated):
    """Flink's refusals: GROUPING(..) in a query that does not aggregate, in its WHERE or inside an aggregate call;
    grouping sets with a legacy group window (`GROUP BY TUMBLE(ts, ..), ROLLUP(k)`)."""
    from .expressions import is_aggregate_call
    group = select.args.get("group")
    where = select.args.get("where")
    having = select.args.get("having")
    windows = [g for g in (group.find_all(exp.Anonymous) if group is not None else [])
               if g.name.upper() in ("TUMBLE", "HOP", "SESSION")]
    if windows and has_grouping_sets(group):      # Flink fails to generate code for them
        raise UnsupportedError("GROUPING SETS, ROLLUP and CUBE cannot group by a group window (%s); group the rows "
                               "of a window table function instead: GROUP BY window_start, window_end, ROLLUP (..)"
                               % windows[0].name.upper(), *ctx.pos(windows[0]))
    calls = grouping_calls(select.expressions + ([having.this] if having is not None else []))
    if windows and calls:
        raise UnsupportedError("%s is not supported with a group window (%s): use a window table function" % (
            _call_name(calls[0]), windows[0].name.upper()), *_call_pos(ctx, calls[0]))
    inside_aggregates = [n for t in select.expressions + ([having.this] if having is not None else [])
                         for n in t.walk() if is_aggregate_call(n)]
    for call in grouping_calls(([where.this] if where is not None else []) + inside_aggregates):
        raise SqlError("%s operator may only occur in SELECT, HAVING or ORDER BY clause" % _operator(call),
                       *_call_pos(ctx, call))
    if not aggregated:
        for call in grouping_calls(select.expressions):
            raise SqlError("%s operator may only occur in an aggregate query" % _operator(call), *_call_pos(ctx, call))


def _operator(call):
    return "GROUP_ID" if _is_group_id(call) else "GROUPING"


def check_repeats(keys, sets, position):
    """Flink plans repeated sets as one more grouping-sets aggregate per repetition over the sets repeated that
    often, and cannot run one whose only set lacks some of the keys (`GROUPING SETS ((a), (b), (), ())`)."""
    counts = Counter(frozenset(s) for s in sets)
    for level in range(1, max(counts.values(), default=1)):
        repeated = [s for s, c in counts.items() if c > level]
        if len(repeated) == 1 and repeated[0] != frozenset(keys):
            raise UnsupportedError("GROUPING SETS are currently not supported: a grouping set (%s) repeated more often "
                                   "than any other, without all of the grouping keys" % ", ".join(
                                       k for k in keys if k in repeated[0]), *position)


def expand_keys(ctx, pre, pre_calc_of, keys, sets, calls, position=(None, None)):
    """(the aggregate's input, its keys, its calls) for grouping `sets` (lists of key names) over the
    pre-projection `pre` ([(Expr, name)]; `pre_calc_of(pre)` makes its Calc): an Expand over it when there is more
    than one set, `$e` a key, each argument or filter that is a key some set lacks read from a copy of it."""
    if len(sets) <= 1:
        return pre_calc_of(pre), keys, calls, None
    check_repeats(keys, sets, position)
    nulled = {k for k in keys if any(k not in s for s in sets)}
    copies = {}
    pre = list(pre)
    exprs = {name: e for e, name in pre}

    def copy_of(name):
        if name not in nulled:
            return name
        if name not in copies:
            copies[name] = ctx.fresh("$f")
            pre.append((exprs[name], copies[name]))
        return copies[name]
    calls = [replaced(c, args=tuple(copy_of(a) for a in c.args), filter=copy_of(c.filter) if c.filter else None)
             for c in calls]
    id_name = ctx.fresh("$e")
    expand = Expand(pre_calc_of(pre), keys, sets, id_name)
    return expand, list(keys) + [id_name], calls, expand


def grouping_calc(binder, scope, agg_node, expand, key_names, trees, replace, position):
    """A Calc over `agg_node` passing its fields on and computing each GROUPING / GROUPING_ID call in `trees`
    (from `$e` of `expand`, or 0 without one); each call then reads its field (`replace`). `key_names`: the
    canonical text of each grouping key's tree -> its name. Returns the node (`agg_node` when there are none)."""
    from .expressions import ExpressionBinder
    from .select import canon
    calls = grouping_calls(trees)
    if not calls:
        return agg_node
    resolver = ExpressionBinder(binder.ctx, scope)
    projections = [(Expr.of_field(f), f.name) for f in agg_node.fields]
    done, pending = {}, []
    for call in calls:
        resolved = resolver.resolve(call)
        key = canon(resolved)
        if key in done:
            continue
        args = []
        for arg_ast, arg in zip(call.expressions, resolved.expressions):
            name = key_names.get(canon(arg))
            if name is None:
                raise SqlError("Argument to GROUPING operator must be a grouped expression", *binder.pos(arg_ast))
            args.append(name)
        if not args and not _is_group_id(call):
            raise SqlError("GROUPING needs at least one argument", *_call_pos(binder.ctx, call))
        if args and _is_group_id(call):
            raise SqlError("GROUP_ID takes no arguments", *_call_pos(binder.ctx, call))
        name = binder.ctx.fresh("$g")
        projections.append((_grouping_expr(expand, args, call), name))
        done[key] = name
        pending.append((resolved, name))
    calc = Calc(agg_node, projections, position=position)
    for resolved, name in pending:
        replace.add(resolved, calc.field(name))
    return calc


def _grouping_expr(expand, args, call):
    """GROUPING(k0, .., km-1) over the aggregate's `$e`: bit m-1-i set when the row's set lacks ki."""
    text = "%s(%s)" % (_call_name(call), ", ".join(args))
    if expand is None:
        sql = "CAST(0 AS BIGINT)"
        return Expr(spark=sql, type=parse_type("BIGINT NOT NULL"), explain="0", literal=0, is_literal=True)
    n, m = len(expand.keys), len(args)
    e = quote(expand.id_name)
    if _is_group_id(call):          # the repetition of the row's set (above the keys' bits)
        return Expr(spark="CAST(shiftright(%s, %d) AS BIGINT)" % (e, n), type=parse_type("BIGINT NOT NULL"),
                    explain=text, refs=(expand.id_name,))
    terms = []
    for i, k in enumerate(args):
        bit = n - 1 - expand.keys.index(k)
        terms.append("(shiftright(%s, %d) & 1) * %d" % (e, bit, 1 << (m - 1 - i)))
    sql = "CAST(%s AS BIGINT)" % " + ".join(terms)
    return Expr(spark=sql, type=parse_type("BIGINT NOT NULL"), explain=text, refs=(expand.id_name,))
