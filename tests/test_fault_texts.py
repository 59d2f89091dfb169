"""Spark's wrapper texts around a failure -> the cause in words (runtime/errors.py). The texts are what Spark 4.3
and PySpark printed for real failures (a foreachBatch that hit a full disk, a Python worker killed mid-task)."""

from runtime.errors import from_spark

FULL_DISK = """[STREAM_FAILED] Query [id = b38c193b-2dfe-4487-94ec-c53f8b3778f9, runId = 8120980c-25d9-4fd1-8edd-dbfdaded2db2] terminated with exception: [FOREACH_BATCH_USER_FUNCTION_ERROR] An error occurred in the user provided function in foreach batch sink. Reason: An exception was raised by the Python Proxy. Return Message: Traceback (most recent call last):
  File "/work/main/.venv/lib/python3.11/site-packages/py4j/clientserver.py", line 644, in _call_proxy
    return_value = getattr(self.pool[obj_id], method)(*params)
  File "/work/main/.venv/lib/python3.11/site-packages/pyspark/sql/utils.py", line 163, in call
    self.func(DataFrame(jdf, wrapped_session_jdf), batch_id)
  File "/work/main/runtime/sinks/filesystem.py", line 88, in write
    os.replace(os.path.join(staging, folder, name),
OSError: [Errno 28] No space left on device: '/data/out/part-1.csv'
 SQLSTATE: 39000 SQLSTATE: XXKST
=== Streaming Query ===
Identifier: [id = b38c193b-2dfe-4487-94ec-c53f8b3778f9, runId = 8120980c-25d9-4fd1-8edd-dbfdaded2db2]
Current State: ACTIVE"""

KILLED_WORKER = """An error occurred while calling o128.collectToPython.
: org.apache.spark.SparkException: Job aborted due to stage failure: Task 0 in stage 3.0 failed 1 times, most recent failure: Lost task 0.0 in stage 3.0 (TID 3) (127.0.0.1 executor driver): org.apache.spark.SparkException: Python worker exited unexpectedly (crashed)
	at org.apache.spark.api.python.BasePythonRunner$ReaderIterator$$anonfun$1.applyOrElse(PythonRunner.scala:621)
Caused by: java.io.EOFException
	at java.base/java.io.DataInputStream.readInt(DataInputStream.java:386)"""

USER_ERROR = """[STREAM_FAILED] Query [id = 1, runId = 2] terminated with exception: [FOREACH_BATCH_USER_FUNCTION_ERROR] An error occurred in the user provided function in foreach batch sink. Reason: An exception was raised by the Python Proxy. Return Message: Traceback (most recent call last):
  File "/x.py", line 1, in write
pyarrow.lib.ArrowInvalid: CSV parse error: Expected 2 columns, got 3
 SQLSTATE: 39000"""

CHECKPOINT = """[STREAM_FAILED] Query [id = 1, runId = 2] terminated with exception: Job aborted due to stage failure
Caused by: java.io.IOException: Error reading file /home/u/.dynsql/jobs/ab12/checkpoint/0/offsets/3
Caused by: java.io.EOFException: Unexpected end of input"""


def test_a_full_disk_is_named_with_the_file_being_written():
    err = from_spark(Exception(FULL_DISK))
    assert err.message == "No space left on device (writing /data/out/part-1.csv)"


def test_a_killed_python_worker_is_named():
    assert from_spark(Exception(KILLED_WORKER)).message.startswith("A Spark Python worker died while it ran")


def test_a_python_worker_that_did_not_connect_back_is_named():
    """A streaming query's Python source runner that did not start within Spark's 10 s (a Spark Connect server
    at load 35): the exception and its causes as the server logged them."""
    text = ("[STREAM_FAILED] Query dynsql_result_80e5 [id = d68f, runId = 9d4d] terminated with exception: Python "
            "worker failed to connect back. SQLSTATE: XXKST\nCaused by: org.apache.spark.SparkException: Python "
            "worker failed to connect back.\nCaused by: java.net.SocketTimeoutException: Timed out while waiting "
            "for the Python worker to connect back")
    message = from_spark(Exception(text)).message
    assert message.startswith("A Python process Spark started did not connect back within Spark's fixed 10 s")
    assert "SocketTimeoutException" not in message


def test_the_python_exception_inside_the_proxys_wrapper_is_the_message():
    assert from_spark(Exception(USER_ERROR)).message == "ArrowInvalid: CSV parse error: Expected 2 columns, got 3"


def test_checkpoint_damage_names_the_file():
    err = from_spark(Exception(CHECKPOINT))
    assert err.message == "EOFException: Unexpected end of input"
    assert err.hint == "it concerns the checkpoint file /home/u/.dynsql/jobs/ab12/checkpoint/0/offsets/3"


def test_a_spark_error_class_inside_the_wrapper_is_read_as_if_alone():
    text = ("[STREAM_FAILED] Query [id = 1, runId = 2] terminated with exception: [DIVIDE_BY_ZERO] Division by "
            "zero. Use `try_divide` to tolerate divisor being 0. SQLSTATE: 22012")
    assert from_spark(Exception(text)).message == "Division by zero"


def test_a_torn_checkpoint_file_is_named():
    """What Spark said when the job resumed from a checkpoint whose newest offset log file was cut in half
    (make faults)."""
    text = ("Checksum error: file:/tmp/f/jobs/7317/checkpoint/0/offsets/2 at 512 exp: 1968209535 got: -1071258339\n"
            "\tat org.apache.hadoop.fs.FSInputChecker.verifySums(FSInputChecker.java:347)")
    err = from_spark(Exception(text))
    assert err.message == ("The file /tmp/f/jobs/7317/checkpoint/0/offsets/2 is damaged: its content does not "
                           "match its checksum")
    assert "savepoint" in err.hint


def test_no_cause_message_reads_the_cause_chain():
    """A query that ended with Spark's `(no cause message)`: the cause is the next exception in the chain."""
    worker = Exception("org.apache.spark.SparkException: Python worker exited unexpectedly (crashed)")
    query = Exception("Query [id = 7fcc, runId = 4d1b] terminated with exception: (no cause message)")
    query._cause = worker
    assert from_spark(query).message.startswith("A Spark Python worker died while it ran the query")
