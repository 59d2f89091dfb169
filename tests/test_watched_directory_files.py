"""A watched directory takes a new file only once it is whole: a file still being copied in is not read to where
the copy had got (its rest lost, its cut last line emitted as a row)."""

import json
import os
import time

from runtime.connectors.filesystem import TableSpec
from runtime.connectors.splits import SplitPlanner


def _planner(folder, state, interval_ms=200):
    spec = TableSpec(json.dumps({"path": str(folder), "format": "csv", "columns": [["v", "INT"]],
                                 "options": {"connector": "filesystem", "path": str(folder), "format": "csv"},
                                 "monitor": True, "monitor_interval_ms": interval_ms, "state_dir": str(state)}))
    return SplitPlanner(spec)


def test_a_file_still_growing_is_taken_once_it_stops(tmp_path):
    folder, state = tmp_path / "in", tmp_path / "state"
    folder.mkdir()
    old = folder / "old.csv"
    old.write_text("1\n2\n")
    os.utime(old, (time.time() - 60, time.time() - 60))          # written a minute ago: whole
    planner = _planner(folder, state)
    growing = folder / "growing.csv"
    growing.write_text("10\n1")                                   # a copy under way: its last line cut
    planner.refresh(force=True)
    assert planner.files == [str(old)]
    with open(growing, "a") as f:
        f.write("1\n12\n")                                        # the copy goes on
    planner.refresh(force=True)
    assert planner.files == [str(old)]
    planner.refresh(force=True)                                   # unchanged since the listing before
    assert planner.files == [str(old), str(growing)]
    with open(os.path.join(state, "files.txt")) as f:             # the manifest a restart reads
        assert f.read().split() == [str(old), str(growing)]


def test_a_file_changed_after_it_was_read_to_its_end_is_noted_and_one_moved_away_is_not(tmp_path):
    """A small file is read whole in its first micro-batch: a line appended later is never read, so the next
    listing notes the file (the shell and SHOW JOBS name it). A file moved away once read lost nothing."""
    from runtime.connectors.formats import SplitProgress
    from runtime.connectors.splits import changed_files, initial_offset, write_report
    folder, state = tmp_path / "in", tmp_path / "state"
    folder.mkdir()
    kept, moved = folder / "a.csv", folder / "b.csv"
    kept.write_text("1\n2\n")
    moved.write_text("3\n")
    for f in (kept, moved):
        os.utime(f, (time.time() - 60, time.time() - 60))
    planner = _planner(folder, state)
    first = planner.next_offset(initial_offset())
    assert [s[0] for s in first["splits"]] == [str(kept), str(moved)]
    assert all(s[4] is None for s in first["splits"])            # each read whole
    for k, (path, *_) in enumerate(first["splits"]):              # what the executors report: read to the end
        done = SplitProgress(os.path.getsize(path))
        done.records, done.eof = len(open(path).read().split()), True
        write_report(str(state), first["seq"] + k, done, None)
    assert planner.next_offset(first) == first                   # read: nothing more to read
    assert changed_files(str(state)) == []
    with open(kept, "a") as f:
        f.write("99\n")
    moved.unlink()
    planner.refresh(force=True)
    assert changed_files(str(state)) == [{"path": str(kept), "taken": "4 bytes", "now": "7 bytes"}]
    planner.refresh(force=True)                                   # noted once
    assert len(changed_files(str(state))) == 1


def test_a_killed_processs_checkpoints_are_removed_by_the_next_one(tmp_path):
    import subprocess
    from runtime.streaming import remove_orphan_checkpoints
    gone = subprocess.Popen(["true"])
    gone.wait()
    orphan = tmp_path / ("dynsql-checkpoints-%d-abc" % gone.pid)
    (orphan / "q-1" / "offsets").mkdir(parents=True)
    alive = tmp_path / ("dynsql-checkpoints-%d-def" % os.getpid())
    alive.mkdir()
    other = tmp_path / "dynsql-checkpoints-xyz"          # a name of the old form: not this code's to judge
    other.mkdir()
    remove_orphan_checkpoints(str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == sorted([alive.name, other.name])
