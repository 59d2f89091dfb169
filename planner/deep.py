"""Planning deeply nested SQL: the parser, the binder and sqlglot's generator recurse once per level of
nesting, so a statement is planned in a thread of its own with a large stack and a high recursion limit
(1,000 levels of parentheses, CASE, NOT or function calls, and long AND-chains, plan there)."""

import sys
import threading

STACK_BYTES = 512 * 1024 * 1024
RECURSION_LIMIT = 200000


def run_deep(fn, *args, **kwargs):
    """fn(*args, **kwargs) in a thread with a large stack: its result, or its exception re-raised here."""
    box = {}

    def work():
        try:
            box["result"] = fn(*args, **kwargs)
        except BaseException as e:      # handed to the caller's thread as it is
            box["error"] = e
    if sys.getrecursionlimit() < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)
    previous = threading.stack_size(STACK_BYTES)
    try:
        t = threading.Thread(target=work, name="dynsql-plan")
        t.start()
    finally:
        threading.stack_size(previous)
    t.join()
    if "error" in box:
        raise box["error"]
    return box.get("result")
