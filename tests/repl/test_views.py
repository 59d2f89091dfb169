"""The table view's materialization and both full-screen views, fed through a real ChangeStream."""

import threading
import time

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from runtime.results import ChangeBatch, ChangeStream, Column
from repl.views.changelog_view import ChangelogView
from repl.views.table_view import MaterializedTable, TableView

COLUMNS = [Column("user_name", "STRING"), Column("cnt", "BIGINT NOT NULL")]

# The dynamic-tables page's clicks counted per user: inserts, then updates as -U/+U pairs.
CLICK_COUNTS = [
    [("+I", ("Mary", 1))],
    [("+I", ("Bob", 1))],
    [("-U", ("Mary", 1)), ("+U", ("Mary", 2))],
    [("+I", ("Liz", 1))],
    [("-U", ("Bob", 1)), ("+U", ("Bob", 2))],
]


def publish_all(stream, batches):
    for i, changes in enumerate(batches):
        stream.publish(ChangeBatch(changes, batch_id=i))


def test_inserts_and_updates_in_place():
    table = MaterializedTable()
    for changes in CLICK_COUNTS:
        table.apply_all(changes)
    assert table.rows == [("Mary", 2), ("Bob", 2), ("Liz", 1)]


def test_delete_removes_one_equal_row():
    table = MaterializedTable().apply_all([("+I", ("a", 1)), ("+I", ("a", 1)), ("+I", ("b", 2)),
                                           ("-D", ("a", 1))])
    assert table.rows == [("a", 1), ("b", 2)]
    table.apply("-D", ["b", 2])                    # rows may arrive as lists
    assert table.rows == [("a", 1)]


def test_update_without_a_preceding_retraction_appends():
    table = MaterializedTable().apply_all([("+I", ("a", 1)), ("+U", ("b", 1))])
    assert table.rows == [("a", 1), ("b", 1)]


def test_retraction_of_an_absent_row_is_counted_not_fatal():
    table = MaterializedTable().apply_all([("+I", ("a", 1)), ("-U", ("zzz", 9)), ("+U", ("zzz", 10))])
    assert table.rows == [("a", 1), ("zzz", 10)]
    assert table.unmatched_retractions == 1


def test_materialized_result_equals_the_batch_result():
    """Apply in order == final rows (as a multiset) for an aggregate with retractions."""
    table = MaterializedTable()
    counts = {}
    for i, user in enumerate(["Mary", "Bob", "Mary", "Liz", "Bob", "Mary", "Mary"]):
        if user in counts:
            table.apply("-U", (user, counts[user]))
            counts[user] += 1
            table.apply("+U", (user, counts[user]))
        else:
            counts[user] = 1
            table.apply("+I", (user, 1))
    assert sorted(table.rows) == sorted(counts.items())


def test_unknown_row_kind_is_an_error():
    with pytest.raises(ValueError):
        MaterializedTable().apply("+X", ("a",))


def text_of(fragments):
    return "".join(text for _style, text in fragments)


def test_table_view_drains_a_change_stream_and_draws_the_rows():
    stream = ChangeStream(COLUMNS, description="SELECT user_name, COUNT(*) FROM clicks GROUP BY user_name")
    publish_all(stream, CLICK_COUNTS)
    stream.finish()
    view = TableView(stream)
    assert view.drain()
    assert view.table.rows == [("Mary", 2), ("Bob", 2), ("Liz", 1)]
    body = text_of(view._body_fragments())
    lines = body.splitlines()
    assert lines[0].split() == ["user_name", "|", "cnt"]
    assert lines[2].split() == ["Mary", "|", "2"]
    assert lines[4].split() == ["Liz", "|", "1"]
    status = text_of(view._status_fragments())
    assert "7 changes (+I 3 -U 2 +U 2)" in status and "finished" in status and "3 rows" in status


def test_changelog_view_shows_the_op_column():
    stream = ChangeStream(COLUMNS)
    publish_all(stream, CLICK_COUNTS)
    view = ChangelogView(stream)
    view.drain()
    lines = text_of(view._body_fragments()).splitlines()
    assert lines[0].split() == ["op", "|", "user_name", "|", "cnt"]
    assert [line.split()[0] for line in lines[2:]] == ["+I", "+I", "-U", "+U", "+I", "-U", "+U"]
    assert "running" in text_of(view._status_fragments())


def test_changelog_view_keeps_the_newest_changes():
    stream = ChangeStream(COLUMNS)
    stream.publish(ChangeBatch([("+I", ("u%d" % i, i)) for i in range(10)]))
    view = ChangelogView(stream, max_changes=4)
    view.drain()
    assert [row[0] for _, row in view.changes] == ["u6", "u7", "u8", "u9"]
    assert view.dropped == 6


def test_null_values_and_long_values():
    stream = ChangeStream([Column("s", "STRING")])
    stream.publish(ChangeBatch([("+I", (None,)), ("+I", ("x" * 100,))]))
    view = TableView(stream, max_column_width=10)
    view.drain()
    lines = text_of(view._body_fragments()).splitlines()
    assert "NULL" in lines[2]
    assert lines[3].strip() == "x" * 9 + "…"


def test_failed_stream_shows_the_error():
    from planner.errors import RuntimeFailure
    stream = ChangeStream(COLUMNS)
    stream.fail(RuntimeFailure("the file went away"))
    view = TableView(stream)
    view.drain()
    assert "[ERROR] the file went away" in text_of(view._status_fragments())


@pytest.mark.parametrize("view_class,key", [(TableView, "q"), (ChangelogView, "\x03")])
def test_full_screen_view_updates_live_and_leaving_stops_the_query(view_class, key):
    stops = []
    stream = ChangeStream(COLUMNS, stopper=lambda: stops.append(time.time()))
    with create_pipe_input() as pipe:
        view = view_class(stream)

        def feed():
            for changes in CLICK_COUNTS:
                stream.publish(ChangeBatch(changes))
                time.sleep(0.05)
            deadline = time.time() + 5
            while view.row_count() < (3 if view_class is TableView else 7) and time.time() < deadline:
                time.sleep(0.05)
            pipe.send_text(key)

        feeder = threading.Thread(target=feed)
        feeder.start()
        view.run(input=pipe, output=DummyOutput())
        feeder.join()
    assert view.row_count() == (3 if view_class is TableView else 7)
    assert len(stops) == 1 and view.stopped_by_user and stream.finished


def run_view_with_keys(view, keys, until):
    """Show `view` and type `keys` (each a burst of its own) once `until(view)` holds; then leave with Ctrl-C."""
    with create_pipe_input() as pipe:
        def typist():
            deadline = time.time() + 5
            while not until(view) and time.time() < deadline:
                time.sleep(0.05)
            for key in keys:
                pipe.send_text(key)
                time.sleep(0.15)
            pipe.send_text("\x03")

        thread = threading.Thread(target=typist)
        thread.start()
        view.run(input=pipe, output=DummyOutput())
        thread.join()
    return view


def test_keys_select_and_open_a_row_whose_value_the_grid_cuts():
    """↓ selects, O opens the row with each value whole, Esc goes back to the rows; the grid shows the cut."""
    stream = ChangeStream([Column("user_name", "STRING"), Column("url", "STRING")])
    long_url = "./product?id=" + "9" * 60
    stream.publish(ChangeBatch([("+I", ("Mary", "./home")), ("+I", ("Bob", long_url)), ("+I", ("Liz", "./cart"))]))
    stream.finish()
    opened = []
    view = TableView(stream, max_column_width=12)
    original = view.open_selected

    def open_selected():
        original()
        opened.append(text_of(view._body_fragments()))
    view.open_selected = open_selected
    run_view_with_keys(view, ["\x1b[B", "\x1b[B", "o", "\x1b", "\x1b[A"], lambda v: v.row_count() == 3)
    assert "./product?i…" in text_of(view._body_fragments())                    # cut in the grid
    [page] = opened
    assert long_url in "".join(page.split()) and "Bob" in page and "(STRING)" in page   # whole (wrapped)
    assert view.open_row is None and view.selected == 0                          # Esc back, ↑ one up
    assert "class:selected" in [style for style, _ in view._body_fragments()]


def test_slash_finds_the_next_row_holding_the_text():
    stream = ChangeStream(COLUMNS)
    stream.publish(ChangeBatch([("+I", ("u%d" % i, i)) for i in range(100)]))
    stream.finish()
    view = run_view_with_keys(ChangelogView(stream), ["/", "u4", "2", "\r"], lambda v: v.row_count() == 100)
    assert view.selected == 42 and view.visible_rows(42, 43) == [("+I", ("u42", 42))]
    assert view.top <= 42 < view.top + view.body_height()                       # scrolled into sight
    view = run_view_with_keys(ChangelogView(stream), ["/", "nobody", "\r"], lambda v: True)
    assert "no row holds 'nobody'" in text_of(view._status_fragments())


def test_plus_and_minus_change_the_refresh_interval_down_to_paused():
    stream = ChangeStream(COLUMNS)
    view = run_view_with_keys(TableView(stream), ["-", "-"], lambda v: True)
    assert view.refresh_interval == 1.0 and "refresh 1 s" in text_of(view._status_fragments())


def test_a_paused_view_leaves_the_changes_in_the_stream_until_refresh_resumes():
    stream = ChangeStream(COLUMNS)
    view = TableView(stream)
    seen = {}
    with create_pipe_input() as pipe:
        def typist():
            time.sleep(0.3)
            for _ in range(6):
                pipe.send_text("-")
                time.sleep(0.1)
            stream.publish(ChangeBatch([("+I", ("Mary", 1))]))
            time.sleep(0.6)
            seen["paused"] = (view.refresh_interval, view.row_count(), text_of(view._status_fragments()))
            pipe.send_text("+")
            deadline = time.time() + 5
            while view.row_count() == 0 and time.time() < deadline:
                time.sleep(0.05)
            seen["resumed"] = (view.refresh_interval, view.row_count())
            pipe.send_text("\x03")

        thread = threading.Thread(target=typist)
        thread.start()
        view.run(input=pipe, output=DummyOutput())
        thread.join()
    interval, rows, status = seen["paused"]
    assert interval is None and rows == 0 and "refresh paused" in status
    assert seen["resumed"] == (60.0, 1)
