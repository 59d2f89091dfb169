"""A shell query's checkpoints live in one temporary folder per process (runtime.streaming.checkpoint_root):
each query removes its own when it ends, and the folder goes when the process exits, so no query leaves
a directory behind in the temp folder."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_checkpoint_folder_is_removed_at_exit(tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    script = ("from runtime.streaming import checkpoint_root\n"
              "import os\n"
              "root = checkpoint_root()\n"
              "assert checkpoint_root() == root\n"
              "os.makedirs(os.path.join(root, 'dynsql-1234', 'offsets'))   # a query still running at exit\n"
              "print(root)\n")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    root = result.stdout.strip()
    assert root.startswith(str(tmp_path)) and os.path.basename(root).startswith("dynsql-checkpoints-")
    assert not os.path.exists(root)
    assert os.listdir(tmp_path) == []
