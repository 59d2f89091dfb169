"""A job killed before its first micro-batch was logged, made startable again.

Spark writes a micro-batch's offsets (`offsets/<id>`) atomically: a hidden temporary file, then a rename. A
process killed (kill -9) between the two leaves `offsets/.0.<uuid>.tmp` and no `offsets/0`. Started again on
that checkpoint, Spark finds no batch in the offset log, so it starts the query anew at batch 0, but first
checks that `offsets`, `commits` and `state` are empty (spark.sql.streaming.verifyCheckpointDirectoryEmptyOnStart,
on since Spark 4.1) and refuses: "The checkpoint location .../offsets should be empty on batch 0". Nothing of
such a start was committed (a batch commits after its offsets are logged: no sink wrote a row of it, no state
was kept for it), so its leftovers go and the query starts at batch 0 as Spark would; the sources' own
folders (`sources/`, what a file source had listed) stay."""

import os
import shutil

CHECKED = ("offsets", "commits", "state")


def logged_batches(checkpoint):
    """The batch ids of the checkpoint's offset log (its files named by a number)."""
    folder = os.path.join(checkpoint, "offsets")
    try:
        return sorted(int(n) for n in os.listdir(folder) if n.isdigit())
    except FileNotFoundError:
        return []


def clear_unlogged_start(checkpoint):
    """Remove what a start that never logged its first batch left in `checkpoint` (a local folder; any other
    location is left to Spark). -> the names of the entries removed."""
    if not checkpoint or "://" in checkpoint and not checkpoint.startswith("file:"):
        return []
    checkpoint = checkpoint[len("file:"):] if checkpoint.startswith("file:") else checkpoint
    if not os.path.isdir(checkpoint) or logged_batches(checkpoint):
        return []
    removed = []
    for name in CHECKED:
        folder = os.path.join(checkpoint, name)
        if not os.path.isdir(folder):
            continue
        for entry in os.listdir(folder):
            path = os.path.join(folder, entry)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.remove(path)
            removed.append(os.path.join(name, entry))
    return removed
