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


def test_a_folder_holding_another_match_is_described_in_words(tmp_path):
    first = _bidlab("match", "random", "sayc", "--boards", "4", "--chunk-size", "2", "--workers", "1",
                    "--out", "m", cwd=tmp_path)
    assert first.returncode == 0, first.stderr[-1500:]
    other = _bidlab("match", "random", "sayc", "--boards", "2", "--seed", "1", "--workers", "1", "--out", "m",
                    cwd=tmp_path)
    assert other.returncode == 2
    line = other.stderr.strip()
    assert "\n" not in line and "{" not in line and "'agent_a'" not in line, line
    assert "4 boards of the test split, seed 0" in line and "random" in line and "sayc" in line, line


def test_a_smaller_match_reads_the_first_boards_of_a_stored_larger_one(tmp_path):
    first = _bidlab("match", "random", "sayc", "--boards", "4", "--chunk-size", "2", "--workers", "1",
                    "--out", "m", cwd=tmp_path)
    assert first.returncode == 0, first.stderr[-1500:]
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "m").rglob("*")}
    small = _bidlab("match", "random", "sayc", "--boards", "2", "--workers", "1", "--out", "m", cwd=tmp_path)
    assert small.returncode == 0, small.stderr[-1500:]
    assert "read the first 2 boards" in small.stdout
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "m").rglob("*")} == before  # nothing written
    fresh = _bidlab("match", "random", "sayc", "--boards", "2", "--chunk-size", "2", "--workers", "1",
                    "--out", "fresh", cwd=tmp_path)
    line = [x for x in fresh.stdout.splitlines() if "IMPs/board" in x][0]
    assert line in small.stdout  # the same result as playing the 2 boards anew
    doubled = [x for x in fresh.stdout.splitlines() if x.startswith("doubled contracts:")]
    assert len(doubled) == 1 and doubled[0] in small.stdout.splitlines()  # and the same doubled contracts
