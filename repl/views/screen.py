"""What the two full-screen result views share: a prompt_toolkit Application with a title line, a
grid body, a status line, scrolling keys, Q / Ctrl-C to leave, and a task that drains the query's
ChangeStream into the view while it runs.

A view subclass decides what a change does to its rows (`apply`) and which rows it shows
(`visible_rows`). This module does not stop Spark by itself: leaving calls `stream.stop()`, the
runtime's stopper does the rest.

What the user types or pastes while the view is open is kept (`typed_ahead()`), shown on the status
line, and handed to the shell when the view closes, which runs it at the prompt. Q and G are keys of the
view only while nothing has been typed and no more input is waiting (a paste arrives as one burst of
keys, bracketed or not): inside typed or pasted text they are letters. Esc and Ctrl-C always leave."""

import asyncio

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.styles import Style

from ..render import format_value
from ..toolbar import stream_counters

VIEW_STYLE = Style.from_dict({
    "title": "reverse bold",
    "header": "bold underline",
    "status": "reverse",
    "status.finished": "reverse ansigreen",
    "status.failed": "reverse ansired",
    "op.insert": "ansigreen",
    "op.retract": "ansired",
    "op.update": "ansiyellow",
    "selected": "reverse",
})

REFRESH_INTERVALS = [0.1, 0.5, 1.0, 5.0, 10.0, 60.0, None]    # seconds; None: paused (Flink's are alike)

OP_STYLES = {"+I": "class:op.insert", "+U": "class:op.update", "-U": "class:op.retract",
             "-D": "class:op.retract"}


def fit(text, width):
    """`text` on one line, cut (with `…`) or padded to `width`."""
    text = text.replace("\n", " ")
    if len(text) > width:
        return text[:max(width - 1, 0)] + "…"
    return text


class StreamScreen:
    """A full-screen view of one running query. `run()` returns when the user leaves."""

    view_name = "view"
    shows_op = False           # an `op` column before the result's columns
    poll_interval = 0.1

    def __init__(self, stream, max_column_width=30, time_zone="UTC"):
        self.stream = stream
        self.time_zone = time_zone
        self.max_column_width = max(int(max_column_width), 4)
        self.columns = list(stream.columns)
        self.top = 0               # first row shown
        self.left = 0              # first character shown (horizontal scroll)
        self.follow = True         # keep the last rows in view as changes arrive
        self.application = None
        self.stopped_by_user = False   # the user left while the query still ran
        self.typed = []                # what the user typed or pasted meanwhile: the shell runs it later
        self.selected = None           # the selected row's index (None: none yet; the top row is meant)
        self.open_row = None           # (op, row) shown whole, or None
        self.searching = None          # the search text being typed after '/', or None
        self.last_search = ""
        self.search_note = ""          # 'no row holds ...'
        self.refresh = REFRESH_INTERVALS.index(self.poll_interval) if self.poll_interval in REFRESH_INTERVALS else 0

    # --- what subclasses define
    def apply(self, op, row):
        raise NotImplementedError

    def row_count(self):
        raise NotImplementedError

    def visible_rows(self, start, stop):
        """[(op or None, row tuple)] for rows start..stop."""
        raise NotImplementedError

    def header_cells(self):
        return [c.name for c in self.columns]

    def status_extra(self):
        return ""

    # --- change intake
    def drain(self, limit=50000):
        """Apply every change waiting in the stream (at most `limit`); True if any arrived."""
        applied = 0
        while applied < limit:
            batch = self.stream.poll(0)
            if batch is None:
                break
            for op, row in batch.changes:
                self.apply(op, row)
            applied += max(len(batch.changes), 1)
        return applied > 0

    @property
    def refresh_interval(self):
        """Seconds between two looks at the stream; None: paused."""
        return REFRESH_INTERVALS[self.refresh]

    async def _pump(self):
        announced_end = False
        while True:
            if self.refresh_interval is None:       # paused: the changes wait in the stream
                await asyncio.sleep(0.1)
                continue
            changed = self.drain()
            if changed:
                self.application.invalidate()
            if self.stream.finished and not announced_end:
                announced_end = True
                self.application.invalidate()
            waited = 0.0
            while self.refresh_interval is not None and waited < self.refresh_interval:
                await asyncio.sleep(0.1)          # a shorter interval chosen meanwhile takes effect soon
                waited += 0.1

    # --- drawing
    def _size(self):
        if self.application is None:
            return 24, 80
        size = self.application.output.get_size()
        return size.rows, size.columns

    def body_height(self):
        rows, _ = self._size()
        return max(rows - 4, 1)       # title, header, rule, status

    def _cell_texts(self, op, row):
        cells = [op] if self.shows_op else []
        for column, value in zip(self.columns, row):
            cells.append(format_value(value, column.type, self.time_zone))
        return cells

    def _grid(self):
        height = self.body_height()
        count = self.row_count()
        if self.follow:
            self.top = max(count - height, 0)
        if self.selected is not None:
            self.selected = max(min(self.selected, count - 1), 0)
            if self.selected < self.top:
                self.top = self.selected
            elif self.selected >= self.top + height:
                self.top = self.selected - height + 1
        self.top = max(min(self.top, max(count - height, 0)), 0)
        shown = self.visible_rows(self.top, self.top + height)
        headers = (["op"] if self.shows_op else []) + self.header_cells()
        texts = [self._cell_texts(op, row) for op, row in shown]
        widths = [min(max([len(h)] + [len(t[i]) for t in texts]), self.max_column_width)
                  for i, h in enumerate(headers)]
        return headers, shown, texts, widths

    def _line(self, cells, widths, numeric):
        parts = []
        for cell, width, right in zip(cells, widths, numeric):
            cell = fit(cell, width)
            parts.append(cell.rjust(width) if right else cell.ljust(width))
        return " " + " | ".join(parts)

    def _numeric_columns(self):
        flags = [False] if self.shows_op else []
        for c in self.columns:
            t = c.type.upper()
            flags.append(t.startswith(("TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE",
                                       "DECIMAL", "DEC", "NUMERIC", "REAL")))
        return flags

    def _body_fragments(self):
        if self.open_row is not None:
            return self._open_row_fragments()
        _, width = self._size()
        headers, shown, texts, widths = self._grid()
        numeric = self._numeric_columns()
        header = self._line(headers, widths, [False] * len(headers))
        rule = "-" * min(len(header) + 1, 10000)
        out = [("class:header", self._clip(header, width)), ("", "\n"),
               ("", self._clip(rule, width)), ("", "\n")]
        for index, ((op, _row), cells) in enumerate(zip(shown, texts)):
            line = self._clip(self._line(cells, widths, numeric), width)
            if self.top + index == self.selected:
                out.append(("class:selected", line.ljust(width)))
            elif self.shows_op and op in OP_STYLES:
                out.append((OP_STYLES[op], line[:4]))
                out.append(("", line[4:]))
            else:
                out.append(("", line))
            out.append(("", "\n"))
        if not shown:
            out.append(("class:status", " (no rows yet)") if not self.stream.finished
                       else ("", " (empty result)"))
        return out

    def _open_row_fragments(self):
        """The selected row with every value whole: a line a column, long values wrapped."""
        import textwrap
        _, width = self._size()
        op, row = self.open_row
        cells = self._cell_texts(op, row)[1 if self.shows_op else 0:]
        names = [c.name for c in self.columns]
        pad = max([len(n) for n in names] + [2])
        out = [("class:header", " Row%s (O, Enter or Esc returns to the rows)" % (" " + op if op else "")),
               ("", "\n\n")]
        for name, column, text in zip(names, self.columns, cells):
            lines = textwrap.wrap(text, max(width - pad - 4, 10), drop_whitespace=False) or [""]
            out.append(("class:header", " " + name.ljust(pad)))
            out.append(("", " " + lines[0] + "\n"))
            for more in lines[1:]:
                out.append(("", " " * (pad + 2) + more + "\n"))
            out.append(("", " " * (pad + 2) + "(%s)\n" % column.type))
        return out

    def _clip(self, line, width):
        return line[self.left:self.left + width]

    def _title_fragments(self):
        desc = " ".join((self.stream.description or "").split())
        keys = "Q quit  ↑↓ select  O open  / search  +- refresh  PgUp PgDn N P L  ←→ pan"
        _, width = self._size()
        text = " dynsql %s | %s" % (self.view_name, desc)
        room = max(width - len(keys) - 2, 10)
        return [("class:title", fit(text, room).ljust(room) + "  " + keys)]

    def typed_ahead(self):
        """The text typed or pasted while the view was open."""
        return "".join(self.typed)

    def _typed_fragment(self):
        typed = " ".join(self.typed_ahead().split())
        if not typed:
            return ""
        shown = typed if len(typed) <= 40 else "…" + typed[-39:]
        return "typed: %s (runs at the prompt; Esc leaves)" % shown

    def _view_fragment(self):
        """The search being typed, the page shown and the refresh interval."""
        if self.searching is not None:
            return "search: %s (Enter finds, Esc cancels)" % self.searching
        height = self.body_height()
        pages = max((self.row_count() + height - 1) // height, 1)
        page = min(self.top // height + 1, pages)
        interval = self.refresh_interval
        refresh = "paused" if interval is None else (
            "%d ms" % (interval * 1000) if interval < 1 else "%d s" % interval)
        parts = [self.search_note] if self.search_note else []
        parts.append("page %d of %d" % (page, pages))
        parts.append("refresh %s" % refresh)
        return ", ".join(parts)

    def _status_fragments(self):
        stream = self.stream
        parts = [self._typed_fragment(), self._view_fragment(), self.status_extra(), stream_counters(stream)]
        if stream.error is not None:
            message = getattr(stream.error, "render", lambda: str(stream.error))()
            return [("class:status.failed", " [ERROR] %s | %s" % (" ".join(message.split()),
                                                                  " | ".join(p for p in parts if p)))]
        if stream.finished:
            return [("class:status.finished", " Q returns to the prompt | " + " | ".join(p for p in parts if p))]
        return [("class:status", " " + " | ".join(p for p in parts if p))]

    # --- keys
    def _row_at(self, index):
        rows = self.visible_rows(index, index + 1)
        return rows[0] if rows else None

    def select(self, delta):
        """Move the selection by `delta` rows."""
        count = self.row_count()
        if not count:
            return
        self.follow = False
        if self.selected is None:      # the first ↓ selects the top row shown, the first ↑ the bottom one
            shown = min(self.body_height(), count - self.top)
            self.selected = self.top if delta > 0 else self.top + max(shown, 1) - 1
            return
        self.selected = max(min(self.selected + delta, count - 1), 0)

    def find(self, text):
        """Select the next row after the selected one whose shown values hold `text` (any case), wrapping."""
        self.search_note = ""
        if not text:
            return
        count = self.row_count()
        start = -1 if self.selected is None else self.selected
        needle = text.lower()
        for step in range(1, count + 1):
            index = (start + step) % count
            op, row = self._row_at(index)
            if any(needle in cell.lower() for cell in self._cell_texts(op, row)):
                self.follow = False
                self.selected = index
                return
        self.search_note = "no row holds '%s'" % text

    def open_selected(self):
        index = self.top if self.selected is None else self.selected
        self.open_row = self._row_at(index)

    def _is_text(self, event):
        """A key of the view (Q, G, O, /, + ...) is a letter when text is being typed or more input is
        waiting."""
        return bool(self.typed) or bool(event.app.key_processor.input_queue)

    def _key_bindings(self):
        kb = KeyBindings()

        @kb.add("c-c")
        def _leave(event):
            event.app.exit()

        @kb.add("escape", eager=True)
        def _back_or_leave(event):
            if self.open_row is not None:
                self.open_row = None
            elif self.searching is not None:
                self.searching = None
            else:
                event.app.exit()

        def view_key(handler):
            """A letter or sign that is a key of the view when nothing is being typed (see _is_text)."""
            def run(event):
                if self.searching is not None:
                    self.searching += event.data
                elif self._is_text(event):
                    self.typed.append(event.data)
                else:
                    handler(event)
            return run

        @kb.add("q")
        @kb.add("Q")
        @view_key
        def _quit(event):
            if self.open_row is not None:
                self.open_row = None
            else:
                event.app.exit()

        @kb.add(Keys.Any)
        def _type(event):
            if len(event.data) == 1 and (event.data.isprintable() or event.data == "\t"):
                if self.searching is not None:
                    self.searching += event.data
                else:
                    self.typed.append(event.data)

        @kb.add("enter")
        @kb.add("c-j")
        def _enter(event):
            if self.searching is not None:
                text, self.searching = self.searching or self.last_search, None
                self.last_search = text
                self.find(text)
            elif self.typed or event.app.key_processor.input_queue:
                self.typed.append("\n")
            elif self.open_row is not None:
                self.open_row = None
            else:
                self.open_selected()

        @kb.add("backspace")
        def _rub_out(event):
            if self.searching is not None:
                self.searching = self.searching[:-1]
            elif self.typed:
                self.typed.pop()

        @kb.add(Keys.BracketedPaste)
        def _paste(event):
            self.typed.append(event.data.replace("\r\n", "\n").replace("\r", "\n"))

        def page(delta):
            if self.selected is not None:
                self.select(delta)
                return
            self.follow = False
            self.top = max(self.top + delta, 0)
            if self.top >= max(self.row_count() - self.body_height(), 0):
                self.follow = True

        kb.add("up")(lambda e: self.select(-1))
        kb.add("down")(lambda e: self.select(1))
        kb.add("pageup")(lambda e: page(-self.body_height()))
        kb.add("pagedown")(lambda e: page(self.body_height()))

        @kb.add("home")
        def _home(event):
            self.follow = False
            self.top = 0
            if self.selected is not None:
                self.selected = 0

        @kb.add("end")
        def _end(event):
            self.follow = True
            self.selected = None

        kb.add("g")(view_key(_home))
        kb.add("G")(view_key(_end))
        kb.add("l")(view_key(_end))
        kb.add("L")(view_key(_end))
        for letter in "nN":
            kb.add(letter)(view_key(lambda e: page(self.body_height())))
        for letter in "pP":
            kb.add(letter)(view_key(lambda e: page(-self.body_height())))
        for letter in "oO":
            kb.add(letter)(view_key(lambda e: _enter_row()))

        def _enter_row():
            if self.open_row is not None:
                self.open_row = None
            else:
                self.open_selected()

        @kb.add("/")
        @view_key
        def _search(event):
            self.searching = ""

        @kb.add("+")
        @view_key
        def _faster(event):
            self.refresh = max(self.refresh - 1, 0)

        @kb.add("-")
        @view_key
        def _slower(event):
            self.refresh = min(self.refresh + 1, len(REFRESH_INTERVALS) - 1)

        @kb.add("left")
        def _left(event):
            self.left = max(self.left - 8, 0)

        @kb.add("right")
        def _right(event):
            self.left += 8

        return kb

    # --- running
    def build_application(self, **io):
        layout = Layout(HSplit([
            Window(FormattedTextControl(self._title_fragments), height=1),
            Window(FormattedTextControl(self._body_fragments), wrap_lines=False),
            Window(FormattedTextControl(self._status_fragments), height=1),
        ]))
        self.application = Application(layout=layout, key_bindings=self._key_bindings(),
                                       style=VIEW_STYLE, full_screen=True, refresh_interval=0.5,
                                       mouse_support=False, **io)
        return self.application

    def run(self, **io):
        """Show the view until Q / Ctrl-C; stop the query if it still runs. `io`: input=/output=."""
        app = self.build_application(**io)
        try:
            app.run(pre_run=lambda: app.create_background_task(self._pump()))
        except KeyboardInterrupt:
            pass
        finally:
            self.drain()
            if not self.stream.finished:
                self.stopped_by_user = True
                self.stream.stop()
                self.drain()           # what arrived before the stop, and the end marker
        return self
