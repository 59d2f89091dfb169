"""A fork server for the short-lived Python processes Spark's driver starts on this machine for every streaming
query: a Python data source's stream runner (one a source: its offsets) and transformWithState's driver worker
(one a stateful Python operator). Each is a new `python -m <module>` that imports pyspark, pyarrow, numpy and
pandas before its first word to the JVM: about 0.3 s, several times a query (7 small queries started 15 of them).

The server is a Python process the session starts beside its JVM (runtime/session.py, local masters only) with
those modules imported; it listens on a Unix socket in an owner-only folder, named to the JVM's children by
$DYNSQL_WORKER_FORKS. A process Spark starts with one of the modules below asks it, from sitecustomize.py and
before importing anything heavy, for a fork: it hands over its standard streams, arguments, environment and
folder; the server's child takes them and runs the module as `__main__`; the asking process waits for the
child's exit status, passes a SIGTERM or SIGINT on to it, and exits with its status. Spark sees the process it
started, talking to it as the module would. Anything amiss (no server, a refused connection) and the process
runs the module itself, as without the server.

The server forks nothing else, starts no thread, and exits when the process that started it is gone."""

import json
import os
import signal
import socket
import struct
import sys

ENV = "DYNSQL_WORKER_FORKS"
MODULES = ("pyspark.sql.streaming.python_streaming_source_runner",
           "pyspark.sql.streaming.transform_with_state_driver_worker")
PRELOAD = MODULES + ("runtime.connectors.filesystem", "runtime.connectors.datagen", "runtime.connectors.nexmark",
                     "runtime.operators.keyed_state")
_INT = struct.Struct("!i")


# ---------------------------------------------------------------------- the process Spark started
def forked_module():
    """The module this process was started to run (`python -m MODULE`) when a fork server may run it, else None."""
    if not os.environ.get(ENV):
        return None
    argv = list(getattr(sys, "orig_argv", ()))
    m = argv.index("-m") if "-m" in argv else None
    if m is None or m + 1 >= len(argv) or argv[m + 1] not in MODULES:
        return None
    return argv[m + 1], argv[m + 2:]


def run_in_a_fork():
    """Have the fork server run this process's module; exits with the fork's status. Returns (the caller runs
    the module itself) when there is no server to ask or it does not answer."""
    asked = forked_module()
    if asked is None:
        return
    module, args = asked
    try:
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(os.path.join(os.environ[ENV], "socket"))
        request = json.dumps({"module": module, "args": args, "env": dict(os.environ),
                              "cwd": os.getcwd()}).encode()
        socket.send_fds(conn, [_INT.pack(len(request)) + request], [0, 1, 2])
        child = _read_int(conn)
    except (OSError, ValueError):
        return
    if child is None:
        return

    def forward(signum, _frame):
        try:
            os.kill(child, signum)
        except OSError:
            pass
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, forward)
    status = _read_int(conn)
    os._exit(1 if status is None else status)


def _read_int(conn):
    data = b""
    while len(data) < _INT.size:
        try:
            chunk = conn.recv(_INT.size - len(data))
        except InterruptedError:
            continue
        if not chunk:
            return None
        data += chunk
    return _INT.unpack(data)[0]


# ---------------------------------------------------------------------- the server
def serve(folder, parent):
    import importlib
    import selectors
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except Exception:     # the fork will import what it needs (or fail and say why)
            pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(os.path.join(folder, "socket"))
    listener.listen(64)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    selector.register(wake_r, selectors.EVENT_READ)
    children = {}   # pid -> the asking process's connection
    sys.stdout.flush()
    sys.stderr.flush()
    while os.getppid() == parent:
        for key, _ in selector.select(timeout=1.0):
            if key.fileobj is listener:
                conn, _ = listener.accept()
                pid = _fork(conn, (selector, listener, wake_r, wake_w)) if _asked_by_our_jvm(conn, parent) else None
                if pid is None:
                    conn.close()
                else:
                    children[pid] = conn
                    selector.register(conn, selectors.EVENT_READ, pid)
            elif key.fileobj is wake_r:
                os.read(wake_r, 512)
            else:
                _asking_process_gone(selector, key.fileobj, key.data)
        _reap(children, selector)
    for conn in children.values():
        conn.close()
    import shutil
    shutil.rmtree(folder, ignore_errors=True)     # the session that would have removed it is gone


def _asked_by_our_jvm(conn, parent):
    """Whether the asking process is a child of a child of `parent` (its JVM's): another process that has
    $DYNSQL_WORKER_FORKS from a dynsql process's environment (a Spark Connect server, a job host on a cluster,
    started by it) runs its own Python."""
    try:
        pid, _, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
        return _parent_of(_parent_of(pid)) == parent
    except (OSError, ValueError):
        return False


def _parent_of(pid):
    with open("/proc/%d/stat" % pid) as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def _fork(conn, closed_in_child):
    """Reads one request from `conn` and forks its child: pid (sent to the asking process), or None."""
    try:
        conn.settimeout(10)
        head, fds, _, _ = socket.recv_fds(conn, _INT.size, 3)
        if len(head) < _INT.size or len(fds) != 3:
            for fd in fds:
                os.close(fd)
            return None
        (size,) = _INT.unpack(head)
        body = b""
        while len(body) < size:
            chunk = conn.recv(size - len(body))
            if not chunk:
                raise OSError("the request ended early")
            body += chunk
        request = json.loads(body)
    except (OSError, ValueError):
        return None
    pid = os.fork()
    if pid == 0:
        _run_child(request, fds, conn, closed_in_child)
    for fd in fds:
        os.close(fd)
    try:
        conn.sendall(_INT.pack(pid))
    except OSError:
        pass
    return pid


def _run_child(request, fds, conn, closed_in_child):
    """In the fork: take the asking process's streams, environment, folder and arguments; run the module."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, signal.SIG_DFL)
        selector, *others = closed_in_child
        for key in list(selector.get_map().values()):     # the server's socket, pipe and other forks' askers
            others.append(key.fileobj)
        selector.close()
        for f in others:
            try:
                f.close() if hasattr(f, "close") else os.close(f)
            except OSError:
                pass
        conn.close()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        import random
        random.seed()
        import runpy
        sys.argv = [request["module"]] + list(request["args"])
        runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:
        import traceback
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _asking_process_gone(selector, conn, pid):
    """The asking process closed its end (it sends nothing after its request): it was killed (SIGKILL leaves it no
    time to pass a signal on), so its fork goes too, as the process Spark started would have."""
    try:
        if conn.recv(1):
            return
    except OSError:
        pass
    selector.unregister(conn)
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def _reap(children, selector):
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        conn = children.pop(pid, None)
        if conn is not None:
            if conn in (k.fileobj for k in selector.get_map().values()):
                selector.unregister(conn)
            try:
                conn.sendall(_INT.pack(os.waitstatus_to_exitcode(status) & 0xFF))
            except OSError:
                pass
            conn.close()


# ---------------------------------------------------------------------- started by the session
def start_server(python, environ, log):
    """Starts a fork server (a child of this process) for the JVM's children: -> (its Popen, the folder to name
    in $DYNSQL_WORKER_FORKS). `environ`: the environment the JVM's children get; `log`: a file for what the
    server and its forks' Python print before they have the asking process's streams (the Spark log)."""
    import subprocess
    import tempfile
    folder = tempfile.mkdtemp(prefix="dynsql-forks-")     # owner-only (0700)
    proc = subprocess.Popen([python, os.path.abspath(__file__), folder, str(os.getpid())],
                            env={k: v for k, v in environ.items() if k != ENV}, stdin=subprocess.DEVNULL,
                            stdout=log, stderr=log, close_fds=True)
    return proc, folder


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
