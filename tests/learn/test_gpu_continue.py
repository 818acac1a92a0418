"""benchmarks/gpu_continue.py: the GPU leg of issue 44, checked here on the CPU with tiny
settings, in the slim tree a lent machine would receive (the tracked files less those it
leaves behind), so that a session with a GPU only has to run it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bidlab.agents.registry import make_agent

ROOT = Path(__file__).resolve().parents[2]
needs_git = pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                               reason="needs the git checkout (the tracked files)")


@needs_git
def test_a_tiny_leg_in_the_slim_tree_continues_the_state_and_writes_the_policy_back(tmp_path, benchmark_script):
    gc = benchmark_script("gpu_continue")
    aside, size = gc.device_tree()
    assert size <= gc.DEVICE_TREE_MIB * 2**20, f"the tree a lent machine takes is {size / 2**20:.1f} MiB"
    assert "checkpoints/rl/checkpoint.safetensors" in aside
    assert not any(p.startswith("checkpoints/league/checkpoint") for p in aside)

    # the slim tree: the tracked files less those set aside, nothing installed from it
    slim = tmp_path / "tree"
    for path in gc.travelling_files():
        if path not in aside and (ROOT / path).is_file():
            (slim / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / path, slim / path)
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "benchmarks/gpu_continue.py", "--out", str(out), "--device", "cpu",
                           "--actors", "1", "--updates", "3", "--eval-boards", "4", "--run", str(tmp_path / "run")],
                          cwd=slim, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin",
                                                                        "PYTHONPATH": str(slim)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads((out / "throughput.json").read_text())
    start = json.loads((ROOT / "checkpoints/league/state.json").read_text())["updates"]
    assert (report["updates_from"], report["updates_to"]) == (start, start + 3)
    assert report["generated_per_s"] > 0 and report["learned_per_s"] > 0
    assert report["learned"] == 3 * json.loads((tmp_path / "run/state.json").read_text())["config"]["batch_size"]
    # the policy written back bids as an agent, and the state it came from is untouched
    agent = make_agent(f"nn:{out / 'final'}", 0)
    assert agent is not None and (out / "swa.safetensors").is_file()
    assert json.loads((ROOT / "checkpoints/league/state.json").read_text())["updates"] == start


def test_bad_options_end_with_one_line_and_write_nothing(tmp_path, benchmark_script, capsys):
    gc = benchmark_script("gpu_continue")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "keep.txt").write_text("mine")
    cases = {
        ("--out", str(tmp_path / "a"), "--device", "nope"): "not a torch device",
        ("--out", str(tmp_path / "a"), "--device", "cpu", "--state", str(tmp_path)): "no checkpoint.safetensors",
        ("--out", str(ROOT / "docs" / "gpu"), "--device", "cpu"): "inside docs/",
        ("--out", str(busy), "--device", "cpu"): "not an empty folder",
        ("--out", str(tmp_path / "a"), "--device", "cpu", "--run", str(busy)): "holds no run",
        ("--device", "cpu"): "--out is required",
    }
    for argv, message in cases.items():
        assert gc.main(list(argv)) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
    assert not (tmp_path / "a").exists() and not (ROOT / "docs" / "gpu").exists()
    assert [p.name for p in busy.iterdir()] == ["keep.txt"]
