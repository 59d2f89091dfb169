"""`dynsql -f FILE` and `dynsql -i FILE` on a file that cannot be read: a clear [ERROR] naming the file and
where the problem is (the byte offset, line and column of the first byte that is not UTF-8), exit code 2,
no traceback, and no Spark started for it."""

import subprocess
import sys
from pathlib import Path

import pytest

from repl.cli import _read

DYNSQL = Path(sys.executable).with_name("dynsql")
COMMAND = [str(DYNSQL)] if DYNSQL.exists() else [sys.executable, "-m", "repl.cli"]


def dynsql(*args, timeout=60):
    return subprocess.run(COMMAND + list(args), capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


@pytest.fixture
def latin1_script(tmp_path):
    path = tmp_path / "latin1.sql"
    path.write_bytes("SELECT 1;\nSELECT 'café';\n".encode("latin-1"))     # é is the byte 0xe9
    return path


@pytest.mark.parametrize("flag", ["-f", "-i"])
def test_a_file_that_is_not_utf8(flag, latin1_script):
    result = dynsql(flag, str(latin1_script))
    assert result.returncode == 2
    assert result.stderr.strip() == ("[ERROR] Cannot read %s: it is not UTF-8 text (byte 0xe9 at byte offset 21, "
                                     "line 2, column 12)" % latin1_script)
    assert "Traceback" not in result.stdout + result.stderr


@pytest.mark.parametrize("make,reason", [
    (lambda tmp: tmp / "missing.sql", "No such file or directory"),
    (lambda tmp: tmp, "Is a directory"),
])
def test_a_file_that_cannot_be_opened(tmp_path, make, reason):
    path = make(tmp_path)
    result = dynsql("-f", str(path))
    assert result.returncode == 2
    assert result.stderr.strip() == "[ERROR] Cannot read %s: %s" % (path, reason)


def test_utf8_with_a_byte_order_mark_and_a_column_counted_in_characters(tmp_path, capsys):
    path = tmp_path / "bom.sql"
    path.write_bytes(b"\xef\xbb\xbfSELECT 'h\xc3\xa9';\n")
    assert _read(str(path)) == "SELECT 'hé';\n"
    path.write_bytes("SELECT 'hé', '".encode("utf-8") + b"\xff';\n")
    assert _read(str(path)) is None
    assert "byte 0xff at byte offset 15, line 1, column 15" in capsys.readouterr().err
