"""How far the running Spark jobs of this session have got: their active stages' tasks done and in all, from
Spark's status tracker (what the Spark UI's stage bars show). Reads the driver's bookkeeping only: no job, no
wait. Under Spark Connect the client has no SparkContext, and there is nothing to read."""

from dataclasses import dataclass


@dataclass
class StageProgress:
    stages: int     # active stages
    done: int       # their tasks completed
    total: int      # their tasks


def stage_progress(spark):
    """The session's active stages now, or None when none runs (or Spark Connect)."""
    try:
        tracker = spark.sparkContext.statusTracker()
        ids = tracker.getActiveStageIds()
    except Exception:      # Spark Connect, or a session going away
        return None
    done = total = 0
    for stage_id in ids:
        info = tracker.getStageInfo(stage_id)
        if info is not None:
            done += info.numCompletedTasks
            total += info.numTasks
    if not total:
        return None
    return StageProgress(len(ids), done, total)

