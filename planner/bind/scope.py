"""What names an expression can see: the columns of the FROM items, each with the qualifier (table alias)
it is known by and the input field that holds it. Nested ROW fields are reached with dots
(`t.bid.price`, `bid.price`)."""

from dataclasses import dataclass

from ..errors import SqlError


@dataclass(frozen=True)
class ScopeEntry:
    qualifier: str      # the table alias (None for a derived column without one)
    name: str           # the column name as the query writes it
    field: object       # plan.fields.Field of the input row holding it


class Scope:
    def __init__(self, entries, parent=None):
        self.entries = list(entries)

    @property
    def qualifiers(self):
        return list(dict.fromkeys(e.qualifier for e in self.entries if e.qualifier is not None))

    def with_qualifier(self, qualifier):
        return Scope([ScopeEntry(qualifier, e.name, e.field) for e in self.entries])

    def columns(self, qualifier=None):
        return [e for e in self.entries if qualifier is None or e.qualifier == qualifier]

    def resolve(self, parts, position):
        """Name parts (`['t', 'bid', 'price']`) -> (ScopeEntry, [nested field names]). Raises SqlError with
        Flink's messages: not found, ambiguous, unknown table."""
        if len(parts) >= 2:
            q = parts[0]
            hits = [e for e in self.entries if e.qualifier == q and e.name == parts[1]]
            if hits:
                return self._one(hits, "%s.%s" % (q, parts[1]), position), list(parts[2:])
            if q in self.qualifiers and not self._named(q):
                close = [e.name for e in self.entries if e.qualifier == q and e.name.lower() == parts[1].lower()]
                raise SqlError("Column '%s' not found in table '%s'" % (parts[1], q), *position,
                               hint=self._hint(close, [e.name for e in self.entries if e.qualifier == q]))
        name = parts[0]
        hits = [e for e in self.entries if e.name == name]
        if hits:
            return self._one(hits, name, position), list(parts[1:])
        if len(parts) >= 2 and parts[0] not in self.qualifiers:
            known = self.qualifiers
            close = [q for q in known if q.lower() == parts[0].lower()]
            if close or not any(e.name.lower() == name.lower() for e in self.entries):
                raise SqlError("Table '%s' not found" % parts[0], *position,
                               hint=("names are case-sensitive: `%s`" % close[0]) if close else
                               ("tables in scope: " + ", ".join(known)) if known else None)
        close = [e.name for e in self.entries if e.name.lower() == name.lower()]
        raise SqlError("Column '%s' not found in any table" % ".".join(parts[:2] if len(parts) > 1 else parts),
                       *position, hint=self._hint(close, [e.name for e in self.entries]))

    def _named(self, name):
        return any(e.name == name for e in self.entries)

    def _one(self, hits, text, position):
        if len({id(e.field) for e in hits}) > 1 and len({e.field.name for e in hits}) > 1:
            raise SqlError("Column '%s' is ambiguous" % text, *position, hint="qualify it with a table alias")
        return hits[0]

    @staticmethod
    def _hint(close, names):
        if close:
            return "names are case-sensitive: `%s`" % close[0]
        names = list(dict.fromkeys(names))
        if not names:
            return None
        shown = names[:20]
        return "columns in scope: " + ", ".join(shown) + (", ..." if len(names) > 20 else "")
