"""The binder's entry: a query's sqlglot tree -> (plan node, scope of its output).

`QueryBinder(ctx).bind_query(tree)` handles the query shapes (SELECT, UNION / INTERSECT / EXCEPT, VALUES,
a parenthesized query, WITH); SELECT blocks are bound by select.py, their FROM items by relations.py."""

from sqlglot import exp

from ..errors import SqlError, UnsupportedError
from ..plan.aggregate import GroupAggregate
from ..plan.calc import Calc
from ..expr.bound import Expr
from ..plan.fields import Field, unique_names
from ..plan.scan import Values
from ..plan.union import Union
from ..expr import inference as typing
from .expressions import ExpressionBinder, refuse_bare_null
from ..expr.translate import cast_to, finish
from .scope import Scope, ScopeEntry


def output_scope(node, qualifier=None):
    """The scope a query's output offers to the query around it."""
    return Scope([ScopeEntry(qualifier, f.name, f) for f in node.fields])


class QueryBinder:
    def __init__(self, ctx):
        self.ctx = ctx

    def bind_query(self, tree):
        """-> (node, Scope of its output fields, unqualified)."""
        ctes = tree.args.get("with_") if isinstance(tree, (exp.Select, exp.Union, exp.Intersect, exp.Except)) else None
        if ctes is not None:
            binder = QueryBinder(self.ctx.with_ctes(self._ctes(ctes)))
            return binder.bind_query(_without_with(tree))
        if isinstance(tree, exp.Subquery):
            node, scope = self.bind_query(tree.this)
            return node, scope
        if isinstance(tree, exp.Select):
            from .select import bind_select
            return bind_select(self, tree)
        if isinstance(tree, exp.Union):
            return self._union(tree)
        if isinstance(tree, (exp.Intersect, exp.Except)):
            from .set_operations import bind_set_operation
            node = bind_set_operation(self, tree)
            return node, output_scope(node)
        if isinstance(tree, exp.Values):
            node = self.values(tree)
            return node, output_scope(node)
        raise SqlError("Expected a query (SELECT ...)", *self.ctx.pos(tree))

    def _ctes(self, with_):
        out = {}
        ctx = self.ctx
        for cte in with_.expressions:
            name = cte.alias_or_name
            if name in out:
                raise SqlError("WITH names '%s' twice" % name, *ctx.pos(cte))
            out[name] = (cte, ctx.with_ctes(out))
        return out

    # ------------------------------------------------------------------ UNION
    def _union(self, tree):
        branches = []
        node = tree
        while isinstance(node, exp.Union) and bool(node.args.get("distinct")) == bool(tree.args.get("distinct")):
            branches.append(node.expression)
            node = node.this
        branches.append(node)
        branches.reverse()
        bound = [self.bind_query(b)[0] for b in branches]
        width = len(bound[0].fields)
        for b, ast in zip(bound[1:], branches[1:]):
            if len(b.fields) != width:
                raise SqlError("Column count mismatch in UNION: %d and %d columns" % (width, len(b.fields)),
                               *self.ctx.pos(ast))
        types = []
        for i in range(width):
            col = [b.fields[i].type for b in bound]
            t = typing.least_restrictive(col)
            known = [c for c in col if c is not None]
            if t is None and len(known) == len(col) and len({c.name for c in known} - {"NULL"}) > 1:
                raise SqlError("Type mismatch in UNION: column %d is %s in one branch and %s in another"
                               % (i + 1, known[0].text(), next(c for c in known if c.name != known[0].name).text()),
                               *self.ctx.pos(tree))
            types.append(t)
        bound = [self._cast_to(b, types) for b in bound]
        node = Union(bound, types=types, position=self.ctx.pos(tree))
        if tree.args.get("distinct"):
            node = GroupAggregate(node, node.field_names, [], position=self.ctx.pos(tree))
        return node, output_scope(node)

    def _cast_to(self, node, types):
        """A branch whose column types differ from the union's gets a Calc casting them (Spark unions by
        position, with its own widening)."""
        if all(t is None or f.type is None or f.type.text(False) == t.text(False) for f, t in zip(node.fields, types)):
            return node
        projections = []
        for f, t in zip(node.fields, types):
            e = Expr.of_field(f)
            if t is not None and f.type is not None and f.type.text(False) != t.text(False):
                e = finish(cast_to(e.tree, t))
            projections.append((e, f.name))
        return Calc(node, projections)

    # ------------------------------------------------------------------ VALUES
    def values(self, tree, names=None):
        rows = []
        binder = ExpressionBinder(self.ctx, Scope([]))
        for t in tree.expressions:
            items = t.expressions if isinstance(t, exp.Tuple) else [t]
            for e in items:
                refuse_bare_null(e, self.ctx)
            rows.append([binder.bind(e) for e in items])
        width = len(rows[0]) if rows else 0
        for r, t in zip(rows, tree.expressions):
            if len(r) != width:
                raise SqlError("VALUES rows must have the same number of columns", *self.ctx.pos(t))
        alias = tree.args.get("alias")
        cols = [c.name for c in alias.columns] if alias is not None and alias.columns else None
        names = names or cols or ["EXPR$%d" % i for i in range(width)]
        if len(names) != width:
            raise SqlError("VALUES has %d columns but %d names" % (width, len(names)), *self.ctx.pos(tree))
        types = [typing.least_restrictive([r[i].type for r in rows]) for i in range(width)]
        fields = [Field(n, t) for n, t in zip(unique_names(names), types)]
        return Values(rows, fields, position=self.ctx.pos(tree))


def _without_with(tree):
    """`tree` without its WITH clause: a node of its kind holding the same arguments (not copies), the CTEs left
    out. Copying the whole query instead, at each of `WITH .. SELECT .. UNION ALL WITH ..` nested levels, made
    binding quadratic in the statement's length (and the copies, new nodes, missed every position already
    found: `BindContext.pos`)."""
    body = type(tree)()
    body.args = {k: v for k, v in tree.args.items() if k != "with_"}      # the arguments keep their parent
    body.meta.update(tree.meta)
    return body
