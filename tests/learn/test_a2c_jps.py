"""Online JPS in RL training (issue #17): the actor's search hook, the NLL term on search
targets, and resume of ``bidlab train rl --jps``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

from bidlab.bridge import rules
from bidlab.envs.state import concat, init, random_calls, step_
from bidlab.learn.a2c import (
    TARGET_COLUMNS,
    A2CConfig,
    Learner,
    RLTrainingError,
    SearchTraining,
    SelfPlayActor,
    TargetQueue,
    features,
    search_policy_gradient,
    train_rl,
)
from bidlab.nets import build
from bidlab.search.jps import JPSSearchConfig, JPSSearchError, RLSearchHook
from tests.kill_training import run_until_updates_then_kill9

# small search for the tiny random policy (its auctions are long and its calls near uniform)
SMALL = JPSSearchConfig(opponent_samples=1, rollouts=1, max_candidates=2)


def _search(ratio=0.5, joint=True, weight=0.1, loss="nll") -> SearchTraining:
    hook = RLSearchHook(ratio, joint=joint, config=SMALL, loss=loss, informative=loss == "pg")
    return SearchTraining(hook, hook.settings(), weight=weight, batch_size=8, loss=loss)


def test_actor_returns_search_targets_at_the_searched_infosets():
    cfg = A2CConfig.tiny(boards_per_batch=8)
    actor = SelfPlayActor(cfg, seed=5, search_hook=RLSearchHook(1.0, config=SMALL, loss="nll", informative=False))
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


def test_policy_gradient_targets_hold_every_candidate_with_its_value():
    """The default hook (pg, greedy rollouts, decisions where sigma hesitates): each row holds
    two or more legal candidates whose values differ, and its call is the best of them."""
    cfg = A2CConfig.tiny(boards_per_batch=8)
    actor = SelfPlayActor(cfg, seed=5, search_hook=RLSearchHook(1.0, config=SMALL))
    t = actor.play()["targets"]
    assert len(t["call"]) > 0 and set(TARGET_COLUMNS) <= set(t) and set(t["role"].tolist()) == {1, 2}
    legal = rules.LEGAL[t["code"].astype(np.intp), 1:]
    assert (t["cand"] <= legal).all() and (t["cand"].sum(axis=1) >= 2).all()
    q = np.where(t["cand"], t["q"], np.nan)
    assert (np.nanmax(q, axis=1) > np.nanmin(q, axis=1)).all()
    assert (np.nanargmax(q, axis=1) == t["call"]).all() and (t["gain"] >= 0).all()


def test_search_policy_gradient_is_the_gradient_of_the_candidates_mean_value():
    """d/dz of sum_a pi_C(a) q(a) / 24 at the logits z, against the closed form
    pi_C(a) (q(a) - sum_b pi_C(b) q(b)) / 24 on the candidates and 0 elsewhere."""
    torch.manual_seed(3)
    z = torch.randn(5, 38, requires_grad=True)
    cand = torch.rand(5, 38) < 0.2
    cand[:, 0] = True
    q = torch.randn(5, 38) * 6
    search_policy_gradient(z, cand, q).backward()
    p = torch.softmax(z.detach().masked_fill(~cand, float("-inf")), -1)
    mean = (p * q.masked_fill(~cand, 0)).sum(1, keepdim=True)
    want = -(p * (q - mean)).masked_fill(~cand, 0) / 24 / 5
    torch.testing.assert_close(z.grad, want)


def test_policy_gradient_prefers_the_best_mean_not_the_most_often_best():
    """Call a wins 1 IMP on 70% of the deals and loses 10 on the rest; call b scores 0. NLL of
    each deal's best call raises a (best 70% of the time); the policy gradient raises b (the
    better mean, 0 against -2.3): the reason the search enters training as pg by default."""
    cfg = A2CConfig.tiny(lr_policy=3e-3)
    torch.manual_seed(0)
    cols = _random_transitions(64, 1)
    x, _, legal = features(cols, False)
    row = {k: np.repeat(v[:1], 40, axis=0) for k, v in cols.items()}
    a, b = [int(c) for c in np.flatnonzero(legal[0])[:2]]
    cand = np.zeros((40, 38), bool)
    cand[:, [a, b]] = True
    q = np.zeros((40, 38), np.float32)
    q[:28, a], q[28:, a] = 1.0, -10.0
    best = np.where(q[:, a] > q[:, b], a, b).astype(np.int16)
    targets = {"obs": row["obs"], "code": row["code"], "call": best, "cand": cand, "q": q}
    base = Learner(cfg, build(cfg.policy), build(cfg.value))

    def log_odds(learner: Learner) -> float:  # log pi(a) - log pi(b) at the infoset
        with torch.no_grad():
            lg = learner.policy(torch.from_numpy(x[:1]))[0]
        return float(lg[a] - lg[b])

    def twin() -> Learner:
        pol, val = build(cfg.policy), build(cfg.value)
        pol.load_state_dict(base.policy.state_dict())
        val.load_state_dict(base.value.state_dict())
        return Learner(cfg, pol, val)

    start = log_odds(base)
    pg, nll = twin(), twin()
    w = np.zeros(64, np.float32)  # the A2C term off: only the search term moves the policy
    for _ in range(10):
        pg.step(cols, w, targets, 1.0, "pg")
        nll.step(cols, w, targets, 1.0, "nll")
    assert log_odds(pg) < start - 0.1      # towards b
    assert log_odds(nll) > start + 0.1     # towards a


def _random_transitions(n: int, seed: int) -> dict[str, np.ndarray]:
    """Replay columns of ``n`` random positions (random deals, 0-3 random calls), random rewards."""
    rng = np.random.default_rng(seed)
    deals = np.stack([rng.permutation(np.repeat(np.arange(4), 13)) for _ in range(n)]).astype(np.uint8)
    st = init(deals, rng.integers(0, 4, n), rng.integers(0, 4, n))
    for _ in range(3):
        live = np.flatnonzero(rng.random(n) < 0.7)
        sub = st.take(live)
        step_(sub, random_calls(sub, rng))
        st = concat([st.take(np.setdiff1d(np.arange(n), live)), sub])
    return {"obs": st.bits[np.arange(n), st.to_act], "deal": st.deals, "seat": st.to_act.astype(np.int8),
            "code": st.code.astype(np.int32), "call": random_calls(st, rng).astype(np.int16),
            "logp": np.full(n, -2.0, np.float32), "reward": rng.choice([-0.2, 0.2], n).astype(np.float32)}


def test_nll_term_moves_the_policy_towards_the_target_call():
    cfg = A2CConfig.tiny(lr_policy=3e-3)
    torch.manual_seed(0)
    cols = _random_transitions(64, 1)
    w = np.ones(64, np.float32)
    # the target: at the first transition's infoset, the legal call the policy likes least
    x, _, legal = features(cols, False)
    base = Learner(cfg, build(cfg.policy), build(cfg.value))

    def logp_target(learner: Learner, call: int) -> float:
        with torch.no_grad():
            lg = learner.policy(torch.from_numpy(x[:1])).masked_fill(~torch.from_numpy(legal[:1]), float("-inf"))
            return float(torch.log_softmax(lg, -1)[0, call])

    lp = np.array([logp_target(base, c) if legal[0, c] else np.inf for c in range(38)])
    target_call = int(lp.argmin())
    targets = {"obs": cols["obs"][:1], "code": cols["code"][:1], "call": np.array([target_call], np.int16)}

    def twin() -> Learner:
        pol, val = build(cfg.policy), build(cfg.value)
        pol.load_state_dict(base.policy.state_dict())
        val.load_state_dict(base.value.state_dict())
        return Learner(cfg, pol, val)

    with_t, without = twin(), twin()
    metrics = {}
    for _ in range(10):
        _, metrics = with_t.step(cols, w, targets, 1.0)
        without.step(cols, w)
    assert metrics["search_nll"] > 0
    assert logp_target(with_t, target_call) > lp[target_call] + 0.1
    assert logp_target(with_t, target_call) > logp_target(without, target_call) + 0.1


def test_train_with_search_then_resume_keeps_settings(tmp_path):
    cfg = A2CConfig.tiny(eval_every=1000, checkpoint_every=3)
    seen = []
    state = train_rl(tmp_path, cfg, init=None, updates=6, search=_search(),
                     progress=lambda ev: seen.append(dict(ev["metrics"])))
    pg_state = train_rl(tmp_path / "pg", cfg, init=None, updates=4, search=_search(loss="pg"),
                        progress=lambda ev: seen.append(dict(ev["metrics"])))
    assert pg_state["search"]["targets"] > 0 and any("search_pg" in m for m in seen)
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
    # the learner's term follows the hook's targets unless told otherwise
    assert SearchTraining(RLSearchHook(0.1), {}).loss == "pg"
    assert SearchTraining(RLSearchHook(0.1, loss="nll"), {}).loss == "nll"
    with pytest.raises(RLTrainingError, match="search loss"):
        SearchTraining(RLSearchHook(0.1), {}, loss="mse")
    with pytest.raises(JPSSearchError, match="ratio"):
        RLSearchHook(0.0)
    with pytest.raises(RLTrainingError, match="weight"):
        SearchTraining(RLSearchHook(0.1), {}, weight=-1.0)


@pytest.mark.slow
def test_cli_jps_resume_after_kill9(tmp_path):
    out = tmp_path / "run"
    base = [sys.executable, "-c", "from bidlab.cli import main; main()", "train", "rl", "--init", "none", "--preset",
            "tiny", "--out", str(out), "--eval-every", "1000", "--jps", "0.2"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    ck = out / "state.json"
    at_kill = run_until_updates_then_kill9(base + ["--updates", "100000"], ck)
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


def test_target_queue_gives_each_target_once_oldest_first():
    q = TargetQueue(5)
    mk = lambda calls: {"obs": np.zeros((len(calls), 60), np.uint8), "code": np.zeros(len(calls), np.int32),  # noqa: E731
                        "call": np.array(calls, np.int16), "cand": np.zeros((len(calls), 38), bool),
                        "q": np.zeros((len(calls), 38), np.float32)}
    q.add(mk([1, 2, 3]))
    q.add(mk([4, 5, 6, 7]))  # capacity 5: the oldest two are dropped
    assert len(q) == 5
    assert q.take(2)["call"].tolist() == [3, 4]
    assert q.take(10)["call"].tolist() == [5, 6, 7]
    assert len(q) == 0 and len(q.take(4)["call"]) == 0
