"""The belief net's ``card_softmax`` output (issue 16): it can represent the uniform belief
exactly, and its loss is the paper's binary cross-entropy of its probabilities."""

import numpy as np
import torch

from bidlab.agents.base import RandomAgent
from bidlab.dd import shipped_store
from bidlab.learn.belief import (
    BeliefConfig,
    bce_per_row,
    he_init,
    probabilities,
    self_play_pairs,
    split_rows,
    uniform_belief,
    uniform_cross_entropy,
    unpack,
)
from bidlab.nets import build


def _pairs(n=12, seed=2):
    deals, _, _ = shipped_store().load("train")
    obs, hid, where = self_play_pairs(RandomAgent(seed), deals[:n], seed=seed, batch=8)
    return obs, hid, where


def test_a_fresh_card_softmax_net_is_exactly_the_uniform_belief():
    obs, hid, _ = _pairs()
    torch.manual_seed(0)
    net = build(BeliefConfig(preset="tiny").net_config())
    he_init(net)
    x, y = unpack(obs, hid)
    with torch.no_grad():
        p = probabilities(net, x).numpy()
        bce = float(bce_per_row(net, x, y).mean())
    # uniform: 1/3 on each of the 39 unseen cards in each hand, 0 on the searcher's own cards
    assert np.array_equal(p == 0, uniform_belief(x.numpy()) == 0)
    assert np.allclose(p, uniform_belief(x.numpy()), atol=1e-6)
    # hand-worked: per hand 13 held cards at -log(1/3) and 26 absent at -log(2/3), over 52 slots
    by_hand = (13 * np.log(3) + 26 * np.log(1.5)) / 52
    assert abs(bce - by_hand) < 1e-5
    assert abs(uniform_cross_entropy(obs, hid) - by_hand) < 1e-5


def test_card_softmax_puts_each_unseen_card_in_exactly_one_hand_and_its_loss_is_the_bce():
    obs, hid, _ = _pairs(6, seed=5)
    torch.manual_seed(1)
    net = build(BeliefConfig(preset="tiny").net_config())      # random head: far from uniform
    x, y = unpack(obs, hid)
    with torch.no_grad():
        p = probabilities(net, x).numpy().reshape(-1, 3, 52)
        loss = bce_per_row(net, x, y).numpy()
    own = x.numpy()[:, 428:480] > 0.5
    assert np.allclose(p.sum(axis=1), np.where(own, 0.0, 1.0), atol=1e-5)
    assert (p[np.repeat(own[:, None, :], 3, axis=1)] == 0).all()
    # independent: the binary cross-entropy of the probabilities themselves (own cards p = y = 0)
    q = p.reshape(-1, 156).clip(1e-12, 1 - 1e-12)
    yy = y.numpy()
    want = -(yy * np.log(q) + (1 - yy) * np.log(1 - q)).mean(axis=1)
    assert np.allclose(loss, want, atol=1e-4)


def test_sigmoid_nets_keep_the_papers_156_sigmoids():
    obs, hid, _ = _pairs(3)
    net = build(BeliefConfig(preset="tiny", output="sigmoid").net_config())
    x, _ = unpack(obs, hid)
    with torch.no_grad():
        assert torch.allclose(probabilities(net, x), torch.sigmoid(net(x)))


def test_with_several_passes_a_held_out_deal_is_held_out_in_every_pass():
    deals = 40
    where = np.array([(j * deals + i) * 1024 + L for j in range(3) for i in range(deals) for L in (0, 1)])
    train, held = split_rows(where, 20, deals)
    deal = (where // 1024) % deals
    assert set(deal[held]) == {0, 20} and not set(deal[train]) & {0, 20}


def test_before_the_first_call_even_a_trained_net_gives_exactly_the_uniform_belief():
    from bidlab.learn.belief import load_belief

    obs, hid, where = _pairs(8, seed=3)
    x, _ = unpack(obs, hid)
    first = where % 1024 == 0
    net = load_belief("belief")                      # the shipped net: far from uniform later on
    with torch.no_grad():
        p = probabilities(net, x).numpy()
    u = uniform_belief(x.numpy())
    assert np.allclose(p[first], u[first], atol=1e-6)
    assert np.abs(p[~first] - u[~first]).max() > 0.05
