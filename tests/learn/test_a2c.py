"""A2C self-play (Qiu et al. Sec. IV): the loss against hand-computed values, the actor's
transitions and rewards against an independent duplicate() of the same auctions, training,
resuming after kill -9, and the Ray backend."""

from __future__ import annotations

import dataclasses
import json
import math
import sys

import numpy as np
import pytest
import torch

from bidlab.bridge import rules
from bidlab.envs.rollout import Decision, duplicate
from bidlab.envs.state import encode_value636
from bidlab.learn.a2c import (
    A2CConfig,
    RLTrainingError,
    SelfPlayActor,
    a2c_loss,
    features,
    load_state,
    train_rl,
)
from bidlab.nets import load_model
from tests.kill_training import run_until_updates_then_kill9


def test_loss_pieces_by_hand():
    # row 0: legal calls 0, 1 (2 illegal), probs 1/3, 2/3; call 1; ratio 1.1 > 1 + 0.05 with A = +0.4
    # row 1: same distribution; call 0; ratio 0.9 < 1 - 0.05 with A = -0.4
    logits = torch.tensor([[0.0, math.log(2), 5.0], [0.0, math.log(2), 5.0]], requires_grad=True)
    legal = torch.tensor([[True, True, False], [True, True, False]])
    calls = torch.tensor([1, 0])
    logp_old = torch.tensor([math.log(2 / 3) - math.log(1.1), math.log(1 / 3) - math.log(0.9)])
    reward = torch.tensor([0.5, -0.3])
    value = torch.tensor([0.1, 0.1], requires_grad=True)
    w = torch.tensor([0.5, 1.0])
    out = a2c_loss(logits, legal, calls, logp_old, reward, value, w, clip=0.05, entropy_coef=0.01)
    h = -(1 / 3 * math.log(1 / 3) + 2 / 3 * math.log(2 / 3))
    pol = [-min(1.1 * 0.4, 1.05 * 0.4), -min(0.9 * -0.4, 0.95 * -0.4)]  # -0.42, +0.38
    val = [0.4 ** 2, 0.4 ** 2]
    assert out["entropy"].item() == pytest.approx(h, rel=1e-5)
    assert out["policy"].item() == pytest.approx(np.mean(pol), rel=1e-5)
    assert out["value"].item() == pytest.approx(np.mean(val), rel=1e-5)
    total = np.mean([0.5 * (pol[0] - 0.01 * h + val[0]), 1.0 * (pol[1] - 0.01 * h + val[1])])
    assert out["total"].item() == pytest.approx(total, rel=1e-5)
    assert float(out["clipped"]) == 1.0
    out["total"].backward()
    # both rows are clipped, so only the entropy moves the logits; the illegal logit gets nothing
    g = logits.grad
    assert torch.isfinite(g).all() and float(g[:, 2].abs().max()) == 0.0
    ent_only = torch.tensor([[0.0, math.log(2), 5.0]] * 2, requires_grad=True)
    lp = torch.log_softmax(ent_only.masked_fill(~legal, float("-inf")), -1)[:, :2]  # legal columns only
    e = -(lp.exp() * lp).sum(1)
    (-(w * 0.01 * e).mean()).backward()
    torch.testing.assert_close(g, ent_only.grad)
    # the advantage is detached: the value gets only the MSE gradient, d/dV mean(w (r - V)^2)
    torch.testing.assert_close(value.grad, torch.tensor([0.5 * -2 * 0.4, 1.0 * -2 * -0.4]) / 2)


def test_unclipped_ratio_gives_policy_gradient():
    logits = torch.tensor([[0.0, 0.0]], requires_grad=True)
    legal = torch.ones(1, 2, dtype=torch.bool)
    out = a2c_loss(logits, legal, torch.tensor([0]), torch.tensor([math.log(0.5)]), torch.tensor([1.0]),
                   torch.tensor([0.0]), torch.ones(1), clip=0.05, entropy_coef=0.0)
    out["policy"].backward()
    # d(-rho A)/d logit_0 at rho = 1, A = 1: -(1 - p0) = -0.5
    torch.testing.assert_close(logits.grad, torch.tensor([[-0.5, 0.5]]))


class _Scripted:
    """Replays recorded auctions: A bids NS in the open room (rows < n) and EW in the closed room."""

    def __init__(self, name, deals, dealer, records, is_a):
        self.name = name
        self.index = {deals[b].tobytes(): b for b in range(len(deals))}
        self.dealer, self.records, self.is_a = dealer, records, is_a

    def decide(self, state, explain=False):
        calls = np.empty(state.n, np.int64)
        for t in range(state.n):
            b = self.index[state.deals[t].tobytes()]
            ns = int(state.to_act[t]) % 2 == 0
            room = 0 if ns == self.is_a else 1
            calls[t] = self.records[room][b][int(state.length[t])]
        return Decision(calls)


def test_actor_rewards_match_duplicate():
    cfg = A2CConfig.tiny(boards_per_batch=12)
    actor = SelfPlayActor(cfg, seed=3)
    rows = np.arange(12) * 7
    out = actor.play(deal_rows=rows)
    n = 12
    deals, dealer = actor.deals[rows], None
    # dealer and vulnerability were drawn by the actor: read them back from a table of each board
    # by replaying: the first caller of table b is its dealer
    first = {}
    for r, ln, s in zip(out["row"], out["length"], out["seat"]):
        if ln == 0:
            first[int(r)] = int(s)
    dealer = np.array([first[b] for b in range(n)])
    assert all(first[b + n] == dealer[b] for b in range(n))
    records = [[[] for _ in range(n)] for _ in range(2)]
    for room in range(2):
        for b in range(n):
            sel = out["row"] == b + room * n
            order = np.argsort(out["length"][sel])
            records[room][b] = out["call"][sel][order].astype(int).tolist()
    vul = np.zeros(n, np.int64)
    # vulnerability is in the 480's first 4 values: [we not vul, we vul, they not vul, they vul]
    x, h, legal = features(out, hidden_info=True)
    for b in range(n):
        k = int(np.flatnonzero((out["row"] == b) & (out["length"] == 0))[0])
        seat = int(out["seat"][k])
        we, they = x[k, 1] == 1, x[k, 3] == 1
        ns_vul, ew_vul = (we, they) if seat % 2 == 0 else (they, we)
        vul[b] = int(ns_vul) + 2 * int(ew_vul)
    sign = {}

    def hook(p, rws, sub, d):
        for r, ln in zip(rws, sub.length):
            sign[(int(r), int(ln))] = 1.0 if p == 0 else -1.0

    a = _Scripted("A", deals, dealer, records, True)
    bpol = _Scripted("B", deals, dealer, records, False)
    dup = duplicate(deals, dealer, vul, a, bpol, dd=actor.dd[rows], on_decision=hook)
    np.testing.assert_array_equal(out["imps"], dup.imps)
    expected = np.array([sign[(int(r), int(ln))] * dup.imps[int(r) % n] / 24
                         for r, ln in zip(out["row"], out["length"])])
    np.testing.assert_allclose(out["reward"], expected, rtol=1e-6)
    assert np.abs(out["imps"]).max() > 0  # the check above is not all zeros
    # the stored features are the env's encoding of each prefix (636 with the hidden hands)
    hist = np.full((len(out["call"]), 320), -1, np.int64)
    for i, (r, ln) in enumerate(zip(out["row"], out["length"])):
        hist[i, :ln] = records[int(r) >= n][int(r) % n][:ln]
    b = out["row"] % n
    ref = encode_value636(actor.deals[rows][b], dealer[b], vul[b], hist)
    np.testing.assert_array_equal(h, ref)
    np.testing.assert_array_equal(legal, rules.LEGAL[out["code"].astype(np.intp), 1:])
    # the stored log-prob is that of the legal-masked softmax of the actor's net
    with torch.inference_mode():
        lp = torch.log_softmax(actor.policy(torch.from_numpy(x)).masked_fill(~torch.from_numpy(legal),
                                                                             float("-inf")), -1)
    np.testing.assert_allclose(out["logp"], lp[np.arange(len(x)), out["call"].astype(np.int64)].numpy(),
                               rtol=1e-4, atol=1e-5)


def test_train_tiny_and_best_model_loads(tmp_path):
    cfg = A2CConfig.tiny(eval_every=15, checkpoint_every=10)
    state = train_rl(tmp_path, cfg, init=None, updates=30)
    assert state["updates"] == 30 and state["learned"] == 30 * cfg.batch_size
    assert state["generated"] >= cfg.burn_in
    assert [e["update"] for e in state["evals"]] == [0, 15, 30]
    net, meta = load_model(tmp_path / "best")
    assert net.cfg.kind == "policy" and meta["info"]["rl"]["validation"]["update"] == state["best"]["update"]
    saved = json.loads((tmp_path / "state.json").read_text())
    assert saved["updates"] == 30


def test_a_cpu_budget_stops_the_run_and_counts_across_resumptions(tmp_path):
    """--cpu-minutes: the run stops on its training CPU time, which never exceeds the CPU the
    process spent in the call, goes on counting across a resumption, and is in each evaluation."""
    import time

    cfg = A2CConfig.tiny(eval_every=10, checkpoint_every=5)
    c0 = time.process_time()
    state = train_rl(tmp_path, cfg, init=None, cpu_minutes=1.5 / 60, updates=100_000)
    spent = time.process_time() - c0
    assert 1.5 <= state["cpu_seconds"] <= spent
    assert 0 < state["updates"] < 100_000  # the CPU budget stopped it, not the update budget
    first = state["cpu_seconds"]
    state = train_rl(tmp_path, cfg, init=None, cpu_minutes=3.0 / 60, updates=100_000)
    assert 3.0 <= state["cpu_seconds"] and state["updates"] > 0 and state["resumed"] == 1
    cpu = [e["cpu_seconds"] for e in state["evals"]]
    assert cpu == sorted(cpu) and cpu[0] == 0.0 and cpu[-1] > first
    assert json.loads((tmp_path / "state.json").read_text())["cpu_seconds"] == state["cpu_seconds"]


def test_final_policy_and_kept_policies_are_the_checkpoints_policy(tmp_path):
    """Every checkpoint writes the run's latest policy as RUN/final and, with keep_policies,
    RUN/policies/update-NNNNNN: plain model files holding the checkpoint's policy weights."""
    from safetensors.torch import load

    cfg = A2CConfig.tiny(eval_every=1000, checkpoint_every=4)
    train_rl(tmp_path, cfg, init=None, updates=8, keep_policies=True)
    kept = sorted(p.name for p in (tmp_path / "policies").glob("*.safetensors"))
    assert kept == ["update-000000.safetensors", "update-000004.safetensors", "update-000008.safetensors"]
    ck = load((tmp_path / "checkpoint.safetensors").read_bytes())
    for name in ("final", "policies/update-000008"):
        net, meta = load_model(tmp_path / name)
        assert net.cfg.kind == "policy" and meta["info"]["rl"]["update"] == 8
        for k, v in net.state_dict().items():
            assert torch.equal(v, ck[f"policy.{k}"]), (name, k)
    early, _ = load_model(tmp_path / "policies/update-000004")
    assert any(not torch.equal(v, ck[f"policy.{k}"]) for k, v in early.state_dict().items())


def test_no_hidden_info_value_net_sees_480(tmp_path):
    cfg = A2CConfig.tiny(hidden_info=False)
    assert cfg.value.input_dim == 480
    state = train_rl(tmp_path, cfg, init=None, updates=5)
    assert state["updates"] == 5


def test_resume_after_kill9(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-c", "from bidlab.cli import main; main()", "train", "rl", "--init", "none", "--preset", "tiny",
           "--out", str(out), "--updates", "100000", "--eval-every", "1000"]
    # wait for a checkpoint past the first one (update 0), then kill -9
    at_kill = run_until_updates_then_kill9(cmd, out / "state.json")["updates"]
    assert at_kill >= 20 and at_kill % 10 == 0
    cfg = A2CConfig.tiny(eval_every=1000)
    seen = []
    state = train_rl(out, cfg, init=None, updates=at_kill + 10, progress=lambda ev: seen.append(ev["updates"]))
    # it continued from the checkpoint's counters (a fresh start would report updates from 0)
    assert min(seen) >= at_kill and state["updates"] == at_kill + 10
    assert state["resumed"] == 1


def test_state_after_a_kill_between_checkpoint_and_state_json_is_the_checkpoints(tmp_path):
    """A kill can land after checkpoint.safetensors is replaced and before state.json is: the
    state a resume continues from (and what load_state reports) is the checkpoint's."""
    cfg = A2CConfig.tiny(eval_every=1000, checkpoint_every=5)
    train_rl(tmp_path, cfg, init=None, updates=5)
    stale = (tmp_path / "state.json").read_text()
    train_rl(tmp_path, cfg, init=None, updates=10)
    (tmp_path / "state.json").write_text(stale)  # the kill's window, made deterministic
    assert json.loads(stale)["updates"] == 5 and load_state(tmp_path)["updates"] == 10
    seen = []
    state = train_rl(tmp_path, cfg, init=None, updates=15, progress=lambda ev: seen.append(ev["updates"]))
    assert min(seen) > 10 and state["updates"] == 15 and state["resumed"] == 2


def test_ray_backend_trains_a_few_updates(tmp_path):
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        cfg = A2CConfig.tiny(eval_every=1000)
        state = train_rl(tmp_path, cfg, init=None, updates=5, backend="ray")
        assert state["updates"] == 5 and state["generated"] >= cfg.burn_in
        assert state["actor_stats"][0]["generated"] >= cfg.burn_in
    finally:
        ray.shutdown()


def test_bad_settings_raise_specific_errors(tmp_path):
    from bidlab.learn.a2c import RLTrainingError, make_config

    with pytest.raises(RLTrainingError, match="no A2C preset 'gpu'"):
        make_config("gpu")
    with pytest.raises(RLTrainingError, match="give a budget"):
        train_rl(tmp_path, A2CConfig.tiny(), init=None)
    with pytest.raises(RLTrainingError, match="unknown backend"):
        train_rl(tmp_path / "b", A2CConfig.tiny(), init=None, updates=1, backend="mpi")


def test_a_run_may_resume_with_another_seed(tmp_path):
    """Replicates of one fine-tuning start from the same checkpoint with other seeds: the seed
    picks the games, it is not a setting the resumed run must share."""
    cfg = A2CConfig.tiny(eval_every=1000, checkpoint_every=3)
    train_rl(tmp_path, cfg, init=None, updates=3)
    state = train_rl(tmp_path, dataclasses.replace(cfg, seed=1), init=None, updates=6)
    assert state["updates"] == 6 and state["resumed"] == 1 and state["config"]["seed"] == 1
    with pytest.raises(RLTrainingError, match="other settings"):  # a real setting still may not change
        train_rl(tmp_path, dataclasses.replace(cfg, batch_size=cfg.batch_size * 2), init=None, updates=9)


def test_a_resume_may_anneal_the_learning_rates(tmp_path):
    """A long run is annealed by resuming it with lower rates: the optimizers' restored state
    keeps its moments but takes the new rates, and the run records the rates it came from."""
    from bidlab.learn.a2c.checkpoint import checkpoint_state

    cfg = A2CConfig.tiny(eval_every=1000, checkpoint_every=3)
    train_rl(tmp_path, cfg, init=None, updates=3)
    lower = dataclasses.replace(cfg, lr_policy=cfg.lr_policy / 4, lr_value=cfg.lr_value / 2)
    state = train_rl(tmp_path, lower, init=None, updates=6)
    assert state["updates"] == 6 and state["config"]["lr_policy"] == lower.lr_policy
    assert state["resumed_from"]["lr_policy"] == cfg.lr_policy and state["resumed_from"]["lr_value"] == cfg.lr_value
    saved = checkpoint_state(tmp_path / "checkpoint.safetensors")["optimizers"]
    assert {g["lr"] for g in saved["opt_policy"]["param_groups"]} == {lower.lr_policy}
    assert {g["lr"] for g in saved["opt_value"]["param_groups"]} == {lower.lr_value}


def test_a_resume_against_another_evaluation_agent_labels_its_results_and_starts_the_best_afresh(tmp_path):
    """IMPs against different agents do not compare: each validation result names its opponent,
    and a resume with another --eval-against does not keep a best scored against the old one
    (a tiny random-weight policy scores far more against `random` than against `sayc`)."""
    cfg = A2CConfig.tiny(eval_every=3, checkpoint_every=3)
    first = train_rl(tmp_path, cfg, init=None, updates=3, opponent="random")
    assert {p["against"] for p in first["evals"]} == {"random"}
    state = train_rl(tmp_path, cfg, init=None, updates=6, opponent="sayc")
    last = state["evals"][-1]
    assert last["update"] == 6 and last["against"] == "sayc"
    assert max(p["imps"] for p in first["evals"]) > last["imps"]  # the old best is the higher number
    assert state["best"] == last
    saved = json.loads((tmp_path / "best.json").read_text())
    assert saved["info"]["rl"]["opponent"] == "sayc"
