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
