"""Builds the operator tree (operators.py) of a query that produces or consumes updates.

Input: the query's sqlglot tree after `QueryPlanner` resolved its tables and mapped its functions.
Supports SELECT [DISTINCT] ... FROM table | (subquery) [JOIN ... ON equi-conditions] [WHERE] [GROUP BY]
[HAVING], Top-N / deduplication (`ROW_NUMBER() OVER (PARTITION BY .. ORDER BY ..)` filtered by the
outer query), and RANK / DENSE_RANK / ROW_NUMBER without a filter. Anything else gets an error naming it."""

from sqlglot import exp

from . import changelog
from .errors import SqlError, UnsupportedError
from .functions import is_aggregate_name
from .operators import Aggregate, Calc, GroupAggregate, Join, Rank, Source, _q
from .types import base_name

_AGGS = {"COUNT", "SUM", "AVG", "MIN", "MAX"}
_RANKS = {"ROW_NUMBER", "RANK", "DENSE_RANK"}
_INTEGRAL = {"TINYINT", "SMALLINT", "INT", "BIGINT"}


class Scope:
    """Columns visible to expressions: (qualifier, name) -> input column name, with their Flink types."""

    def __init__(self, entries):
        self.entries = list(entries)   # [(qualifier or None, name, column, flink type)]

    def resolve(self, col, pos):
        q, n = (col.table or None), col.name
        hits = [e for e in self.entries if e[1] == n and (q is None or e[0] == q)]
        if not hits:
            close = [e[1] for e in self.entries if e[1].lower() == n.lower()]
            hint = ("names are case-sensitive: `%s`" % close[0]) if close else \
                "columns in scope: " + ", ".join(sorted({e[1] for e in self.entries}))
            raise SqlError("Column '%s' not found in any table" % (("%s.%s" % (q, n)) if q else n), *pos, hint=hint)
        if len({e[2] for e in hits}) > 1:
            raise SqlError("Column '%s' is ambiguous" % n, *pos, hint="qualify it with a table alias")
        return hits[0]

    def requalify(self, qualifier):
        return Scope([(qualifier, n, c, t) for _, n, c, t in self.entries])


class OperatorBuilder:
    def __init__(self, planner):
        self.qp = planner          # QueryPlanner: sources, positions
        self._n = 0

    def fresh(self, stem):
        self._n += 1
        return "__%s%d" % (stem, self._n)

    # ------------------------------------------------------------------ queries
    def build(self, tree):
        node, scope = self._query(tree)
        return node

    def _query(self, tree):
        if isinstance(tree, exp.Subquery):
            return self._query(tree.this)
        if isinstance(tree, exp.Select):
            return self._select(tree)
        raise UnsupportedError("%s is not supported in a query that updates its result yet"
                               % type(tree).__name__.upper(), *self.qp._pos(tree))

    def _from(self, select):
        frm = select.args.get("from_") or select.args.get("from")
        if frm is None:
            raise UnsupportedError("A query without FROM cannot update its result", *self.qp._pos(select))
        node, scope = self._relation(frm.this)
        for j in select.args.get("joins") or []:
            node, scope = self._join(node, scope, j)
        return node, scope

    def _relation(self, rel):
        alias = rel.alias or None
        if isinstance(rel, exp.Table):
            ref = next((r for r in self.qp.sources.values() if r.view == rel.name), None)
            if ref is None:
                derived = next((d for d in self.qp.derived if d.view == rel.name), None)
                if derived is None:
                    raise UnsupportedError("Table '%s' cannot be used here" % rel.name, *self.qp._pos(rel))
                raise UnsupportedError("MATCH_RECOGNIZE inside a query that updates its result is not supported yet",
                                       *self.qp._pos(rel))
            table = ref.table
            is_cl = table.options.get("format") in ("debezium-json", "canal-json")
            mode = changelog.RETRACT if is_cl else changelog.INSERT_ONLY
            cols = [c.name for c in table.columns]
            node = Source(columns=cols, mode=mode, ref=ref, changelog_source=is_cl)
            types = dict(table.column_types())
            return node, Scope([(alias or table.name, c, c, types.get(c, "")) for c in cols])
        if isinstance(rel, exp.Subquery):
            node, scope = self._query(rel.this)
            return node, scope.requalify(alias)
        raise UnsupportedError("%s in FROM is not supported in a query that updates its result yet"
                               % type(rel).__name__, *self.qp._pos(rel))

    def _join(self, left, lscope, j):
        kind = (j.args.get("side") or "").upper() or "INNER"
        if j.args.get("kind") and j.args["kind"].upper() not in ("INNER", "OUTER"):
            raise UnsupportedError("%s JOIN is not supported" % j.args["kind"].upper(), *self.qp._pos(j))
        right, rscope = self._relation(j.this)
        on = j.args.get("on")
        if on is None:
            raise UnsupportedError("A join needs an ON condition with equalities (cross joins are not supported)",
                                   *self.qp._pos(j))
        lkeys, rkeys = [], []
        for cond in _conjuncts(on):
            if not (isinstance(cond, exp.EQ) and isinstance(cond.this, exp.Column)
                    and isinstance(cond.expression, exp.Column)):
                raise UnsupportedError("Only equality conditions between columns are supported in a join "
                                       "that updates its result: %s" % cond.sql(), *self.qp._pos(cond))
            a, b = cond.this, cond.expression
            in_left = _try(lscope, a)
            if in_left is not None and _try(rscope, b) is not None:
                lkeys.append(in_left[2]); rkeys.append(rscope.resolve(b, self.qp._pos(b))[2])
            elif _try(lscope, b) is not None and _try(rscope, a) is not None:
                lkeys.append(lscope.resolve(b, self.qp._pos(b))[2]); rkeys.append(rscope.resolve(a, self.qp._pos(a))[2])
            else:
                raise SqlError("Join condition %s must compare a column of each side" % cond.sql(), *self.qp._pos(cond))
        # output columns: left's then right's, renamed where they collide
        out_cols, entries = [], []
        taken = set()
        for scope, node in ((lscope, left), (rscope, right)):
            rename = {}
            for c in node.columns:
                name = c
                k = 0
                while name in taken:
                    name = "%s%d" % (c, k)
                    k += 1
                taken.add(name)
                rename[c] = name
                out_cols.append(name)
            for q, n, c, t in scope.entries:
                entries.append((q, n, rename[c], t))
        lm, rm = left.mode, right.mode
        if kind == "INNER" and lm.insert_only and rm.insert_only:
            mode = changelog.INSERT_ONLY
        else:
            mode = changelog.RETRACT
        node = Join(columns=out_cols, mode=mode, left=left, right=right, kind=kind, left_keys=lkeys, right_keys=rkeys)
        return node, Scope(entries)

    # ------------------------------------------------------------------ SELECT
    def _select(self, select):
        node, scope = self._from(select)
        items = self._items(select, scope)
        where = select.args.get("where")
        # Top-N / deduplication: the input is a Rank without a limit, and WHERE bounds its rank column
        rank = node if isinstance(node, Rank) else \
            node.input if isinstance(node, Calc) and node.condition is None and isinstance(node.input, Rank) else None
        if rank is not None and rank.limit is None and where is not None:
            limit, rest = _rank_bound(where.this, rank, scope)
            if limit is not None:
                rank.limit = limit
                where = exp.Where(this=rest) if rest is not None else None
                _finish_rank(rank)
                node.mode = rank.mode
        windows = [(e, n) for e, n in items if _window_of(e) is not None]
        aggregate = bool(select.args.get("group")) or any(_has_aggregate(e) for e, _ in items) \
            or select.args.get("having") is not None
        if windows:
            if aggregate:
                raise UnsupportedError("Ranking over an aggregate in one SELECT is not supported; "
                                       "aggregate in a subquery first", *self.qp._pos(select))
            return self._rank(select, node, scope, items, windows, where)
        if aggregate:
            return self._aggregate(select, node, scope, items, where)
        projections = [(self._sql(e, scope), n) for e, n in items]
        cond = self._sql(where.this, scope) if where is not None else None
        calc = Calc(columns=[n for _, n in projections], mode=node.mode, input=node, projections=projections,
                    condition=cond)
        types = self._types(items, scope)
        out = Scope([(None, n, n, types.get(n, "")) for _, n in projections])
        if select.args.get("distinct"):
            agg = GroupAggregate(columns=calc.columns, mode=_agg_mode(node.mode, []), input=calc,
                                 keys=list(calc.columns), aggregates=[])
            return agg, out
        return calc, out

    def _items(self, select, scope):
        items = []
        for i, e in enumerate(select.expressions):
            if isinstance(e, exp.Star):
                for q, n, c, t in scope.entries:
                    items.append((exp.column(n, table=q, quoted=True) if q else exp.column(n, quoted=True), n))
                continue
            if isinstance(e, exp.Column) and isinstance(e.this, exp.Star):
                for q, n, c, t in scope.entries:
                    if q == e.table:
                        items.append((exp.column(n, table=q, quoted=True), n))
                continue
            if isinstance(e, exp.Alias):
                items.append((e.this, e.alias))
            elif isinstance(e, exp.Column):
                items.append((e, e.name))
            else:
                items.append((e, "EXPR$%d" % i))
        return items

    def _types(self, items, scope):
        out = {}
        for e, n in items:
            if isinstance(e, exp.Column):
                hit = _try(scope, e)
                if hit is not None:
                    out[n] = hit[3]
        return out

    def _sql(self, e, scope, replace=None):
        """Expression -> Spark SQL over the input's column names."""
        e = e.copy()
        replace = replace or {}

        def fix(node):
            key = node.sql(dialect="spark") if replace else None
            if replace and key in replace:
                return exp.column(replace[key], quoted=True)
            if isinstance(node, exp.Column) and not isinstance(node.this, exp.Star):
                hit = scope.resolve(node, self.qp._pos(node))
                return exp.column(hit[2], quoted=True)
            return node
        return e.transform(fix).sql(dialect="spark")

    # ------------------------------------------------------------------ aggregation
    def _aggregate(self, select, node, scope, items, where):
        group = select.args.get("group")
        key_exprs = list(group.expressions) if group is not None else []
        pre, keys, key_map = [], [], {}
        for k in key_exprs:
            if isinstance(k, exp.Column):
                hit = scope.resolve(k, self.qp._pos(k))
                name = hit[2]
                if name not in [p[1] for p in pre]:
                    pre.append((_q(name), name))
            else:
                name = self.fresh("k")
                pre.append((self._sql(k, scope), name))
            keys.append(name)
            key_map[k.sql(dialect="spark")] = name
        aggs, agg_map = [], {}
        for e in [i for i, _ in items] + ([select.args["having"].this] if select.args.get("having") else []):
            for call in _aggregate_calls(e):
                text = call.sql(dialect="spark")
                if text in agg_map:
                    continue
                func, arg, distinct = _agg_parts(call)
                if func not in _AGGS:
                    raise UnsupportedError("Aggregate function %s is not supported in a query that updates its "
                                           "result yet" % func, *self.qp._pos(call))
                arg_col = None
                integral = False
                if arg is not None:
                    arg_col = self.fresh("a")
                    pre.append((self._sql(arg, scope), arg_col))
                    integral = _is_integral(arg, scope)
                name = self.fresh("agg")
                aggs.append(Aggregate(function="COUNT_STAR" if (func == "COUNT" and arg is None) else func,
                                      argument=arg_col, distinct=distinct, name=name, integral=integral))
                agg_map[text] = name
        cond = self._sql(where.this, scope) if where is not None else None
        pre_calc = Calc(columns=[n for _, n in pre], mode=node.mode, input=node, projections=pre, condition=cond)
        agg = GroupAggregate(columns=keys + [a.name for a in aggs], mode=_agg_mode(node.mode, keys),
                             input=pre_calc, keys=keys, aggregates=aggs)
        agg_scope = Scope([(None, k, k, "") for k in keys] + [(None, a.name, a.name, "") for a in aggs])
        replace = dict(agg_map)
        replace.update(key_map)
        # select-list columns that are group keys refer to the key column
        post = []
        for e, n in items:
            post.append((self._post_sql(e, scope, agg_scope, replace), n))
        having = select.args.get("having")
        hcond = self._post_sql(having.this, scope, agg_scope, replace) if having is not None else None
        calc = Calc(columns=[n for _, n in post], mode=agg.mode, input=agg, projections=post, condition=hcond)
        calc.key_columns = [n for (s, n) in post if s.strip("`") in keys]
        calc.hidden_keys = keys
        return calc, Scope([(None, n, n, "") for _, n in post])

    def _post_sql(self, e, scope, agg_scope, replace):
        e = e.copy()

        def fix(node):
            text = node.sql(dialect="spark")
            if text in replace:
                return exp.column(replace[text], quoted=True)
            if isinstance(node, exp.Column):
                hit = _try(scope, node)
                if hit is not None and hit[2] in [x[2] for x in agg_scope.entries]:
                    return exp.column(hit[2], quoted=True)
                raise SqlError("Expression '%s' is not being grouped" % node.sql(), *self.qp._pos(node),
                               hint="add it to GROUP BY or aggregate it")
            return node
        return e.transform(fix).sql(dialect="spark")

    # ------------------------------------------------------------------ ranking
    def _rank(self, select, node, scope, items, windows, where):
        if len(windows) != 1:
            raise UnsupportedError("Only one ranking function per SELECT is supported", *self.qp._pos(select))
        wexpr, wname = windows[0]
        win = _window_of(wexpr)
        func = win.this.key.upper() if not isinstance(win.this, exp.Anonymous) else win.this.name.upper()
        func = {"ROWNUMBER": "ROW_NUMBER", "DENSERANK": "DENSE_RANK"}.get(func, func)
        if func not in _RANKS:
            raise UnsupportedError("OVER windows (%s) are not supported in streaming mode yet" % func,
                                   *self.qp._pos(win))
        # materialize partition/order expressions as columns of a Calc below the rank
        pre = [(_q(c), c) for c in node.columns]
        part = []
        for p in win.args.get("partition_by") or []:
            part.append(self._col_or_new(p, scope, pre))
        order = []
        ob = win.args.get("order")
        for o in (ob.expressions if ob is not None else []):
            order.append((self._col_or_new(o.this, scope, pre), not o.args.get("desc")))
        if not order:
            raise SqlError("%s() needs ORDER BY in its OVER clause" % func, *self.qp._pos(win))
        # WHERE filters the rows before they are ranked (SQL evaluates window functions after WHERE)
        cond = self._sql(where.this, scope) if where is not None else None
        input_node = node if len(pre) == len(node.columns) and cond is None else \
            Calc(columns=[n for _, n in pre], mode=node.mode, input=node, projections=pre, condition=cond)
        rank = Rank(columns=list(node.columns) + [wname], mode=changelog.RETRACT, input=input_node,
                    partition=part, order=order, function=func, limit=None, rank_column=wname)
        rank.time_order = self._time_order(order, scope, rank)
        # the select list above the rank
        rscope = Scope(list(scope.entries) + [(None, wname, wname, "BIGINT NOT NULL")])
        projections = []
        for e, n in items:
            projections.append((_q(n), n) if e is wexpr else (self._sql(e, rscope), n))
        calc = Calc(columns=[n for _, n in projections], mode=rank.mode, input=rank, projections=projections)
        types = self._types(items, scope)
        types[wname] = "BIGINT NOT NULL"
        return calc, Scope([(None, n, n, types.get(n, "")) for _, n in projections])

    def _col_or_new(self, e, scope, pre):
        if isinstance(e, exp.Column):
            return scope.resolve(e, self.qp._pos(e))[2]
        name = self.fresh("r")
        pre.append((self._sql(e, scope), name))
        return name

    def _time_order(self, order, scope, rank=None):
        if not order:
            return None
        col, asc = order[0]
        types = {c: t for _, _, c, t in scope.entries}
        t = types.get(col, "")
        if "*ROWTIME*" in t or "*PROCTIME*" in t:
            if rank is not None:
                rank.time_kind = "rowtime" if "*ROWTIME*" in t else "proctime"
            return asc
        return None


def _finish_rank(rank):
    """A Top-1 ordered by a time attribute is Flink's deduplication."""
    if rank.limit == 1 and rank.function == "ROW_NUMBER" and getattr(rank, "time_order", None) is not None \
            and len(rank.order) == 1:
        rank.kind = "Deduplicate"
        rank.keep_last = not rank.time_order
    rank.mode = changelog.RETRACT
    if rank.kind == "Deduplicate" and rank.input.mode.insert_only:
        # Flink: only a first-row deduplication on processing time is insert-only
        proctime_first = not rank.keep_last and getattr(rank, "time_kind", "") == "proctime"
        rank.mode = changelog.INSERT_ONLY if proctime_first else changelog.UPDATE_NO_DELETE


def _rank_bound(cond, rank, scope):
    """`rn <= N`, `rn < N`, `rn = 1` (possibly AND-ed with other conditions) -> (N, the other conditions)."""
    limit, rest = None, []
    for c in _conjuncts(cond):
        col, lit, op = None, None, None
        if isinstance(c, (exp.LTE, exp.LT, exp.EQ)) and isinstance(c.this, exp.Column) \
                and isinstance(c.expression, exp.Literal):
            col, lit, op = c.this, c.expression, type(c)
        elif isinstance(c, (exp.GTE, exp.GT, exp.EQ)) and isinstance(c.expression, exp.Column) \
                and isinstance(c.this, exp.Literal):
            col, lit = c.expression, c.this
            op = {exp.GTE: exp.LTE, exp.GT: exp.LT, exp.EQ: exp.EQ}[type(c)]
        if col is not None and col.name == rank.rank_column and not lit.is_string:
            n = int(lit.name)
            bound = n if op in (exp.LTE,) else n - 1 if op is exp.LT else (n if n == 1 else None)
            if bound is not None:
                limit = bound if limit is None else min(limit, bound)
                continue
        rest.append(c)
    if limit is None:
        return None, cond
    out = None
    for r in rest:
        out = r if out is None else exp.And(this=out, expression=r)
    return limit, out


def _agg_mode(input_mode, keys):
    """Flink: a group aggregate inserts and updates; it deletes only when its input retracts."""
    return changelog.UPDATE_NO_DELETE if input_mode.insert_only else changelog.RETRACT


def _conjuncts(e):
    if isinstance(e, exp.And):
        return _conjuncts(e.this) + _conjuncts(e.expression)
    if isinstance(e, exp.Paren):
        return _conjuncts(e.this)
    return [e]


def _try(scope, col):
    try:
        return scope.resolve(col, (None, None))
    except SqlError:
        return None


def _window_of(e):
    return e if isinstance(e, exp.Window) else None


def _has_aggregate(e):
    return bool(_aggregate_calls(e))


def _aggregate_calls(e):
    out = []
    for node in e.walk():
        if isinstance(node, exp.AggFunc) or (isinstance(node, exp.Anonymous) and is_aggregate_name(node.name)):
            if node.find_ancestor(exp.Window) is None and not any(node in x.walk() for x in out):
                out.append(node)
    return out


def _agg_parts(call):
    name = call.key.upper() if not isinstance(call, exp.Anonymous) else call.name.upper()
    name = {"COUNT": "COUNT", "SUM": "SUM", "AVG": "AVG", "MIN": "MIN", "MAX": "MAX"}.get(name, name)
    arg = call.this if not isinstance(call, exp.Anonymous) else (call.expressions[0] if call.expressions else None)
    distinct = False
    if isinstance(arg, exp.Distinct):
        distinct = True
        arg = arg.expressions[0]
    if isinstance(arg, exp.Star):
        arg = None
    return name, arg, distinct


def _is_integral(e, scope):
    if isinstance(e, exp.Column):
        hit = _try(scope, e)
        return hit is not None and base_name(hit[3]) in _INTEGRAL
    if isinstance(e, exp.Cast):
        return e.to.this.name.upper() in _INTEGRAL
    return False
