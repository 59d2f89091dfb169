"""Event-time temporal joins: `FROM t [LEFT] JOIN v FOR SYSTEM_TIME AS OF t.rowtime ON t.k = v.k`.

`plan_temporal_joins(planner, tree)` runs after the query's tables are resolved. Each temporal join
becomes a `DerivedSource` of kind "temporal_join" (run by runtime/temporal_join.py): the FROM
relation and the join are replaced by one temporary view holding the left row's columns and the
matched version's columns (renamed `<view>_r_<name>`); the rest of the query refers to those. The
probe (left) side is an append-only table, or a view or subquery projecting and filtering one.

The versioned side is either a table with a PRIMARY KEY and a WATERMARK (typically a changelog
source), or a versioned view: a deduplication `ROW_NUMBER() OVER (PARTITION BY key ORDER BY
time_attr DESC) = 1` over an append-only table (recognized with planner/operator_builder.py's
Top-N / deduplication detection). Flink's rules and messages are enforced here: the AS OF time must
be the left table's rowtime (a processing-time temporal join is refused), the versioned side needs a
rowtime and a primary key, the ON equalities must cover the primary key, only INNER and LEFT joins,
streaming mode only. This module does not run anything."""

from dataclasses import dataclass, field

from sqlglot import exp

from . import changelog
from .catalog import TableDef, ViewDef
from .errors import SqlError, UnsupportedError
from .operator_builder import _conjuncts, _has_aggregate as _is_aggregate

_CHANGELOG_FORMATS = ("debezium-json", "canal-json")
PROBE_SUFFIX = "__probe"       # the probe table's frame with its hidden columns, for a view or subquery over it
BATCH_MESSAGE = ("Temporal joins (FOR SYSTEM_TIME AS OF) on regular tables are not supported in batch mode. "
                 "Use a lookup join or switch to streaming mode.")
VERSIONED_VIEW_HINT = ("a versioned view has the form SELECT ... FROM (SELECT *, ROW_NUMBER() OVER "
                       "(PARTITION BY key ORDER BY time_attr DESC) AS rownum FROM t) WHERE rownum = 1")


@dataclass
class RightStep:
    """One step from the versioned side's table to its rows: a projection (and filter), or the
    deduplication's rank column (always 1 for a version)."""
    projections: list = field(default_factory=list)   # [(spark sql, name)]
    condition: str = None
    rank_column: str = None


@dataclass
class TemporalJoinSpec:
    kind: str                  # "INNER" or "LEFT"
    left_columns: list         # [(name, flink type)] of the left table, in order
    left_time: str             # the left rowtime (FOR SYSTEM_TIME AS OF)
    left_sql: str              # Spark SQL of a probe side that projects and filters its table (read as
                               # `<table view>__probe`, with __seq), or None
    left_keys: list            # left column names of the ON equalities
    right: object              # SourceRef of the table the versioned side reads
    right_steps: list          # [RightStep], applied in order to the table's columns
    right_columns: list        # [(name, flink type)] of the versioned side
    right_time: str            # its version time
    right_keys: list           # its columns in the ON equalities, in left_keys' order
    primary_key: list
    newest_only: bool          # versioned view: a row older than its key's newest version is ignored
    changelog: bool            # the right rows carry __op (-U rows are dropped, -D ends a version)
    condition: str = None      # the rest of the ON condition, Spark SQL over the output columns
    right_prefix: str = ""     # output name of right column c: right_prefix + c
    description: str = ""      # for EXPLAIN


@dataclass
class _LeftInput:
    ref: object                # SourceRef of the table the probe side reads
    alias: str                 # how the query names the probe side
    columns: list              # [(name, flink type)]
    rowtime: str
    proctime: str
    name: str                  # for messages
    sql: str = None            # Spark SQL of a view or subquery over the table


def plan_temporal_joins(qp, tree):
    """Replace every `JOIN ... FOR SYSTEM_TIME AS OF` in `tree` by a derived temporal-join view."""
    for sel in list(tree.find_all(exp.Select)):
        frm = sel.args.get("from_")
        if frm is not None and isinstance(frm.this, exp.Table) and frm.this.args.get("version") is not None:
            raise UnsupportedError("Temporal table join only support apply FOR SYSTEM_TIME AS OF on the right table.",
                                   *qp._pos(frm.this))
        joins = sel.args.get("joins") or []
        for i, j in enumerate(joins):
            if isinstance(j.this, exp.Table) and j.this.args.get("version") is not None:
                if i != 0:
                    raise UnsupportedError("A temporal join must be the first join of its FROM clause here "
                                           "(join the other tables in an outer query)", *qp._pos(j.this))
                _TemporalJoin(qp, sel, j).plan()
                break
        for j in sel.args.get("joins") or []:
            if isinstance(j.this, exp.Table) and j.this.args.get("version") is not None:
                raise UnsupportedError("Only one temporal join per FROM clause is supported "
                                       "(join again in an outer query)", *qp._pos(j.this))
    return tree


def refuse_updates(qp, tree, mode):
    """A query whose result updates (GROUP BY, DISTINCT, ranking, ORDER BY, ...) over a temporal join's
    insert-only result: not supported yet, said where it happens."""
    if mode.insert_only or not any(d.kind == "temporal_join" for d in qp.derived):
        return
    where = next(iter(tree.find_all(exp.Group, exp.Distinct, exp.Window, exp.Order, exp.AggFunc)), tree)
    what = {"group": "GROUP BY", "distinct": "DISTINCT", "window": "an OVER window", "order": "ORDER BY"}.get(
        where.key, "an aggregate" if isinstance(where, exp.AggFunc) else "changelog mode " + ",".join(mode.kinds))
    raise UnsupportedError("A query that updates its result (%s) over a temporal join is not supported yet" % what,
                           *qp._pos(where), hint="run the temporal join on its own (e.g. INSERT INTO a table), "
                                                 "then aggregate that table")


def explain_node(derived, leaves, node_type):
    """The TemporalJoin node EXPLAIN prints, over the probe table's scan and the versioned side (a versioned
    view's deduplication, which Flink reads as inserts and +U; a changelog source read without its -U)."""
    spec = derived.spec
    scan = "table=[[default_catalog, default_database, %s]]" % spec.right.table.name
    right = [x for x in leaves if x.detail.startswith(scan)]
    left = [x for x in leaves if x not in right]
    if spec.newest_only:
        right = [node_type("Deduplicate", "keep=[LastRow], key=[%s], order=[ROWTIME]" % ", ".join(spec.primary_key),
                           changelog.ChangelogMode(("I", "UA")), right)]
    elif spec.changelog:
        right = [node_type("DropUpdateBefore", "key=[%s]" % ", ".join(spec.primary_key),
                           changelog.upsert(spec.primary_key), right)]
    return node_type("TemporalJoin", spec.description, derived.mode, left + right)


class _TemporalJoin:
    def __init__(self, qp, select, join):
        self.qp, self.select, self.join = qp, select, join
        self.pos = qp._pos

    # ------------------------------------------------------------------ planning
    def plan(self):
        qp, join = self.qp, self.join
        right_table = join.this
        kind = self._join_kind()
        left = self._left()
        left_alias = left.alias
        self._time_attribute(left, right_table.args["version"])
        if getattr(qp.settings, "batch", False):
            raise UnsupportedError(BATCH_MESSAGE, *self.pos(right_table))
        right_alias = right_table.alias or right_table.name
        versioned = self._versioned(right_table)
        left_cols = left.columns
        right_cols = versioned["columns"]
        left_type, right_type = dict(left_cols)[left.rowtime], dict(right_cols)[versioned["time"]]
        if _is_ltz(left_type) != _is_ltz(right_type):
            raise SqlError("Event-Time Temporal Table Join requires same rowtime type in left table and versioned "
                           "table, but the rowtime types are %s and %s." % (left_type, right_type),
                           *self.pos(right_table))
        left_names = [n for n, _ in left_cols]
        right_names = [n for n, _ in right_cols]
        view = qp._fresh("temporal_join")
        prefix = view.lstrip("_") + "_r_"

        def side_of(col):
            q, n = col.table or None, col.name
            in_l, in_r = n in left_names, n in right_names
            if q == left_alias and in_l:
                return "L"
            if q == right_alias and in_r:
                return "R"
            if q is None:
                if in_l and in_r:
                    raise SqlError("Column '%s' is ambiguous" % n, *self.pos(col), hint="qualify it with a table alias")
                if in_l:
                    return "L"
                if in_r:
                    return "R"
            if q in (left_alias, right_alias):
                raise SqlError("Column '%s.%s' not found in table '%s'" % (q, n, q), *self.pos(col))
            return None

        lkeys, rkeys, rest = [], [], []
        on = join.args.get("on")
        for cond in (_conjuncts(on) if on is not None else []):
            if isinstance(cond, exp.EQ) and isinstance(cond.this, exp.Column) and isinstance(cond.expression, exp.Column):
                a, b = cond.this, cond.expression
                sa, sb = side_of(a), side_of(b)
                if (sa, sb) == ("L", "R"):
                    lkeys.append(a.name); rkeys.append(b.name)
                    continue
                if (sa, sb) == ("R", "L"):
                    lkeys.append(b.name); rkeys.append(a.name)
                    continue
            rest.append(cond)
        if not lkeys:
            raise SqlError("Currently the join key in Temporal Table Join can not be empty.", *self.pos(join.this),
                           hint="join on the versioned table's primary key: ON %s.col = %s.%s" % (
                               left_alias, right_alias, (versioned["key"] or ["key"])[0]))
        missing = [k for k in versioned["key"] if k not in rkeys]
        if missing:
            shown = " AND ".join(c.sql(dialect="spark").replace("`", "") for c in _conjuncts(on))
            raise SqlError("Temporal table's primary key [%s] must be included in the equivalence condition of "
                           "temporal join, but current temporal join condition is [%s]."
                           % (", ".join(versioned["key"]), shown), *self.pos(on))

        # the rest of the query reads the derived view: left columns as they are, right ones renamed
        columns = [(n, t) for n, t in left_cols] + [(prefix + n, t) for n, t in right_cols]
        condition = None
        if rest:
            cond = rest[0]
            for c in rest[1:]:
                cond = exp.And(this=cond, expression=c)
            cond = cond.copy().transform(lambda node: self._rename(node, side_of, prefix, qualify=None))
            cond = qp._map_functions(cond, dict(columns))
            condition = cond.sql(dialect="spark")
        self._rewrite_select(side_of, left_alias, left_names, right_names, prefix)
        frm = self.select.args["from_"]
        frm.this.replace(exp.Table(this=exp.to_identifier(view, quoted=True),
                                   alias=exp.TableAlias(this=exp.to_identifier(left_alias, quoted=True))))
        self.select.set("joins", [j for j in self.select.args.get("joins") or [] if j is not join] or None)

        spec = TemporalJoinSpec(
            kind=kind, left_columns=left_cols, left_time=left.rowtime, left_keys=lkeys, left_sql=left.sql,
            right=versioned["ref"], right_steps=versioned["steps"], right_columns=right_cols,
            right_time=versioned["time"], right_keys=rkeys, primary_key=versioned["key"],
            newest_only=versioned["newest_only"], changelog=versioned["changelog"], condition=condition,
            right_prefix=prefix,
            description="joinType=[%s], where=[%s], select=[%s]" % (
                "InnerJoin" if kind == "INNER" else "LeftOuterJoin",
                " AND ".join(["%s = %s" % (lk, rk) for lk, rk in zip(lkeys, rkeys)]
                             + ([condition] if condition else [])),
                ", ".join(left_names + right_names)))
        from .query import DerivedSource
        d = DerivedSource(view=view, kind="temporal_join", input=left.ref, spec=spec, columns=columns,
                          mode=changelog.INSERT_ONLY)
        d.right_name = versioned["name"]
        qp.derived.append(d)
        qp.features_extra.add("event_time")

    def _join_kind(self):
        j = self.join
        side = (j.args.get("side") or "").upper()
        jkind = (j.args.get("kind") or "").upper()
        if side in ("RIGHT", "FULL"):
            raise UnsupportedError("Temporal table join currently only support INNER JOIN and LEFT JOIN, but was "
                                   "%s JOIN." % side, *self.pos(j.this))
        if jkind in ("CROSS", "SEMI", "ANTI"):
            raise UnsupportedError("Temporal table join currently only support INNER JOIN and LEFT JOIN, but was "
                                   "%s JOIN." % jkind, *self.pos(j.this))
        if j.args.get("using"):
            raise UnsupportedError("A temporal join needs an ON condition (USING is not supported)", *self.pos(j.this))
        return "LEFT" if side == "LEFT" else "INNER"

    def _left(self):
        """The probe side: a table, or a view or subquery that projects and filters one table (its rowtime
        passed through as a column)."""
        frm = self.select.args.get("from_")
        rel = frm.this if frm is not None else None
        body = rel.this if isinstance(rel, exp.Subquery) else None
        table = rel if isinstance(rel, exp.Table) else None
        if isinstance(body, exp.Select) and not any(body.args.get(a) for a in (
                "joins", "group", "having", "distinct", "order", "limit", "qualify", "with_")) \
                and isinstance((body.args.get("from_") or exp.From()).this, exp.Table) \
                and not any(_is_aggregate(e) or e.find(exp.Window) for e in body.expressions):
            table = body.args["from_"].this
        ref = next((r for r in self.qp.sources.values() if r.view == table.name), None) if table is not None else None
        if ref is None:
            raise UnsupportedError("The left side of a temporal join must be a table, or a view or subquery that "
                                   "projects and filters one table, here", *self.pos(rel if rel is not None else self.select))
        t = ref.table
        if t.options.get("format") in _CHANGELOG_FORMATS:
            raise UnsupportedError("The left side of an event-time temporal join must be append-only here: "
                                   "'%s' is a changelog table" % t.name, *self.pos(rel))
        if table is rel:
            return _LeftInput(ref, rel.alias or rel.name, t.column_types(), t.rowtime, t.proctime, "'%s'" % t.name)
        from .typing import _infer
        declared = dict(t.column_types())
        columns, rowtime, proctime = [], None, None
        for e in body.expressions:
            if isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star)):
                items = [(exp.column(n), n) for n, _ in t.column_types()]
            else:
                items = [(e.this if isinstance(e, exp.Alias) else e, e.alias_or_name)]
            for expr, name in items:
                if isinstance(expr, exp.Column):
                    rowtime = name if expr.name == t.rowtime else rowtime
                    proctime = name if expr.name == t.proctime and t.proctime else proctime
                    columns.append((name, declared.get(expr.name, "")))
                else:
                    columns.append((name, (_infer(expr, declared) or "").replace(" *ROWTIME*", "")))
        body = self.qp._map_functions(body.copy(), declared)
        body.args["from_"].this.set("this", exp.to_identifier(ref.view + PROBE_SUFFIX, quoted=True))
        body.set("expressions", body.expressions + [exp.column("__seq")])   # arrival order, for the output's
        sql = body.sql(dialect="spark")
        return _LeftInput(ref, rel.alias_or_name, columns, rowtime, proctime, "the subquery on '%s'" % t.name, sql)

    def _time_attribute(self, left, version):
        col = version.args.get("expression") if isinstance(version, exp.Version) else version
        if isinstance(col, exp.Column) and left.proctime and col.name == left.proctime:
            raise UnsupportedError("Processing-time temporal join is not supported yet.", *self.pos(col),
                                   hint="use the left table's event time (its WATERMARK column) in "
                                        "FOR SYSTEM_TIME AS OF")
        if not (isinstance(col, exp.Column) and left.rowtime and col.name == left.rowtime):
            raise SqlError("Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time "
                           "attribute field", *self.pos(col if col is not None else version),
                           hint="%s %s" % (left.name, ("has the rowtime '%s'" % left.rowtime) if left.rowtime
                                           else ("does not select the rowtime '%s'" % left.ref.table.rowtime)
                                           if left.ref.table.rowtime else "has no time attribute (declare a WATERMARK)"))

    # ------------------------------------------------------------------ the versioned side
    def _versioned(self, table):
        from .query import _table_path
        obj = self.qp.catalog.require(_table_path(table), *self.pos(table))
        if isinstance(obj, TableDef):
            return self._versioned_table(obj, table)
        if isinstance(obj, ViewDef):
            return self._versioned_view(obj, table)
        raise UnsupportedError("'%s' cannot be a versioned table" % table.name, *self.pos(table))

    def _versioned_table(self, t, node):
        if not t.rowtime:
            raise SqlError("Event-Time Temporal Table Join requires both primary key and row time attribute in "
                           "versioned table, but no row time attribute can be found.", *self.pos(node),
                           hint="declare a WATERMARK on '%s'" % t.name)
        if not t.primary_key:
            raise SqlError("Temporal Table Join requires primary key in versioned table, but no primary key can be "
                           "found.", *self.pos(node),
                           hint="declare PRIMARY KEY (...) NOT ENFORCED on '%s', or join a versioned view (%s)"
                                % (t.name, VERSIONED_VIEW_HINT))
        ref = self.qp._source(t)
        return {"ref": ref, "steps": [], "columns": t.column_types(), "time": t.rowtime, "key": list(t.primary_key),
                "newest_only": False, "changelog": t.options.get("format") in _CHANGELOG_FORMATS, "name": t.name}

    def _versioned_view(self, view, node):
        """A versioned view: a last-row deduplication on a rowtime over an append-only table."""
        from .operator_builder import OperatorBuilder
        from .operators import Calc, Rank, Source, _q
        from .query import parse_sql
        qp = self.qp
        body = parse_sql(view.query)
        body = qp._expand_views(body, 1)
        body = qp._resolve_tables(body)
        body = qp._map_functions(body, qp._column_types())
        not_versioned = SqlError("Temporal Table Join requires primary key in versioned table, but no primary key "
                                 "can be found.", *self.pos(node),
                                 hint="view '%s' is not a versioned view: %s" % (view.name, VERSIONED_VIEW_HINT))
        try:
            top, scope = OperatorBuilder(qp)._query(body)
        except SqlError:
            raise not_versioned
        chain, n = [], top
        while isinstance(n, (Calc, Rank)):
            chain.append(n)
            n = n.input
        ranks = [c for c in chain if isinstance(c, Rank)]
        if not isinstance(n, Source) or len(ranks) != 1:
            if isinstance(n, Source) and not ranks and n.changelog_source:
                raise UnsupportedError("A view over a changelog table cannot be a versioned table here: join "
                                       "the table '%s' itself" % n.ref.table.name, *self.pos(node))
            raise not_versioned
        rank = ranks[0]
        if rank.kind != "Deduplicate" or rank.limit != 1:
            raise not_versioned
        if n.changelog_source:
            raise UnsupportedError("A versioned view over a changelog table is not supported: join the table "
                                   "'%s' itself" % n.ref.table.name, *self.pos(node))
        if getattr(rank, "time_kind", "") != "rowtime":
            raise SqlError("Event-Time Temporal Table Join requires both primary key and row time attribute in "
                           "versioned table, but no row time attribute can be found.", *self.pos(node),
                           hint="view '%s' orders by a processing time; a versioned view orders by the table's "
                                "rowtime" % view.name)
        if not rank.keep_last:
            raise SqlError("A versioned view keeps the last row of each key: ORDER BY %s DESC, not ASC"
                           % rank.order[0][0], *self.pos(node), hint=VERSIONED_VIEW_HINT)
        above = chain[:chain.index(rank)]
        if any(c.condition for c in above[:-1]):   # the view filters the deduplicated rows
            raise UnsupportedError("Filter is not allowed for right changelog input of event time temporal join, "
                                   "it will corrupt the versioning of data.", *self.pos(node),
                                   hint="filter the rows inside the view, before ROW_NUMBER()")
        # column names from the rank's input up to the view's output
        key, time = list(rank.partition), rank.order[0][0]
        for c in reversed(above):
            names = {s: name for s, name in c.projections}
            key = [names.get(_q(k)) for k in key]
            time = names.get(_q(time)) if time else None
            if None in key:
                raise not_versioned
        if time is None:
            raise SqlError("Event-Time Temporal Table Join requires both primary key and row time attribute in "
                           "versioned table, but no row time attribute can be found.", *self.pos(node),
                           hint="view '%s' does not select its ORDER BY column" % view.name)
        steps = []
        for c in reversed(chain):
            if isinstance(c, Rank):
                steps.append(RightStep(rank_column=c.rank_column))
            else:
                steps.append(RightStep(projections=list(c.projections), condition=c.condition))
        types = {nm: t for _, nm, _, t in scope.entries}
        columns = [(nm, types.get(nm, "")) for nm in top.columns]
        return {"ref": n.ref, "steps": steps, "columns": columns, "time": time, "key": key, "newest_only": True,
                "changelog": False, "name": view.name}

    # ------------------------------------------------------------------ the query around the join
    def _rename(self, node, side_of, prefix, qualify):
        if isinstance(node, exp.Column) and not isinstance(node.this, exp.Star) and not node.name.startswith(prefix):
            side = side_of(node)
            if side in ("L", "R"):
                return _at(exp.column((prefix if side == "R" else "") + node.name, table=qualify, quoted=True), node)
        return node

    def _rewrite_select(self, side_of, left_alias, left_names, right_names, prefix):
        sel = self.select
        items = []
        for e in sel.expressions:
            if isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star)):
                q = e.table if isinstance(e, exp.Column) else None
                if q in (None, left_alias):
                    items += [exp.column(n, table=left_alias, quoted=True) for n in left_names]
                if q is None or q == (self.join.this.alias or self.join.this.name):
                    taken = set(left_names) if q is None else set()
                    for n in right_names:
                        items.append(exp.alias_(exp.column(prefix + n, table=left_alias, quoted=True),
                                                _unique(n, taken), quoted=True))
                continue
            if isinstance(e, exp.Column) and side_of(e) == "R":
                items.append(exp.alias_(exp.column(prefix + e.name, table=left_alias, quoted=True), e.name,
                                        quoted=True))
                continue
            items.append(e)
        sel.set("expressions", items)
        for key, value in list(sel.args.items()):
            if key in ("from_", "joins") or value is None:
                continue
            values = value if isinstance(value, list) else [value]
            new = []
            for v in values:
                if isinstance(v, exp.Expression):
                    v = v.transform(lambda node: self._rename(node, side_of, prefix, left_alias))
                new.append(v)
            sel.set(key, new if isinstance(value, list) else new[0])


def _is_ltz(flink_type):
    t = flink_type.upper()
    return "LTZ" in t or "LOCAL TIME ZONE" in t


def _at(new, old):
    """`new` (a renamed column) keeps the position of `old` in the SQL text, for error messages."""
    meta = dict(old.this.meta or {})
    if "col" in meta:
        meta["col"] += len(new.name) - len(old.name)   # positions count from the identifier's last character
        new.this.meta.update(meta)
    return new


def _unique(name, taken):
    """Flink's name for a second column `name` in one row: name0, name1, ..."""
    out, k = name, 0
    while out in taken:
        out, k = "%s%d" % (name, k), k + 1
    taken.add(out)
    return out
