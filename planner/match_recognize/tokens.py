"""A small tokenizer for the text inside `MATCH_RECOGNIZE ( ... )`, keeping every token's offset.

It only needs to find clause keywords, commas and parentheses at the top level, and the tokens of
PATTERN's regular expressions; expressions themselves are handed to sqlglot as text. Positions are
reported in the user's statement coordinates (the line/column where the clause text starts)."""

from dataclasses import dataclass

from planner.errors import SqlError


@dataclass
class Token:
    kind: str       # WORD (unquoted identifier/keyword), QWORD (`quoted`), STRING, NUMBER, OP
    text: str       # as written (for QWORD/STRING: without quotes, unescaped)
    start: int      # offset in the clause text
    end: int        # offset just past the token

    @property
    def upper(self):
        return self.text.upper() if self.kind == "WORD" else None

    def is_word(self, *words):
        return self.kind == "WORD" and self.text.upper() in words


class Positions:
    """Maps an offset in the clause text to (line, column) in the user's statement."""

    def __init__(self, text, line=1, column=1):
        self.text = text
        self.line = line
        self.column = column

    def at(self, offset):
        before = self.text[:offset]
        nl = before.count("\n")
        if nl == 0:
            return self.line, self.column + offset
        return self.line + nl, offset - before.rfind("\n")

    def error(self, message, offset, hint=None, cls=SqlError):
        line, col = self.at(offset)
        return cls(message, line, col, hint)


_TWO_CHAR_OPS = ("<=", ">=", "<>", "!=", "||", "::")


def tokenize(text, positions):
    toks = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise positions.error("Unclosed comment", i)
            i = j + 2
            continue
        if c.isalpha() or c == "_":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] in "_$"):
                j += 1
            toks.append(Token("WORD", text[i:j], i, j))
            i = j
            continue
        if c.isdigit():
            j = i + 1
            while j < n and (text[j].isdigit() or text[j] == "."):
                j += 1
            toks.append(Token("NUMBER", text[i:j], i, j))
            i = j
            continue
        if c in "`'\"":
            j = i + 1
            buf = []
            while True:
                if j >= n:
                    raise positions.error("Unclosed %s" % ("string" if c == "'" else "quoted identifier"), i)
                if text[j] == c:
                    if j + 1 < n and text[j + 1] == c:
                        buf.append(c)
                        j += 2
                        continue
                    break
                buf.append(text[j])
                j += 1
            kind = "STRING" if c == "'" else "QWORD"
            toks.append(Token(kind, "".join(buf), i, j + 1))
            i = j + 1
            continue
        if text[i:i + 2] in _TWO_CHAR_OPS:
            toks.append(Token("OP", text[i:i + 2], i, i + 2))
            i += 2
            continue
        toks.append(Token("OP", c, i, i + 1))
        i += 1
    return toks


def name_of(tok):
    """An identifier token's name (quoted or not), or None."""
    if tok is not None and tok.kind in ("WORD", "QWORD"):
        return tok.text
    return None
