"""While a batch statement runs, the shell's wait line shows the Spark stages' tasks done and in all (Spark's
status tracker, through the client)."""

import threading
import time

from repl.toolbar import progress_bar
from runtime.stage_progress import StageProgress


def test_the_running_stages_tasks_are_counted(client):
    assert client.stage_progress() is None          # nothing runs

    def slow(batches):
        for batch in batches:
            time.sleep(1.5)
            yield batch

    spark = client.engine.spark
    job = threading.Thread(target=lambda: spark.range(0, 6, 1, 6).mapInPandas(slow, "id long").collect())
    job.start()
    seen = []
    while job.is_alive():
        progress = client.stage_progress()
        if progress is not None:
            seen.append(progress)
        time.sleep(0.2)
    assert seen and all(p.total == 6 and p.stages == 1 and 0 <= p.done <= 6 for p in seen)
    assert client.stage_progress() is None


def test_the_progress_bar():
    assert progress_bar(StageProgress(1, 3, 12), width=8) == "[##------] 3/12 tasks"
    assert progress_bar(StageProgress(2, 12, 12), width=4) == "[####] 12/12 tasks, 2 stages"
