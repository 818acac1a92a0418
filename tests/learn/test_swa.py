"""The running weight average of the policy (stochastic weight averaging, Izmailov et al. 2018):
the mean against numpy's over the same policies, its round trip through a checkpoint, seeding
from kept policies, and a training run killed with -9 and resumed."""

from __future__ import annotations

import sys

import numpy as np
import pytest
import torch
from safetensors.numpy import load_file

from bidlab.learn.a2c import A2CConfig, RLTrainingError, load_state, train_rl
from bidlab.learn.a2c.swa import RunningAverage
from bidlab.nets import NetConfig, build, save_model
from tests.kill_training import run_until_updates_then_kill9

TINY = NetConfig("policy", "tiny", 480, 16, 2, 38, "openspiel480")


def _net(seed: int):
    torch.manual_seed(seed)
    return build(TINY).eval()


def _numpy_mean(files) -> dict[str, np.ndarray]:
    loaded = [load_file(f) for f in files]
    return {k: np.mean([d[k].astype(np.float64) for d in loaded], axis=0) for k in loaded[0]}


def test_the_average_is_numpys_mean_of_the_policies_taken_in_and_survives_a_checkpoint(tmp_path):
    nets = [_net(s) for s in range(5)]
    for i, n in enumerate(nets):
        save_model(tmp_path / f"p{i}", n)
    swa = RunningAverage(start=100, every=50)
    for i, n in enumerate(nets):
        assert swa.due(100 + 50 * i)
        swa.add(100 + 50 * i, n)
    assert not swa.due(300) and not swa.due(325) and not swa.due(50)
    back = RunningAverage.restore(swa.to_json(), swa.tensors())
    assert back.to_json() == {"from": 100, "every": 50, "count": 5, "first": 100, "last": 300}
    back.save(tmp_path / "swa", nets[0], {})
    want = _numpy_mean(tmp_path / f"p{i}.safetensors" for i in range(5))
    got = load_file(tmp_path / "swa.safetensors")
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=0, atol=1e-6)


def test_seeding_takes_the_kept_policies_on_its_grid_only(tmp_path):
    for u, seed in ((100, 1), (200, 2), (250, 3), (300, 4), (400, 5)):
        save_model(tmp_path / f"update-{u:06d}", _net(seed))
    swa = RunningAverage(start=200, every=100)
    assert swa.seed_from_kept(tmp_path, until=300) == 2  # 200 and 300: not 100 (before), 250 (off the grid), 400 (later)
    swa.save(tmp_path / "swa", _net(0), {})
    want = _numpy_mean([tmp_path / "update-000200.safetensors", tmp_path / "update-000300.safetensors"])
    got = load_file(tmp_path / "swa.safetensors")
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=0, atol=1e-6)


@pytest.mark.parametrize("kw, fragment", [({"swa_from": -1}, "--swa-from"), ({"swa_from": 0, "swa_every": 0}, "--swa-every")])
def test_bad_settings_are_named(kw, fragment):
    with pytest.raises(RLTrainingError, match=fragment):
        A2CConfig.tiny(**kw)


def test_a_run_killed_and_resumed_averages_exactly_the_policies_on_its_grid(tmp_path):
    """kill -9 mid-run, resume: RUN/swa is the mean of the kept policies at 0, 10, 20, ... up to
    the end (those before the kill come from the checkpoint's average, the rest from the resumed
    run), and the checkpoint counts them."""
    out = tmp_path / "run"
    cmd = [sys.executable, "-c", "from bidlab.cli import main; main()", "train", "rl", "--init", "none", "--preset", "tiny",
           "--out", str(out), "--updates", "100000", "--eval-every", "1000", "--checkpoint-every", "10",
           "--keep-policies", "--swa-from", "0", "--swa-every", "10"]
    at_kill = run_until_updates_then_kill9(cmd, out / "state.json")["updates"]
    assert at_kill >= 20 and load_state(out)["swa"]["last"] == at_kill
    cfg = A2CConfig.tiny(eval_every=1000, checkpoint_every=10)  # resumed without the option: it goes on averaging
    state = train_rl(out, cfg, init=None, updates=at_kill + 20, keep_policies=True)
    end = at_kill + 20
    assert state["swa"] == {"from": 0, "every": 10, "count": end // 10 + 1, "first": 0, "last": end}
    grid = [out / "policies" / f"update-{u:06d}.safetensors" for u in range(0, end + 1, 10)]
    want = _numpy_mean(grid)
    got = load_file(out / "swa.safetensors")
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=0, atol=2e-6)
    # and it is not simply the last policy
    last = load_file(grid[-1])
    assert any(np.abs(got[k] - last[k]).max() > 1e-4 for k in got)


def test_an_average_started_on_a_resume_is_seeded_from_the_kept_policies(tmp_path):
    cfg = A2CConfig.tiny(eval_every=1000, checkpoint_every=10)
    train_rl(tmp_path, cfg, init=None, updates=30, keep_policies=True)
    later = A2CConfig.tiny(eval_every=1000, checkpoint_every=10, swa_from=10, swa_every=10)
    state = train_rl(tmp_path, later, init=None, updates=50, keep_policies=True)
    assert state["swa"] == {"from": 10, "every": 10, "count": 5, "first": 10, "last": 50}
    want = _numpy_mean([tmp_path / "policies" / f"update-{u:06d}.safetensors" for u in (10, 20, 30, 40, 50)])
    got = load_file(tmp_path / "swa.safetensors")
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=0, atol=2e-6)
