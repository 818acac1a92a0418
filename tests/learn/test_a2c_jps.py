"""Online JPS in RL training (issue #17): the actor's search hook, the NLL term on search
targets, and resume of ``bidlab train rl --jps``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import torch

from bidlab.bridge import rules
from bidlab.learn.a2c import (
    TARGET_COLUMNS,
    A2CConfig,
    Learner,
    RLTrainingError,
    SearchTraining,
    SelfPlayActor,
    features,
    train_rl,
)
from bidlab.nets import build
from bidlab.search.jps import JPSSearchConfig, JPSSearchError, RLSearchHook

# small search for the tiny random policy (its auctions are long and its calls near uniform)
SMALL = JPSSearchConfig(opponent_samples=1, rollouts=1, max_candidates=2)


def _search(ratio=0.5, joint=True, weight=0.1) -> SearchTraining:
    hook = RLSearchHook(ratio, joint=joint, config=SMALL)
    return SearchTraining(hook, hook.settings(), weight=weight, batch_size=8)


def test_actor_returns_search_targets_at_the_searched_infosets():
    cfg = A2CConfig.tiny(boards_per_batch=8)
    actor = SelfPlayActor(cfg, seed=5, search_hook=RLSearchHook(1.0, config=SMALL))
    out = actor.play()
    t = out["targets"]
    assert int(t["searched"]) == 16  # ratio 1: every table of the 8 board pairs
    assert len(t["call"]) > 0 and set(TARGET_COLUMNS) <= set(t)
    # every target is a legal call at its infoset, and P1 targets improve on the policy's value
    legal = rules.LEGAL[t["code"].astype(np.intp), 1:]
    assert legal[np.arange(len(t["call"])), t["call"].astype(np.int64)].all()
    assert (t["gain"][t["role"] == 1] > 0).all()
    assert actor.stats()["search_seconds"] > 0


def test_one_search_hook_gives_only_p1_targets():
    cfg = A2CConfig.tiny(boards_per_batch=8)
    actor = SelfPlayActor(cfg, seed=5, search_hook=RLSearchHook(1.0, joint=False, config=SMALL))
    t = actor.play()["targets"]
    assert len(t["call"]) > 0 and (t["role"] == 1).all()


def test_nll_term_moves_the_policy_towards_the_target_call():
    cfg = A2CConfig.tiny(boards_per_batch=4)
    torch.manual_seed(0)
    actor = SelfPlayActor(cfg, seed=1)
    cols = actor.play()
    cols = {k: cols[k][:64] for k in ("obs", "deal", "seat", "code", "call", "logp", "reward")}
    w = np.ones(len(cols["call"]), np.float32)
    # the target: at the first transition's infoset, the legal call the policy likes least
    x, _, legal = features(cols, False)
    base = Learner(cfg, build(cfg.policy), build(cfg.value))
    with torch.no_grad():
        p = torch.softmax(base.policy(torch.from_numpy(x[:1])).masked_fill(~torch.from_numpy(legal[:1]), -1e9), -1)[0]
    target_call = int(np.where(legal[0], p.numpy(), np.inf).argmin())
    targets = {"obs": cols["obs"][:1], "code": cols["code"][:1], "call": np.array([target_call], np.int16)}

    def logp_target(learner: Learner) -> float:
        with torch.no_grad():
            lg = learner.policy(torch.from_numpy(x[:1])).masked_fill(~torch.from_numpy(legal[:1]), float("-inf"))
            return float(torch.log_softmax(lg, -1)[0, target_call])

    def twin() -> Learner:
        pol, val = build(cfg.policy), build(cfg.value)
        pol.load_state_dict(base.policy.state_dict())
        val.load_state_dict(base.value.state_dict())
        return Learner(cfg, pol, val)

    with_t, without = twin(), twin()
    before = logp_target(base)
    metrics = {}
    for _ in range(5):
        _, metrics = with_t.step(cols, w, targets, 1.0)
        without.step(cols, w)
    assert "search_nll" in metrics
    assert logp_target(with_t) > before + 0.05
    assert logp_target(with_t) > logp_target(without) + 0.05


def test_train_with_search_then_resume_keeps_settings(tmp_path):
    cfg = A2CConfig.tiny(eval_every=1000, checkpoint_every=3)
    seen = []
    state = train_rl(tmp_path, cfg, init=None, updates=6, search=_search(),
                     progress=lambda ev: seen.append(dict(ev["metrics"])))
    s = state["search"]
    assert state["updates"] == 6 and s["since_update"] == 0 and s["searched"] > 0 and s["targets"] > 0
    assert any("search_nll" in m for m in seen)
    saved = json.loads((tmp_path / "state.json").read_text())
    assert saved["search"]["settings"]["search"] == "jps"
    # another search (1-search here), or none, may not resume a JPS run
    with pytest.raises(RLTrainingError, match="search targets"):
        train_rl(tmp_path, cfg, init=None, updates=9, search=_search(joint=False))
    with pytest.raises(RLTrainingError, match="search targets"):
        train_rl(tmp_path, cfg, init=None, updates=9)
    state = train_rl(tmp_path, cfg, init=None, updates=9, search=_search())
    assert state["updates"] == 9 and state["resumed"] == 1 and state["search"]["targets"] > s["targets"]


def test_plain_run_is_fine_tuned_with_search(tmp_path):
    cfg = A2CConfig.tiny(eval_every=1000, checkpoint_every=3)
    train_rl(tmp_path, cfg, init=None, updates=3)
    state = train_rl(tmp_path, cfg, init=None, updates=6, search=_search(joint=False))
    assert state["search"]["since_update"] == 3 and state["search"]["settings"]["search"] == "1-search"


def test_search_settings_are_checked():
    with pytest.raises(JPSSearchError, match="ratio"):
        RLSearchHook(0.0)
    with pytest.raises(RLTrainingError, match="weight"):
        SearchTraining(RLSearchHook(0.1), {}, weight=-1.0)


def test_cli_jps_resume_after_kill9(tmp_path):
    out = tmp_path / "run"
    base = [sys.executable, "-c", "from bidlab.cli import main; main()", "train", "rl", "--init", "none", "--preset",
            "tiny", "--out", str(out), "--eval-every", "1000", "--jps", "0.2"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(base + ["--updates", "100000"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    ck = out / "state.json"
    try:
        while True:
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode())
            if ck.exists():
                try:
                    if json.loads(ck.read_text())["updates"] >= 20:
                        break
                except (json.JSONDecodeError, KeyError):
                    pass
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
    at_kill = json.loads(ck.read_text())
    assert at_kill["search"]["settings"]["ratio"] == 0.2 and at_kill["search"]["searched"] > 0
    r = subprocess.run(base + ["--updates", str(at_kill["updates"] + 10)], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    done = json.loads(ck.read_text())
    assert done["updates"] == at_kill["updates"] + 10 and done["resumed"] == 1
    assert done["search"]["searched"] > at_kill["search"]["searched"]
    # the same folder with another search is refused with a one-line error, exit 2
    r = subprocess.run(base[:-2] + ["--updates", "100000", "--jps", "0.2", "--jps-1search"], capture_output=True,
                       text=True, env=env)
    assert r.returncode == 2 and "search targets" in r.stdout + r.stderr and "Traceback" not in r.stderr
