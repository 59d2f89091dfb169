"""The interactive shell: `run_shell(client)` reads statements at a `Flink SQL>` prompt and shows
their results until QUIT, EXIT or Ctrl-D.

The prompt has highlighting (FlinkSqlLexer), completion (SqlCompleter over a metadata snapshot taken
after each statement), auto-suggestion and Ctrl-R search over a history file (`~/.dynsql_history`,
or `$DYNSQL_HISTORY`), and a bottom toolbar refreshed twice a second. Enter runs the buffer once it
holds complete statements. Results go to `repl.render.print_result` (messages, listings, `tableau`
mode) or to a full-screen view (`table`, `changelog` modes). What the user types or pastes while a
view is open is kept: once the view closes, complete statements run (echoed after the prompt) and the
rest waits at the next prompt. Errors print as `[ERROR] ...` and the shell carries on. Executing SQL is the client's job (`repl.client.Client`); this module never touches
Spark, so the prompt is up before the SparkSession is; a statement sent meanwhile waits for it with
a status line. What only a statement needs (the result types, the renderer, the views, the runtime's redaction)
is imported when the first one runs: the prompt is drawn with prompt_toolkit and the planner's settings alone
(tests/repl/test_prompt_imports.py)."""

import os
import signal
import sys
import threading
import time

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.lexers import DynamicLexer, PygmentsLexer
from prompt_toolkit.shortcuts import clear as clear_screen
from prompt_toolkit.styles import Style, merge_styles, style_from_pygments_cls
from pygments.styles import get_style_by_name

from .completer import MetadataSnapshot, SqlCompleter, load_function_names, load_set_keys
from .errors import error_text
from .key_bindings import is_shell_command, ready_to_submit, shell_key_bindings
from .lexer import FlinkSqlLexer
from .toolbar import ShellToolbar, change_summary, progress_bar

PROMPT = "Flink SQL> "
CONTINUATION = "> "
RESULT_MODE_KEY = "sql-client.execution.result-mode"
MAX_WIDTH_KEY = "table.display.max-column-width"
MAX_ROWS_KEY = "sql-client.execution.max-table-result.rows"
TIME_ZONE_KEY = "table.local-time-zone"
WAIT_STATUS_AFTER = 0.3      # seconds a statement may take before the wait line appears

HELP_TEXT = """\
Statements (each ends with `;` and may span lines):
  SELECT ... ;                         run a query (continuous in streaming mode)
  INSERT INTO t SELECT ... ;           run a query into a table as a background job
  CREATE TABLE t (...) WITH (...) ;    define a table (filesystem, datagen, print, blackhole)
  CREATE [TEMPORARY] VIEW v AS ... ;   define a view
  DROP TABLE|VIEW [IF EXISTS] x ;      remove a table or view
  SHOW TABLES | VIEWS | FUNCTIONS | JOBS | CREATE TABLE x ;
  DESCRIBE x ;                         columns, types, primary key, watermark
  EXPLAIN [CHANGELOG_MODE] query ;     the plan (and Spark's physical plan)
  SET 'key' = 'value' ;  SET ;  RESET ['key'] ;
      'sql-client.execution.result-mode' = 'table' | 'changelog' | 'tableau'
      'execution.runtime-mode' = 'streaming' | 'batch'
  STOP JOB 'id' ;                      stop a background job
Shell commands (with or without `;`): HELP, CLEAR, QUIT, EXIT

Keys at the prompt:
  Enter        run the statement once it ends with `;` (otherwise a new line)
  Tab          complete keywords, tables, columns, functions, SET keys and values
  Ctrl-R       search the history;   → (or Ctrl-E) take the grey suggestion
  Ctrl-C       clear the line;       Ctrl-D (empty line) leave
Keys in the table and changelog views:
  Q, Esc, Ctrl-C   stop the query and return to the prompt
  ↑ ↓ PgUp PgDn Home End   scroll;   ← →  pan
  typing, pasting  kept: it runs at the prompt once you leave (Q is then a letter: Esc leaves)"""

SHELL_STYLE = Style.from_dict({
    "prompt": "bold",
    "continuation": "",
    "bottom-toolbar": "noreverse bg:#303030 #d0d0d0",
    "toolbar.ready": "bg:#303030 ansigreen",
    "toolbar.starting": "bg:#303030 ansiyellow",
    "toolbar.failed": "bg:#303030 ansired",
    "toolbar.hint": "bg:#303030 #808080",
    "pygments.keyword.streaming": "bold ansimagenta",
})


class PrivateHistory(FileHistory):
    """The history file, owner-only, with the value of a setting or option that names a secret masked
    (runtime/redaction.py); this session's own history keeps the statement as typed."""

    def __init__(self, filename):
        fd = os.open(filename, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            os.fchmod(fd, 0o600)        # a file written before may be readable by others
        finally:
            os.close(fd)
        super().__init__(filename)

    def store_string(self, string):
        from runtime.redaction import redact_statement
        super().store_string(redact_statement(string))


def history_path():
    return os.environ.get("DYNSQL_HISTORY") or os.path.join(os.path.expanduser("~"), ".dynsql_history")


def run_shell(client, init_statements=None, setup_script=None, input=None, output=None, out=None):
    """Run the interactive shell until the user leaves. `init_statements`: SQL text (a string, or a
    list of strings) run first, its results shown. `setup_script`: SQL text (the demo tables' DDL)
    run quietly in the background once the prompt is up. `input`/`output`: prompt_toolkit I/O
    (tests); `out`: where results and messages go (default sys.stdout). Returns 0."""
    shell = Shell(client, input=input, output=output, out=out)
    return shell.run(init_statements, setup_script)


class Shell:
    def __init__(self, client, input=None, output=None, out=None):
        self.client = client
        self.out = out or sys.stdout
        self.io = {k: v for k, v in (("input", input), ("output", output)) if v is not None}
        self.toolbar = ShellToolbar(client)
        self.functions = ()           # loaded with the planner, after the first prompt is drawn
        self.set_keys = load_set_keys()
        self.snapshot = MetadataSnapshot()
        self.warmed_up = False
        self.typed_ahead = ""         # typed or pasted while a result view was open: not run yet
        self.lexer = None             # compiled after the first render (its keyword regexes take a while)
        self.session = PromptSession(
            message=[("class:prompt", PROMPT)],
            prompt_continuation=lambda width, line_number, wrap_count: [
                ("class:continuation", CONTINUATION if wrap_count == 0 else "")],
            multiline=True,
            lexer=DynamicLexer(lambda: self.lexer),
            completer=SqlCompleter(lambda: self.snapshot),
            complete_while_typing=True,
            auto_suggest=AutoSuggestFromHistory(),
            history=self._history(),
            key_bindings=shell_key_bindings(),
            bottom_toolbar=self.toolbar,
            refresh_interval=0.5,
            style=merge_styles([style_from_pygments_cls(get_style_by_name("native")), SHELL_STYLE]),
            include_default_pygments_style=False,
            **self.io,
        )

    # --- the loop
    def run(self, init_statements=None, setup_script=None):
        self.setup_script = setup_script
        if isinstance(init_statements, str):
            init_statements = [init_statements]
        if init_statements:
            self.warm_up()                    # the init script needs what the set-up defines
        for text in init_statements or ():
            if not self.run_text(text) or not self.run_typed_ahead():
                return 0
        while True:
            waiting, self.typed_ahead = self.typed_ahead, ""
            try:
                text = self.session.prompt(pre_run=self.warm_up_after_first_render, default=waiting)
            except KeyboardInterrupt:
                continue                      # Ctrl-C: the line is dropped, a fresh prompt
            except EOFError:
                break                         # Ctrl-D on an empty line
            if not text.strip():
                continue
            try:
                if not self.run_text(text) or not self.run_typed_ahead():
                    break
            except KeyboardInterrupt:         # between statements: the rest of the line is dropped
                self.say("[INFO] Cancelled.")
        self.say("Goodbye!")
        return 0

    def run_typed_ahead(self):
        """Run what was typed while a result view was open, when it holds complete statements (each
        echoed after the prompt, as if typed there); otherwise it waits at the next prompt. False when
        the user leaves."""
        while self.typed_ahead.strip() and ready_to_submit(self.typed_ahead):
            text, self.typed_ahead = self.typed_ahead.strip(), ""
            self.say(PROMPT + text)
            if not self.run_text(text):
                return False
        return True

    def warm_up_after_first_render(self):
        """Spark's start, the planner's import and the set-up script wait until the prompt is on
        the screen: the prompt is usable at once, and a statement typed meanwhile waits for them."""
        if self.warmed_up:
            return
        app = self.session.app

        def on_render(_app):
            app.after_render -= on_render
            self.warm_up()
        app.after_render += on_render

    def warm_up(self):
        if self.warmed_up:
            return
        self.warmed_up = True
        threading.Thread(target=self._load_lexer, name="dynsql-lexer", daemon=True).start()
        self.client.start()
        self.client.load_in_background(self.setup_script, then=self.load_metadata)

    def _load_lexer(self):
        """The highlighting lexer, made once the prompt is up (a line typed meanwhile is plain until it is)."""
        self.lexer = PygmentsLexer(FlinkSqlLexer)
        try:
            self.session.app.invalidate()
        except Exception:    # no application running (tests drive the shell without one)
            pass

    def load_metadata(self):
        self.functions = load_function_names()
        self.refresh_snapshot()

    def run_text(self, text):
        """Run every statement in `text`; stop at the first error. False when the user leaves."""
        if is_shell_command(text):
            return self.run_shell_command(text)
        self.warm_up()
        if not self.wait_for_setup():
            return True
        try:
            statements = self.client.split(text)
        except Exception as error:
            self.report(error)
            return True
        for statement in statements:
            if is_shell_command(statement.text):
                if not self.run_shell_command(statement.text):
                    return False
                continue
            ok = self.execute(statement)
            self.refresh_snapshot()
            if not ok:
                break
        return True

    def run_shell_command(self, text):
        command = text.strip().rstrip(";").strip().upper()
        if command in ("QUIT", "EXIT"):
            return False
        if command == "CLEAR":
            clear_screen()
        elif command == "HELP":
            self.say(HELP_TEXT)
        return True

    # --- one statement
    def execute(self, statement):
        """Execute one statement and show its result. False when it failed or was cancelled."""
        try:
            result = self._execute_waiting_for_spark(statement)
        except KeyboardInterrupt:
            self.say("[INFO] Cancelled.")
            return False
        except Exception as error:  # DynsqlError, or a failure nobody wrapped: never a crash
            self.report(error, statement)
            return False
        try:
            return self.show(result, statement.text)
        except KeyboardInterrupt:
            self.say("[INFO] Cancelled.")
        except Exception as error:
            self.report(error, statement)
        return False

    def wait_for_setup(self):
        """Wait (with a status line; Ctrl-C gives up) for the background set-up, and report its
        failure once. False when the user cancelled."""
        try:
            self._wait_showing_status(self.client.setup_thread)
        except KeyboardInterrupt:
            self.say("[INFO] Cancelled.")
            return False
        for notice in getattr(self.client, "take_notices", list)():    # a stored catalog that was not registered
            self.say(notice)
        failure = self.client.take_setup_failure()
        if failure is not None:
            self.say("[ERROR] The set-up script failed; the tables it defines may be missing.")
            self.report(failure.error, failure.statement)
        return True

    def _execute_waiting_for_spark(self, statement):
        """`client.execute` in a worker thread; while it waits (for the SparkSession to start, or
        for a long statement) the main thread shows a status line and stays interruptible."""
        outcome = {}

        def work():
            try:
                outcome["result"] = self.client.execute(statement)
            except BaseException as error:  # handed to the main thread below
                outcome["error"] = error

        worker = threading.Thread(target=work, name="dynsql-execute", daemon=True)
        worker.start()
        try:
            self._wait_showing_status(worker)
        except KeyboardInterrupt:
            self._discard_when_done(worker, outcome)
            raise
        if "error" in outcome:
            raise outcome["error"]
        return outcome.get("result")

    def _wait_showing_status(self, thread):
        """Wait for `thread` (None: nothing to wait for); once it has taken WAIT_STATUS_AFTER seconds, a
        status line says what it waits for, cleared at the end or on Ctrl-C (which is raised)."""
        started = time.time()
        status_shown = False
        try:
            while thread is not None and thread.is_alive():
                thread.join(0.1)
                if thread.is_alive() and time.time() - started >= WAIT_STATUS_AFTER:
                    self._wait_status(time.time() - started)
                    status_shown = True
        finally:
            if status_shown:
                self._clear_status()

    def _wait_status(self, waited):
        status = self.client.status()
        if status == "loading":
            text = "Loading the demo tables... %ds (Ctrl-C cancels)" % waited
        elif status == "starting":
            text = "Waiting for the Spark session to start... %ds (Ctrl-C cancels)" % waited
        elif status.startswith("failed"):
            text = "Spark session %s" % status
        else:
            text = "Running... %ds (Ctrl-C cancels)" % waited
            progress = self.client.stage_progress()
            if progress is not None:
                text = "Running... %ds %s (Ctrl-C cancels)" % (waited, progress_bar(progress))
        self.out.write("\r\x1b[2K" + text)
        self.out.flush()

    def _clear_status(self):
        self.out.write("\r\x1b[2K")
        self.out.flush()

    def _discard_when_done(self, worker, outcome):
        """A cancelled statement may still return a running query later: stop it then."""
        def reap():
            worker.join()
            result = outcome.get("result")
            from runtime.results import ChangeStream
            if isinstance(result, ChangeStream):
                result.stop()
        threading.Thread(target=reap, name="dynsql-cancelled", daemon=True).start()

    # --- results
    def show(self, result, text=""):
        from runtime.results import ChangeStream, TableResult
        mode = self.client.settings.get(RESULT_MODE_KEY)
        if isinstance(result, ChangeStream):
            self.toolbar.query_started(result)
            if mode in ("table", "changelog"):
                return self.show_in_view(result, mode)
            return self.show_tableau(result)
        if isinstance(result, TableResult) and result.is_query and mode in ("table", "changelog"):
            return self.show_in_view(finished_stream(result, text), mode)
        if result is not None:
            self.print_result(result)
        return True

    def show_in_view(self, stream, mode):
        from .views.changelog_view import ChangelogView
        from .views.table_view import TableView
        view_class = TableView if mode == "table" else ChangelogView
        settings = self.client.settings
        extra = {"max_rows": int(settings.get(MAX_ROWS_KEY))} if mode == "table" else {}
        view = view_class(stream, max_column_width=int(settings.get(MAX_WIDTH_KEY) or 30),
                          time_zone=settings.get(TIME_ZONE_KEY) or "UTC", **extra)
        view.run(**self.io)
        self.typed_ahead += view.typed_ahead()
        settle(stream)
        self.toolbar.query_ended(stream, "failed" if stream.error is not None
                                 else "stopped" if view.stopped_by_user else "finished")
        if stream.error is not None:
            self.report(stream.error)
            return False
        self.say("[INFO] %s: %s." % ("Query stopped" if view.stopped_by_user else "Query finished",
                                    change_summary(stream.stats)))
        return True

    def show_tableau(self, stream):
        """Rows printed as they arrive; Ctrl-C stops the query (the footer still prints)."""
        interrupted = []
        previous = signal.signal(signal.SIGINT, lambda signum, frame: interrupted.append(signum))
        try:
            self.print_result(stream, stop_check=lambda: bool(interrupted))
        finally:
            signal.signal(signal.SIGINT, previous)
            settle(stream)
            self.toolbar.query_ended(stream, "failed" if stream.error is not None
                                     else "stopped" if interrupted else "finished")
        if interrupted:
            self.say("[INFO] Query stopped.")
        return True

    def print_result(self, result, stop_check=None):
        from .render import print_result
        print_result(result, self.out, self.client.settings, stop_check=stop_check)
        self.out.flush()

    # --- messages
    def say(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def error(self, text):
        self.say("[ERROR] " + text)

    def report(self, error, statement=None):
        """An exception as `[ERROR] ...` (a stack trace only with 'sql-client.verbose')."""
        self.say(error_text(error, self._verbose(), statement))

    def _verbose(self):
        try:
            return bool(self.client.settings.verbose)
        except Exception:
            return False

    # --- metadata for completion
    def refresh_snapshot(self):
        if not self.client.planner_loaded:
            return
        try:
            self.snapshot = MetadataSnapshot.from_catalog(self.client.catalog, self.functions,
                                                          self.set_keys)
        except Exception:
            pass  # completion keeps the previous snapshot; it must never break the shell

    def _history(self):
        path = history_path()
        try:
            return PrivateHistory(path)
        except OSError:
            self.say("[WARNING] cannot write the history file %s: history is kept for this session only"
                     % path)
            return InMemoryHistory()


def settle(stream, wait=2.0):
    """After a stop: take what is left in the stream (counted in its stats) and its end marker."""
    deadline = time.time() + wait
    while not stream.finished and time.time() < deadline:
        stream.poll(0.05)


def finished_stream(table_result, description=""):
    """A batch query's final rows as a finished ChangeStream of +I changes, for the full-screen views."""
    from runtime.results import ChangeBatch, ChangeStream, Column
    columns = [c if isinstance(c, Column) else Column(*c) if isinstance(c, (tuple, list)) else Column(str(c), "")
               for c in table_result.columns]
    stream = ChangeStream(columns, description=description)
    stream.publish(ChangeBatch([("+I", tuple(row)) for row in table_result.rows]))
    stream.finish()
    return stream
