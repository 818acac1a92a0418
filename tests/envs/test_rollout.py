"""The one rollout path against the scalar Auction, and the search operations on the array state."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from bidlab.agents.base import AgentBase
from bidlab.agents.registry import make_agent
from bidlab.agents.sayc import SaycAgent
from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Board, board_dealer, board_vulnerability
from bidlab.bridge.scoring import imps, score_contract
from bidlab.cards import Deal, Seat, random_deals
from bidlab.dd import shipped_store
from bidlab.envs import state as st
from bidlab.envs.rollout import HUMAN, Decision, PolicyError, duplicate, rollout, score
from tests.scalar_bidding import bid_scalar


class Forced(AgentBase):
    """Plays ``prefix`` while the auction is shorter than it, then lets ``policy`` bid."""

    def __init__(self, prefix, policy):
        self.prefix, self.policy, self.name = list(prefix), policy, "forced"

    def decide(self, state, explain=False):
        calls = np.empty(state.n, np.int64)
        early = state.length < len(self.prefix)
        calls[early] = np.array(self.prefix, np.int64)[state.length[early]]
        late = np.flatnonzero(~early)
        if late.size:
            calls[late] = self.policy.decide(state.take(late)).calls
        return Decision(calls)


def _boards(deals, first=1):
    return [Board(Deal.from_array(d), first + i, board_dealer(first + i), board_vulnerability(first + i))
            for i, d in enumerate(deals)]


def test_rollout_and_scalar_auction_bid_1000_boards_alike_with_sayc_at_every_seat():
    batch = shipped_store().load("validation")
    deals, dd = batch.deals[:1000], batch.dd[:1000]
    boards = _boards(deals)
    dealer = np.array([int(b.dealer) for b in boards])
    vul = np.array([int(b.vulnerability) for b in boards])
    sayc = SaycAgent()
    got = duplicate(deals, dealer, vul, sayc, sayc, dd=dd)
    for i, b in enumerate(boards):
        ref = bid_scalar(b, (sayc,) * 4)
        c = ref.contract
        ns = score_contract(c, 0 if c is None else int(dd[i, c.declarer, c.strain]), b.vulnerability)
        assert got.open.auction(i) == ref and got.closed.auction(i) == ref
        assert int(got.open_scores.ns_score[i]) == ns == int(got.closed_scores.ns_score[i])
        assert int(got.imps[i]) == imps(ns - ns) == 0


def test_duplicate_imps_equal_scalar_scoring_of_each_room():
    batch = shipped_store().load("validation")
    deals, dd = batch.deals[:20], batch.dd[:20]
    boards = _boards(deals)
    a, b = SaycAgent(), make_agent("nn:sl")
    got = duplicate(deals, [int(x.dealer) for x in boards], [int(x.vulnerability) for x in boards], a, b, dd=dd)
    for i, bd in enumerate(boards):
        rooms = []
        for seats in ((a, b, a, b), (b, a, b, a)):
            auc = bid_scalar(bd, seats)
            c = auc.contract
            rooms.append((auc, score_contract(c, 0 if c is None else int(dd[i, c.declarer, c.strain]), bd.vulnerability)))
        assert got.open.auction(i) == rooms[0][0] and got.closed.auction(i) == rooms[1][0]
        assert int(got.imps[i]) == imps(rooms[0][1] - rooms[1][1])


def test_256_tables_from_a_prefix_with_sampled_hands_end_as_bidding_from_scratch_with_the_prefix_forced():
    policy = make_agent("nn:sl")
    real = Deal.from_array(random_deals(1, seed=11)[0])
    prefix = [c.id for c in Auction.parse("1S 2H 3D P").calls]  # North deals, and is to act again
    searcher = 0
    rng = np.random.default_rng(5)
    own = np.flatnonzero(real.to_array() == searcher)
    others = np.setdiff1d(np.arange(52), own)
    sampled = np.empty((256, 52), np.uint8)
    for k in range(256):  # the searcher's hand stays; the 39 others are dealt at random
        sampled[k, own] = searcher
        sampled[k, rng.permutation(others)] = np.repeat([1, 2, 3], 13)
    start = st.from_prefix(real.to_array()[None], 0, 3, np.array([prefix]))
    particles = st.with_hands(st.repeat(start, 256), sampled)
    assert (particles.to_act == searcher).all()
    # injected hands are what every seat now observes (the prefix's call bits stay)
    assert np.array_equal(st.observe(particles, seat=np.full(256, 1)),
                          st.encode_openspiel480(sampled, np.zeros(256, int), np.full(256, 3),
                                                 np.tile(prefix, (256, 1)), observer=np.full(256, 1)))
    ends = rollout(particles, [policy] * 4)
    scratch = rollout(st.init(sampled, 0, 3), [Forced(prefix, policy)] * 4)
    assert ends.done.all() and scratch.done.all()
    assert np.array_equal(ends.length, scratch.length)
    assert np.array_equal(ends.history, scratch.history)
    assert np.array_equal(ends.code, scratch.code) and np.array_equal(ends.namer, scratch.namer)
    assert (ends.history != ends.history[0]).any()  # the injected hands matter


@settings(max_examples=60, deadline=None)
@given(seed=hst.integers(0, 2**31 - 1), dealer=hst.integers(0, 3))
def test_array_state_agrees_with_the_scalar_auction_call_by_call(seed, dealer):
    rng = np.random.default_rng(seed)
    state = st.init(random_deals(1, seed=seed), dealer, int(rng.integers(4)))
    auction = Auction(Seat(dealer))
    while not auction.is_over:
        assert state.legal[0].tolist() == auction.legal_mask()
        assert int(state.to_act[0]) == int(auction.to_act)
        rebuilt = state.auction(0)  # from the row's rules state, without replaying
        assert (rebuilt, rebuilt.last_bid, rebuilt.last_bidder, rebuilt.doubled, rebuilt.declarer) == \
            (auction, auction.last_bid, auction.last_bidder, auction.doubled, auction.declarer)
        legal = np.flatnonzero(state.legal[0])
        # favour passes so that auctions get long and reach doubles and redoubles
        call = 0 if rng.random() < 0.4 else int(rng.choice(legal))
        state = st.step(state, np.array([call]))
        auction = auction.with_call(call)
    assert state.done[0] and not state.legal[0].any()
    assert state.auction(0).contract == auction.contract
    c, ref = st.contracts(state), auction.contract
    if ref is None:
        assert c.level[0] == 0 and c.declarer[0] == -1
    else:
        assert (c.level[0], c.strain[0], c.doubled[0], c.declarer[0]) == \
            (ref.level, int(ref.strain), ref.doubled, int(ref.declarer))


def test_step_is_pure_and_step_in_place_is_not():
    s0 = st.init(random_deals(3, seed=1), [0, 1, 2], 0)
    s1 = st.step(s0, np.array([3, 0, -1]))
    assert s0.length.tolist() == [0, 0, 0] and s1.length.tolist() == [1, 1, 0]
    ended = st.step_(s0, np.array([3, 0, -1]))
    assert s0.length.tolist() == [1, 1, 0] and not ended.any()


def test_take_repeat_concat_keep_rows():
    s = st.from_prefix(random_deals(3, seed=2), [0, 1, 2], [0, 1, 2], np.array([[3, -1], [0, 4], [-1, -1]]))
    r = st.repeat(s, 2)
    assert r.length.tolist() == [1, 1, 2, 2, 0, 0]
    c = st.concat([s.take([2]), s.take([0])])
    assert c.length.tolist() == [0, 1] and np.array_equal(c.deals[1], s.deals[0])


def test_a_seat_without_a_policy_pauses_its_table():
    sayc = SaycAgent()
    s = st.init(random_deals(4, seed=3), 0, 0)
    out = rollout(s, [sayc], [0, HUMAN, 0, 0])
    # every table stops when East is to act, or is over before that
    assert ((out.to_act == 1) | out.done).all()
    assert (out.length >= 1).all()


def test_on_decision_sees_every_call_once():
    seen = []
    policy = make_agent("random:4")
    s = st.init(random_deals(20, seed=4), 0, 0)
    end = rollout(s, [policy] * 4, on_decision=lambda p, rows, sub, d: seen.append(len(rows)))
    assert sum(seen) == int(end.length.sum())


def test_an_illegal_call_from_a_policy_is_a_clear_error():
    class Doubler(AgentBase):
        name = "doubler"

        def decide(self, state, explain=False):
            return Decision(np.ones(state.n, np.int64))

    with pytest.raises(PolicyError, match="doubler made the illegal call id 1"):
        rollout(st.init(random_deals(2, seed=5), 0, 0), [Doubler()] * 4)


def test_score_by_a_solver_callback_solves_only_the_contracts_reached():
    batch = shipped_store().load("validation")
    end = rollout(st.init(batch.deals[:30], 0, 0), [SaycAgent()] * 4)
    asked = []

    def solve(deals, declarer, strain):
        asked.append(len(deals))
        return batch.dd[:30][np.flatnonzero(st.contracts(end).level > 0), declarer, strain]

    by_solver = score(end, solve=solve)
    by_table = score(end, dd=batch.dd[:30])
    assert asked == [int((st.contracts(end).level > 0).sum())]
    assert np.array_equal(by_solver.ns_score, by_table.ns_score)
