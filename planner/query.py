"""Queries: Flink SQL text -> a `QueryPlan` the runtime can run on Spark.

The query's syntax tree (sqlglot, Flink dialect) is checked against the catalog, views are expanded,
Flink functions and types are mapped to Spark's, operators that Spark SQL cannot express with Flink's
semantics (MATCH_RECOGNIZE, window TVFs, ...) become `DerivedSource`s the runtime builds, and the
rest becomes one Spark SQL text over temporary views named after the tables. Each query gets the
changelog mode Flink infers for it."""

import re
from dataclasses import dataclass, field

from sqlglot import exp

from . import changelog
from .catalog import TableDef, ViewDef
from .dialect import MatchRecognizeClause, TableArgument
from .errors import SqlError, UnsupportedError
from .functions import FLINK_FUNCTIONS, is_aggregate_name, map_anonymous, map_parsed
from .parse import parse_sql  # the parse entry point (planner/parse.py); re-exported for query.py's callers
from .types import base_name, parse_type

_INTEGRAL = {"TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT"}


@dataclass
class SourceRef:
    """A catalog table read by the query, registered for Spark SQL under `view`.

    `computed` holds the table's computed columns as Spark SQL expressions, in column order."""
    table: TableDef
    view: str
    computed: dict = field(default_factory=dict)
    late_condition: str = None   # Spark SQL over the table's columns and __wm: rows an operator drops as late
    watermark_extra_ms: int = 0  # kept longer in Spark's watermark: windows taking late rows (allow-lateness)


@dataclass
class DerivedSource:
    """An operator the runtime builds itself (its result registered as a temporary view `view`)."""
    view: str
    kind: str                 # "match_recognize", ...
    input: SourceRef
    spec: object              # the operator's own spec (e.g. a MatchRecognizeSpec)
    columns: list             # [(name, flink type)] of its output
    mode: object = changelog.INSERT_ONLY
    position: tuple = (None, None)   # (line, column) of the operator in the SQL, for errors
    input_sql: str = None            # the operator's input when it is a view: Spark SQL over `__raw_<input.view>`


@dataclass
class PlanNode:
    """One node of the plan tree EXPLAIN prints."""
    name: str
    detail: str
    mode: changelog.ChangelogMode
    children: list = field(default_factory=list)

    def render(self, with_modes=True, indent=0):
        line = "%s%s(%s%s)" % ("+- " if indent else "", self.name, self.detail,
                               (", " + str(self.mode)) if with_modes else "")
        out = ["   " * max(indent - 1, 0) + line]
        for c in self.children:
            out.extend(c.render(with_modes, indent + 1))
        return out


@dataclass
class QueryPlan:
    text: str
    spark_sql: str
    sources: list                    # [SourceRef]
    derived: list                    # [DerivedSource], in build order
    mode: changelog.ChangelogMode
    root: PlanNode
    features: set                    # {"aggregate", "join", "distinct", "window_function", "order", ...}
    column_types: dict               # result column name -> declared Flink type, where known
    needs_end_of_input: bool = False  # event-time operators: the source must end with a final watermark
    line: int = 1
    column: int = 1
    operators: object = None         # planner.operators tree, for queries that produce or consume updates
    input_types: dict = field(default_factory=dict)  # input column name -> Flink type (for SELECT *)
    window_sides: list = None        # [Spark SQL]: a window join's inputs, collected per window (see runtime.window_tvf)
    window_updates: bool = False     # legacy group windows fired early or late: an update-mode aggregate keyed by __key
    batch_stage: tuple = None        # (view, Spark SQL): run on each micro-batch, registered as `view` (window Top-N)


class QueryPlanner:
    def __init__(self, catalog, settings):
        self.catalog = catalog
        self.settings = settings
        self._n = 0

    # ------------------------------------------------------------------ entry
    def plan(self, text, line=1, column=1, tree=None):
        self.line, self.column, self.text = line, column, text
        tree = tree if tree is not None else parse_sql(text, line, column)
        if not isinstance(tree, (exp.Select, exp.Union, exp.Intersect, exp.Except, exp.Subquery, exp.Values)):
            raise SqlError("Expected a query (SELECT ...)", line, column)
        self.sources, self.derived = {}, []
        self.features_extra = set()
        self.window_updates = False
        tree = self._expand_views(tree, depth=0)
        tree = self._resolve_tables(tree)
        column_types = self._column_types()
        result_types = self._result_types(tree, column_types)
        tree = self._group_windows(tree)
        tree = self._window_aggregates(tree)
        tree = self._map_functions(tree, column_types)
        tree = self._name_columns(tree)
        self.result_names = _result_names(tree)
        tree, batch_stage = self._window_ranks(tree)
        window_sides = None
        if batch_stage is None:
            window_sides, batch_stage = self._window_joins(tree)
        features = self._features(tree)
        mode = self._mode(tree, features)
        from .temporal_join import refuse_updates
        refuse_updates(self, tree, mode)
        spark_sql = tree.sql(dialect="spark")
        operators = None
        changelog_input = any(_is_changelog_table(r.table) for r in self.sources.values())
        if (not mode.insert_only or changelog_input) and not self.derived and not self.window_updates:
            from .operator_builder import OperatorBuilder
            operators = OperatorBuilder(self).build(tree)
            mode = operators.mode
        root = self._explain_tree(tree, features, mode, operators)
        return QueryPlan(text=text, spark_sql=spark_sql, sources=list(self.sources.values()),
                         derived=self.derived, mode=mode, root=root, features=features, operators=operators,
                         column_types=result_types, input_types=column_types,
                         needs_end_of_input=any(d.kind in ("match_recognize", "temporal_join") for d in self.derived)
                         or "event_time" in features, batch_stage=batch_stage,
                         window_sides=window_sides, window_updates=self.window_updates,
                         line=line, column=column)

    # ------------------------------------------------------------------ helpers
    def _pos(self, node):
        meta = getattr(node, "meta", None) or {}
        if "line" in meta:
            el, ec = meta["line"], meta.get("col", 1)
            ident = node.this if isinstance(node, exp.Column) else node
            width = len(node.name) if hasattr(node, "name") and node.name else 1
            ec = max(ec - width + 1, 1)
            return (self.line + el - 1, (self.column + ec - 1) if el == 1 else ec)
        ident = node.find(exp.Identifier)
        if ident is not None and ident is not node and getattr(ident, "meta", None):
            return self._pos(ident)
        return self.line, self.column

    def _fresh(self, stem):
        self._n += 1
        return "__%s_%d" % (stem, self._n)

    def _cte_names(self, tree):
        return {c.alias_or_name for c in tree.find_all(exp.CTE)}

    # ------------------------------------------------------------------ views
    def _expand_views(self, tree, depth):
        if depth > 20:
            raise SqlError("Views nest too deeply (a view refers to itself?)", self.line, self.column)
        ctes = self._cte_names(tree)
        for table in list(tree.find_all(exp.Table)):
            if not isinstance(table.this, exp.Identifier) or table.name in ctes:
                continue
            obj = self.catalog.get(_table_path(table))
            if isinstance(obj, ViewDef) and table.args.get("version") is not None:
                continue   # a versioned view: planned with its temporal join (planner/temporal_join.py)
            if isinstance(obj, ViewDef):
                body = parse_sql(obj.query)
                body = self._expand_views(body, depth + 1)
                alias = table.alias or obj.name
                sub = exp.Subquery(this=body, alias=exp.TableAlias(this=exp.to_identifier(alias, quoted=True)))
                if table.args.get("match"):
                    raise UnsupportedError("MATCH_RECOGNIZE over a view is not supported yet", *self._pos(table))
                if table is tree:
                    return body
                table.replace(sub)
        return tree

    # ------------------------------------------------------------------ tables
    def _resolve_tables(self, tree):
        ctes = self._cte_names(tree)
        for sel in list(tree.find_all(exp.Select)):   # sqlglot keeps MATCH_RECOGNIZE on the SELECT: move it to its table
            m, frm = sel.args.get("match"), sel.args.get("from_")
            if isinstance(m, MatchRecognizeClause) and frm is not None and isinstance(frm.this, exp.Table):
                sel.set("match", None)
                frm.this.set("match", m)
        for table in list(tree.find_all(exp.Table)):
            if isinstance(table.this, exp.Anonymous) or isinstance(table.this, exp.Func):
                self._table_function(table)
                continue
            if table.name in ctes or table.args.get("version") is not None:
                continue   # FOR SYSTEM_TIME AS OF: planned below, with its join
            path = _table_path(table)
            obj = self.catalog.require(path, *self._pos(table))
            if isinstance(obj, ViewDef):  # expanded before; a view inside MATCH_RECOGNIZE input
                raise UnsupportedError("View '%s' cannot be used here" % obj.name, *self._pos(table))
            ref = self._source(obj)
            match = table.args.get("match")
            alias = table.alias
            if isinstance(match, MatchRecognizeClause):
                derived = self._match_recognize(ref, match)
                mr_alias = match.args.get("alias")
                new = exp.Table(this=exp.to_identifier(derived.view, quoted=True))
                out_alias = (mr_alias.name if mr_alias is not None else None)
                if out_alias:
                    new.set("alias", exp.TableAlias(this=exp.to_identifier(out_alias, quoted=True)))
                table.replace(new)
                continue
            table.set("this", exp.to_identifier(ref.view, quoted=True))
            table.set("db", None)
            table.set("catalog", None)
            if not alias:
                table.set("alias", exp.TableAlias(this=exp.to_identifier(obj.name, quoted=True)))
        from .temporal_join import plan_temporal_joins
        return plan_temporal_joins(self, tree)

    def _source(self, table):
        if table.name not in self.sources:
            computed = {c.name: self.translate_expression(c.computed, table) for c in table.columns if c.computed}
            self.sources[table.name] = SourceRef(table=table, view=table.name, computed=computed)
        return self.sources[table.name]

    def translate_expression(self, text, table):
        """A Flink SQL expression over `table`'s columns -> Spark SQL text."""
        tree = parse_sql("SELECT " + text)
        types = {c.name: c.type for c in table.columns}
        tree = self._map_functions(tree, types)
        return tree.expressions[0].sql(dialect="spark")

    def _table_function(self, table):
        from .window_tvf import WINDOW_COLUMN_TYPES, parse_window_call, window_call
        call = window_call(table)
        if call is None:
            fn = table.this
            name = (fn.name or "").upper()
            if name == "TABLE" and fn.expressions:
                name = getattr(fn.expressions[0], "name", "") or name
            raise UnsupportedError("Table function %s(...) is not supported yet" % name.upper(), *self._pos(table),
                                   hint="the window functions TUMBLE, HOP, CUMULATE and SESSION are")
        data, spec = parse_window_call(call, self._pos)
        inner = data.this
        if isinstance(inner, exp.Subquery):       # a view, expanded
            obj, input_columns, input_sql = self._window_input_view(inner.this, spec, call)
        elif isinstance(inner, exp.Table) and isinstance(inner.this, exp.Identifier):
            obj = self.catalog.require(_table_path(inner), *self._pos(inner))
            input_columns, input_sql = obj.column_types(), None
        else:
            raise UnsupportedError("A window function over a query is not supported: pass a table or a view "
                                   "(TABLE t)", *self._pos(call))
        names = [n for n, _ in input_columns]
        for col in [spec.time_column] + spec.partition_by:
            if col not in names:
                raise SqlError("Column '%s' not found in '%s'" % (col, obj.name if input_sql is None else "the view"),
                               *self._pos(call), hint="its columns: %s" % ", ".join(names))
        rowtime = obj.rowtime if input_sql is None else next(
            (n for n, t in input_columns if t.endswith("*ROWTIME*")), None)
        if rowtime != spec.time_column:
            if input_sql is None and obj.proctime == spec.time_column:
                raise UnsupportedError("Processing-time windows are not supported: %s needs an event-time "
                                       "attribute" % spec.kind, *self._pos(call))
            raise SqlError("The window function %s needs a time attribute: '%s' is not one (declare "
                           "WATERMARK FOR ... in table '%s', and pass the column through unchanged)"
                           % (spec.kind, spec.time_column, obj.name), *self._pos(call))
        if _is_changelog_table(obj):
            raise UnsupportedError("A window function over a changelog table ('%s') is not supported yet"
                                   % obj.name, *self._pos(call))
        ref = self._source(obj)
        columns = input_columns + ([] if spec.kind == "SESSION" else WINDOW_COLUMN_TYPES)
        d = DerivedSource(view=self._fresh("window"), kind="window_tvf", input=ref, spec=spec, columns=columns,
                          position=self._pos(call), input_sql=input_sql)
        self.derived.append(d)
        new = exp.Table(this=exp.to_identifier(d.view, quoted=True))
        alias = table.alias
        new.set("alias", exp.TableAlias(this=exp.to_identifier(alias or d.view, quoted=True)))
        table.replace(new)

    def _window_input_view(self, body, spec, call):
        """A view passed to a window function: projections and filters of one table, its time attribute passed
        through. -> (table, [(column, type)] of the view, Spark SQL of the view over the table's raw frame)."""
        frm = body.args.get("from_") if isinstance(body, exp.Select) else None
        simple = frm is not None and isinstance(frm.this, exp.Table) and isinstance(frm.this.this, exp.Identifier) \
            and not any(body.args.get(k) for k in ("joins", "group", "having", "distinct", "order", "limit")) \
            and not list(body.find_all(exp.Window)) and not any(_is_aggregate(e) for e in body.expressions)
        obj = self.catalog.get(_table_path(frm.this)) if simple else None
        if obj is None or isinstance(obj, ViewDef) or frm.this.args.get("match") or frm.this.args.get("version"):
            raise UnsupportedError("A window function over this view is not supported yet: only views that "
                                   "project and filter one table are", *self._pos(call))
        from .typing import _infer
        table_types = dict(obj.column_types())
        plain_types = {c.name: c.type for c in obj.columns}
        columns = []
        for e in body.expressions:
            if isinstance(e, exp.Star):
                columns += obj.column_types()
                continue
            inner = e.this if isinstance(e, exp.Alias) else e
            name = e.alias_or_name
            if isinstance(inner, exp.Column) and inner.name in table_types:
                columns.append((name, table_types[inner.name]))
            else:
                columns.append((name, _infer(inner, plain_types) or ""))
        query = body.copy()
        alias = frm.this.alias_or_name
        query.args["from_"].this.replace(exp.Table(
            this=exp.to_identifier("__raw_" + obj.name, quoted=True),
            alias=exp.TableAlias(this=exp.to_identifier(alias, quoted=True))))
        query.select(exp.column("__wm"), copy=False)
        query = self._map_functions(query, plain_types)
        return obj, columns, query.sql(dialect="spark")

    # ------------------------------------------------------------------ window table functions
    def _window_sources(self):
        """The window functions' derived sources by view name."""
        return {d.view: d for d in self.derived if d.kind == "window_tvf"}

    def _window_joins(self, tree):
        """Window join: two window functions joined on window_start and window_end (and anything else). Both
        inputs run as one streaming query that collects each window's rows of either side; once the window
        closes, the join itself runs on the micro-batch. -> ([side SQL], stage) or (None, None)."""
        windows = self._window_sources()
        if len(windows) < 2:
            return None, None
        for sel in tree.find_all(exp.Select):
            joins = sel.args.get("joins") or []
            frm = sel.args.get("from_")
            if len(joins) != 1 or frm is None:
                continue
            sides = [frm.this, joins[0].this]
            specs = [self._window_side(side, windows) for side in sides]
            if any(sp is None for sp in specs):
                continue
            join = joins[0]
            aliases = [side.alias_or_name for side in sides]
            on = join.args.get("on")
            equal = set()
            for eq in (on.find_all(exp.EQ) if on is not None else []):
                a, b = eq.this, eq.expression
                if isinstance(a, exp.Column) and isinstance(b, exp.Column) and a.name == b.name \
                        and a.name in ("window_start", "window_end") and {a.table, b.table} == set(aliases):
                    equal.add(a.name)
            if equal != {"window_start", "window_end"}:
                raise SqlError("A join of window functions needs window_start and window_end of both sides to be "
                               "equal in its ON clause (a window join)", *self._pos(join))
            shape = lambda sp: (sp.kind, sp.size_ms, sp.slide_ms, sp.offset_ms, sp.gap_ms)  # noqa: E731
            if shape(specs[0][0].spec) != shape(specs[1][0].spec):
                raise SqlError("The two sides of a window join must use the same window function and arguments",
                               *self._pos(join))
            if specs[0][0].spec.kind == "SESSION":
                raise UnsupportedError("A window join over SESSION windows is not supported yet", *self._pos(join))
            view = self._fresh("windows")
            side_sql = []
            for i, (side, (d, body)) in enumerate(zip(sides, specs)):
                d.spec.drop_late = True
                side_sql.append(body.sql(dialect="spark"))
                inline = exp.select(exp.Anonymous(this="inline", expressions=[exp.column("__side%d" % i)])).from_(
                    exp.Table(this=exp.to_identifier(view, quoted=True)))
                side.replace(exp.Subquery(this=inline, alias=exp.TableAlias(
                    this=exp.to_identifier(aliases[i], quoted=True))))
            self.features_extra.update({"event_time", "window_rank"})
            return side_sql, (view, tree.sql(dialect="spark"))
        return None, None

    def _window_side(self, side, windows):
        """(DerivedSource, the side's query keeping `__window`) when `side` is a window function's rows."""
        if isinstance(side, exp.Table) and side.name in windows:
            return windows[side.name], exp.select("*").from_(side.copy())
        if isinstance(side, exp.Subquery) and isinstance(side.this, exp.Select):
            body = side.this
            frm = body.args.get("from_")
            if frm is None or not isinstance(frm.this, exp.Table) or frm.this.name not in windows \
                    or body.args.get("group") or body.args.get("joins") or list(body.find_all(exp.Window)):
                return None
            body = body.copy()
            if not any(isinstance(e, exp.Star) or isinstance(e, exp.Column) and e.name == "__window"
                       for e in body.expressions):
                body.select(exp.column("__window"), copy=False)
            return windows[frm.this.name], body
        return None

    def _window_ranks(self, tree):
        """Window Top-N: ROW_NUMBER() (RANK, DENSE_RANK) OVER (PARTITION BY window_start, window_end ...) over
        a window aggregate or a window function. The window aggregate (or, over the windows themselves, each
        window's rows collected) runs as the streaming query; the ranking and everything above it run on each
        micro-batch, which holds every row of the windows that closed in it. -> (streaming tree, stage)."""
        windows = self._window_sources()
        if not windows:
            return tree, None
        for win in tree.find_all(exp.Window):
            parts = {p.name for p in win.args.get("partition_by") or [] if isinstance(p, exp.Column)}
            if not {"window_start", "window_end"} <= parts:
                continue
            if not isinstance(win.this, (exp.RowNumber, exp.Rank, exp.DenseRank)) and not (
                    isinstance(win.this, exp.Anonymous) and win.this.name.upper() in ("RANK", "DENSE_RANK")):
                continue
            mid = win.find_ancestor(exp.Select)
            frm = mid.args.get("from_") if mid is not None else None
            if frm is None or mid.args.get("joins"):
                continue
            source = frm.this
            view = self._fresh("windows")
            if isinstance(source, exp.Subquery) and isinstance(source.this, exp.Select) and any(
                    _is_window_key(g)
                    for g in (source.this.args.get("group").expressions if source.this.args.get("group") else [])):
                streaming = source.this.copy()
                replacement = exp.Table(this=exp.to_identifier(view, quoted=True),
                                        alias=exp.TableAlias(this=exp.to_identifier(source.alias_or_name or view,
                                                                                     quoted=True)))
            elif isinstance(source, exp.Table) and source.name in windows:
                d = windows[source.name]
                d.spec.drop_late = True
                self.features_extra.add("event_time")
                cols = [n for n, _ in d.columns]
                streaming = exp.select(
                    exp.column("__window"),
                    exp.alias_(exp.Anonymous(this="collect_list", expressions=[exp.Anonymous(
                        this="struct", expressions=[exp.column(c, quoted=True) for c in cols])]),
                        "__rows")).from_(exp.Table(this=exp.to_identifier(d.view, quoted=True))).group_by("__window")
                inline = exp.select(exp.Anonymous(this="inline", expressions=[exp.column("__rows")])).from_(
                    exp.Table(this=exp.to_identifier(view, quoted=True)))
                replacement = exp.Subquery(this=inline, alias=exp.TableAlias(this=exp.to_identifier(
                    source.alias_or_name, quoted=True)))
            else:
                continue
            source.replace(replacement)
            self.features_extra.add("window_rank")
            return streaming, (view, tree.sql(dialect="spark"))
        return tree, None

    def _window_aggregates(self, tree):
        """GROUP BY ..., window_start, window_end over a window function: a window aggregate, grouped by the
        hidden `__window` struct (or Spark's session_window), insert-only, rows dropped when late."""
        from .window_tvf import WINDOW_COLUMNS, check_aggregable
        windows = self._window_sources()
        if not windows:
            return tree
        for sel in list(tree.find_all(exp.Select)):
            frm = sel.args.get("from_")
            if frm is None or not isinstance(frm.this, exp.Table) or frm.this.name not in windows:
                continue
            d = windows[frm.this.name]
            alias = frm.this.alias_or_name
            group = sel.args.get("group")
            if group is None:
                if d.spec.kind == "SESSION":
                    raise UnsupportedError("The SESSION window function is only supported under a window "
                                           "aggregate (GROUP BY window_start, window_end)", *d.position)
                continue
            if any(_is_window_key(g) for g in group.expressions):
                continue        # a legacy HOP group window, already planned
            grouped = {g.name for g in group.expressions if isinstance(g, exp.Column) and g.name in WINDOW_COLUMNS
                       and g.table in ("", alias)}
            if not {"window_start", "window_end"} <= grouped:
                raise UnsupportedError("GROUP BY over a window function needs both window_start and window_end "
                                       "(a window aggregate)", *self._pos(group))
            check_aggregable(d.spec, d.position)
            d.spec.drop_late = True
            if d.spec.kind == "SESSION":
                gap = exp.Literal.string("%d milliseconds" % d.spec.gap_ms)
                window_key = exp.Anonymous(this="session_window", expressions=[exp.column(d.spec.time_column), gap])
                window_key.meta["spark"] = True
                window_ref = "session_window"
            else:
                window_key = exp.column("__window")
                window_ref = "__window"

            def fix(node):
                if isinstance(node, exp.Column) and node.name in WINDOW_COLUMNS and node.table in ("", alias):
                    return _window_field(window_ref, _WINDOW_FIELDS[node.name])
                return node
            for i, e in enumerate(list(sel.expressions)):
                new = e.transform(fix)
                if isinstance(e, exp.Column) and e.name in WINDOW_COLUMNS:
                    new = exp.alias_(new, e.name, quoted=True)
                sel.expressions[i].replace(new)
            for key in ("having", "order"):
                if sel.args.get(key):
                    sel.args[key].replace(sel.args[key].transform(fix))
            keys = [g for g in group.expressions
                    if not (isinstance(g, exp.Column) and g.name in WINDOW_COLUMNS and g.table in ("", alias))]
            group.set("expressions", keys + [window_key])
            self.features_extra.add("event_time")
        return tree

    def _match_recognize(self, ref, clause):
        from . import match_recognize as mr
        spec = mr.parse_match_recognize(clause.args["raw"], clause.args.get("line") + self.line - 1,
                                        clause.args.get("col"))
        input_columns = [(n, t) for n, t in self._table_columns(ref.table)]
        extensions = self.settings.get("dynsql.match-recognize.extensions") == "true"
        mr.validate(spec, input_columns, ref.table.rowtime, extensions=extensions,
                    proctime=ref.table.proctime)
        columns = mr.output_columns(spec, input_columns)
        d = DerivedSource(view=self._fresh("match"), kind="match_recognize", input=ref, spec=spec,
                          columns=columns)
        self.derived.append(d)
        return d

    def _table_columns(self, table):
        out = []
        for name, t in table.column_types():
            out.append((name, t))
        return out

    def _column_types(self):
        types = {}
        for ref in self.sources.values():
            for c in ref.table.columns:
                types.setdefault(c.name, c.type)
        for d in self.derived:
            for n, t in d.columns:
                types.setdefault(n, t)
        return types

    # ------------------------------------------------------------------ functions and types
    def _map_functions(self, tree, column_types):
        def integral(e):
            if isinstance(e, exp.Paren):
                return integral(e.this)
            if isinstance(e, exp.Neg):
                return integral(e.this)
            if isinstance(e, exp.Literal):
                return not e.is_string and re.fullmatch(r"\d+", e.name) is not None
            if isinstance(e, exp.Column):
                return base_name(column_types.get(e.name, "")) in _INTEGRAL
            if isinstance(e, exp.Cast):
                return e.to.this.name.upper() in ("TINYINT", "SMALLINT", "INT", "BIGINT")
            if isinstance(e, (exp.Add, exp.Sub, exp.Mul, exp.Mod)):
                return integral(e.this) and integral(e.expression)
            if isinstance(e, (exp.Count,)):
                return True
            if isinstance(e, (exp.Sum, exp.Min, exp.Max)):
                return integral(e.this)
            return False

        def is_float(e):
            if isinstance(e, exp.Paren):
                return is_float(e.this)
            if isinstance(e, exp.Column):
                return base_name(column_types.get(e.name, "")) == "FLOAT"
            if isinstance(e, exp.Cast):
                return e.to.this.name.upper() == "FLOAT"
            if isinstance(e, (exp.Add, exp.Sub, exp.Mul, exp.Div)):
                return (is_float(e.this) and (is_float(e.expression) or integral(e.expression))) or \
                    (is_float(e.expression) and integral(e.this))
            return False

        def rewrite(node):
            if isinstance(node, (exp.Add, exp.Sub, exp.Mul, exp.Div)) and is_float(node) \
                    and not isinstance(node.parent, exp.Cast):
                # Spark widens FLOAT arithmetic to DOUBLE; Flink keeps FLOAT
                return exp.Cast(this=node.copy(), to=exp.DataType.build("FLOAT"))
            if isinstance(node, exp.Anonymous) and not node.meta.get("spark"):
                try:
                    return map_anonymous(node)
                except SqlError as err:
                    if err.line is None:
                        err.line, err.column = self._pos(node)
                    raise
            if isinstance(node, exp.Func) and not isinstance(node, exp.Anonymous):
                mapped = map_parsed(node)
                if mapped is not node:
                    return mapped
            if isinstance(node, exp.Div) and integral(node.this) and integral(node.expression):
                return exp.IntDiv(this=node.this, expression=node.expression)
            if isinstance(node, exp.Avg) and integral(node.this):
                return exp.Cast(this=node, to=exp.DataType.build("BIGINT"))
            if isinstance(node, (exp.Cast, exp.TryCast)):
                return _cast(node)
            if isinstance(node, exp.TimestampDiff):
                # sqlglot's base dialect reads TIMESTAMPDIFF(unit, a, b) as this=unit, expression=a, unit=b
                unit, start, end = node.this, node.expression, node.args.get("unit")
                call = exp.Anonymous(this="TIMESTAMPDIFF", expressions=[exp.var(unit.name.upper()), start, end])
                call.meta["spark"] = True
                return call
            if isinstance(node, exp.Bracket) and isinstance(node.this, exp.Column) \
                    and node.this.name.upper() == "MAP" and not node.this.this.quoted:
                call = exp.Anonymous(this="MAP", expressions=list(node.expressions))
                call.meta["spark"] = True
                return call
            if isinstance(node, exp.Column) and not node.table and not node.this.quoted \
                    and node.name.upper() in ("LOCALTIMESTAMP", "CURRENT_TIMESTAMP", "CURRENT_DATE", "LOCALTIME",
                                              "CURRENT_TIME") and node.name not in column_types:
                name = node.name.upper()
                if name in ("CURRENT_DATE",):
                    return exp.CurrentDate()
                if name in ("LOCALTIME", "CURRENT_TIME"):
                    return exp.Anonymous(this="DATE_FORMAT", expressions=[exp.CurrentTimestamp(),
                                                                          exp.Literal.string("HH:mm:ss")])
                return exp.CurrentTimestamp()
            if isinstance(node, exp.Floor) and node.args.get("to") is not None:
                return exp.Anonymous(this="DATE_TRUNC", expressions=[
                    exp.Literal.string(node.args["to"].name.upper()), node.this])
            if isinstance(node, exp.Ceil) and node.args.get("to") is not None:
                unit = node.args["to"].name.upper()
                trunc = exp.Anonymous(this="DATE_TRUNC", expressions=[exp.Literal.string(unit), node.this])
                return exp.If(this=exp.EQ(this=trunc.copy(), expression=node.this.copy()), true=trunc.copy(),
                              false=exp.Add(this=trunc, expression=exp.Interval(
                                  this=exp.Literal.string("1"), unit=exp.var(unit))))
            return node

        return tree.transform(rewrite)

    def _name_columns(self, tree):
        """Flink names an unnamed result column EXPR$<index>."""
        selects = [tree] if isinstance(tree, exp.Select) else \
            [s for s in (tree.this, tree.expression) if isinstance(s, exp.Select)] \
            if isinstance(tree, exp.Union) else []
        for sel in selects[:1]:
            for i, e in enumerate(sel.expressions):
                if isinstance(e, (exp.Alias, exp.Column, exp.Star)):
                    continue
                sel.expressions[i].replace(exp.alias_(e.copy(), "EXPR$%d" % i, quoted=True))
        return tree

    def _result_types(self, tree, declared):
        """Flink types of the result columns the planner can tell (the rest come from Spark's schema)."""
        from .typing import _infer
        types = {}
        sel = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
        if sel is None:
            return types
        for i, e in enumerate(sel.expressions):
            inner = e.this if isinstance(e, exp.Alias) else e
            name = e.alias_or_name if isinstance(e, (exp.Alias, exp.Column)) else "EXPR$%d" % i
            t = _infer(inner, declared)
            if t:
                types[name] = t
        return types

    # ------------------------------------------------------------------ features and modes
    # ------------------------------------------------------------------ group windows
    def _group_windows(self, tree):
        """Flink's legacy group windows: GROUP BY TUMBLE(t, size) | HOP(t, slide, size) | SESSION(t, gap),
        with TUMBLE_START / _END / _ROWTIME in the select list, as Spark's window / session_window."""
        from .ddl import interval_ms
        kinds = {"TUMBLE": "window", "HOP": "window", "SESSION": "session_window"}
        for sel in list(tree.find_all(exp.Select)):
            group = sel.args.get("group")
            if group is None:
                continue
            for g in list(group.expressions):
                if not (isinstance(g, exp.Anonymous) and g.name.upper() in kinds):
                    continue
                kind = g.name.upper()
                args = g.expressions
                if not args or not isinstance(args[0], exp.Column):
                    raise SqlError("%s needs a time attribute as its first argument" % kind, *self._pos(g))
                ts = args[0]
                ms = []
                for a in args[1:]:
                    if not isinstance(a, exp.Interval):
                        raise SqlError("%s needs INTERVAL arguments" % kind, *self._pos(a))
                    ms.append(interval_ms(a))
                if len(ms) != (2 if kind == "HOP" else 1):
                    raise SqlError("Wrong number of arguments to %s" % kind, *self._pos(g))
                self._require_time_attribute(ts, kind)
                early, lateness = self.settings.window_emit()
                if kind == "HOP" and self._legacy_hop(sel, ts, ms[0], ms[1], lateness):
                    g.replace(exp.column("__window"))
                    self._window_fields(sel, kind, "__window")
                    self.features_extra.add("event_time")
                    if early or lateness:
                        self._window_updates(sel, group, "__window", ts, lateness)
                    continue
                fn = kinds[kind]
                spark_args = [ts.copy()] + [exp.Literal.string("%d milliseconds" % m)
                                             for m in (ms if kind != "HOP" else [ms[1], ms[0]])]
                call = exp.Anonymous(this=fn, expressions=spark_args)
                call.meta["spark"] = True   # already Spark's: not a Flink function to map
                g.replace(call)
                self._window_fields(sel, kind, fn)
                self.features_extra.add("event_time")
                if kind == "TUMBLE":
                    self._late_rows(ts, "window_end", ms[0], lateness)
                if early or lateness:
                    self._window_updates(sel, group, fn, ts, lateness)
        return tree

    def _legacy_hop(self, sel, ts, slide_ms, size_ms, lateness):
        """GROUP BY HOP(...) over a table: the rows' windows assigned as HOP(TABLE t, ...) does, so that a late
        row is left out of the windows that had fired and kept in the others (Flink's WindowOperator).
        False when the SELECT reads something else than one table (Spark's window() is used then)."""
        from .window_tvf import WINDOW_COLUMN_TYPES, WindowSpec
        frm = sel.args.get("from_")
        table = frm.this if frm is not None else None
        ref = next((r for r in self.sources.values() if isinstance(table, exp.Table) and table.name == r.view), None)
        if ref is None or sel.args.get("joins") or ref.table.rowtime != ts.name or _is_changelog_table(ref.table):
            return False
        spec = WindowSpec(kind="HOP", time_column=ts.name, size_ms=size_ms, slide_ms=slide_ms, drop_late=True,
                          lateness_ms=lateness)
        d = DerivedSource(view=self._fresh("window"), kind="window_tvf", input=ref, spec=spec,
                          columns=ref.table.column_types() + WINDOW_COLUMN_TYPES, position=self._pos(ts))
        self.derived.append(d)
        table.replace(exp.Table(this=exp.to_identifier(d.view, quoted=True),
                                alias=exp.TableAlias(this=exp.to_identifier(table.alias_or_name, quoted=True))))
        return True

    def _window_updates(self, sel, group, fn, ts, lateness):
        """Early or late firings (table.exec.emit.*): the window's result is updated as its rows arrive, an
        update-mode aggregate whose rows are keyed by the group (hidden `__key`); Spark keeps each window's
        state for the allowed lateness after it closed."""
        keys = [g.copy() for g in group.expressions if not _is_window_key(g)]
        bounds = [_window_field(fn, b) for b in ("start", "end")]
        key = exp.Anonymous(this="struct", expressions=keys + bounds)
        key.meta["spark"] = True
        sel.select(exp.alias_(key, "__key"), copy=False)
        for ref in self.sources.values():
            if ref.table.rowtime == ts.name:
                ref.watermark_extra_ms = lateness
        self.window_updates = True

    def _window_fields(self, sel, kind, fn):
        fields = {"_START": "start", "_END": "end", "_ROWTIME": "rowtime", "_PROCTIME": "end"}

        def fix(node):
            if isinstance(node, exp.Anonymous):
                name = node.name.upper()
                for suffix, field_name in fields.items():
                    if name == kind + suffix:
                        return _window_field(fn, field_name)
            return node
        for i, e in enumerate(sel.expressions):
            sel.expressions[i].replace(e.transform(fix))
        if sel.args.get("having"):
            sel.args["having"].replace(sel.args["having"].transform(fix))

    def _require_time_attribute(self, col, what):
        for ref in self.sources.values():
            if ref.table.rowtime == col.name or ref.table.proctime == col.name:
                return
        raise SqlError("%s needs a time attribute (a column with a WATERMARK, or PROCTIME()): '%s' is not one"
                       % (what, col.name), *self._pos(col))

    def _late_rows(self, ts, kind, size_ms, lateness_ms=0):
        for ref in self.sources.values():
            if ref.table.rowtime == ts.name:
                # the row's window [start, start + size) has fired when end - 1 ms <= the watermark, and takes
                # no more late rows once end - 1 ms + the allowed lateness <= the watermark
                ref.late_condition = ("__wm IS NOT NULL AND timestamp_millis((floor(unix_millis(`%s`) / %d) + 1) * %d"
                                      " - 1 + %d) <= __wm" % (ts.name, size_ms, size_ms, lateness_ms))

    def _features(self, tree):
        f = set(self.features_extra)
        for sel in tree.find_all(exp.Select):
            if sel.args.get("group") or any(_is_aggregate(x) for x in sel.expressions) or sel.args.get("having"):
                f.add("aggregate")
            if sel.args.get("distinct"):
                f.add("distinct")
            if sel.args.get("joins"):
                f.add("join")
            if sel.args.get("order"):
                f.add("order")
            if sel.args.get("limit"):
                f.add("limit")
        if list(tree.find_all(exp.Window)):
            f.add("window_function")
        if isinstance(tree, (exp.Intersect, exp.Except)) or tree.find(exp.Intersect) or tree.find(exp.Except):
            f.add("set_operation")
        if isinstance(tree, exp.Union) and tree.args.get("distinct"):
            f.add("distinct")
        if self.derived:
            f.add("derived")
        return f

    def _mode(self, tree, features):
        if self.window_updates:
            return changelog.UPDATE_NO_DELETE
        if "window_rank" in features:
            return changelog.INSERT_ONLY
        if "event_time" in features and not features & {"distinct", "window_function", "set_operation"} \
                and not self._has_plain_aggregate(tree):
            return changelog.INSERT_ONLY
        if features & {"aggregate", "distinct", "window_function", "set_operation", "order", "limit"}:
            return changelog.RETRACT
        return changelog.INSERT_ONLY

    def _has_plain_aggregate(self, tree):
        """An aggregate that is not grouped by a window (so it updates its result)."""
        for sel in tree.find_all(exp.Select):
            group = sel.args.get("group")
            windowed = group is not None and any(_is_window_key(g) for g in group.expressions)
            if not windowed and (group is not None or any(_is_aggregate(x) for x in sel.expressions)):
                return True
        return False

    def _explain_tree(self, tree, features, mode, operators=None):
        if operators is not None:
            return PlanNode("Sink", "table=[*anonymous_collect*], fields=[%s]" % ", ".join(operators.columns),
                            mode, [_OperatorView(operators)])
        leaves = []
        for ref in self.sources.values():
            leaves.append(PlanNode("TableSourceScan", "table=[[default_catalog, default_database, %s]], "
                                   "fields=[%s]" % (ref.table.name, ", ".join(c.name for c in ref.table.columns)),
                                   changelog.INSERT_ONLY if not _is_changelog_table(ref.table)
                                   else changelog.RETRACT))
        for d in self.derived:
            if d.kind == "window_tvf":   # over its own table's scan
                scan = next((x for x in leaves if x.name == "TableSourceScan" and x.detail.startswith(
                    "table=[[default_catalog, default_database, %s]]" % d.input.table.name)), None)
                leaves = [x for x in leaves if x is not scan] + [PlanNode(
                    "WindowTableFunction", "window=[%s]" % d.spec.describe(), d.mode, [scan] if scan else [])]
                continue
            if d.kind == "temporal_join":   # over the left table's scan and the versioned side's
                from .temporal_join import explain_node
                leaves = [explain_node(d, leaves, PlanNode)]
                continue
            leaves = [PlanNode("Match", "partition=%s" % getattr(d.spec, "partition_by", ""), d.mode, leaves)]
        if "window_rank" in features:   # the rows of each closed window, ranked or joined per micro-batch
            kind = "WindowJoin" if len([d for d in self.derived if d.kind == "window_tvf"]) > 1 else "WindowRank"
            leaves = [PlanNode(kind, "window=[window_start, window_end], once the window has closed",
                               changelog.INSERT_ONLY, leaves)]
            return PlanNode("Sink", "table=[*anonymous_collect*]", mode, [
                PlanNode("Calc", "select=[%s]" % ", ".join(self.result_names), mode, leaves)])
        node = PlanNode("Calc", "select=[%s]" % ", ".join(_result_names(tree)), mode, leaves)
        return PlanNode("Sink", "table=[*anonymous_collect*]", mode, [node])


class _OperatorView:
    """Adapts a planner.operators node to the PlanNode rendering."""

    def __init__(self, node):
        self.node = node

    def render(self, with_modes=True, indent=0):
        from .operators import render
        lines = render(self.node, indent)
        if not with_modes:
            lines = [re.sub(r", changelogMode=\[[A-Z,]*\]\)$", ")", ln) for ln in lines]
        return lines


_WINDOW_FIELDS = {"window_start": "start", "window_end": "end", "window_time": "rowtime"}


def _is_window_key(g):
    """A GROUP BY key that is a window: Spark's window() / session_window(), or the window functions' `__window`."""
    return isinstance(g, exp.Anonymous) and g.name.lower() in ("window", "session_window") \
        or isinstance(g, exp.Column) and g.name == "__window"


def _window_field(window, field):
    """`window.start`, `window.end`, or the window's rowtime `window.end - 1 ms` (field 'rowtime')."""
    if field == "rowtime":
        return exp.Sub(this=_window_field(window, "end"),
                       expression=exp.Interval(this=exp.Literal.string("1"), unit=exp.var("MILLISECOND")))
    return exp.Dot(this=exp.column(window), expression=exp.to_identifier(field))


def _is_changelog_table(table):
    return table.options.get("format") in ("debezium-json", "canal-json")


def _result_names(tree):
    sel = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    return [e.alias_or_name for e in sel.expressions] if sel is not None else []


def _is_aggregate(e):
    for node in e.find_all(exp.AggFunc, exp.Anonymous):
        if isinstance(node, exp.AggFunc):
            if node.find_ancestor(exp.Window) is None:
                return True
        elif is_aggregate_name(node.name) and node.find_ancestor(exp.Window) is None:
            return True
    return False


def _table_path(table):
    parts = [p for p in (table.args.get("catalog"), table.args.get("db"), table.this) if p is not None]
    return ".".join(p.name for p in parts)


def _cast(node):
    """Flink CAST targets -> Spark: VARCHAR(n)/CHAR(n) are STRING; TIMESTAMP(p) truncates to p digits."""
    to = node.to
    name = to.this.name.upper() if hasattr(to.this, "name") else str(to.this).upper()
    if name in ("VARCHAR", "CHAR", "NCHAR", "NVARCHAR", "TEXT"):
        node.set("to", exp.DataType.build("STRING"))
        return node
    if name in ("TIMESTAMP", "TIMESTAMPLTZ", "TIMESTAMP_LTZ", "TIMESTAMPTZ"):
        params = to.expressions
        p = int(params[0].name) if params else 6
        node.set("to", exp.DataType.build("TIMESTAMP"))
        if p < 6:
            unit = "SECOND" if p == 0 else "MILLISECOND" if p <= 3 else "MICROSECOND"
            return exp.Anonymous(this="DATE_TRUNC", expressions=[exp.Literal.string(unit), node])
        return node
    return node
