"""A SELECT block -> plan nodes, in SQL's order of evaluation: FROM, WHERE (conditions across a join's
sides become the join's condition), GROUP BY with aggregates (a Calc computing the keys and arguments,
the GroupAggregate, HAVING as a Calc), OVER windows (`Over` nodes), the select list (a Calc), DISTINCT,
ORDER BY / LIMIT."""

import re
from decimal import Decimal

from sqlglot import exp

from .. import aggregate_functions
from ..errors import SqlError, UnsupportedError
from ..literals import number_type
from ..plan.aggregate import GroupAggregate
from ..plan.calc import Calc
from ..expr.bound import AggCall, Expr
from ..plan.fields import ROWTIME, PROCTIME, unique_names
from ..python_functions import aggregate_calls as python_aggregates
from ..plan.join import Join
from ..plan.over import Frame, Over, WindowCall
from ..plan.scan import Values
from ..plan.sort import Sort
from . import grouping_sets
from ..expr import inference as typing
from .binder import output_scope
from ..expr.conditions import conjuncts, is_flat_and, rebuild_and, referenced
from .expressions import ExpressionBinder, field_ref, is_aggregate_call, refuse_bare_null
from ..expr.signatures import check_aggregate
from ..expr.translate import finish
from .relations import add_join_condition, bind_from
from .scope import Scope, ScopeEntry

_AGG_NAMES = {"COUNT": "COUNT", "SUM": "SUM", "AVG": "AVG", "MIN": "MIN", "MAX": "MAX",
              "STDDEVPOP": "STDDEV_POP", "STDDEVSAMP": "STDDEV_SAMP", "STDDEV": "STDDEV_SAMP",
              "VARIANCEPOP": "VAR_POP", "VARIANCE": "VAR_SAMP", "FIRSTVALUE": "FIRST_VALUE",
              "LASTVALUE": "LAST_VALUE", "GROUPCONCAT": "LISTAGG", "ARRAYAGG": "ARRAY_AGG"}
_RANKING = {"ROWNUMBER": "ROW_NUMBER", "RANK": "RANK", "DENSERANK": "DENSE_RANK", "CUMEDIST": "CUME_DIST",
            "PERCENTRANK": "PERCENT_RANK"}


def canon(tree):
    """A resolved tree's identity for matching GROUP BY keys and calls (fields are unique in a row): its Spark
    text, or, where Spark has no text for a part of it (a JSON function's options), sqlglot's own form."""
    try:
        return tree.sql(dialect="spark")
    except ValueError:
        return repr(tree)


def call_name(node):
    if isinstance(node, exp.Anonymous):
        return node.name.upper()
    key = node.key.upper()
    return _AGG_NAMES.get(key, _RANKING.get(key, key))


class SelectBinder:
    def __init__(self, binder, select):
        self.binder = binder
        self.ctx = binder.ctx
        self.select = select
        self.order_names = {}      # id(ORDER BY item) -> the internal column it sorts on (_order_extra)

    def pos(self, node):
        return self.ctx.pos(node)

    # ------------------------------------------------------------------ the block
    def bind(self):
        sel, ctx = self.select, self.ctx
        if sel.args.get("distinct"):        # ORDER BY an expression of the distinct rows: a sort over them
            from .distinct_order import over_distinct_rows
            sel = self.select = over_distinct_rows(sel) or sel
        python_aggregates.mark_aggregates(sel, ctx)     # calls of Python aggregate functions are aggregate calls
        self._expand_named_windows()
        from .join_on_subqueries import hidden_columns, on_conditions_moved     # a join's ON with a subquery
        sel = self.select = on_conditions_moved(self, sel)
        node, scope = bind_from(self.binder, sel)
        scope = hidden_columns(scope)
        if node is None:
            node, scope = Values([[]], [], position=self.pos(sel)), Scope([])
        from .subqueries import bind_subqueries     # IN / EXISTS / scalar subqueries: joins on top of the FROM
        node, scope, sel = bind_subqueries(self, node, scope) or (node, scope, sel)
        self.select = sel
        where = sel.args.get("where")
        if where is not None:
            node = self._where(node, scope, where.this)
        items = self._items(scope)
        group = sel.args.get("group")
        having = sel.args.get("having")
        aggregated = group is not None or having is not None or any(
            _has_aggregate(e) for e, _ in items)
        grouping_sets.check_grouped(sel, ctx, aggregated)
        replace = Computed()  # the subtrees fields compute: GROUP BY keys, aggregate and OVER calls
        if group is not None and _legacy_group_window(group):
            from . import group_windows
            node, scope, replace = group_windows.bind_group_window(self, node, scope, group, items)
        elif aggregated:
            node, replace = self._aggregate(node, scope, group, items)
        from .subqueries import has_subquery
        if having is not None:
            if not aggregated:
                raise SqlError("HAVING needs GROUP BY or an aggregate", *self.pos(having))
            if has_subquery(having.this):       # joined to the aggregate's rows, then filtered
                from .subqueries_over_aggregate import bind_having
                node = bind_having(self, node, scope, having.this, replace)
            else:
                cond = self._post(having.this, scope, replace, aggregated)
                node = Calc(node, [(Expr.of_field(f), f.name) for f in node.fields], cond, position=self.pos(having))
        extra = self._order_extra(scope, items, replace, aggregated)
        if aggregated and any(has_subquery(e) for e, _ in items + extra):     # joined to the aggregate's rows
            from .subqueries_over_aggregate import bind_items      # (ORDER BY's too, as Flink sorts on them)
            node, joined = bind_items(self, node, scope, items + extra, replace)
            items, extra = joined[:len(items)], joined[len(items):]
        windows = [w for e, _ in items for w in _windows(e)]
        if windows:
            node, replace = self._over(node, scope, windows, replace, aggregated)
        node = self._project(node, scope, items + extra, replace, aggregated)
        if sel.args.get("distinct"):
            if extra:
                raise SqlError("ORDER BY of a SELECT DISTINCT must name columns of the select list",
                               *self.pos(sel.args["order"]))
            if sel.args["distinct"].args.get("on"):
                raise UnsupportedError("DISTINCT ON is not supported", *self.pos(sel.args["distinct"]))
            node = GroupAggregate(node, node.field_names, [], position=self.pos(sel.args["distinct"]))
        node = self._order_limit(node)
        if extra:           # columns only ORDER BY needed: gone from the result
            kept = node.fields[:len(node.fields) - len(extra)]
            node = Calc(node, [(Expr.of_field(f), f.name) for f in kept])
        return node, output_scope(node)

    def _expand_named_windows(self):
        """`OVER w` ... `WINDOW w AS (...)`: each call's window gets the named window's specification."""
        named = {w.name: w for w in (self.select.args.get("windows") or [])}
        for e in self.select.expressions:
            for w in _windows(e):
                if w.args.get("partition_by") or w.args.get("order") or w.args.get("spec") \
                        or w.args.get("alias") is None:
                    continue
                spec = named.get(w.args["alias"].name)
                if spec is None:
                    raise SqlError("Window '%s' is not defined" % w.args["alias"].name, *self.pos(w))
                for arg in ("partition_by", "order", "spec"):
                    if spec.args.get(arg) is not None:
                        value = spec.args[arg]
                        w.set(arg, [v.copy() for v in value] if isinstance(value, list) else value.copy())
                w.set("alias", None)

    def _order_extra(self, scope, items, replace, aggregated):
        """ORDER BY columns that are not in the select list (SQL lets ORDER BY name any input column): added
        to the projection under internal names, sorted on, then dropped. The ORDER BY keys are rewritten
        to name them."""
        order = self.select.args.get("order")
        if order is None:
            return []
        names = {n for _, n in items}
        extra = []
        for o in order.expressions:
            e = o.this
            if isinstance(e, exp.Literal) or (isinstance(e, exp.Column) and not e.table and e.name in names):
                continue
            name = self.ctx.fresh("$o")
            extra.append((e.copy(), name))
            self.order_names[id(o)] = name
        return extra

    # ------------------------------------------------------------------ WHERE
    def _where(self, node, scope, condition):
        cond = ExpressionBinder(self.ctx, scope).bind(condition)
        if cond.type is not None and cond.type.name not in ("BOOLEAN", "NULL"):
            raise SqlError("WHERE condition must be a boolean, not %s" % cond.type.text(), *self.pos(condition))
        parts = conjuncts(cond.tree)
        rest, joined = [], {}           # id(join) -> (join, its conjuncts): each join's condition made once
        for c in parts:
            join = _join_for(node, referenced(c))
            if join is not None:
                joined.setdefault(id(join), (join, []))[1].append(c)
            else:
                rest.append(c)
        for join, conditions in joined.values():
            add_join_condition(join, rebuild_and(conditions, cond))
        if not rest:
            return node
        whole = len(rest) == len(parts) and is_flat_and(cond.tree)
        return Calc(node, [(Expr.of_field(f), f.name) for f in node.fields], cond if whole else rebuild_and(rest, cond),
                    position=self.pos(condition))

    # ------------------------------------------------------------------ the select list
    def _items(self, scope):
        """[(expression ast, output name)] with `*` and `t.*` expanded."""
        out = []
        for i, e in enumerate(self.select.expressions):
            if isinstance(e, exp.Star):
                if not scope.entries:
                    raise SqlError("SELECT * needs a FROM clause", *self.pos(e))
                out += [(_entry_column(x), x.name) for x in scope.entries]
            elif isinstance(e, exp.Column) and isinstance(e.this, exp.Star):
                q = e.table
                hits = scope.columns(q)
                if not hits:
                    raise SqlError("Unknown table '%s'" % q, *self.pos(e))
                out += [(_entry_column(x), x.name) for x in hits]
            elif isinstance(e, exp.Alias):
                refuse_bare_null(e.this, self.ctx)
                out.append((e.this, e.alias))
            elif isinstance(e, (exp.Column, exp.Dot)) and not isinstance(e.this, exp.Star):
                name = e.name if isinstance(e, exp.Column) else e.expression.name
                out.append((e, name))
            else:
                refuse_bare_null(e, self.ctx)
                out.append((e, "EXPR$%d" % i))
        return out

    def _project(self, node, scope, items, replace, aggregated):
        names = unique_names([n for _, n in items])
        projections = []
        for (e, _), name in zip(items, names):
            projections.append((self._post(e, scope, replace, aggregated), name))
        calc = Calc(node, projections, position=self.pos(self.select))
        return node if calc.is_identity else calc

    def _post(self, e, scope, replace, aggregated):
        """An expression of the select list / HAVING over the node computed so far: aggregate calls, GROUP
        BY keys and OVER calls are the fields that compute them; after GROUP BY any other column is an error."""
        resolved = ExpressionBinder(self.ctx, scope, allow_calls=True).resolve(e)
        if replace or aggregated:
            resolved = swap_computed(resolved, replace, aggregated, self.pos(e))
        return finish(resolved, self.ctx)

    # ------------------------------------------------------------------ GROUP BY
    def _aggregate(self, node, scope, group, items):
        binder = ExpressionBinder(self.ctx, scope, allow_calls=True)
        pre, pre_names = [], {}       # pre-projection: [(Expr, name)]; canonical text -> name

        def pre_field(expr_tree):
            key = canon(expr_tree)
            if key in pre_names:
                return pre_names[key]
            e = finish(expr_tree, self.ctx)
            name = e.field if e.field is not None and e.field not in [n for _, n in pre] else self.ctx.fresh("$f")
            pre.append((e, name))
            pre_names[key] = name
            return name
        keys, replace_keys, sets = [], [], []
        for set_keys in grouping_sets.group_sets(group.expressions if group is not None else []):
            sets.append([])
            for k in set_keys:
                if isinstance(k, exp.Literal) and not k.is_string:
                    raise SqlError("GROUP BY a number is not supported: name the column", *self.pos(k))
                refuse_bare_null(k, self.ctx)
                r = ExpressionBinder(self.ctx, scope).resolve(k)
                name = pre_field(r)
                if name not in keys:
                    keys.append(name)
                if name not in sets[-1]:
                    sets[-1].append(name)
                replace_keys.append((r, name))
        calls, replace_calls = [], {}
        aliases = {id(e): n for e, n in items}
        sources = [e for e, _ in items]
        having = self.select.args.get("having")
        if having is not None:
            sources.append(having.this)
        for src in sources:
            for call in _aggregate_calls(src):
                r = binder.resolve(call)
                key = canon(r)
                if key in replace_calls:
                    continue
                agg = self._agg_call(call, r, pre_field, aliases.get(id(call)), keys, calls)
                calls.append(agg)
                replace_calls[key] = (r, agg.name)
        aggregate_functions.check_calls(calls, self.pos(self.select))
        agg_input, agg_keys, calls, expand = grouping_sets.expand_keys(       # an Expand under it for GROUPING SETS
            self.ctx, pre, lambda p: Calc(node, p, position=self.pos(self.select)), keys, sets, calls,
            self.pos(group if group is not None else self.select))
        agg_node = GroupAggregate(agg_input, agg_keys, calls, position=self.pos(group if group is not None else self.select))
        from ..rules import window_aggregate      # over windows: a window aggregate (its time attributes matter now)
        agg_node = window_aggregate.rewrite(agg_node, self.ctx)
        replace = Computed()
        for r, n in replace_keys + list(replace_calls.values()):
            replace.add(r, agg_node.field(n))
        order = self.select.args.get("order")
        agg_node = grouping_sets.grouping_calc(self, scope, agg_node, expand, {canon(r): n for r, n in replace_keys},
                                               sources + [o.this for o in (order.expressions if order else [])],
                                               replace, self.pos(self.select))
        return agg_node, replace

    def _agg_call(self, call, resolved, pre_field, alias, keys, calls):
        flt = None
        if isinstance(resolved, exp.Filter):
            flt = pre_field(resolved.expression.this)
            resolved = resolved.this
            call = call.this
        resolved, ignore_nulls = aggregate_functions.unwrap(resolved)
        name = aggregate_functions.flink_name(call_name(resolved))
        if isinstance(resolved, exp.Anonymous):
            args = list(resolved.expressions)
        else:
            args = [resolved.this] if isinstance(resolved.args.get("this"), exp.Expression) else []
            args += [a for a in (resolved.args.get("expressions") or []) if isinstance(a, exp.Expression)]
            if isinstance(resolved.args.get("expression"), exp.Expression):
                args.append(resolved.args["expression"])
        distinct = False
        if len(args) == 1 and isinstance(args[0], exp.Distinct):
            distinct = True
            args = list(args[0].expressions)
        if len(args) == 1 and isinstance(args[0], exp.Star):
            args = []
        for a in args:
            refuse_bare_null(a, self.ctx)
        fn = resolved.meta.get("python_aggregate") if isinstance(resolved, exp.Anonymous) else None
        if fn is not None:
            args, ftype, options = python_aggregates.aggregate_call(self.ctx, fn, args, self.pos(call))
            taken = set(keys) | {c.name for c in calls}
            out = alias if alias is not None and alias not in taken else self.ctx.fresh("$f")
            return AggCall(function=fn.name, args=tuple(pre_field(a) for a in args), distinct=distinct, filter=flt,
                           name=out, type=ftype, options=options)
        if name not in ("COUNT", "SUM", "AVG", "MIN", "MAX", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP",
                        "FIRST_VALUE", "LAST_VALUE", "LISTAGG", "COLLECT") + aggregate_functions.NEW:
            raise UnsupportedError("Aggregate function %s is not supported yet" % name, *self.pos(call))
        options = ()
        if name in aggregate_functions.NEW:
            args, options = aggregate_functions.arguments(name, resolved, args, ignore_nulls, self.pos(call),
                                                          self.ctx.batch)
        if not args and name != "COUNT":
            raise SqlError("%s needs an argument" % name, *self.pos(call))
        arg_types = [finish(a, self.ctx).type for a in args]
        check_aggregate(name, arg_types, lambda: self.ctx.start(call))
        aggregate_functions.check_min_max(name, arg_types, lambda: self.ctx.start(call))
        aggregate_functions.check_collect(name, arg_types, lambda: self.ctx.start(call))
        if name in aggregate_functions.NEW:
            aggregate_functions.check_key_type(
                name, [finish(aggregate_functions.value_of(a), self.ctx).type for a in args], options,
                self.ctx.start(call))
            arg_names = tuple(pre_field(a) for a in args)
            taken = set(keys) | {c.name for c in calls}
            out = alias if alias is not None and alias not in taken else self.ctx.fresh("$f")
            return AggCall(function=name, args=arg_names, distinct=distinct, filter=flt, name=out,
                           type=aggregate_functions.result_type(name, arg_types, options), options=options)
        if name == "LISTAGG":
            if len(args) > 1:
                if not isinstance(args[1], exp.Literal):
                    raise SqlError("Argument to function 'LISTAGG' must be a literal", *self.pos(call))
                if not args[1].is_string:
                    raise SqlError("LISTAGG's separator must be a string literal", *self.pos(call))
                options = (args[1].name,)
            args = args[:1]
        arg_names = tuple(pre_field(a) for a in args)
        taken = set(keys) | {c.name for c in calls}
        out = alias if alias is not None and alias not in taken else self.ctx.fresh("$f")
        return AggCall(function=name, args=arg_names, distinct=distinct, filter=flt, name=out,
                       type=typing.aggregate_type(name, arg_types[0] if arg_types else None), options=options)

    # ------------------------------------------------------------------ OVER
    def _over(self, node, scope, windows, replace, aggregated):
        """Window functions -> Over nodes (one per distinct window), their results in `replace`."""
        replace = replace.copy()
        pre = [(Expr.of_field(f), f.name) for f in node.fields]
        pre_names = {}
        binder = ExpressionBinder(self.ctx, scope, allow_calls=True)

        def bound(ast):
            r = binder.resolve(ast)
            return swap_computed(r, replace, aggregated, self.pos(ast)) if replace or aggregated else r

        def field_for(ast, resolved=None):
            r = bound(ast) if resolved is None else resolved
            e = finish(r, self.ctx)
            if e.field is not None:
                return e.field, e
            key = canon(r)
            if key not in pre_names:
                name = self.ctx.fresh("$f")
                pre.append((e, name))
                pre_names[key] = name
            return pre_names[key], e

        groups = {}
        for w in windows:
            fn = w.this
            flt = None
            if isinstance(fn, exp.Filter):     # Calcite refuses FILTER on a window function (both modes)
                raise SqlError("OVER must be applied to aggregate function", *self.pos(w))
            name = call_name(fn)
            if w.args.get("alias") is not None and not w.args.get("partition_by") and not w.args.get("order"):
                raise UnsupportedError("Named windows (OVER w) are not supported yet", *self.pos(w))
            partition = [field_for(p)[0] for p in (w.args.get("partition_by") or [])]
            order = []
            order_ast = w.args.get("order")
            for o in (order_ast.expressions if order_ast is not None else []):
                order.append((field_for(o.this)[0], not o.args.get("desc")))
            frame = self._frame(w, order, node, pre)
            if name in ("ROW_NUMBER", "RANK", "DENSE_RANK", "LAG", "LEAD") and frame.explicit:
                raise SqlError("ROW/RANGE not allowed with RANK, DENSE_RANK or ROW_NUMBER functions", *self.pos(w))
            args = []
            raw = [fn.this] if isinstance(fn.args.get("this"), exp.Expression) else []
            if isinstance(fn, exp.Anonymous):
                raw = list(fn.expressions)
            elif isinstance(fn, (exp.Lag, exp.Lead)):
                raw += [fn.args[a] for a in ("offset", "default") if fn.args.get(a) is not None]
            distinct = False
            if len(raw) == 1 and isinstance(raw[0], exp.Distinct):
                distinct, raw = True, list(raw[0].expressions)
            raw = [a for a in raw if not isinstance(a, exp.Star)]
            options = ()
            if name in ("LAG", "LEAD") and len(raw) > 1:
                options = tuple(self._literal(a, name) for a in raw[1:])
                raw = raw[:1]
            if name == "NTILE":                # NTILE(n): n buckets, a literal
                options, raw = tuple(self._literal(a, name) for a in raw), []
            typed = []
            python = fn.meta.get("python_aggregate") if isinstance(fn, exp.Anonymous) else None
            if python is not None:          # a Python aggregate function: its declared types (aggregate_calls.py)
                checked, python_type, options = python_aggregates.aggregate_call(
                    self.ctx, python, [bound(a) for a in raw], self.pos(fn))
                raw = [None] * len(checked)
                name = python.name
            for i, a in enumerate(raw):
                n, e = field_for(a) if python is None else field_for(None, checked[i])
                args.append(n)
                typed.append(e.type)
            check_aggregate(name, typed, lambda: self.ctx.start(w))
            aggregate_functions.check_min_max(name, typed, lambda: self.ctx.start(w))
            if name in ("ROW_NUMBER", "RANK", "DENSE_RANK") and not order:
                raise SqlError("%s() needs ORDER BY in its OVER clause" % name, *self.pos(w))
            ftype = typing.t("BIGINT", False) if name in ("ROW_NUMBER", "RANK", "DENSE_RANK", "COUNT", "NTILE") \
                else typing.t("DOUBLE", False) if name in ("CUME_DIST", "PERCENT_RANK") \
                else typing.aggregate_type(name, typed[0] if typed else None) \
                if name in ("SUM", "AVG", "MIN", "MAX", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP",
                            "FIRST_VALUE", "LAST_VALUE", "LISTAGG", "COLLECT") \
                else (typing.nullable(typed[0], True) if typed else None)
            if python is not None:
                ftype = python_type
            key = (tuple(partition), tuple(order), frame)
            groups.setdefault(key, []).append((w, WindowCall(name, tuple(args), "", ftype, distinct, flt, options)))
        if len(groups) > 1 and not self.ctx.batch:
            second = list(groups.values())[1][0][0]
            raise SqlError("Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the same "
                           "window. please re-check the over window statement.", *self.pos(second))
        if len(pre) > len(node.fields):
            node = Calc(node, pre, position=self.pos(self.select))
        aliases = {id(e): n for e, n in ((e, n) for e, n in self._items(scope))}
        taken = set(node.field_names)
        for (partition, order, frame), calls in groups.items():
            bound_calls = []
            for w, call in calls:
                alias = aliases.get(id(w))
                name = alias if alias is not None and alias not in taken else self.ctx.fresh("w$o")
                taken.add(name)
                bound_calls.append((w, WindowCall(call.function, call.args, name, call.type, call.distinct,
                                                  call.filter, call.options)))
            node = Over(node, partition, order, frame, [c for _, c in bound_calls], position=self.pos(calls[0][0]))
            for w, c in bound_calls:
                replace.add(bound(w), node.field(c.name))
        return node, replace

    def _literal(self, ast, function):
        """The value of a literal argument (LAG's offset and default)."""
        e = finish(ExpressionBinder(self.ctx, Scope([])).resolve(ast), self.ctx)
        if not e.is_literal and not isinstance(ast, exp.Null):
            raise UnsupportedError("%s's offset and default must be literals" % function, *self.pos(ast))
        return e.literal

    def _frame(self, w, order, node, pre):
        spec = w.args.get("spec")
        if spec is None:
            return Frame("RANGE", None, 0, explicit=False)
        kind = (spec.args.get("kind") or "RANGE").upper()

        def bound(v, side):
            if v is None or (isinstance(v, str) and v.upper() == "UNBOUNDED"):
                return None
            if isinstance(v, str) and v.upper() == "CURRENT ROW":
                return 0
            if isinstance(v, exp.Literal) and not v.is_string:
                from ..literals import INT_MAX, integer_literal
                if kind == "RANGE" and re.fullmatch(r"\d*[.]\d*([eE][+-]?\d+)?|\d+[eE][+-]?\d+", v.name):
                    offset = Decimal(v.name)    # a fractional RANGE offset, a value of the ORDER BY column
                    if offset > INT_MAX or -offset.as_tuple().exponent > 18:
                        raise UnsupportedError("A RANGE offset of more than %s or with more than 18 digits after "
                                               "the point is not supported, not '%s'" % (format(INT_MAX, ","),
                                                                                         v.name), *self.pos(w))
                    return offset
                return integer_literal(v, "A window frame bound", self.pos(w), minimum=0, maximum=INT_MAX)
            if isinstance(v, exp.Interval):
                from ..ddl import interval_ms
                return interval_ms(v)
            raise SqlError("Unsupported window frame bound %s" % (v.sql() if isinstance(v, exp.Expression) else v),
                           *self.pos(w))
        start, end = spec.args.get("start"), spec.args.get("end")
        if (spec.args.get("start_side") or "").upper() == "FOLLOWING":
            raise UnsupportedError("A window frame starting at a FOLLOWING row is not supported", *self.pos(w))
        lower = bound(start, spec.args.get("start_side"))
        upper = bound(end, spec.args.get("end_side")) if end is not None else 0
        if upper is not None and upper != 0 and (spec.args.get("end_side") or "").upper() == "PRECEDING":
            raise UnsupportedError("A window frame ending at a PRECEDING row is not supported", *self.pos(w))
        interval = any(isinstance(v, exp.Interval) for v in (start, end))
        return Frame(kind, lower, upper, explicit=True, interval=interval)

    # ------------------------------------------------------------------ ORDER BY / LIMIT
    def _order_limit(self, node):
        sel = self.select
        order = sel.args.get("order")
        limit = sel.args.get("limit")
        offset = sel.args.get("offset")
        if order is None and limit is None and offset is None:
            return node
        keys = []
        scope = output_scope(node)
        for o in (order.expressions if order is not None else []):
            e = o.this
            if id(o) in self.order_names:
                keys.append((self.order_names[id(o)], not o.args.get("desc")))
                continue
            if isinstance(e, exp.Literal) and not e.is_string:
                kind = number_type(e.name, self.pos(e))        # "Numeric literal '...' out of range"
                idx = int(e.name.lstrip("0") or "0") if kind in ("INT", "BIGINT") else 0
                if not 1 <= idx <= len(node.fields):
                    raise SqlError("ORDER BY position %s is not in the select list (1..%d)"
                                   % (e.name, len(node.fields)), *self.pos(e))
                keys.append((node.fields[idx - 1].name, not o.args.get("desc")))
                continue
            bound = ExpressionBinder(self.ctx, scope).bind(e)
            if bound.field is None:
                raise UnsupportedError("ORDER BY an expression is not supported: order by a column of the "
                                       "select list", *self.pos(e))
            keys.append((bound.field, not o.args.get("desc")))
        from ..literals import INT_MAX, integer_literal, limit_count
        n = integer_literal(limit_count(limit), "LIMIT", self.pos(limit), minimum=0, maximum=INT_MAX) \
            if limit is not None else None
        skip = integer_literal(offset.expression, "OFFSET", self.pos(offset), minimum=0, maximum=INT_MAX) \
            if offset is not None else None
        if skip is not None and n is None and self.ctx.batch:     # Flink's batch Sort needs an end
            raise UnsupportedError("Not support limitEnd is max value now!", *self.pos(offset),
                                   hint="an OFFSET needs a LIMIT or FETCH FIRST n ROWS ONLY in Flink's batch mode")
        temporal = bool(keys) and node.field(keys[0][0]).time in (ROWTIME, PROCTIME) and keys[0][1]
        if keys and n is None and not temporal and not self.ctx.batch:
            raise UnsupportedError("Sort on a non-time-attribute field is not supported.", *self.pos(order))
        return Sort(node, keys, n, skip, temporal, position=self.pos(order if order is not None else limit))


def bind_select(binder, select):
    return SelectBinder(binder, select).bind()


# ---------------------------------------------------------------------- helpers
def _entry_column(entry):
    col = exp.column(entry.name, table=entry.qualifier, quoted=True) if entry.qualifier else \
        exp.column(entry.name, quoted=True)
    return col


def _windows(e):
    return [w for w in e.find_all(exp.Window)] if isinstance(e, exp.Expression) else []


def _has_aggregate(e):
    return bool(_aggregate_calls(e))


def _aggregate_calls(e):
    """Aggregate calls in `e` that are not inside an OVER window, outermost first, each once."""
    out = []

    def visit(n):
        if isinstance(n, exp.Window):       # the window function is not a group aggregate; its insides may be
            fn = n.this.this if isinstance(n.this, exp.Filter) else n.this
            for child in list(fn.iter_expressions()) + list(n.args.get("partition_by") or []) + \
                    ([n.args["order"]] if n.args.get("order") is not None else []):
                visit(child)
            return
        if is_aggregate_call(n):
            out.append(n)
            return
        if isinstance(n, (exp.Subquery, exp.Select)):     # a subquery's calls are its own
            return
        for child in n.iter_expressions():
            visit(child)
    if isinstance(e, exp.Expression):
        visit(e)
    return out


def _legacy_group_window(group):
    return any(isinstance(g, exp.Anonymous) and g.name.upper() in ("TUMBLE", "HOP", "SESSION")
               for g in group.expressions)


def _join_for(node, fields):
    """The lowest inner join of the left-deep join chain `node` that holds `fields` and spans its two sides
    with them, or None: a WHERE conjunct that becomes that join's condition."""
    best = None
    while isinstance(node, Join) and node.kind == "INNER" and fields <= set(node.field_names):
        nleft = len(node.left.fields)
        if len({node.field_names.index(f) < nleft for f in fields}) == 2:
            best = node
        node = node.left
    return best


class Computed:
    """Subtrees that fields compute (GROUP BY keys, aggregate calls, OVER calls), by their structure, and the
    kinds of tree they are (only subtrees of those kinds are compared)."""

    def __init__(self):
        self.fields = {}
        self.kinds = set()

    def add(self, tree, field):
        self.fields[tree] = field         # sqlglot trees compare and hash by structure
        self.kinds.add(type(tree))

    def get(self, tree):
        if type(tree) not in self.kinds or isinstance(tree, exp.Literal):
            return None
        return self.fields.get(tree)

    def copy(self):
        out = Computed()
        out.fields, out.kinds = dict(self.fields), set(self.kinds)
        return out

    def __bool__(self):
        return bool(self.fields)


def swap_computed(tree, computed, aggregated, position):
    """`tree` (resolved) with every subtree that a field computes replaced by that field. After GROUP BY
    (`aggregated`) a column left over is not being grouped: an error. An OVER call is matched after its own
    insides (an aggregate inside it is a field by then)."""
    f = computed.get(tree)
    if f is not None:
        return field_ref(f, (), tree.meta.get("position"))
    if isinstance(tree, exp.Column) and "field" in tree.meta:
        if aggregated and not tree.meta.get("over_aggregate"):    # (over_aggregate: a field of the aggregate's row)
            raise SqlError("Expression '%s' is not being grouped" % tree.meta["field"].name,
                           *tree.meta.get("position", position), hint="add it to GROUP BY or aggregate it")
        return tree
    for k, v in list(tree.args.items()):
        if isinstance(v, exp.Expression):
            tree.set(k, swap_computed(v, computed, aggregated, position))
        elif isinstance(v, list):
            tree.set(k, [swap_computed(x, computed, aggregated, position) if isinstance(x, exp.Expression) else x
                         for x in v])
    if isinstance(tree, exp.Window):
        f = computed.get(tree)
        if f is not None:
            return field_ref(f, (), tree.meta.get("position"))
    return tree
