"""A streaming query whose Python source runner is killed (the process, a child of Spark's JVM, that plans each
micro-batch of a dynsql source: `make faults` kills it with the Python workers) stops with an error in words,
not Spark's "java.io.EOFException"."""

import os
import signal
import time

import pytest

from planner.errors import DynsqlError

pytestmark = pytest.mark.fault_injection     # `make test-faults`


def _parent(pid):
    with open("/proc/%s/stat" % pid) as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def _source_runners():
    """Pids of the streaming source runners of this process's Spark JVM (its child)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    if b"pyspark.sql.streaming.python_streaming_source_runner" not in f.read():
                        continue
                if _parent(_parent(entry)) == os.getpid():
                    found.add(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return found


def test_a_killed_source_runner_is_named(client, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.csv").write_text("1,one\n")
    client.execute("CREATE TABLE t (n INT, w STRING) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'csv', 'source.monitor-interval' = '1 s')" % folder)
    before = _source_runners()
    stream = client.execute("SELECT n, w FROM t")
    try:
        first = stream.poll(120)
        assert first is not None and first.changes == [("+I", (1, "one"))], "no first row in 120 s"
        runners = _source_runners() - before
        assert len(runners) == 1, runners
        os.kill(runners.pop(), signal.SIGKILL)
        deadline = time.time() + 120
        while time.time() < deadline and not stream.finished:
            stream.poll(0.5)
        assert stream.finished, "the query ran on 120 s after its source runner was killed"
    finally:
        stream.stop()
    assert isinstance(stream.error, DynsqlError) and stream.error.message == (
        "The Python process that plans the micro-batches of a streaming source (Spark's source runner) died "
        "(killed, or out of memory): the query stopped; its checkpoint keeps what was committed"), stream.error
