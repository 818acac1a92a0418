"""A match of a slow (searching) agent moves in small chunks, and Ctrl-C says what it kept."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SLOW = "bmcs:rl?rmax=20&rmin=5"   # a search agent, small enough for a test


def _popen(args: list[str], cwd: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen([sys.executable, "-c", "from bidlab.cli import main; main()", *args], cwd=cwd,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_search_agents_match_is_cut_into_small_chunks():
    from bidlab.eval.match import default_chunk_size

    assert default_chunk_size(SLOW, "nn:rl") < 5
    assert default_chunk_size("sayc+" + SLOW, "nn:rl") < 5
    assert default_chunk_size("nn:rl", "sayc") == 50


@pytest.mark.slow
def test_ctrl_c_keeps_the_finished_boards_of_a_slow_match_and_says_how_many(tmp_path):
    proc = _popen(["match", SLOW, "nn:rl", "--boards", "40", "--workers", "1", "--out", "m"], tmp_path)
    chunks = tmp_path / "m" / "chunks"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and not list(chunks.glob("shard-*")):
        time.sleep(1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err[-2000:]
    header = json.loads((tmp_path / "m" / "match.json").read_text())
    assert header["config"]["chunk_size"] < 5
    said = out + err
    assert " of 40 boards finished and saved" in said, said[-2000:]
    saved = int(said.split(" of 40 boards finished and saved")[0].split()[-1])
    assert saved >= 1
    from bidlab.eval.match import Match, MatchConfig

    resumed = Match(MatchConfig(SLOW, "nn:rl", boards=40, chunk_size=header["config"]["chunk_size"]), tmp_path / "m")
    assert resumed.boards_done() == saved
