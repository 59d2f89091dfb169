"""Folders and files that only their owner may read: dynsql's working folder, the job registry, a job's folder,
the logs. Another local user must not plant a file dynsql then trusts (a packages zip it ships to executors),
read what dynsql writes (a job's SET statements, its output), or point a name at another file (a symlink that
turns dynsql's log into a write to the victim's files).

`private_folder(path)` makes a folder owner-only (0700) or refuses one it cannot trust (a link, another owner);
`open_private(path)` opens a file for appending or writing owner-only (0600), never through a symlink. Nothing
here decides where a folder is: the callers name it."""

import os
import stat


class UnsafeFolder(OSError):
    """A folder dynsql would use but must not trust: it names the folder and why."""


def private_folder(path):
    """`path` as an owner-only folder: created with mode 0700 (its parents as usual) or, when it exists, checked:
    not a symlink, owned by this user (its group and other bits then cleared). Raises UnsafeFolder otherwise."""
    try:
        os.makedirs(path, mode=0o700)
    except FileExistsError:
        pass
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeFolder("%s is a symbolic link, not a folder of its own" % path)
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafeFolder("%s is not a folder" % path)
    if st.st_uid != os.getuid():
        raise UnsafeFolder("%s belongs to another user (uid %d)" % (path, st.st_uid))
    if st.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def open_private(path, mode="ab"):
    """A file object on `path`, created owner-only (0600); a symlink at `path` is refused (ELOOP), an existing
    file keeps its content ('ab') or is emptied ('wb', 'w')."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    flags |= os.O_APPEND if "a" in mode else os.O_TRUNC
    fd = os.open(path, flags, 0o600)
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, 0o600)
        return os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"}))
    except BaseException:
        os.close(fd)
        raise
