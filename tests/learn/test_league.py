"""League self-play, exploiters, the anchor term and time-based checkpoints (issues #26, #28, #29):
opponents' calls never reach the replay, the pool survives kill -9, PFSP weights, the anchor
keeps a policy at its anchor, and a run killed before its first update-count checkpoint keeps
its work."""

from __future__ import annotations

import hashlib
import json
import sys

import numpy as np
import pytest
import torch

from bidlab.learn.a2c import A2CConfig, RLTrainingError, SelfPlayActor, features, load_state, train_rl
from bidlab.learn.a2c import loop as loop_module
from bidlab.learn.a2c.config import LeagueConfig
from bidlab.learn.a2c.league import SELF, League, Member, pfsp_weight
from bidlab.learn.anchor import anchor_kl
from bidlab.nets import build, load_model, preset, save_model
from tests.kill_training import run_until_updates_then_kill9

CLI = [sys.executable, "-c", "from bidlab.cli import main; main()"]


def _sayc_actor(boards: int = 16) -> SelfPlayActor:
    actor = SelfPlayActor(A2CConfig.tiny(boards_per_batch=boards), seed=5)
    actor.set_league(1, [{"name": "sayc", "spec": "sayc"}])
    return actor


def _learner_turns_only(out: dict, n: int) -> None:
    """Every stored transition is a call of the learner's partnership (NS at table 0, EW at
    table 1), and at each table they are exactly the learner's turns, none missing."""
    table = (out["row"] >= n).astype(int)
    assert (out["seat"].astype(int) % 2 == table).all(), "a transition of the opponent's seats"
    for r in np.unique(out["row"]):
        lengths = np.sort(out["length"][out["row"] == r].astype(int))
        assert (np.diff(lengths) == 2).all(), lengths  # every other call: the learner's turns, in order
        assert lengths[0] <= 1


def test_against_a_league_member_only_the_learners_calls_are_transitions():
    actor = _sayc_actor(16)
    out = actor.play(opponent="sayc")
    assert out["opponent"] == "sayc"
    _learner_turns_only(out, 16)
    # the stored calls and log-probs are the learner's own: its net gives them that probability
    x, _, legal = features(out, hidden_info=False)
    with torch.inference_mode():
        lp = torch.log_softmax(actor.policy(torch.from_numpy(x)).masked_fill(~torch.from_numpy(legal),
                                                                             float("-inf")), -1)
    np.testing.assert_allclose(out["logp"], lp[np.arange(len(x)), out["call"].astype(np.int64)].numpy(),
                               rtol=1e-4, atol=1e-5)
    # the learner is team 0 at both tables: every reward is +its IMPs on the board / 24
    np.testing.assert_allclose(out["reward"], out["imps"][out["row"] % 16] / 24.0, rtol=1e-6)
    assert np.abs(out["imps"]).max() > 0


def test_self_play_batches_keep_every_seat():
    actor = _sayc_actor(8)
    out = actor.play(opponent=SELF)
    assert set(out["seat"].astype(int)) == {0, 1, 2, 3}
    with pytest.raises(RLTrainingError, match="no league member"):
        actor.play(opponent="nn:nowhere")


def test_opponents_transitions_never_enter_the_replay_buffer(tmp_path, monkeypatch):
    """Every batch the loop inserts (after the actors draw opponents by the league's shares)
    holds only the learner's calls when its opponent is not the learner itself."""
    seen = {"league": 0, "self": 0}
    real = loop_module.insert_priorities

    def spy(batch, alpha):
        if batch["opponent"] == SELF:
            seen["self"] += 1
        else:
            seen["league"] += 1
            _learner_turns_only(batch, 16)
        return real(batch, alpha)

    monkeypatch.setattr(loop_module, "insert_priorities", spy)
    cfg = A2CConfig.tiny(boards_per_batch=16, league=LeagueConfig(fixed=("sayc",), self_share=0.3,
                                                                   snapshot_every=10))
    state = train_rl(tmp_path / "run", cfg, init=None, updates=25)
    assert seen["league"] > 0 and seen["self"] > 0
    names = {m["name"] for m in state["league"]["members"]}
    assert {"self", "sayc", "snap@0", "snap@10", "snap@20"} <= names


def test_pfsp_weights_favour_the_members_the_learner_does_worst_against():
    cfg = LeagueConfig(fixed=(), self_share=0.25, floor=0.05, pfsp_power=2.0, imps_scale=1.0)
    w = [pfsp_weight(x, cfg) for x in (-3.0, -1.0, 0.0, 1.0, 3.0)]
    assert all(a > b for a, b in zip(w, w[1:-1]))
    assert w[2] == pytest.approx(0.25)  # even: x = 1/2, (1 - 1/2)^2
    assert w[-1] == pytest.approx(0.05)  # a member it beats by 3 IMPs/board is kept at the floor
    league = League(cfg, [Member("self", "self", ""), Member("a", "fixed", "a", boards=100, recent=-2.0),
                          Member("b", "fixed", "b", boards=100, recent=2.0), Member("c", "fixed", "c")], ".")
    p = league.probabilities()
    assert sum(p.values()) == pytest.approx(1.0) and p["self"] == pytest.approx(0.25)
    assert p["a"] > p["c"] > p["b"] > 0


def test_running_results_fade_over_the_horizon():
    league = League(LeagueConfig(fixed=(), horizon=100), [Member("self", "self", ""), Member("a", "fixed", "a")], ".")
    league.record("a", np.full(50, 2.0))
    assert league.members[1].recent == pytest.approx(2.0)  # the first boards set it
    for _ in range(20):
        league.record("a", np.full(50, -1.0))
    m = league.members[1]
    assert m.boards == 1050 and m.mean == pytest.approx((100 - 1000) / 1050)
    assert m.recent == pytest.approx(-1.0, abs=1e-3)  # old boards fade; the overall mean does not
    league.record("gone", np.ones(4))  # a member that left the pool: ignored, not an error


def test_a_tiny_league_resumes_after_kill9_with_its_pool_intact(tmp_path):
    out = tmp_path / "run"
    cmd = CLI + ["train", "rl", "--init", "none", "--preset", "tiny", "--out", str(out), "--updates", "100000",
                 "--eval-every", "1000", "--league", "--league-fixed", "sayc", "--league-snapshot-every", "10",
                 "--checkpoint-seconds", "100000"]
    killed = run_until_updates_then_kill9(cmd, out / "state.json", updates=30)
    at_kill = killed["updates"]
    before = {m["name"]: m for m in killed["league"]["members"]}
    assert {"self", "sayc", "snap@0", "snap@10", "snap@20"} <= set(before)
    assert before["sayc"]["boards"] > 0
    digest = hashlib.sha256((out / "league" / "snap-000010.safetensors").read_bytes()).hexdigest()
    cfg = A2CConfig.tiny(eval_every=1000, league=LeagueConfig(fixed=("sayc",), snapshot_every=10))
    seen = []
    state = train_rl(out, cfg, init=None, updates=at_kill + 10, progress=lambda ev: seen.append(ev["updates"]))
    assert min(seen) >= at_kill and state["resumed"] == 1
    after = {m["name"]: m for m in state["league"]["members"]}
    for name, m in before.items():  # every member came back with its results, and went on from them
        assert name in after
        assert after[name]["boards"] >= m["boards"] and after[name]["since"] == m["since"]
    assert sum(after[k]["boards"] for k in before) > sum(m["boards"] for m in before.values())
    assert hashlib.sha256((out / "league" / "snap-000010.safetensors").read_bytes()).hexdigest() == digest
    with pytest.raises(RLTrainingError, match="league run"):
        train_rl(out, A2CConfig.tiny(eval_every=1000), init=None, updates=at_kill + 20)


def test_a_kill_before_the_first_update_count_checkpoint_keeps_the_work(tmp_path):
    """Issue 28 #8: checkpoints are also time-based, so a run killed long before its
    ``checkpoint_every`` keeps what it trained."""
    out = tmp_path / "run"
    cmd = CLI + ["train", "rl", "--init", "none", "--preset", "tiny", "--out", str(out), "--updates", "100000",
                 "--eval-every", "100000", "--checkpoint-every", "100000", "--checkpoint-seconds", "0.5"]
    at_kill = run_until_updates_then_kill9(cmd, out / "state.json", updates=5)["updates"]
    assert 5 <= at_kill < 100000
    state = train_rl(out, A2CConfig.tiny(eval_every=100000, checkpoint_every=100000), init=None,
                     updates=at_kill + 3)
    assert state["resumed_from"]["updates"] == at_kill and state["updates"] == at_kill + 3


def _kl_to_anchor(run, anchor_path, obs: dict) -> float:
    net, _ = load_model(run / "final.safetensors")
    anchor, _ = load_model(anchor_path)
    x, _, legal = features(obs, hidden_info=False)
    with torch.inference_mode():
        x, legal = torch.from_numpy(x), torch.from_numpy(legal)
        a = torch.softmax(anchor(x).masked_fill(~legal, float("-inf")), -1)
        return float(anchor_kl(net(x), legal, a).mean())


def test_a_large_anchor_weight_keeps_the_policy_at_the_anchor(tmp_path):
    torch.manual_seed(0)
    anchor_path = save_model(tmp_path / "anchor", build(preset("policy", "tiny")))
    obs = SelfPlayActor(A2CConfig.tiny(boards_per_batch=32), seed=9).play()  # positions to compare on
    kl = {}
    for weight in (0.0, 30.0):
        cfg = A2CConfig.tiny(lr_policy=3e-3, entropy=0.0, anchor=str(anchor_path), anchor_weight=weight)
        run = tmp_path / f"w{weight}"
        # 120 updates: at 40 the free policy's drift (0.9-2e-3) sat on the threshold below
        state = train_rl(run, cfg, init=str(anchor_path), updates=120)
        assert state["updates"] == 120
        kl[weight] = _kl_to_anchor(run, anchor_path, obs)
    assert kl[0.0] > 1e-3  # free, the policy moves away from its start
    assert kl[30.0] < kl[0.0] / 4  # held by the anchor term, it stays close


def test_anchor_settings_are_checked():
    with pytest.raises(RLTrainingError, match="--anchor-weight must be >= 0"):
        A2CConfig.tiny(anchor="nn:sl", anchor_weight=-1.0)
    with pytest.raises(RLTrainingError, match="needs --anchor"):
        A2CConfig.tiny(anchor_weight=1.0)


def test_train_exploit_trains_against_its_target_and_reports_test_imps(tmp_path):
    import subprocess

    torch.manual_seed(1)
    target = save_model(tmp_path / "target", build(preset("policy", "tiny")))
    out = tmp_path / "exploit"
    r = subprocess.run(CLI + ["train", "exploit", "--target", f"nn:{target}", "--preset", "tiny", "--out", str(out),
                              "--updates", "12", "--test-boards", "16", "--eval-boards", "16"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert f"exploiter vs nn:{target}:" in r.stdout and "on 16 test boards" in r.stdout
    # the test match is a stored match, with each side's doubled contracts counted
    summary = json.loads((out / "test-12" / "summary.json").read_text())
    assert summary["boards"] == 16 and summary["agent_a"] == f"nn:{out}/final"
    assert f"{summary['imps_per_board']:+.2f}" in r.stdout
    assert f"nn:{out}/final declared " in r.stdout and f"nn:{target} declared " in r.stdout
    # resumed to a larger budget, it plays a new test match and keeps the first one
    more = subprocess.run(CLI + ["train", "exploit", "--target", f"nn:{target}", "--preset", "tiny", "--out", str(out),
                                 "--updates", "14", "--test-boards", "16", "--eval-boards", "16"],
                          capture_output=True, text=True)
    assert more.returncode == 0, more.stderr
    assert "after 14 updates" in more.stdout and f"{out}/test-14" in more.stdout
    assert json.loads((out / "test-12" / "summary.json").read_text()) == summary
    state = load_state(out)
    assert [m["name"] for m in state["league"]["members"]] == ["self", f"nn:{target}"]
    assert state["league"]["config"]["self_share"] == 0.0
    # it started from the target's own weights
    assert state["init"] == f"nn:{target}"
    bad = subprocess.run(CLI + ["train", "exploit", "--target", "nn:nowhere", "--updates", "3", "--out",
                                str(tmp_path / "x")], capture_output=True, text=True)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr and not (tmp_path / "x").exists()


def test_with_a_partner_the_partners_seat_never_becomes_a_transition():
    """Ad-hoc teamwork (issue #29): in a partnered batch one team is the learner + sayc (NS at
    table 0, EW at table 1); the learner's calls at the other three seats are all learned,
    the partner's never."""
    actor = SelfPlayActor(A2CConfig.tiny(boards_per_batch=16, partner="sayc", partner_share=1.0), seed=4)
    for _ in range(4):
        out = actor.play()
        assert out["opponent"] == "partner:sayc"
        table = (out["row"] >= 16).astype(int)
        seats0 = set(out["seat"][table == 0].astype(int))
        seats1 = set(out["seat"][table == 1].astype(int))
        assert len(seats0) == 3 and len(seats1) == 3
        (gone0,), (gone1,) = {0, 1, 2, 3} - seats0, {0, 1, 2, 3} - seats1
        assert gone0 % 2 == 0 and gone1 % 2 == 1 and gone1 == gone0 + 1  # N then E, or S then W
        # team 0 (learner + sayc) scores +IMPs, the learner's pair -IMPs
        team = (out["seat"].astype(int) + table) % 2
        np.testing.assert_allclose(out["reward"], np.where(team == 0, 1, -1) * out["imps"][out["row"] % 16] / 24,
                                   rtol=1e-6)
    with pytest.raises(RLTrainingError, match="needs --partner"):
        A2CConfig.tiny(partner_share=0.5)


def test_a_partner_in_a_league_meets_the_member_and_only_the_learners_seat_is_learned(tmp_path):
    """League + partner (issue #29's cross-play as training): the pair learner + sayc meets the
    member drawn (here sayc, so ``sayc+X`` against ``sayc``); the learner holds one seat per
    table, and each of its turns there, and nothing else, becomes a transition."""
    actor = SelfPlayActor(A2CConfig.tiny(boards_per_batch=16, partner="sayc", partner_share=1.0), seed=6)
    actor.set_league(1, [{"name": "sayc", "spec": "sayc"}])
    lows = set()
    for _ in range(4):
        out = actor.play(opponent="sayc")
        assert out["opponent"] == "partner:sayc vs sayc"
        table = (out["row"] >= 16).astype(int)
        (seat0,), (seat1,) = set(out["seat"][table == 0].astype(int)), set(out["seat"][table == 1].astype(int))
        assert seat0 % 2 == 0 and seat1 == seat0 + 1  # N then E, or S then W: the same place at both tables
        lows.add(seat0)
        for r in np.unique(out["row"]):
            lengths = np.sort(out["length"][out["row"] == r].astype(int))
            assert (np.diff(lengths) == 4).all() and lengths[0] <= 3, lengths  # every turn of one seat
        # the learner's team is team 0 at both tables: every reward is +its IMPs / 24
        np.testing.assert_allclose(out["reward"], out["imps"][out["row"] % 16] / 24.0, rtol=1e-6)
    assert lows == {0, 2}  # the partner sat at both places of the pair
    # a league's partnered batches are not results against the member: its record stays the learner's pair's
    league = League.start(LeagueConfig(fixed=("sayc",), snapshot_every=0), tmp_path, 0, build(preset("policy", "tiny")))
    league.record("partner:sayc vs sayc", np.array([5.0]))
    assert next(m for m in league.members if m.name == "sayc").boards == 0


def test_a_wider_net_starts_as_a_copy_of_the_policy_by_distillation(tmp_path):
    """--net: the new shape learns the start policy's calls before A2C goes on (issue #26)."""
    from bidlab.learn.a2c.distill import DistillConfig, distill, parse_net

    torch.manual_seed(3)
    teacher = build(preset("policy", "tiny")).eval()
    wide = parse_net("3x96", teacher.cfg)
    assert (wide.layers, wide.hidden, wide.input_dim, wide.output_dim) == (3, 96, 480, 38)
    with pytest.raises(RLTrainingError, match="LAYERSxWIDTH"):
        parse_net("wide", teacher.cfg)
    untrained, before = distill(teacher, wide, DistillConfig(steps=1, batch_size=64, boards_per_batch=32, holdout=512))
    student, after = distill(teacher, wide, DistillConfig(steps=300, batch_size=256, boards_per_batch=32,
                                                          holdout=512, lr=3e-3))
    assert student.cfg == wide
    assert after["kl"] < before["kl"] / 5 and after["agreement"] > 0.9, (before, after)
    # and as a run: train_rl distils the init policy into --net, records it, and resumes in that shape
    path = save_model(tmp_path / "teacher", teacher)
    state = train_rl(tmp_path / "run", A2CConfig.tiny(), init=str(path), updates=3, net=wide,
                     distill_cfg=DistillConfig(steps=50, batch_size=128, boards_per_batch=16, holdout=256))
    assert state["distilled"]["steps"] == 50 and load_model(tmp_path / "run" / "final.safetensors")[0].cfg == wide
    # the distillation is part of the wider net's CPU cost (equal-CPU comparisons, --cpu-minutes)
    assert 0 < state["distilled"]["cpu_seconds"] <= state["cpu_seconds"]
    state = train_rl(tmp_path / "run", A2CConfig.tiny(), init=str(path), updates=5, net=wide)
    assert state["resumed"] == 1 and state["updates"] == 5


def test_a_copied_run_finds_its_snapshots_and_one_without_them_drops_them(tmp_path):
    """The pool names snapshots by absolute path: a run folder copied elsewhere (cp -r
    checkpoints/league runs/x) reads them from its own league/ folder; without those files
    (a checkpoint committed without them) they leave the pool, and the state says which."""
    import shutil

    cfg = A2CConfig.tiny(league=LeagueConfig(fixed=("sayc",), snapshot_every=10))
    train_rl(tmp_path / "a", cfg, init=None, updates=12)
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    shutil.rmtree(tmp_path / "a")
    state = train_rl(tmp_path / "b", cfg, init=None, updates=14)
    assert {"snap@0", "snap@10"} <= {m["name"] for m in state["league"]["members"]}
    assert state["league"]["dropped"] == []
    shutil.rmtree(tmp_path / "b" / "league")
    state = train_rl(tmp_path / "b", cfg, init=None, updates=16)
    names = {m["name"] for m in state["league"]["members"]}
    assert "snap@0" not in names and {"self", "sayc"} <= names
    assert {"snap@0", "snap@10"} <= set(state["league"]["dropped"])


def test_a_league_trains_on_the_ray_backend(tmp_path):
    """The pool reaches Ray actors by value (members built there from weights or specs) and the
    batches they bid against members come back labelled and filtered as locally."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        # no self-play share: every batch, the first one included, is bid against a pool member
        cfg = A2CConfig.tiny(eval_every=1000, league=LeagueConfig(fixed=("sayc",), self_share=0.0,
                                                                   snapshot_every=10))
        state = train_rl(tmp_path, cfg, init=None, updates=12, backend="ray")
        against = sum(m["boards"] for m in state["league"]["members"] if m["name"] != "self")
        assert state["updates"] == 12 and against > 0, state["league"]["members"]
    finally:
        ray.shutdown()
