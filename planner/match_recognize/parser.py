"""`parse_match_recognize(text)`: the text between `MATCH_RECOGNIZE (` and its `)` -> MatchRecognizeSpec.

Clause order as in the standard (and Flink): PARTITION BY, ORDER BY, MEASURES, ONE ROW / ALL ROWS PER
MATCH, AFTER MATCH SKIP, PATTERN, WITHIN (Flink), SUBSET, DEFINE. Syntax only: names, types and what
Flink supports are checked by validation.py. Errors carry the user's line and column."""

import math

from planner.errors import SqlError
from planner.match_recognize.expressions import parse_expression
from planner.match_recognize.pattern import PatternParser
from planner.match_recognize.spec import (Definition, MatchRecognizeSpec, Measure, OrderKey, SkipTo, Subset,
                                          pattern_to_text)
from planner.match_recognize.tokens import Positions, name_of, tokenize
from planner.reserved_words import RESERVED, reserved_word_error

CLAUSE_WORDS = ("PARTITION", "ORDER", "MEASURES", "ONE", "ALL", "AFTER", "PATTERN", "WITHIN", "SUBSET", "DEFINE")

_UNIT_MS = {
    "MILLISECOND": 1, "MILLISECONDS": 1, "SECOND": 1000, "SECONDS": 1000, "MINUTE": 60000, "MINUTES": 60000,
    "HOUR": 3600000, "HOURS": 3600000, "DAY": 86400000, "DAYS": 86400000,
}


def parse_match_recognize(text, line=1, column=1):
    """Parse the clause body; `line`/`column` say where `text` starts in the user's statement."""
    return _ClauseParser(text, Positions(text, line, column)).parse()


class _ClauseParser:
    def __init__(self, text, positions):
        self.text = text
        self.pos = positions
        self.toks = tokenize(text, positions)
        self.i = 0

    # -- helpers
    def peek(self, k=0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def word(self, *words, k=0):
        t = self.peek(k)
        return t is not None and t.is_word(*words)

    def op(self, text, k=0):
        t = self.peek(k)
        return t is not None and t.kind == "OP" and t.text == text

    def offset(self):
        t = self.peek()
        return t.start if t is not None else len(self.text)

    def fail(self, message, hint=None, tok=None):
        off = tok.start if tok is not None else self.offset()
        raise self.pos.error(message, off, hint)

    def expect_word(self, *words):
        if not self.word(*words):
            t = self.peek()
            self.fail("Expected %s in MATCH_RECOGNIZE%s" % (" ".join(words[:1]) if len(words) == 1
                                                             else " or ".join(words),
                                                             ", found '%s'" % t.text if t else " at its end"))
        self.i += 1

    def expect_op(self, text, what):
        if not self.op(text):
            t = self.peek()
            self.fail("Expected '%s' %s%s" % (text, what, ", found '%s'" % t.text if t else ""))
        self.i += 1

    def at_clause(self):
        t = self.peek()
        if t is None:
            return True
        if not t.kind == "WORD":
            return False
        u = t.text.upper()
        if u in ("PARTITION", "ORDER"):
            return self.word("BY", k=1)
        if u == "ONE":
            return self.word("ROW", k=1)
        if u == "ALL":
            return self.word("ROWS", k=1)
        if u == "AFTER":
            return self.word("MATCH", k=1)
        if u in ("PATTERN",):
            return self.op("(", k=1)
        return u in ("MEASURES", "WITHIN", "SUBSET", "DEFINE")

    def items(self):
        """Token index ranges of the comma-separated items up to the next clause keyword (depth 0)."""
        out = []
        start = self.i
        depth = 0
        while True:
            t = self.peek()
            if t is None or (depth == 0 and self.at_clause()):
                break
            if t.kind == "OP" and t.text == "(":
                depth += 1
            elif t.kind == "OP" and t.text == ")":
                depth -= 1
                if depth < 0:
                    self.fail("Unbalanced ')'")
            elif t.kind == "OP" and t.text == "," and depth == 0:
                out.append((start, self.i))
                start = self.i + 1
            self.i += 1
        out.append((start, self.i))
        return [(a, b) for a, b in out if a < b] if len(out) > 1 or out[0][0] < out[0][1] else []

    def slice_text(self, a, b):
        return self.text[self.toks[a].start:self.toks[b - 1].end]

    # -- clauses
    def parse(self):
        spec = MatchRecognizeSpec(line=self.pos.line, column=self.pos.column)
        if self.word("PARTITION"):
            self.i += 1
            self.expect_word("BY")
            for a, b in self.items():
                if b - a != 1 or name_of(self.toks[a]) is None:
                    self.fail("PARTITION BY takes column names", tok=self.toks[a])
                spec.partition_by.append(name_of(self.toks[a]))
            if not spec.partition_by:
                self.fail("PARTITION BY needs at least one column")
        if self.word("ORDER"):
            self.i += 1
            self.expect_word("BY")
            for a, b in self.items():
                t = self.toks[a]
                name = name_of(t)
                rest = [x.text.upper() for x in self.toks[a + 1:b]]
                if name is None or rest not in ([], ["ASC"], ["DESC"], ["ASC", "NULLS", "FIRST"],
                                                ["ASC", "NULLS", "LAST"], ["DESC", "NULLS", "FIRST"],
                                                ["DESC", "NULLS", "LAST"], ["NULLS", "FIRST"], ["NULLS", "LAST"]):
                    self.fail("ORDER BY takes column names, each optionally ASC or DESC", tok=t)
                line, col = self.pos.at(t.start)
                spec.order_by.append(OrderKey(name, "DESC" not in rest, line, col))
        if self.word("MEASURES"):
            self.i += 1
            for a, b in self.items():
                spec.measures.append(self.measure(a, b))
            if not spec.measures:
                self.fail("MEASURES needs at least one measure")
        if self.word("ONE"):
            self.i += 1
            for w in ("ROW", "PER", "MATCH"):
                self.expect_word(w)
            spec.rows_per_match = "ONE"
        elif self.word("ALL"):
            self.i += 1
            for w in ("ROWS", "PER", "MATCH"):
                self.expect_word(w)
            spec.rows_per_match = "ALL"
            if self.word("SHOW") and self.word("EMPTY", k=1):
                self.i += 2
                self.expect_word("MATCHES")
                spec.empty_matches = "SHOW"
            elif self.word("OMIT") and self.word("EMPTY", k=1):
                self.i += 2
                self.expect_word("MATCHES")
                spec.empty_matches = "OMIT"
            elif self.word("WITH") and self.word("UNMATCHED", k=1):
                self.i += 2
                self.expect_word("ROWS")
                spec.empty_matches = "UNMATCHED"
        if self.word("AFTER"):
            spec.after_match = self.after_match()
        if not self.word("PATTERN"):
            self.fail("MATCH_RECOGNIZE needs a PATTERN clause" if self.peek() is None
                      else "Unexpected '%s' in MATCH_RECOGNIZE: expected PATTERN" % self.peek().text,
                      hint="clauses in order: PARTITION BY, ORDER BY, MEASURES, ONE ROW PER MATCH, "
                           "AFTER MATCH SKIP, PATTERN, WITHIN, SUBSET, DEFINE")
        self.pattern(spec)
        if self.word("WITHIN"):
            self.within(spec)
        if self.word("SUBSET"):
            self.i += 1
            for a, b in self.items():
                spec.subsets.append(self.subset(a, b))
        if self.word("DEFINE"):
            self.i += 1
            for a, b in self.items():
                spec.definitions.append(self.definition(a, b))
            if not spec.definitions:
                self.fail("DEFINE needs at least one definition")
        if self.peek() is not None:
            self.fail("Unexpected '%s' in MATCH_RECOGNIZE" % self.peek().text,
                      hint="clauses in order: PARTITION BY, ORDER BY, MEASURES, ONE ROW PER MATCH, "
                           "AFTER MATCH SKIP, PATTERN, WITHIN, SUBSET, DEFINE")
        return spec

    def _split_as(self, a, b):
        """Index of the top-level AS in tokens [a, b), or None."""
        depth = 0
        for k in range(a, b):
            t = self.toks[k]
            if t.kind == "OP" and t.text == "(":
                depth += 1
            elif t.kind == "OP" and t.text == ")":
                depth -= 1
            elif depth == 0 and t.is_word("AS"):
                return k
        return None

    def measure(self, a, b):
        k = self._split_as(a, b)
        if k is None or k == a or k + 2 != b or name_of(self.toks[k + 1]) is None:
            self.fail("A measure is written 'expression AS name'", tok=self.toks[a])
        semantics = None
        ea = a
        if self.toks[a].is_word("RUNNING", "FINAL") and a + 1 < k and not (
                self.toks[a + 1].kind in ("WORD", "QWORD") and a + 2 < k and self.toks[a + 2].text == "("):
            semantics = self.toks[a].text.upper()
            ea = a + 1
        text = self.slice_text(ea, k)
        expr = parse_expression(text, Positions(text, *self.pos.at(self.toks[ea].start)), 0)
        alias = self.toks[k + 1]
        if alias.kind == "WORD" and alias.text.upper() in RESERVED:
            raise reserved_word_error(alias.text, *self.pos.at(alias.start))
        line, col = self.pos.at(self.toks[a].start)
        return Measure(name_of(self.toks[k + 1]), expr, self.slice_text(a, k), semantics, line, col)

    def definition(self, a, b):
        if b - a < 3 or name_of(self.toks[a]) is None or not self.toks[a + 1].is_word("AS"):
            self.fail("A definition is written 'VARIABLE AS condition'", tok=self.toks[a])
        text = self.slice_text(a + 2, b)
        expr = parse_expression(text, Positions(text, *self.pos.at(self.toks[a + 2].start)), 0)
        line, col = self.pos.at(self.toks[a].start)
        return Definition(name_of(self.toks[a]), expr, text, line, col, *self.pos.at(self.toks[a + 2].start))

    def subset(self, a, b):
        toks = self.toks[a:b]
        if len(toks) < 5 or name_of(toks[0]) is None or toks[1].text != "=" or toks[2].text != "(" \
                or toks[-1].text != ")":
            self.fail("A subset is written 'NAME = (VAR, VAR, ...)'", tok=self.toks[a])
        names, written = [], []
        for k, t in enumerate(toks[3:-1]):
            if k % 2 == 1:
                if t.text != ",":
                    self.fail("Expected ',' between the variables of a SUBSET", tok=t)
            elif name_of(t) is None:
                self.fail("Expected a pattern variable in SUBSET", tok=t)
            else:
                names.append(name_of(t))
                written.append((name_of(t),) + self.pos.at(t.start))
        line, col = self.pos.at(toks[0].start)
        return Subset(name_of(toks[0]), names, line, col, written)

    def after_match(self):
        t0 = self.peek()
        line, col = self.pos.at(t0.start)
        self.i += 1
        self.expect_word("MATCH")
        self.expect_word("SKIP")
        if self.word("PAST"):
            self.i += 1
            self.expect_word("LAST")
            self.expect_word("ROW")
            return SkipTo("PAST_LAST_ROW", None, True, line, col)
        self.expect_word("TO")
        if self.word("NEXT"):
            self.i += 1
            self.expect_word("ROW")
            return SkipTo("NEXT_ROW", None, True, line, col)
        kind = "TO_LAST"   # the standard: SKIP TO v means SKIP TO LAST v
        if self.word("FIRST", "LAST"):
            kind = "TO_" + self.peek().text.upper()
            self.i += 1
        name = name_of(self.peek())
        if name is None:
            self.fail("AFTER MATCH SKIP TO needs a pattern variable")
        self.i += 1
        return SkipTo(kind, name, True, line, col)

    def pattern(self, spec):
        self.i += 1
        open_tok = self.peek()
        self.expect_op("(", "after PATTERN")
        depth = 1
        start = self.i
        while True:
            t = self.peek()
            if t is None:
                self.fail("PATTERN ( ... ) is not closed", tok=open_tok)
            if t.kind == "OP" and t.text == "(":
                depth += 1
            elif t.kind == "OP" and t.text == ")":
                depth -= 1
                if depth == 0:
                    break
            self.i += 1
        end = self.i
        self.i += 1
        close_tok = self.toks[end]
        spec.pattern = PatternParser(self.toks[start:end], self.pos, close_tok.start).parse()
        spec.pattern_text = pattern_to_text(spec.pattern)

    def within(self, spec):
        self.i += 1
        self.expect_word("INTERVAL")
        t = self.peek()
        if t is None or t.kind not in ("STRING", "NUMBER"):
            self.fail("WITHIN INTERVAL needs a quoted number, e.g. WITHIN INTERVAL '10' SECOND")
        self.i += 1
        u = self.peek()
        if u is None or u.kind != "WORD" or u.text.upper() not in _UNIT_MS:
            self.fail("WITHIN INTERVAL needs a unit: MILLISECOND, SECOND, MINUTE, HOUR or DAY")
        self.i += 1
        try:
            amount = float(t.text.strip())
        except ValueError:
            self.fail("WITHIN INTERVAL '%s' is not a number" % t.text, tok=t)
        ms = amount * _UNIT_MS[u.text.upper()]
        if not math.isfinite(ms) or ms <= 0 or ms != int(ms):       # 1e999 is infinity: never int() it
            self.fail("WITHIN needs a positive interval with millisecond resolution", tok=t)
        spec.within_ms = int(ms)
        spec.within_text = "INTERVAL '%s' %s" % (t.text, u.text.upper())


__all__ = ["parse_match_recognize", "SqlError"]
