"""A checkpoint a kill -9 left while Spark wrote its first offsets (runtime/sinks/unlogged_start.py): its
leftovers go, so that Spark starts the query at batch 0 instead of refusing; a checkpoint with a logged batch
is left whole. (tests/test_jdbc_kill.py resumes a job from such a checkpoint.)"""

from runtime.sinks.unlogged_start import clear_unlogged_start


def test_a_start_that_never_logged_a_batch_is_cleared_and_a_logged_one_kept(tmp_path):
    torn = tmp_path / "torn"
    (torn / "offsets").mkdir(parents=True)
    (torn / "offsets" / ".0.5f1c.tmp").write_text("v1\n")
    (torn / "state" / "0").mkdir(parents=True)
    (torn / "sources" / "0").mkdir(parents=True)
    (torn / "sources" / "0" / "manifest").write_text("files")
    (torn / "metadata").write_text('{"id": "q"}')
    assert sorted(clear_unlogged_start(str(torn))) == ["offsets/.0.5f1c.tmp", "state/0"]
    assert list((torn / "offsets").iterdir()) == [] and list((torn / "state").iterdir()) == []
    assert (torn / "sources" / "0" / "manifest").read_text() == "files" and (torn / "metadata").exists()

    logged = tmp_path / "logged"
    (logged / "offsets").mkdir(parents=True)
    (logged / "offsets" / "0").write_text("v1\n")
    (logged / "offsets" / ".1.9a.tmp").write_text("v1\n")
    (logged / "state" / "0").mkdir(parents=True)
    assert clear_unlogged_start(str(logged)) == [] and clear_unlogged_start("file:" + str(logged)) == []
    assert sorted(p.name for p in (logged / "offsets").iterdir()) == [".1.9a.tmp", "0"]
    assert clear_unlogged_start(str(tmp_path / "missing")) == []
    assert clear_unlogged_start("hdfs://nn/checkpoints/x") == []
