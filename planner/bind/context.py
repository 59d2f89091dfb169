"""What binding one statement needs besides the tree: the catalog, the settings, where the statement's
text starts (for error positions), the CTEs in scope and a counter for internal names."""

import re

from sqlglot import exp

from ..errors import SqlError

MAX_VIEW_DEPTH = 32
_OPENING = {exp.Cast: ("CAST", "DATE", "TIMESTAMP", "TIME"), exp.TryCast: ("TRY_CAST",), exp.Case: ("CASE",),
            exp.Not: ("NOT",), exp.Neg: ("-",), exp.Array: ("ARRAY",), exp.Ceil: ("CEILING", "CEIL"),
            exp.Substring: ("SUBSTRING", "SUBSTR"), exp.Trim: ("TRIM", "LTRIM", "RTRIM")}


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

    def start(self, node):
        """(line, column) where `node`'s text begins, as Flink places a call's error: the leftmost place in its
        subtree (a resolved column's own place, or a token's start in the statement's text)."""
        own = getattr(node, "_meta", None) or {}
        if "open" in own and self.text and own["open"] <= len(self.text):    # where the parser began it
            return self._at_offset(own["open"])
        best = None
        for n in node.walk():
            meta = getattr(n, "_meta", None) or {}
            if "open" in meta and self.text and meta["open"] <= len(self.text):
                at = self._at_offset(meta["open"])
            elif "position" in meta and meta["position"][0] is not None:
                at = tuple(meta["position"])
            elif "line" in meta and "start" in meta and self.text and meta["start"] <= len(self.text):
                at = self._at_offset(meta["start"])
            else:
                continue
            if best is None or at < best:
                best = at
        if best is None:
            return self.pos(node)
        return self._keyword_before(node, best)

    def _at_offset(self, offset):
        """(line, column) in the user's input of an offset in the statement's text."""
        el = self.text.count("\n", 0, offset) + 1
        ec = offset - self.text.rfind("\n", 0, offset)
        return self.line + el - 1, (self.column + ec - 1) if el == 1 else ec

    def _keyword_before(self, node, at):
        """`at` moved back to the keyword that opens `node` (CAST, CASE, NOT, ARRAY, a function's name, a
        minus sign) when only words, spaces and brackets lie between them in the statement's text."""
        from ..expr.inference import function_name
        if not self.text or at[0] != self.line:
            return at
        words = _OPENING.get(type(node)) or ((function_name(node),) if isinstance(node, exp.Func) else ())
        offset = at[1] - self.column                  # `at` in the statement's first line
        if not 0 <= offset <= len(self.text):
            return at
        window = max(0, offset - 200)                 # (the keyword is near: a long statement is not read again)
        head = self.text[window:offset]
        upper = head.upper()
        for word in words:
            found = upper.rfind(word)
            if found < 0 or head[found + len(word):].strip(" \t\n([") and word != "-" or \
                    found > 0 and (head[found - 1].isalnum() or head[found - 1] == "_") and word != "-":
                continue
            if word == "-" and head[found + 1:].strip(" \t\n("):
                continue
            return at[0], self.column + window + found
        if isinstance(node, exp.Func):                # a call written under another name (LOCATE, SUBSTR, IFNULL)
            m = re.search(r"([A-Za-z_][A-Za-z_0-9]*)\s*\(\s*$", head)
            if m:
                return at[0], self.column + window + m.start(1)
        return at

    def call_name(self, node):
        """The name a call is written with in the statement (`SUBSTR`, `LOCATE`, `IFNULL`), or None."""
        line, column = self.start(node)
        if not self.text or line != self.line:
            return None
        m = re.match(r"[A-Za-z_][A-Za-z_0-9]*", self.text[column - self.column:])
        return m.group(0).upper() if m else None

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
