"""Toolbar and status-line text from the session state and a real ChangeStream's counters."""

from runtime.results import ChangeBatch, ChangeStream, Column
from repl.toolbar import session_state, short_text, stream_counters


def test_session_states():
    assert session_state("ready") == ("class:toolbar.ready", "Spark: ready")
    assert session_state("starting", since=100.0, now=103.4) == ("class:toolbar.starting", "Spark: starting 3s")
    style, text = session_state("failed: JAVA_HOME is not set")
    assert style == "class:toolbar.failed" and text == "Spark: failed (JAVA_HOME is not set)"


def test_counters_of_a_running_then_finished_stream():
    stream = ChangeStream([Column("a", "INT")])
    stream.publish(ChangeBatch([("+I", (1,)), ("+I", (2,))], watermark="2024-01-01 00:00:05"))
    stream.publish(ChangeBatch([("-U", (2,)), ("+U", (3,))]))
    stream.poll(0)
    stream.poll(0)
    now = stream.stats.last_batch_at + 2
    text = stream_counters(stream, now=now)
    assert text.startswith("4 changes (+I 2 -U 1 +U 1) | watermark 2024-01-01 00:00:05 | last batch 2 s ago")
    assert "running" in text
    stream.stats.input_rows, stream.stats.input_rows_per_second, stream.stats.last_batch_seconds = 12345, 6100.4, 0.84
    assert stream_counters(stream, now=now).startswith(
        "4 changes (+I 2 -U 1 +U 1) | input 12,345 rows (6,100 rows/s) | watermark 2024-01-01 00:00:05 | "
        "last batch 2 s ago, took 0.8 s |")
    stream.finish()
    stream.poll(0)
    assert stream_counters(stream, now=now).endswith("| finished")


def test_an_empty_stream():
    stream = ChangeStream([Column("a", "INT")])
    assert stream_counters(stream, now=stream.started_at + 75).startswith("0 changes | running 1 min 15 s")


def test_short_text():
    assert short_text("SELECT a,\n   b FROM t", 100) == "SELECT a, b FROM t"
    assert short_text("x" * 50, 10) == "x" * 9 + "…"


def test_a_query_the_shell_stopped_showing_says_how_it_ended():
    stream = ChangeStream([Column("a", "INT")])
    stream.publish(ChangeBatch([("+I", (1,))]))
    stream.poll(0)
    ended_at = stream.started_at + 48
    text = stream_counters(stream, now=ended_at + 600, ended=("stopped", ended_at))
    assert text.endswith("| stopped after 48 s") and "running" not in text
    assert stream_counters(stream, ended=("finished", stream.started_at + 3)).endswith("finished after 3 s")


def test_the_status_line_names_the_spark_ui_once_spark_is_up():
    """The shell's Client (its Spark not started: nothing starts here) with the address its runtime records
    once Spark is up."""
    from repl.client import Client
    from repl.toolbar import ShellToolbar
    client = Client(ui=True)
    assert client.spark_runtime.conf["spark.ui.enabled"] == "true"
    toolbar = ShellToolbar(client)
    assert "Spark UI" not in "".join(text for _, text in toolbar())     # not up yet
    client.spark_runtime.ui_url = "http://127.0.0.1:4040"
    client.status = lambda: "ready"
    assert "Spark: ready | Spark UI: http://127.0.0.1:4040 | result mode" in "".join(text for _, text in toolbar())
