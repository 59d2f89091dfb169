"""The fuzz figures as text: counts per outcome, crash and hang sites grouped by file:line and exception
type (with the shortest statement of each), the messages naming a class, and the slowest statements
(CPU seconds).

`python tests/fuzz/report.py [--count N] [--seed S]` (what `make fuzz` runs) runs the harness and
prints them; it exits 1 when there is a crash, a hang or a class-name message."""

import argparse
import os
import sys
import time

if __package__ in (None, ""):          # run as a script: make `fuzz` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    __package__ = "fuzz"

from fuzz.harness import case_text, run  # noqa: E402

EXAMPLE_CHARS = 160


def excerpt(text, width=EXAMPLE_CHARS):
    flat = repr(text)[1:-1]
    if len(flat) <= width:
        return flat
    return "%s ... (%d characters)" % (flat[:width], len(text))


def example(run_result, outcomes):
    """The shortest statement among `outcomes` (the easiest to read)."""
    texts = [case_text(run_result.seed, o.index).text for o in outcomes[:50]]
    return min(texts, key=len)


def format_run(r, slowest=10):
    lines = []
    kinds = r.by_kind()
    lines.append("%d statements in %.0f s (seed %s): %s" % (
        len(r.outcomes), r.seconds, r.seed,
        ", ".join("%s %d" % (k, kinds.get(k, 0)) for k in ("ok", "error", "class-name", "crash", "hang"))))
    lines.append("crashes, hangs and class-name messages: %d" % len(r.problems()))
    for kind, title in (("crash", "Crash sites"), ("hang", "Hangs"), ("class-name", "Messages naming a class")):
        groups = r.grouped(kind)
        if not groups:
            continue
        lines.append("")
        lines.append("%s (%d):" % (title, sum(len(v) for v in groups.values())))
        for (site, exception), outcomes in groups.items():
            head = "%6d  %s" % (len(outcomes), site)
            if exception:
                head += "  " + exception
            lines.append(head)
            if kind == "crash":
                lines.append("          e.g. %s" % excerpt(outcomes[0].detail))
            if kind == "class-name":
                lines.append("          message: %s" % excerpt(outcomes[0].detail))
            lines.append("          sql: %s" % excerpt(example(r, outcomes)))
    lines.append("")
    lines.append("Slowest statements (CPU seconds):")
    for o in r.slowest(slowest):
        lines.append("  %6.2f s  %-10s %s  %s" % (o.seconds, o.kind, o.site or "",
                                                  excerpt(case_text(r.seed, o.index).text, 100)))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Fuzz the planner with mutated statements.")
    ap.add_argument("--count", type=int, default=50000)
    ap.add_argument("--seed", default="dynsql")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--slow", type=float, default=2.0, help="seconds after which a statement counts as a hang")
    ap.add_argument("--kill-after", type=float, default=10.0)
    args = ap.parse_args(argv)
    started = time.time()

    def progress(done, count):
        print("  %d / %d (%.0f s)" % (done, count, time.time() - started), file=sys.stderr, flush=True)
    r = run(args.seed, args.count, start=args.start, slow=args.slow, kill_after=args.kill_after,
            progress=progress)
    print(format_run(r))
    print("machine: %s" % _load())
    return 1 if r.problems() else 0


def _load():
    try:
        return "load average %s (%d cores)" % (" ".join(open("/proc/loadavg").read().split()[:3]), os.cpu_count())
    except OSError:
        return "%d cores" % os.cpu_count()


if __name__ == "__main__":
    sys.exit(main())
