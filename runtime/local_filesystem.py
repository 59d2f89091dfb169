"""dynsql's local file system for Hadoop (runtime/java: NoForkLocalFileSystem, in dynsql-hadoop.jar): Hadoop's own,
whose permissions are set with the chmod system call rather than a `chmod` process.

Without Hadoop's native library (pip's pyspark has none), every file Hadoop creates and every folder it makes on the
local file system starts a process: a streaming query's checkpoint (offset and commit logs, state schema and
metadata files, state store files) makes dozens, ~45 per query of tests/sql/subqueries.sqltest (819 for its 18
queries), each a fork of the driver JVM that the streaming thread waits for. Renames (the checkpoint's atomic
commit of each file), checksum files and everything else stay Hadoop's.

Only for a local master (executors in this JVM, the jar on its class path); a user's own `fs.file.impl`
(`spark.hadoop.fs.file.impl`) is kept."""

import os

from .session import appended, is_local

JAR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "java", "dynsql-hadoop.jar")
FILE_SYSTEM = "dynsql.hadoop.NoForkLocalFileSystem"
IMPL_KEY = "spark.hadoop.fs.file.impl"
CLASSPATH_KEY = "spark.driver.extraClassPath"


def local_filesystem_conf(master, conf, jar=JAR):
    """The settings that make `file:` paths use dynsql's local file system ({} where it does not apply)."""
    if not is_local(master) or IMPL_KEY in conf or not os.path.isfile(jar):
        return {}
    return {IMPL_KEY: FILE_SYSTEM, CLASSPATH_KEY: appended(conf, CLASSPATH_KEY, os.pathsep, [jar])}
