"""The neural agent's forward pass over distinct observations only (bidlab.agents.neural) and
the rollout's one batch per policy object (bidlab.envs.rollout) change no call.

Oracle: the plain path, one forward pass over every row (``dedup=False``) and one policy
object per team; the positions are random auctions, repeated rows, and search particles
(the acting player's hand and the auction kept, the other hands dealt again), which share
the acting player's observation without being the same table.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from bidlab.agents.neural import load_neural_agent
from bidlab.cards import random_deals
from bidlab.dd import shipped_store
from bidlab.envs import state as st
from bidlab.envs.rollout import Decision, duplicate, rollout


@pytest.fixture(scope="module")
def sl():
    return load_neural_agent("sl")


def _particles(state: st.AuctionState, k: int, rng: np.random.Generator) -> st.AuctionState:
    """``k`` particles of every table: the acting seat's cards kept, the other 39 reshuffled
    among the other three seats (what BMCS/JPS sample)."""
    rows = np.repeat(np.arange(state.n), k)
    deals = state.deals[rows].copy()
    for i, t in enumerate(rows):
        me = state.to_act[t]
        others = np.flatnonzero(deals[i] != me)
        deals[i, others] = rng.permutation(deals[i, others])
    return st.with_hands(state, deals, rows)


def _positions(seed: int, tables: int, repeats: int, particles: int) -> st.AuctionState:
    """Live tables after random calls (0 to 11 each), some rows repeated, plus particles."""
    rng = np.random.default_rng(seed)
    s = st.init(random_deals(tables, seed=seed), rng.integers(0, 4, tables), rng.integers(0, 4, tables))
    stop = rng.integers(0, 12, tables)
    for r in range(12):
        calls = st.random_calls(s, rng)
        calls[(stop <= r) | s.done] = st.NO_CALL
        st.step_(s, calls)
    s = s.take(np.flatnonzero(~s.done))
    more = [s, s.take(rng.integers(0, s.n, repeats)), _particles(s.take(np.arange(min(5, s.n))), particles, rng)]
    both = st.concat(more)
    return both.take(rng.permutation(both.n))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=hst.integers(0, 2**32 - 1), repeats=hst.integers(0, 120), particles=hst.integers(1, 40))
def test_distinct_forward_gives_the_plain_probabilities_bit_for_bit(sl, seed, repeats, particles):
    s = _positions(seed, 150, repeats, particles)
    keys = {bytes(row) for row in s.bits[np.arange(s.n), s.to_act]}
    assert len(keys) < s.n  # the batch really repeats observations
    plain = sl.probabilities(s, dedup=False)
    assert np.array_equal(sl.probabilities(s, dedup=True), plain)
    assert np.array_equal(sl.logits(s, dedup=True).numpy(), sl.logits(s, dedup=False).numpy())


@pytest.mark.parametrize("distinct", [1, 2, 3, 5, 9])
def test_a_batch_of_few_distinct_observations_keeps_the_plain_bits(sl, distinct):
    """Few distinct rows would run the net on a tiny batch, whose kernels round differently."""
    s = st.repeat(_positions(3, 40, 0, 1).take(np.arange(distinct)), 24)
    assert np.array_equal(sl.logits(s, dedup=True).numpy(), sl.logits(s, dedup=False).numpy())
    assert np.array_equal(sl.probabilities(s, dedup=True), sl.probabilities(s, dedup=False))


@pytest.mark.parametrize("mode", ["greedy", "sample"])
def test_decide_makes_the_same_calls_and_uses_the_same_random_stream(mode):
    s = _positions(7, 200, 100, 30)
    fast = load_neural_agent("sl", mode=mode, seed=11)
    plain = load_neural_agent("sl", mode=mode, seed=11)
    plain.dedup = False
    for _ in range(3):  # the generator state carries over from call to call
        a, b = fast.decide(s), plain.decide(s)
        assert np.array_equal(a.calls, b.calls) and np.array_equal(a.probs, b.probs)
    assert torch.equal(fast._gen.get_state(), plain._gen.get_state())


def test_one_agent_for_both_teams_bids_as_two_copies_of_it(sl):
    batch = shipped_store().load("validation")
    n = 200
    deals, dd = batch.deals[:n], batch.dd[:n]
    dealer, vul = np.arange(n) % 4, (np.arange(n) * 7 // 4) % 4
    copy = load_neural_agent("sl")
    shared = duplicate(deals, dealer, vul, sl, sl, dd=dd)
    separate = duplicate(deals, dealer, vul, sl, copy, dd=dd)
    for room in ("open", "closed"):
        assert np.array_equal(getattr(shared, room).history, getattr(separate, room).history)
        assert np.array_equal(getattr(shared, f"{room}_scores").ns_score, getattr(separate, f"{room}_scores").ns_score)
    assert np.array_equal(shared.imps, separate.imps)
    # the same greedy net in both rooms: identical auctions, so every board is a push
    assert np.array_equal(shared.open.history, shared.closed.history) and not shared.imps.any()


class Counting:
    """Wraps a policy; records the size of every batch it is asked."""

    def __init__(self, policy):
        self.policy, self.name, self.batches = policy, policy.name, []

    def decide(self, state, explain=False):
        self.batches.append(state.n)
        return self.policy.decide(state, explain)


def test_a_policy_object_listed_twice_gets_one_batch_per_round_and_on_decision_stays_per_index(sl):
    p = Counting(sl)
    s = st.init(random_deals(40, seed=9), 0, 0)
    # index 0 sits N-S at even tables and E-W at odd ones: every round, both indices have rows
    seat_policy = np.where(np.arange(40)[:, None] % 2 == 0, [0, 1, 0, 1], [1, 0, 1, 0])
    seen: dict[int, list[tuple[np.ndarray, Decision]]] = {0: [], 1: []}
    end = rollout(s, [p, p], seat_policy, on_decision=lambda i, rows, sub, d: seen[i].append((rows, sub, d)))
    assert len(p.batches) == int(end.length.max())  # one decide per round, both indices together
    assert seen[0] and seen[1]
    total = 0
    for i in (0, 1):
        for rows, sub, d in seen[i]:
            assert (seat_policy[rows, sub.to_act] == i).all()
            assert np.array_equal(sub.deals, end.deals[rows])
            assert len(d.calls) == len(rows) == sub.n and d.probs.shape == (len(rows), 38)
            assert np.array_equal(d.calls, end.history[rows, sub.length])
            total += len(rows)
    assert total == int(end.length.sum())
