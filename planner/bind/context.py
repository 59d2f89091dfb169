"""What binding one statement needs besides the tree: the catalog, the settings, where the statement's
text starts (for error positions), the CTEs in scope and a counter for internal names."""

from sqlglot import exp

from ..errors import SqlError

MAX_VIEW_DEPTH = 32


class BindContext:
    def __init__(self, catalog, settings, line=1, column=1, text="", depth=0, ctes=None, parent=None):
        self.catalog = catalog
        self.settings = settings
        self.line, self.column, self.text = line, column, text
        self.depth = depth
        self.ctes = dict(ctes or {})      # name -> (sqlglot query, BindContext it was written in)
        self._names = parent._names if parent is not None else [0]
        self._first_names = parent._first_names if parent is not None else {}   # id(node) -> (node, identifier)
        self.view = None                  # the view being expanded, for messages
        # the Python functions the statement calls (key -> PythonFunction), shared with nested contexts
        self.python_functions = parent.python_functions if parent is not None else {}

    @property
    def batch(self):
        return bool(getattr(self.settings, "batch", False))

    def fresh(self, stem="$f"):
        self._names[0] += 1
        return "%s%d" % (stem, self._names[0])

    def nested(self, text, line=1, column=1, view=None):
        """The context of a view's text: its own positions, one level deeper."""
        if self.depth + 1 > MAX_VIEW_DEPTH:
            raise SqlError("Views nest too deeply (a view refers to itself?)", self.line, self.column)
        ctx = BindContext(self.catalog, self.settings, line, column, text, self.depth + 1, parent=self)
        ctx.view = view
        return ctx

    def with_ctes(self, ctes):
        ctx = BindContext(self.catalog, self.settings, self.line, self.column, self.text, self.depth, self.ctes,
                          parent=self)
        ctx.view = self.view
        ctx.ctes.update(ctes)
        return ctx

    def pos(self, node):
        """(line, column) of `node` in the user's SQL (the statement's, or the view's being expanded)."""
        if node is None:
            return self.line, self.column
        meta = getattr(node, "meta", None) or {}
        if "line" in meta:
            el, ec = meta["line"], meta.get("col", 1)
            width = len(node.name) if hasattr(node, "name") and isinstance(node.name, str) and node.name else 1
            ec = max(ec - width + 1, 1)
            return (self.line + el - 1, (self.column + ec - 1) if el == 1 else ec)
        if "position" in meta:
            return meta["position"]
        first = self._first_name(node) if isinstance(node, exp.Expression) else None
        return self.pos(first) if first is not None else (self.line, self.column)

    def _first_name(self, node):
        """The Identifier with a place nearest `node`'s root, the first of those in breadth-first order (what
        `find_all` meets first), or None. Each subtree is walked once per statement (the answers are kept): a
        query nested 1,000 levels deep asks at each level, and walking each level's subtree again made
        planning it quadratic. Breadth-first, the first of the nearest is in the first child that has one
        nearest: a child's answer and its depth make its parent's."""
        memo = self._first_names
        stack = [(node, False)]
        while stack:
            n, children_done = stack.pop()
            if id(n) in memo:
                continue
            if not children_done:
                stack.append((n, True))
                stack.extend((c, False) for c in n.iter_expressions() if id(c) not in memo)
                continue
            best = (0, n) if isinstance(n, exp.Identifier) and "line" in (n.meta or {}) \
                else (None, None)
            if best[1] is None:
                for c in n.iter_expressions():
                    depth, ident = memo[id(c)][1]
                    if ident is not None and (best[1] is None or depth + 1 < best[0]):
                        best = (depth + 1, ident)
            memo[id(n)] = (n, best)
        return memo[id(node)][1][1]
