"""This process's working folder and its own Spark log file, named once at start (the shell and the scripts print
it before Spark starts, so this module imports nothing of Spark)."""

import os
import tempfile
import time

from .private_files import UnsafeFolder, private_folder

_LOG_DIR = []       # [the working folder, this process's Spark log], each named when first asked for


def log_dir():
    """dynsql's working folder (its Spark log, the packages zip it ships): $DYNSQL_LOG_DIR, else
    $TMPDIR/dynsql-<uid>, owner-only. One that is a link or another user's (created first by someone else) is
    not trusted: this process then works in a new private folder of its own."""
    if not _LOG_DIR:
        d = os.environ.get("DYNSQL_LOG_DIR") or os.path.join(tempfile.gettempdir(), "dynsql-%d" % os.getuid())
        try:
            private_folder(d)
        except UnsafeFolder:
            d = tempfile.mkdtemp(prefix="dynsql-%d-" % os.getuid())
        _LOG_DIR.append(d)
    return _LOG_DIR[0]


_LOG_KEEP_DAYS = 7


def spark_log_path():
    """This process's own Spark log in the working folder (`spark-<date>-<time>-<pid>.log`), named once; the
    logs of earlier processes older than a week are removed when it is first named."""
    if len(_LOG_DIR) < 2:
        folder = log_dir()
        cutoff = time.time() - _LOG_KEEP_DAYS * 86400
        for name in os.listdir(folder):
            path = os.path.join(folder, name)
            try:
                if name.startswith("spark-") and name.endswith(".log") and os.lstat(path).st_mtime < cutoff:
                    os.remove(path)
            except OSError:
                pass
        _LOG_DIR.append(os.path.join(folder, "spark-%s-%d.log" % (time.strftime("%Y%m%d-%H%M%S"), os.getpid())))
    return _LOG_DIR[1]
