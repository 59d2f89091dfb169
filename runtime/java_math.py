"""java.lang.Math's EXP, LN, LOG10 and POWER for the expressions dynsql evaluates in Python (MATCH_RECOGNIZE's
MEASURES and DEFINE, the condition of an interval join or an outer join tested while rows pair:
runtime/match_recognize/compiler.py), as Flink's generated code calls them (Math.exp, Math.log, Math.log10,
Math.pow; LOG(b, x) and LOG2(x) are Math.log(x) / Math.log(b), SqlFunctionUtils.log and log2).

Python's math is the C library's and Spark's EXP, LN, LOG10, POWER are StrictMath's (fdlibm); HotSpot's Math
methods are its own intrinsics (on x86-64 Intel's LIBM stubs), and the three differ in the last digit for some
inputs: EXP(10.64) is 41772.771218515496 in Java, 41772.7712185155 in C; LOG10(0.17) -0.769551078621726 against
-0.7695510786217261. No Python library computes HotSpot's values, so a JVM does: a small Java process
(runtime/java/src/dynsql/math/JavaMathServer.java, in dynsql-java-math.jar) started on the first call in a
Python process, answering over its standard streams while that process lives (Spark's Python workers are
reused), each answer kept. It runs with the `java` Spark's JVM runs with (JAVA_HOME, else PATH), on the same
machine: the same intrinsics as the JVM Flink would use there.

Java's results also where Python's math raises: LN(0) is -Infinity, LN(-1) NaN, EXP(1000) Infinity,
POWER(-8, 1.0 / 3) NaN."""

import math
import os
import shutil
import struct
import subprocess
import threading

from planner.errors import RuntimeFailure

JAR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "java", "dynsql-java-math.jar")
_REQUEST = struct.Struct(">cdd")
_ANSWER = struct.Struct(">d")
_KEPT = 1 << 16           # answers kept per process before the store starts over


class _Server:
    """The Java process of this Python process (a forked child starts its own)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.process = None
        self.pid = None
        self.answers = {}

    def call(self, function, x, y=0.0):
        request = _REQUEST.pack(function, x, y)
        answer = self.answers.get(request)      # (keyed by the bits: -0.0 and 0.0 apart, NaN found)
        if answer is not None:
            return answer
        with self.lock:
            process = self._running()
            try:
                process.stdin.write(request)
                process.stdin.flush()
                raw = process.stdout.read(_ANSWER.size)
            except OSError:
                raw = b""
            if len(raw) != _ANSWER.size:
                self.process = None
                raise RuntimeFailure("The Java process that computes java.lang.Math's functions for MATCH_RECOGNIZE "
                                     "and join conditions ended (exit code %s)" % process.poll())
        answer = _ANSWER.unpack(raw)[0]
        if len(self.answers) >= _KEPT:
            self.answers.clear()
        self.answers[request] = answer
        return answer

    def _running(self):
        if self.process is not None and self.pid == os.getpid() and self.process.poll() is None:
            return self.process
        home = os.environ.get("JAVA_HOME")
        java = os.path.join(home, "bin", "java") if home and os.path.exists(os.path.join(home, "bin", "java")) \
            else shutil.which("java")
        if java is None:
            raise RuntimeFailure("java.lang.Math's functions need Java (java on PATH or JAVA_HOME)")
        # a small, quick JVM: C1 and the interpreter call the same Math stubs as C2 does
        self.process = subprocess.Popen(
            [java, "-Xmx16m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData", "-cp", _jar(),
             "dynsql.math.JavaMathServer"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.pid = os.getpid()
        return self.process


def _jar():
    """The jar beside this module, or, on a cluster's executor that cannot see the checkout (dynsql's packages
    came as a zip), the copy the session added to its files (session.py: SparkContext.addFile)."""
    if os.path.exists(JAR):
        return JAR
    from pyspark import SparkFiles
    try:
        copy = SparkFiles.get(os.path.basename(JAR))
    except Exception:
        copy = None
    if copy is None or not os.path.exists(copy):
        raise RuntimeFailure("java.lang.Math's functions need %s (dynsql's jar), which this executor has not got"
                             % os.path.basename(JAR))
    return copy


_SERVER = _Server()


def _double(x):
    return x if isinstance(x, float) else float(x)


def exp(x):
    return _SERVER.call(b"e", _double(x))


def log(x):
    return _SERVER.call(b"l", _double(x))


def log10(x):
    return _SERVER.call(b"t", _double(x))


def power(x, y):
    return _SERVER.call(b"p", _double(x), _double(y))


def log_of_base(base, x):
    """LOG(b, x), LOG2(x): Math.log(x) / Math.log(b), a Java double division (x / 0.0 is an infinity or NaN)."""
    return divide(log(x), log(base))


def divide(a, b):
    """a / b of two doubles as Java divides them: no error at 0."""
    if b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def sqrt(x):
    """Math.sqrt: correctly rounded in both languages; NaN below 0 (Python's math raises)."""
    x = _double(x)
    return math.nan if x < 0 else math.sqrt(x)
