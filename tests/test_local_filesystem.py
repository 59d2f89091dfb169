"""Local `file:` paths go through dynsql's Hadoop file system (runtime/local_filesystem.py): Hadoop's own, with its
checksum files, whose permissions are set by the chmod system call instead of a `chmod` process. The permissions
are those Hadoop asks for, as its own `chmod` would set them."""

import os
import stat

from runtime.local_filesystem import CLASSPATH_KEY, FILE_SYSTEM, IMPL_KEY, local_filesystem_conf


def hadoop_fs(spark, path):
    jvm = spark.sparkContext._jvm
    hpath = jvm.org.apache.hadoop.fs.Path(str(path))
    return jvm, hpath, hpath.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_files_and_folders_get_the_permissions_hadoop_asks_for(spark, tmp_path):
    jvm, folder, fs = hadoop_fs(spark, tmp_path / "state" / "0")
    assert fs.getClass().getName() == FILE_SYSTEM
    permission = jvm.org.apache.hadoop.fs.permission.FsPermission
    assert fs.mkdirs(folder, permission("750"))
    assert mode(tmp_path / "state" / "0") == 0o750
    _, file, _ = hadoop_fs(spark, tmp_path / "state" / "0" / "1.delta")
    out = fs.create(file)
    out.write(b"rows")
    out.close()
    assert mode(tmp_path / "state" / "0" / "1.delta") == 0o644      # Hadoop's default: 666 less its umask 022
    assert (tmp_path / "state" / "0" / ".1.delta.crc").is_file()    # still checksummed
    fs.setPermission(file, permission("600"))
    assert mode(tmp_path / "state" / "0" / "1.delta") == 0o600
    fs.setPermission(folder, permission("1777"))      # beyond the nine bits: Hadoop's own way
    assert os.stat(tmp_path / "state" / "0").st_mode & 0o7777 == 0o1777


def test_only_for_a_local_master_and_a_users_own_file_system_is_kept(tmp_path):
    jar = tmp_path / "dynsql-hadoop.jar"
    jar.write_bytes(b"")
    assert local_filesystem_conf("local[2]", {}, str(jar)) == {IMPL_KEY: FILE_SYSTEM, CLASSPATH_KEY: str(jar)}
    assert local_filesystem_conf("local[2]", {CLASSPATH_KEY: "/opt/a.jar"}, str(jar))[CLASSPATH_KEY] == \
        os.pathsep.join(["/opt/a.jar", str(jar)])
    assert local_filesystem_conf("local[2]", {IMPL_KEY: "my.FileSystem"}, str(jar)) == {}
    assert local_filesystem_conf("spark://host:7077", {}, str(jar)) == {}
    assert local_filesystem_conf("local[2]", {}, str(tmp_path / "missing.jar")) == {}
