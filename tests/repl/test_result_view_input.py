"""The shell around a full-screen result view: what is typed or pasted while the view is open is kept and
run when it closes (never lost, Q inside pasted text is a letter), and the toolbar says how the query
ended instead of counting on. And SHOW JOBS prints the whole id STOP JOB needs. The client is the real one (DDL and SHOW need no Spark) with SELECT
answered by a live ChangeStream that behaves as the runtime's does (rows until stopped; its watcher
finishes the stream a second time after the stop)."""

import io
import threading
import time

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from repl.client import Client
from repl.shell import Shell
from runtime.results import ChangeBatch, ChangeStream, Column


@pytest.fixture(autouse=True)
def history_file(tmp_path, monkeypatch):
    monkeypatch.setenv("DYNSQL_HISTORY", str(tmp_path / "history"))


class LiveQueryClient(Client):
    """SELECT returns a running stream of rows (one every 20 ms) until it is stopped."""

    def __init__(self):
        super().__init__()
        self.streams = []

    def execute(self, statement):
        text = getattr(statement, "text", statement)
        if not text.upper().startswith("SELECT"):
            return super().execute(statement)
        stopped = threading.Event()
        stream = ChangeStream([Column("n", "INT")], description=text, stopper=stopped.set)

        def produce():
            n = 0
            while not stopped.is_set():
                n += 1
                stream.publish(ChangeBatch([("+I", (n,))]))
                time.sleep(0.02)
            time.sleep(0.2)
            stream.finish()                 # the runtime's watcher ends the stream once more

        threading.Thread(target=produce, daemon=True).start()
        self.streams.append(stream)
        return stream


def run_shell(steps, client=None):
    """Type `steps` into the shell: each is (text, wait-for) where wait-for is None or a predicate on the
    shell checked before the text is sent (a view open, rows shown ...). Returns (output, shell)."""
    client = client or LiveQueryClient()
    out = io.StringIO()
    with create_pipe_input() as pipe:
        shell = Shell(client, input=pipe, output=DummyOutput(), out=out)
        views = []
        original = shell.show_in_view

        def show_in_view(stream, mode):
            views.append(stream)
            return original(stream, mode)
        shell.show_in_view = show_in_view

        def typist():
            for text, ready in steps:
                deadline = time.time() + 20
                while ready is not None and not ready(shell, views) and time.time() < deadline:
                    time.sleep(0.05)
                pipe.send_text(text)
                time.sleep(0.3)
        thread = threading.Thread(target=typist, daemon=True)
        thread.start()
        shell.run()
        thread.join(5)
    return out.getvalue(), shell


def view_open(count=1):
    return lambda shell, views: len(views) >= count and views[count - 1].stats.rows > 3


def test_statements_pasted_into_the_view_run_when_it_closes():
    out, shell = run_shell([
        ("CREATE TABLE q (g INT) WITH ('connector' = 'datagen');\r", None),
        ("SELECT n FROM numbers;\r", None),
        ("SHOW TABLES; SELECT * FROM q WHERE g > 1;", view_open(1)),      # one burst: q and g are letters
        ("\x03", None),                                                   # Ctrl-C leaves the first view
        ("\x03", view_open(2)),                                           # and the second
        ("\x04", None),
    ])
    assert "Flink SQL> SHOW TABLES; SELECT * FROM q WHERE g > 1;" in out
    assert "| q " in out                                                  # SHOW TABLES ran
    assert out.count("[INFO] Query stopped") == 2
    assert [s.description for s in shell.client.streams] == ["SELECT n FROM numbers", "SELECT * FROM q WHERE g > 1"]


def test_q_alone_leaves_and_typed_text_keeps_its_letters():
    out, shell = run_shell([
        ("SELECT n FROM numbers;\r", None),
        ("SHOW TAB", view_open(1)),
        ("q", None),                 # typed after text: a letter, the view stays
        ("\x1b", None),              # Esc leaves
        ("\x08LES;\r", None),        # the incomplete text waits at the prompt: finish it there
        ("\x04", None),
    ])
    assert "[ERROR]" not in out and "Empty set" in out
    assert out.count("[INFO] Query stopped") == 1


def test_a_bracketed_paste_is_kept_whole():
    out, _ = run_shell([
        ("SELECT n FROM numbers;\r", None),
        ("\x1b[200~SHOW\nTABLES;\x1b[201~", view_open(1)),
        ("\x03", None),
        ("\x04", None),
    ])
    assert "Flink SQL> SHOW\nTABLES;" in out and "Empty set" in out


def test_the_toolbar_says_how_the_query_ended():
    out, shell = run_shell([
        ("SELECT n FROM numbers;\r", None),
        ("q", view_open(1)),
        ("\x04", lambda shell, views: time.sleep(1.5) or True),   # the runtime finishes the stream again
    ])
    text = "".join(fragment for _, fragment in shell.toolbar())
    assert "last query SELECT n FROM numbers:" in text
    assert "stopped after" in text and "running" not in text, text
    stream = shell.client.streams[0]
    assert not stream.finished          # the extra end marker is still queued: the toolbar does not rely on it


class JobsClient(Client):
    """SHOW JOBS lists one job with a 32-character id (as the runtime's do); STOP JOB wants it whole."""
    JOB_ID = "3f2a9c1e8b7d46a5b0c4e6f8a1d2c3b4"

    def execute(self, statement):
        from runtime.results import MessageResult, TableResult
        text = getattr(statement, "text", statement)
        if text.upper() == "SHOW JOBS":
            return TableResult([Column("job id", "STRING"), Column("job name", "STRING"),
                                Column("status", "STRING"), Column("start time", "STRING")],
                               [(self.JOB_ID, "insert-into_default_catalog.default_database.enriched_orders_sink",
                                 "RUNNING", "2026-01-01 12:00:00")])
        if text.upper().startswith("STOP JOB"):
            job_id = text.split("'")[1]
            return MessageResult("[INFO] The specified job is stopped." if job_id == self.JOB_ID
                                 else "[ERROR] no such job %s" % job_id)
        return super().execute(statement)


def test_show_jobs_shows_the_whole_id_that_stop_job_needs():
    client = JobsClient()
    out, _ = run_shell([("SHOW JOBS;\r", None), ("\x04", None)], client=client)
    row = next(line for line in out.splitlines() if "RUNNING" in line)
    shown_id = row.split("|")[1].strip()
    assert shown_id == JobsClient.JOB_ID
    assert "enriched_orders_sink" in row and "..." not in row
    out, _ = run_shell([("STOP JOB '%s';\r" % shown_id, None), ("\x04", None)], client=client)
    assert "[INFO] The specified job is stopped." in out
