"""Bad output folders end in one line, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bidlab(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-c", "from bidlab.cli import main; main()", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_a_match_folder_that_cannot_be_created_is_one_line(tmp_path):
    done = _bidlab("match", "random", "sayc", "--boards", "2", "--out", "/proc/x", cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "/proc/x" in lines[0], done.stderr[-1500:]
