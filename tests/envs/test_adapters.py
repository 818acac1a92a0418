"""Gymnasium and PettingZoo adapters: API conformance and agreement with the scalar rules."""

from __future__ import annotations

import numpy as np
import pytest

from bidlab.agents.base import RandomAgent
from bidlab.bridge import Auction, Call, Vulnerability, score_contract
from bidlab.cards import Seat, random_deals
from bidlab.envs import EnvError


def source(n=50, seed=0):
    rng = np.random.default_rng(seed)
    return random_deals(n, seed=seed), rng.integers(0, 14, size=(n, 4, 5), dtype=np.uint8)


def test_gymnasium_env_checker_and_rewards():
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from bidlab.envs.gym import BiddingEnv

    deals, dd = source()
    check_env(BiddingEnv(deals, dd, side="EW", illegal_action="penalty"), skip_render_check=True)
    env = BiddingEnv(deals, dd, side="EW", reward_scale=10.0)
    rng = np.random.default_rng(1)
    for episode in range(30):
        obs, info = env.reset(seed=episode)
        assert env.observation_space.contains(obs) and isinstance(env.action_space, gymnasium.spaces.Discrete)
        terminated = False
        while not terminated:
            assert env.table.to_act % 2 == 1  # the agent only ever sees its own seats' turns
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        t = env.table.env
        a = Auction(Seat(int(t.dealer[0])), [Call(int(x)) for x in t.history[0, :t.length[0]]])
        c = a.contract
        tricks = 0 if c is None else int(dd[t.deal_index[0], int(c.declarer), int(c.strain)])
        expect = -score_contract(c, tricks, Vulnerability(int(t.vulnerability[0]))) / 10.0
        assert reward == pytest.approx(expect) and "contract" in info
    with pytest.raises(EnvError, match="auction is over"):
        env.step(0)


def test_gymnasium_illegal_action_raises_or_penalizes():
    pytest.importorskip("gymnasium")
    from bidlab.envs import IllegalEnvCallError
    from bidlab.envs.gym import BiddingEnv

    deals, dd = source()
    env = BiddingEnv(deals, dd, dealer="N")
    env.reset(seed=0)
    with pytest.raises(IllegalEnvCallError, match="board 0: XX is not legal"):
        env.step(2)
    env = BiddingEnv(deals, dd, dealer="N", illegal_action="penalty", illegal_penalty=-5)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(2)
    assert (reward, terminated, info["illegal_action"]) == (-5, True, 2)


def test_gymnasium_opponent_can_be_a_bidlab_agent():
    pytest.importorskip("gymnasium")
    from bidlab.envs.gym import BiddingEnv

    deals, dd = source()
    env = BiddingEnv(deals, dd, side="NS", opponent=RandomAgent(seed=3))
    obs, _ = env.reset(seed=0)
    done = False
    while not done:
        obs, _, done, _, info = env.step(0)  # we always pass
    auction = Auction.parse(info["auction"].split(":", 1)[1].replace("(no calls)", ""),
                            info["auction"][0])
    ours = [c for i, c in enumerate(auction.calls) if auction.seat_of(i).side == 0]
    assert all(c.is_pass for c in ours) and auction.is_over


def test_pettingzoo_api_test_and_zero_sum():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from bidlab.envs.pettingzoo import BiddingAECEnv

    deals, dd = source()
    api_test(BiddingAECEnv(deals, dd), num_cycles=200)
    env = BiddingAECEnv(deals, dd, dealer="E")
    env.reset(seed=4)
    assert env.agent_selection == "east"
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term:
            env.step(None)
            continue
        # every agent sees its own hand: 13 cards in the last 52 values
        assert obs["observation"][428:].sum() == 13
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert totals["north"] == totals["south"] == -totals["east"] == -totals["west"]
