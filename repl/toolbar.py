"""The bottom toolbar of the prompt and the status line of the full-screen views.

Shows the Spark session's state (starting / ready / failed) and its web UI's address, the result mode, and the running (or
last) query with its counters: changes received, per-op counts, input rows ignore-parse-errors skipped,
the rows the sources read (and the last micro-batch's rows per second), watermark, time of the last batch and
how long it took. Once the shell has stopped showing a query it says how the query ended
("stopped after 48 s"), from what the shell saw, not from a clock that keeps counting. It only formats
what the client, the shell and the ChangeStream already hold: no Spark calls, nothing slow."""

import time


def short_text(text, width):
    """`text` on one line, cut to `width` characters with an ellipsis."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 1] + "…"


def session_state(status, since=None, now=None):
    """('class:toolbar.<state>', text) for `client.status()`: 'starting' | 'ready' | 'failed: ...'."""
    now = time.time() if now is None else now
    if status == "ready":
        return ("class:toolbar.ready", "Spark: ready")
    if status.startswith("failed"):
        reason = status.partition(":")[2].strip()
        return ("class:toolbar.failed", "Spark: failed" + (" (%s)" % short_text(reason, 60) if reason else ""))
    waited = " %ds" % (now - since) if since is not None else ""
    return ("class:toolbar.starting", "Spark: %s%s" % (status, waited))


def stream_counters(stream, now=None, ended=None):
    """'12 changes (+I 10 -U 1 +U 1) | watermark ... | last batch 3 s ago | running 5 s' for a ChangeStream.
    `ended`: (how, when) once the shell stopped showing it: how is 'stopped', 'finished' or 'failed'."""
    now = time.time() if now is None else now
    stats = stream.stats
    parts = [change_summary(stats)]
    if getattr(stream, "note", None):       # how it runs, where that changes what it shows (a one pass)
        parts.append(stream.note)
    if stats.late_rows:
        parts.append("%d late row%s dropped" % (stats.late_rows, "" if stats.late_rows == 1 else "s"))
    if stats.skipped_rows or stats.nulled_rows or stats.changed_files:
        from .render import parse_error_note
        parts.append(parse_error_note(stats))
    if stats.input_rows:
        rate = stats.input_rows_per_second
        parts.append("input %s row%s%s" % (format(stats.input_rows, ","), "" if stats.input_rows == 1 else "s",
                                           " (%s rows/s)" % format(int(rate), ",") if rate else ""))
    if stats.watermark is not None:
        parts.append("watermark %s" % stats.watermark)
    if stats.last_batch_at is not None:
        took = stats.last_batch_seconds
        parts.append("last batch %s ago%s" % (_duration(now - stats.last_batch_at),
                                              ", took %.1f s" % took if took is not None else ""))
    if stream.error is not None:
        parts.append("failed")
    elif ended is not None:
        how, when = ended
        parts.append("%s after %s" % (how, _duration(when - stream.started_at)))
    elif stream.finished:
        parts.append("finished")
    else:
        parts.append("running %s" % _duration(now - stream.started_at))
    return " | ".join(parts)


def progress_bar(progress, width=20):
    """'[########------------] 12/30 tasks, 2 stages' for a runtime.stage_progress.StageProgress."""
    filled = int(width * progress.done / progress.total)
    return "[%s%s] %d/%d tasks%s" % ("#" * filled, "-" * (width - filled), progress.done, progress.total,
                                     ", %d stages" % progress.stages if progress.stages > 1 else "")


def change_summary(stats):
    """'4 changes (+I 2 -U 1 +U 1)' from a ChangeStats."""
    per_op = " ".join("%s %d" % (op, n) for op, n in stats.per_op.items() if n)
    return "%d change%s" % (stats.rows, "" if stats.rows == 1 else "s") + (" (%s)" % per_op if per_op else "")


def _duration(seconds):
    seconds = max(0, int(seconds))
    if seconds < 60:
        return "%d s" % seconds
    if seconds < 3600:
        return "%d min %d s" % divmod(seconds, 60)
    return "%d h %d min" % (seconds // 3600, seconds % 3600 // 60)


class ShellToolbar:
    """Callable for PromptSession(bottom_toolbar=...): re-evaluated on every refresh."""

    def __init__(self, client):
        self.client = client
        self.started_at = time.time()
        self.last_stream = None        # the running or last ChangeStream, set by the shell
        self.last_ended = None         # (how, when) once the shell stopped showing last_stream

    def query_started(self, stream):
        self.last_stream, self.last_ended = stream, None

    def query_ended(self, stream, how):
        """The shell no longer shows `stream`: it was 'stopped' (by the user), 'finished' or 'failed'."""
        if stream is self.last_stream and self.last_ended is None:
            self.last_ended = (how, time.time())

    def __call__(self):
        status = _client_status(self.client)
        mode = self.client.settings.get("sql-client.execution.result-mode")
        runtime_mode = self.client.settings.get("execution.runtime-mode")
        fragments = [session_state(status, self.started_at)]
        ui_url = getattr(self.client, "spark_ui_url", None)
        if status == "ready" and ui_url:
            fragments.append(("class:toolbar", " | Spark UI: %s" % ui_url))
        fragments.append(("class:toolbar", " | result mode: %s | %s" % (mode, runtime_mode)))
        jobs = running_jobs(self.client)
        if jobs:
            fragments.append(("class:toolbar", " | %d job%s running (%d rows written)" % (
                len(jobs), "" if len(jobs) == 1 else "s", sum(j.rows_written for j in jobs))))
        stream, ended = self.last_stream, self.last_ended
        if stream is not None:
            label = "query" if not (stream.finished or ended) else "last query"
            desc = short_text(stream.description or "", 40)
            fragments.append(("class:toolbar", " | %s%s: %s" % (label, (" " + desc) if desc else "",
                                                                 stream_counters(stream, ended=ended))))
        else:
            fragments.append(("class:toolbar.hint", "  [a statement runs on Enter after its ;  HELP  Ctrl-D quits]"))
        return fragments


def running_jobs(client):
    """The client's background INSERT jobs still running."""
    if not getattr(client, "engine_loaded", True):
        return []               # no statement ran yet: no job either (and the engine is not imported for this)
    try:
        return [job for job in client.engine.jobs.jobs.values() if job.status == "RUNNING"]
    except Exception:  # the toolbar must never take the prompt down
        return []


def _client_status(client):
    try:
        return client.status()
    except Exception as e:  # the toolbar must never take the prompt down
        return "failed: %s" % e
