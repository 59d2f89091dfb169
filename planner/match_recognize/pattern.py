"""PATTERN's row pattern grammar (SQL:2016 / ISO/IEC 19075-5) -> a tree of spec.PatternNode.

    pattern     := alternation
    alternation := concat ( '|' concat )*
    concat      := term*
    term        := primary [ quantifier ]
    primary     := VAR | '(' pattern ')' | PERMUTE '(' pattern (',' pattern)* ')' | '^' | '$'
                 | '{-' pattern '-}'
    quantifier  := ( '*' | '+' | '?' | '{' n '}' | '{' n ',' '}' | '{' n ',' m '}' | '{' ',' m '}' ) [ '?' ]

Only syntax here: which constructs Flink accepts is decided in validation.py. Also: structural
questions the validator and the runtime ask (can the pattern match empty, is it flat)."""

from planner.literals import INT_MAX, integer_literal
from planner.match_recognize.spec import (Alternation, Anchor, Concat, Empty, Exclusion, Group, Permute,
                                          Quantified, Var)
from planner.match_recognize.tokens import name_of


class PatternParser:
    def __init__(self, tokens, positions, end_offset):
        self.toks = tokens
        self.i = 0
        self.pos = positions
        self.end_offset = end_offset

    # -- helpers
    def peek(self, k=0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def is_op(self, text, k=0):
        t = self.peek(k)
        return t is not None and t.kind == "OP" and t.text == text

    def where(self, tok=None):
        tok = tok or self.peek()
        off = tok.start if tok is not None else self.end_offset
        return self.pos.at(off)

    def fail(self, message, tok=None, hint=None):
        tok = tok or self.peek()
        off = tok.start if tok is not None else self.end_offset
        raise self.pos.error(message, off, hint)

    def node(self, cls, tok, **kw):
        line, col = self.where(tok)
        return cls(line=line, column=col, **kw)

    # -- grammar
    def parse(self):
        if not self.toks:
            return self.node(Empty, None)
        tree = self.alternation()
        if self.peek() is not None:
            self.fail("Unexpected '%s' in PATTERN" % self.peek().text)
        return tree

    def alternation(self):
        first = self.peek()
        options = [self.concat()]
        while self.is_op("|"):
            self.i += 1
            options.append(self.concat())
        if len(options) == 1:
            return options[0]
        return self.node(Alternation, first, options=options)

    def concat(self):
        first = self.peek()
        items = []
        while True:
            t = self.peek()
            if t is None or (t.kind == "OP" and t.text in ("|", ")", ",")) or self._at_exclusion_end():
                break
            items.append(self.term())
        if not items:
            return self.node(Empty, first)
        if len(items) == 1:
            return items[0]
        return self.node(Concat, first, items=items)

    def _at_exclusion_end(self):
        return self.is_op("-") and self.is_op("}", 1)

    def term(self):
        tok = self.peek()
        prim = self.primary()
        q = self.quantifier(prim, tok)
        if q is not None:
            nxt = self.peek()
            if nxt is not None and nxt.kind == "OP" and nxt.text in ("*", "+", "?") or self.is_op("{") and not self.is_op("-", 1):
                self.fail("A pattern element takes one quantifier; put it in parentheses to quantify again",
                          hint="e.g. (A{2})+")
            return q
        return prim

    def primary(self):
        t = self.peek()
        if t is None:
            self.fail("PATTERN ends where a pattern variable was expected")
        if t.kind == "OP" and t.text == "(":
            self.i += 1
            body = self.alternation()
            if not self.is_op(")"):
                self.fail("Expected ')' in PATTERN")
            self.i += 1
            return self.node(Group, t, body=body)
        if t.kind == "OP" and t.text in ("^", "$"):
            self.i += 1
            return self.node(Anchor, t, kind=t.text)
        if t.kind == "OP" and t.text == "{" and self.is_op("-", 1):
            self.i += 2
            body = self.alternation()
            if not self._at_exclusion_end():
                self.fail("Expected '-}' to close the exclusion '{-'")
            self.i += 2
            return self.node(Exclusion, t, body=body)
        if t.is_word("PERMUTE") and self.is_op("(", 1):
            self.i += 2
            items = [self.alternation()]
            while self.is_op(","):
                self.i += 1
                items.append(self.alternation())
            if not self.is_op(")"):
                self.fail("Expected ')' to close PERMUTE(")
            self.i += 1
            return self.node(Permute, t, items=items)
        name = name_of(t)
        if name is None:
            self.fail("Unexpected '%s' in PATTERN: expected a pattern variable" % t.text)
        self.i += 1
        return self.node(Var, t, name=name)

    def quantifier(self, body, start_tok):
        t = self.peek()
        if t is None or t.kind != "OP":
            return None
        if t.text in ("*", "+", "?"):
            self.i += 1
            lo, hi = {"*": (0, None), "+": (1, None), "?": (0, 1)}[t.text]
            text = t.text
        elif t.text == "{" and not self.is_op("-", 1):
            self.i += 1
            lo = hi = None
            n = self.peek()
            if n is not None and n.kind == "NUMBER":
                lo = self._int(n)
                self.i += 1
            if self.is_op(","):
                self.i += 1
                m = self.peek()
                if m is not None and m.kind == "NUMBER":
                    hi = self._int(m)
                    self.i += 1
                if lo is None:
                    if hi is None:
                        self.fail("Quantifier {,} needs an upper bound: {,m}")
                    lo = 0
                    text = "{,%d}" % hi
                else:
                    text = "{%d,%s}" % (lo, "" if hi is None else hi)
            else:
                if lo is None:
                    self.fail("Quantifier '{' needs a number: {n}, {n,}, {n,m} or {,m}")
                hi = lo
                text = "{%d}" % lo
            if not self.is_op("}"):
                self.fail("Expected '}' to close the quantifier")
            self.i += 1
            if hi is not None and hi < lo:
                self.fail("Quantifier %s: the upper bound is below the lower bound" % text, t)
            if hi == 0:
                self.fail("Quantifier %s: the upper bound must be greater than 0" % text, t)
        else:
            return None
        greedy = True
        if self.is_op("?"):
            self.i += 1
            greedy = False
            text += "?"
        line, col = self.where(start_tok)
        return Quantified(line=line, column=col, body=body, min=lo, max=hi, greedy=greedy, text=text)

    def _int(self, tok):
        if not tok.text.isdigit():
            self.fail("Quantifier bounds are whole numbers", tok)
        return integer_literal(tok.text, "A quantifier's bound", self.where(tok), minimum=0, maximum=INT_MAX)


# ---- structural questions ------------------------------------------------------------------------

def unwrap(node):
    """Drop groups that only bracket a single element or a concatenation (they change nothing)."""
    while isinstance(node, Group):
        node = node.body
    return node


def can_match_empty(node):
    """True when the pattern can match zero rows."""
    node = unwrap(node)
    if node is None or isinstance(node, (Empty, Anchor)):
        return True
    if isinstance(node, Var):
        return False
    if isinstance(node, Concat):
        return all(can_match_empty(i) for i in node.items)
    if isinstance(node, Permute):
        return all(can_match_empty(i) for i in node.items)
    if isinstance(node, Alternation):
        return any(can_match_empty(i) for i in node.options)
    if isinstance(node, Quantified):
        return node.min == 0 or can_match_empty(node.body)
    if isinstance(node, Exclusion):
        return can_match_empty(node.body)
    return True


def flat_elements(node):
    """The pattern as a flat list of (Var name, min, max, greedy, Quantified-or-None), or None when it is
    not a plain sequence of (quantified) variables - the only shape Flink's CEP translation accepts."""
    node = unwrap(node)
    items = node.items if isinstance(node, Concat) else [node]
    out = []
    for it in items:
        it = unwrap(it)
        if isinstance(it, Concat):
            sub = flat_elements(it)
            if sub is None:
                return None
            out.extend(sub)
        elif isinstance(it, Var):
            out.append((it.name, 1, 1, True, None))
        elif isinstance(it, Quantified) and isinstance(unwrap(it.body), Var):
            out.append((unwrap(it.body).name, it.min, it.max, it.greedy, it))
        else:
            return None
    return out
