"""Latency as a user feels it, through the real shell in a pseudo-terminal (pexpect), as
bench/prompt_bench.py does:

- first query: from Enter on the first query typed once the toolbar says `Spark: ready`, to its first
  change on the screen (aim: within 5 s of Spark being ready);
- warm query: the same query again on the warm session (after Ctrl-C), from Enter to its first change
  (aim: within 1 s).

The query is the demo's paced changelog, `SELECT user, COUNT(url) FROM clicks_live GROUP BY user`
(clicks_live replays one row a second), shown in the tableau view, where a change is a `| +I |` line.

    python bench/latency_bench.py [--runs N]

Asserts nothing; prints the medians and the load average."""

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pexpect

DYNSQL = Path(sys.executable).with_name("dynsql")
QUERY = "SELECT `user`, COUNT(url) AS cnt FROM clicks_live GROUP BY `user`;"
FIRST_CHANGE = r"\|\s+\+I\s+\|"


class Terminal:
    """The shell in a pty that answers prompt_toolkit's cursor position requests (`ESC[6n`), as a real
    terminal does: without the answers prompt_toolkit hides the bottom toolbar, where `Spark: ready` is."""

    def __init__(self, env):
        self.child = pexpect.spawn(str(DYNSQL), ["--demo"], env=env, encoding="utf-8", dimensions=(40, 160))
        self.seen = ""

    def wait_for(self, pattern, timeout=180):
        """Read until `pattern` shows in what arrived since the last match; the match's end time."""
        deadline = time.perf_counter() + timeout
        while True:
            m = re.search(pattern, self.seen)
            if m:
                self.seen = self.seen[m.end():]
                return time.perf_counter()
            if time.perf_counter() > deadline:
                raise TimeoutError("no %r within %d s; the screen ends with %r" % (pattern, timeout,
                                                                                  self.seen[-500:]))
            try:
                chunk = self.child.read_nonblocking(65536, timeout=0.05)
            except pexpect.TIMEOUT:
                continue
            self.child.send("\x1b[1;1R" * chunk.count("\x1b[6n"))
            self.seen += chunk

    def send(self, text):
        self.child.send(text)


def first_change(term, query):
    """Seconds from Enter on `query` to its first change in the tableau output."""
    term.send(query)
    time.sleep(0.3)
    term.seen = ""
    started = time.perf_counter()
    term.send("\r")
    return term.wait_for(FIRST_CHANGE) - started


def one_run(history):
    env = dict(os.environ, DYNSQL_HISTORY=history, TERM="xterm-256color")
    env.pop("PROMPT_TOOLKIT_NO_CPR", None)
    term = Terminal(env)
    term.wait_for("Flink SQL>")
    term.wait_for("Spark: ready")
    term.send("SET 'sql-client.execution.result-mode' = 'tableau';\r")
    term.wait_for("Flink SQL>")
    cold = first_change(term, QUERY)
    term.send("\x03")
    term.wait_for("Flink SQL>")
    time.sleep(1.0)
    warm = first_change(term, QUERY)
    term.send("\x03")
    term.wait_for("Flink SQL>")
    term.send("\x04")
    term.child.expect(pexpect.EOF, timeout=60)
    return cold, warm


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    if not DYNSQL.exists():
        sys.exit("needs the installed `dynsql` next to %s (make install)" % sys.executable)
    with tempfile.TemporaryDirectory() as tmp:
        runs = [one_run(os.path.join(tmp, "history")) for _ in range(args.runs)]
    cold = [c for c, _ in runs]
    warm = [w for _, w in runs]
    print("Spark ready -> first query's first change: median %.2f s  (min %.2f, max %.2f; aim < 5 s)"
          % (statistics.median(cold), min(cold), max(cold)))
    print("warm session -> first change:              median %.2f s  (min %.2f, max %.2f; aim < 1 s)"
          % (statistics.median(warm), min(warm), max(warm)))
    print("load average: %.2f" % os.getloadavg()[0])


if __name__ == "__main__":
    main()
