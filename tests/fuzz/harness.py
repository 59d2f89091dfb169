"""The fuzz harness: mutated statements planned the way the shell plans them, with what went wrong.

Case `i` of a seed is always the same statement: a script and one of its statements are chosen and
mutated by a `random.Random` seeded with (seed, i) (see corpus.py and mutate.py). A worker process
applies the statements before it (unmutated: the catalog and settings it was written for), then does
what the shell does with a line the user typed: `is_complete` (Enter's decision), `split`, and `plan`
of each statement until the first error (no Spark). Each case ends as one outcome:

- `ok` / `error`: planned, or refused with a `DynsqlError` whose message names no Python class;
- `class-name`: a `DynsqlError` whose message names a Python or sqlglot class (`ParseError`, `exp.`,
  `NoneType`, `<class ...>`, `TokenType.`, a CamelCase class name the SQL does not contain, ...); its
  site: where it was raised;
- `crash`: any other exception (its site: the innermost frame in dynsql's own code, file:line);
- `hang`: planning took more than `slow` seconds of CPU time (its site: where a sample of the stacks
  taken then found it); after `kill_after` seconds of CPU time (or ten times that on the clock, for a
  statement that waits) the worker is killed and a new one goes on.

Times are the worker's CPU time, not the clock's: on a machine other work keeps busy, a statement is
not a hang because it waited for a core.

A worker that dies (a segfault) counts as a crash at the site `worker died`. The harness never
prints; `report.py` turns the outcomes into figures."""

import multiprocessing
import os
import pickle
import random
import re
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from .corpus import ROOT, load_scripts
from .mutate import mutate

OWN_CODE = tuple(os.path.join(ROOT, d) + os.sep for d in ("planner", "repl", "runtime"))



# Marks of Python's or sqlglot's internals in a message meant for a user.
_INTERNALS = re.compile(
    r"\bexp\.\w|<class\b|\bTokenType\.|<Token\b|\bsqlglot\b|object at 0x|Traceback|\bNoneType\b|"
    r"Required keyword|\bself\.|\bkwargs?\b|__\w+__|\bdict\b|\btuple\b|\blist index\b|\bint\(\)|"
    r"\bunhashable\b|\bnot subscriptable\b|\bargument of type\b|\bmaximum recursion\b")
_CAMEL = re.compile(r"\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|\b[A-Z][a-z]+Error\b")


def internal_class_names():
    """Names of classes a user should never read: sqlglot's expressions, tokens and errors, Python's
    exceptions and dynsql's own planner classes."""
    import builtins
    import inspect

    import sqlglot.errors
    import sqlglot.expressions
    import sqlglot.tokens

    import planner.catalog
    import planner.dialect
    import planner.expr.types
    names = {n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)}
    for module in (sqlglot.expressions, sqlglot.errors, sqlglot.tokens, planner.catalog, planner.dialect,
                   planner.expr.types):
        names |= {n for n, v in vars(module).items() if inspect.isclass(v)}
    return names


_CLASS_NAMES = None


def class_name_in(message, sql):
    """The fragment of `message` that names a Python or sqlglot class, or None. A name that appears in
    the SQL itself (a table called `DataType`) or inside quotes in the message is the user's own."""
    global _CLASS_NAMES
    if _CLASS_NAMES is None:
        _CLASS_NAMES = internal_class_names()
    m = _INTERNALS.search(message)
    if m:
        return m.group()
    unquoted = re.sub(r"'(?:[^']|'')*'|`(?:[^`]|``)*`|\"[^\"]*\"", "", message)
    for m in _CAMEL.finditer(unquoted):
        word = m.group()
        if (word in _CLASS_NAMES or word.endswith("Error")) and word not in sql:
            return word
    return None


# ---------------------------------------------------------------------- cases
@dataclass(frozen=True)
class Case:
    index: int
    script: str            # the script's name (corpus.Script.name)
    target: int            # which of its statements was mutated
    text: str              # what the "user" typed
    mutations: tuple


def make_case(scripts, seed, index):
    rng = random.Random("%s:%d" % (seed, index))
    script = rng.choice(scripts)
    target = rng.choice(script.targets)
    text, names = mutate(script.statements[target], rng)
    if rng.random() < 0.9:
        text += ";"
    return Case(index, script.name, target, text, tuple(names))


@dataclass
class Outcome:
    index: int
    kind: str              # ok | error | class-name | crash | hang
    seconds: float
    site: str = ""         # crash, hang, class-name: file:line in dynsql's code (raised, crashed, sampled)
    exception: str = ""    # crash: the exception's type; class-name: the offending fragment; hang: how it ended
    detail: str = ""       # crash: its message and innermost frame; error, class-name: the message


# ---------------------------------------------------------------------- one case, in the worker
def plan_like_the_shell(planner, text):
    """What the shell does with `text`: Enter's decision, then split and plan each statement until
    the first error (raised)."""
    from planner.splitter import SHELL_COMMANDS, is_complete
    is_complete(text)
    for statement in planner.split(text):
        if statement.text.strip().rstrip(";").strip().upper() in SHELL_COMMANDS:
            continue
        planner.plan(statement)


def own_site(tb):
    """file:line of the innermost frame of dynsql's own code in a traceback."""
    site = "(outside dynsql)"
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith(OWN_CODE):
            site = _site(tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return site


def _site(filename, lineno):
    return "%s:%d" % (os.path.relpath(filename, ROOT), lineno)


def _outer_site(tb):
    """file:line (the file's last two path parts) of the innermost frame of a traceback."""
    if tb is None:
        return ""
    while tb.tb_next is not None:
        tb = tb.tb_next
    parts = tb.tb_frame.f_code.co_filename.split(os.sep)
    return "%s:%d" % (os.sep.join(parts[-2:]), tb.tb_lineno)


class _Contexts:
    """The planner state after a script's first `k` statements, kept pickled (each case gets a copy)."""

    def __init__(self, scripts):
        self.scripts = {s.name: s for s in scripts}
        self.cache = {}

    def planner(self, script_name, k):
        key = (script_name, k)
        if key not in self.cache:
            from planner.planner import Planner
            planner = Planner()
            for text in self.scripts[script_name].statements[:k]:
                try:
                    planner.plan(text)
                except Exception:
                    pass                   # a statement the corpus expects to fail (errors.sqltest)
            self.cache[key] = pickle.dumps(planner)
        return pickle.loads(self.cache[key])


def run_case(contexts, case, plan=plan_like_the_shell):
    """Plan one case; its Outcome (`seconds`: the CPU time the planning took)."""
    from planner.errors import DynsqlError
    planner = contexts.planner(case.script, case.target)
    started = time.process_time()
    try:
        plan(planner, case.text)
        return Outcome(case.index, "ok", time.process_time() - started)
    except DynsqlError as e:
        seconds = time.process_time() - started
        message = e.render()
        bad = class_name_in(message, case.text)
        if bad:
            return Outcome(case.index, "class-name", seconds, site=own_site(e.__traceback__), exception=bad,
                           detail=message[:300])
        return Outcome(case.index, "error", seconds, detail=message[:300])
    except BaseException as e:  # noqa: B902 -- a crash is what we look for
        seconds = time.process_time() - started
        text = " ".join(str(e).split())[:200]
        return Outcome(case.index, "crash", seconds, site=own_site(e.__traceback__),
                       exception=type(e).__name__, detail="%s (innermost: %s)" % (text, _outer_site(e.__traceback__)))


def _sample_site(skip_ident):
    """Where the planning is now: the innermost dynsql frame of the thread that plans (the planner's
    deep-stack thread when there is one, else the main thread). Walks frames, reads no source."""
    names = {t.ident: t.name for t in threading.enumerate()}
    frames = sys._current_frames()
    order = sorted((ident for ident in frames if ident != skip_ident),
                   key=lambda ident: names.get(ident) != "dynsql-planner")
    for ident in order:
        frame = frames[ident]
        while frame is not None:
            if frame.f_code.co_filename.startswith(OWN_CODE):
                return _site(frame.f_code.co_filename, frame.f_lineno)
            frame = frame.f_back
    return "(outside dynsql)"


def _resolve(plan):
    """A plan function given as 'module:function' (a worker process imports it)."""
    if plan is None:
        return plan_like_the_shell
    module, _, name = plan.partition(":")
    import importlib
    return getattr(importlib.import_module(module), name)


def _worker(conn, seed, start, stop, slow, plan=None):
    """The worker process: run cases start..stop-1, send ("ready",), then ("result", Outcome) each, and
    ("slow", index, site) when a case passes `slow` seconds."""
    plan = _resolve(plan)
    scripts = load_scripts()
    contexts = _Contexts(scripts)
    lock = threading.Lock()
    current = {"index": None, "since": 0.0, "sampled": True}

    def watch():
        me = threading.get_ident()
        while True:
            time.sleep(0.1)
            with lock:
                index, since, sampled = current["index"], current["since"], current["sampled"]
            if index is not None and not sampled and time.process_time() - since > slow:
                site = _sample_site(me)
                with lock:
                    if current["index"] == index:
                        current["sampled"] = True
                        current["site"] = site
                        conn.send(("slow", index, site))

    threading.Thread(target=watch, daemon=True).start()
    with lock:
        conn.send(("ready",))
    for index in range(start, stop):
        case = make_case(scripts, seed, index)
        contexts.planner(case.script, case.target)          # context built before the clock starts
        with lock:
            current.update(index=index, since=time.process_time(), sampled=False, site=None)
        outcome = run_case(contexts, case, plan)
        with lock:
            site = current.get("site")
            current["index"] = None
            if outcome.seconds > slow and outcome.kind != "crash":
                outcome = Outcome(index, "hang", outcome.seconds, site=site or "(not sampled)",
                                  exception=outcome.kind, detail=outcome.exception)
            conn.send(("result", outcome))
    conn.close()


# ---------------------------------------------------------------------- the run
@dataclass
class Run:
    seed: object
    count: int
    outcomes: list = field(default_factory=list)
    seconds: float = 0.0
    restarts: int = 0

    def by_kind(self):
        return Counter(o.kind for o in self.outcomes)

    def grouped(self, kind):
        """{(site, exception type or fragment): [outcomes]} for crashes, hangs and class-name messages."""
        groups = defaultdict(list)
        for o in self.outcomes:
            if o.kind == kind:
                groups[(o.site, o.exception)].append(o)
        return dict(sorted(groups.items(), key=lambda kv: -len(kv[1])))

    def problems(self):
        """The crashes, hangs and class-name messages."""
        return [o for o in self.outcomes if o.kind in ("crash", "hang", "class-name")]

    def slowest(self, n=10):
        return sorted(self.outcomes, key=lambda o: -o.seconds)[:n]


def run(seed, count, start=0, slow=2.0, kill_after=10.0, progress=None, plan=None):
    """Cases start..start+count-1 of `seed`, in worker processes. `progress(done, count)` is called now
    and then; `plan` ('module:function', default plan_like_the_shell) is what a case runs. Returns a Run."""
    ctx = multiprocessing.get_context("spawn")
    result = Run(seed, count)
    began = time.time()
    stop = start + count
    next_index = start
    while next_index < stop:
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_worker, args=(child, seed, next_index, stop, slow, plan), daemon=True)
        proc.start()
        child.close()
        slow_sites = {}
        ready = parent.poll(120) and parent.recv() == ("ready",)
        if not ready:
            proc.kill()
            raise RuntimeError("the fuzz worker did not start")
        case_started, case_cpu = time.time(), _cpu_seconds(proc.pid)
        while next_index < stop:
            try:
                message = parent.recv() if parent.poll(0.25) else None
            except EOFError:                      # the worker died on this case
                proc.join(5)
                result.outcomes.append(Outcome(next_index, "crash", time.time() - case_started,
                                               site="worker died", exception="exit code %s" % proc.exitcode))
                next_index += 1
                result.restarts += 1
                break
            if message is None:
                cpu = _cpu_seconds(proc.pid)
                used = cpu - case_cpu if cpu is not None and case_cpu is not None else None
                waited = time.time() - case_started
                if (used is None or used < kill_after) and waited < kill_after * (10 if used is not None else 1):
                    continue
                proc.kill()                       # no answer in time: a hang; kill and go on
                proc.join(5)
                result.outcomes.append(Outcome(next_index, "hang", used if used is not None else waited,
                                               site=slow_sites.get(next_index, "(not sampled)"),
                                               exception="killed", detail="killed after %.1f s of CPU, %.1f s in all"
                                               % (used or 0, waited)))
                next_index += 1
                result.restarts += 1
                break
            if message[0] == "slow":
                slow_sites[message[1]] = message[2]
                continue
            outcome = message[1]
            result.outcomes.append(outcome)
            next_index = outcome.index + 1
            case_started, case_cpu = time.time(), _cpu_seconds(proc.pid)
            if progress is not None and next_index % 500 == 0:
                progress(next_index - start, count)
        parent.close()
        if proc.is_alive():
            proc.join(10)
            if proc.is_alive():
                proc.kill()
                proc.join(5)
    result.seconds = time.time() - began
    return result


def _cpu_seconds(pid):
    """CPU seconds process `pid` has used (Linux's /proc), or None where that cannot be read."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def case_text(seed, index):
    """The statement of case `index` (for a report's examples)."""
    return make_case(_scripts(), seed, index)


_SCRIPTS = None


def _scripts():
    global _SCRIPTS
    if _SCRIPTS is None:
        _SCRIPTS = load_scripts()
    return _SCRIPTS
