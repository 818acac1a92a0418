"""Belief training data and the trick estimator's data transforms (issue 16)."""

import json

import numpy as np
import pytest

from bidlab.agents.base import RandomAgent
from bidlab.bridge.features import OPENSPIEL_CARD
from bidlab.dd import dd_tables, shipped_store
from bidlab.learn.belief import (
    BeliefConfig,
    BeliefTrainingError,
    self_play_pairs,
    split_rows,
    train_belief,
    unpack,
)
from bidlab.learn.tricks import rotate


def test_self_play_pairs_hold_the_true_hidden_hands_of_lho_partner_rho():
    deals, _, _ = shipped_store().load("train")
    deals = deals[:30]
    obs, hid, where = self_play_pairs(RandomAgent(3), deals, seed=1, batch=16)
    x, y = unpack(obs, hid)
    x, y = x.numpy(), y.numpy()
    assert len(x) == len(where) > 30 * 4
    board, length = where // 1024, where % 1024
    for i in range(0, len(x), 7):
        d = deals[board[i]]
        own = x[i, 428:480]
        # the player to act: the seat whose hand is the 480's hand block
        seat = [s for s in range(4) if np.array_equal(own[OPENSPIEL_CARD], (d == s).astype(np.float32))]
        assert len(seat) == 1
        s = seat[0]
        for rel in range(3):
            want = np.zeros(52, np.float32)
            want[OPENSPIEL_CARD] = d == (s + 1 + rel) % 4
            assert np.array_equal(y[i, rel * 52:(rel + 1) * 52], want)
    assert (length == 0).sum() == 30          # one opening decision per auction


def test_heldout_rows_are_whole_auctions():
    where = np.array([0 * 1024 + 0, 0 * 1024 + 1, 5 * 1024, 20 * 1024 + 3, 21 * 1024])
    train, held = split_rows(where, 20)
    assert held.tolist() == [0, 1, 3] and train.tolist() == [2, 4]


@pytest.mark.slow
def test_training_resumes_from_its_checkpoint(tmp_path):
    cfg = BeliefConfig(preset="tiny", deals=200, epochs=1, batch_size=64, checkpoint_every=5, max_steps=10)
    s1 = train_belief(tmp_path, cfg)
    assert s1["step"] == 10
    s2 = train_belief(tmp_path, BeliefConfig(**{**cfg.__dict__, "max_steps": 20}))
    assert s2["step"] == 20 and json.loads((tmp_path / "state.json").read_text())["step"] == 20
    with pytest.raises(BeliefTrainingError):
        train_belief(tmp_path, BeliefConfig(**{**cfg.__dict__, "lr": 0.5}))


def test_rotating_a_deal_rotates_its_dd_table():
    deals, dd, _ = shipped_store().load("validation")
    d, t = rotate(deals[:1], dd[:1], 1)
    assert np.array_equal(dd_tables(d)[0], t[0])


def test_a_mixture_bids_each_batch_with_a_drawn_pair_and_one_bidder_keeps_its_data():
    from bidlab.agents.base import AgentBase, Decision

    class Recorder(AgentBase):
        """Random legal calls; remembers the seats it was asked to bid for."""

        def __init__(self, name, seed):
            self.name, self.inner, self.seats = name, RandomAgent(seed), set()

        def decide(self, state, explain=False):
            self.seats.update(int(s) for s in state.to_act)
            d = self.inner.decide(state)
            return Decision(d.calls, d.probs)

    deals = shipped_store().load("train")[0][:64]
    bidders = [Recorder(f"r{i}", i) for i in range(3)]
    self_play_pairs(bidders, deals, seed=2, batch=8)
    assert sum(1 for b in bidders if b.seats) >= 2          # 8 batches: more than one bidder sat down
    for b in bidders:
        assert b.seats <= {0, 1, 2, 3}
    # a list of one bidder is the single-policy data, pair for pair
    a = self_play_pairs(RandomAgent(5), deals, seed=3, batch=16)
    b = self_play_pairs([RandomAgent(5)], deals, seed=3, batch=16)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_a_mixture_records_every_bidder_s_generation():
    from bidlab.learn.belief import generations, policy_names

    assert policy_names(" rl, sayc ") == ["rl", "sayc"]
    with pytest.raises(BeliefTrainingError):
        policy_names("rl,,sayc")
    g = generations("rl,sayc")["policies_sha256"]
    assert g["sayc"] is None and len(g["rl"]) == 64
    assert generations("rl") == {"policy_sha256": g["rl"]}
