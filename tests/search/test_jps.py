"""Online joint policy search (bidlab.search.jps): the Done-when position, targets, agent.

The hand-built position (issue 17, "Done when"): North deals, non-vulnerable. The scripted
policy sigma opens 1NT (pi 0.7) or 1S (0.3); over 1NT South passes; over 1S South answers
2H (0.7) or 4S (0.3); everyone else passes. The deal comes from the shipped store, chosen so
that North makes exactly 10 tricks in NT and in spades and South goes down in hearts:

- sigma's line 1NT P P P scores 1NT+3;
- P1 alone changing to 1S (partner keeps sigma: 2H) goes down: 1-search keeps 1NT;
- P2 alone has nothing to change after 1NT (its only likely call is Pass);
- only the joint change (1S by North *and* 4S by South) reaches the game, 4S=.

Expected values are computed here with the scalar scorer (bridge.scoring), independent of
the vectorized path the search uses.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from bidlab.agents.base import AgentBase, Decision
from bidlab.agents.registry import AgentSpecError, make_agent
from bidlab.bridge import rules
from bidlab.bridge.calls import Call
from bidlab.bridge.features import unpack_observations
from bidlab.bridge.scoring import contract_score, imps
from bidlab.dd import shipped_store
from bidlab.envs.rollout import duplicate, rollout
from bidlab.envs.state import from_prefix, init, observe
from bidlab.learn.belief import load_belief
from bidlab.learn.belief import probabilities as belief_probabilities
from bidlab.search.jps import (
    BeliefHiddenHands,
    DDCache,
    JPSAgent,
    JPSSearchConfig,
    JPSSearchError,
    candidate_mask,
    joint_search,
    jps_targets_for_batch,
    searched_positions,
    training_targets,
    uniform_hidden_hands,
)
from bidlab.search.sampler import DealSampler, belief_by_seat

C = {s: Call.parse(s).id for s in ("P", "1NT", "1S", "2H", "4S")}
N, E, S, W = 0, 1, 2, 3
NT, SP, HE = 4, 3, 2
DETERMINISTIC = JPSSearchConfig(opponent_samples=1, rollouts=1, sample_rollouts=False)


class ScriptedSigma(AgentBase):
    """sigma of the docstring, by auction position relative to the dealer."""

    name = "scripted"

    def probabilities(self, state) -> np.ndarray:
        p = np.zeros((state.n, 38), np.float32)
        for t in range(state.n):
            h = state.calls(t)
            if len(h) == 0:
                p[t, C["1NT"]], p[t, C["1S"]] = 0.7, 0.3
            elif len(h) == 2 and h[0] == C["1S"] and h[1] == C["P"]:
                p[t, C["2H"]], p[t, C["4S"]] = 0.7, 0.3
            else:
                p[t, C["P"]] = 1.0
        return p

    def decide(self, state, explain: bool = False) -> Decision:
        p = self.probabilities(state)
        return Decision(p.argmax(axis=1).astype(np.int64), p)


@pytest.fixture(scope="module")
def board():
    """A validation deal: N takes 10 tricks in NT and in spades, S takes at most 5 in hearts."""
    deals, dd, _ = shipped_store().load("validation")
    ok = (dd[:, N, NT] == 10) & (dd[:, N, SP] == 10) & (dd[:, S, HE] <= 5)
    i = int(np.flatnonzero(ok)[0])
    return deals[i], dd[i]


def rotated(deal, dd, k: int):
    """The same board with every seat moved k places clockwise (N -> E for k = 1)."""
    return ((deal.astype(np.int64) + k) % 4).astype(np.uint8), np.roll(dd, k, axis=0)


def expected(dd):
    """Scalar scores (NS, non-vulnerable) of the three lines, by hand from the DD table."""
    one_nt = contract_score(1, NT, 0, False, int(dd[N, NT]))
    one_s_2h = contract_score(2, HE, 0, False, int(dd[S, HE]))  # NS declare: NS score = declarer's
    four_s = contract_score(4, SP, 0, False, int(dd[N, SP]))
    return one_nt, one_s_2h, four_s


def test_joint_search_finds_the_change_single_agent_search_cannot(board):
    deal, dd = board
    one_nt, one_s_2h, four_s = expected(dd)
    assert one_s_2h < one_nt < four_s  # the position is as the docstring says
    # position 0: North deals; position 1: the same board turned so that East deals with N's cards
    d1, dd1 = rotated(deal, dd, 1)
    state = init(np.stack([deal, d1]), np.array([N, E]), 0)
    ref = np.array([one_nt, -one_nt])  # the other table played sigma (NS score; EW side at position 1)
    res = joint_search(state, ScriptedSigma(), reference_ns=ref, dd=np.stack([dd, dd1]), config=DETERMINISTIC)
    gain = imps(four_s - one_nt)
    for i in range(2):
        assert res.policy_value[i] == 0
        assert res.one_call[i] == C["1NT"] and res.one_gain[i] == 0          # 1-search keeps 1NT
        assert res.best_call[i] == C["1S"] and res.partner_call[i] == C["4S"]  # JPS: 1S then 4S
        assert res.gain[i] == gain
        table = {row["call"]: row for row in res.table(i)}
        assert table["1S"]["one"] == imps(one_s_2h - one_nt)
        assert table["1NT"]["joint"] == 0  # nothing for P2 to change after 1NT
    # the authors' average over partner branches does not find it either (module docstring)
    mean_cfg = JPSSearchConfig(opponent_samples=1, rollouts=1, sample_rollouts=False, partner="mean")
    res_mean = joint_search(state, ScriptedSigma(), reference_ns=ref, dd=np.stack([dd, dd1]), config=mean_cfg)
    assert (res_mean.best_call == C["1NT"]).all()
    # 1-search only (joint=False): the same answer as the one_* columns
    res1 = joint_search(state, ScriptedSigma(), reference_ns=ref, dd=np.stack([dd, dd1]), config=DETERMINISTIC,
                        joint=False)
    assert (res1.best_call == C["1NT"]).all() and (res1.gain == 0).all()


def test_sampled_rollouts_estimate_the_mixture(board):
    """With sigma sampled, P1's 1S under a partner on policy is worth the 0.7/0.3 mixture of
    2H and 4S; 5 x 5 rollouts estimate it, and the joint change is still found."""
    deal, dd = board
    one_nt, one_s_2h, four_s = expected(dd)
    state = init(np.repeat(deal[None], 64, axis=0), 0, 0)
    res = joint_search(state, ScriptedSigma(), reference_ns=np.full(64, one_nt), dd=np.repeat(dd[None], 64, axis=0),
                       config=JPSSearchConfig.paper(), rng=1)
    assert (res.best_call == C["1S"]).all()
    ones = res.one_value[res.cand_call == C["1S"]]
    mix = 0.7 * imps(one_s_2h - one_nt) + 0.3 * imps(four_s - one_nt)
    se = np.sqrt(0.7 * 0.3 / 5) * abs(imps(four_s - one_nt) - imps(one_s_2h - one_nt))
    assert abs(ones.mean() - mix) < 4 * se / np.sqrt(64)
    # sigma's own value mixes 1NT (0 IMPs) with 1S's lines
    v = 0.7 * 0 + 0.3 * mix
    assert abs(res.policy_value.mean() - v) < 0.5


def test_training_targets_hold_both_partners_infosets(board):
    deal, dd = board
    one_nt, _, _ = expected(dd)
    state = init(deal[None], 0, 0)
    res = joint_search(state, ScriptedSigma(), reference_ns=[one_nt], dd=dd[None], config=DETERMINISTIC)
    t = training_targets(res, "nll")
    assert t["role"].tolist() == [1, 2]
    assert t["call"].tolist() == [C["1S"], C["4S"]]
    assert t["seat"].tolist() == [N, S]
    # P2's row is South's own view after 1S P, as the env encodes it from scratch
    truth = observe(from_prefix(deal[None], 0, 0, [C["1S"], C["P"]]))[0]
    got = unpack_observations(t["obs"][1:2], np.empty((1, 480), np.float32))[0]
    np.testing.assert_array_equal(got, truth)
    assert rules.LEGAL[t["code"].astype(np.intp), t["call"].astype(np.intp) + 1].all()
    r = training_targets(res, "replace", policy=ScriptedSigma())
    np.testing.assert_allclose(np.exp(r["logp"]), [0.3, 0.3], rtol=1e-6)
    assert r["reward"][0] == pytest.approx(res.best_value[0] / 24)
    assert training_targets(res, "nll", min_gain=res.gain[0])["call"].size == 0
    with pytest.raises(JPSSearchError):
        training_targets(res, "replace")


def test_targets_for_a_self_play_batch(board):
    """Per-game dice over a duplicate batch: only games searched at North's opening gain."""
    deal, dd = board
    n = 40
    dup = duplicate(np.repeat(deal[None], n, axis=0), 0, 0, ScriptedSigma(), ScriptedSigma(),
                    dd=np.repeat(dd[None], n, axis=0))
    end = from_prefix(np.concatenate([dup.open.deals, dup.closed.deals]), 0, 0,
                      np.concatenate([dup.open.history, dup.closed.history]).astype(np.int64))
    rows, lengths = searched_positions(end, 0.5, np.random.default_rng(7))
    out = jps_targets_for_batch(end, np.repeat(dd[None], n, axis=0), ScriptedSigma(), ratio=0.5,
                                rng=np.random.default_rng(7), config=DETERMINISTIC, mode="nll", informative=False)
    assert int(out["searched"]) == len(rows) > 0
    openings = int((lengths == 0).sum())
    assert openings > 0
    assert (out["role"] == 1).sum() == openings and (out["role"] == 2).sum() == openings
    assert set(out["call"][out["role"] == 1].tolist()) == {C["1S"]}
    none = jps_targets_for_batch(end, np.repeat(dd[None], n, axis=0), ScriptedSigma(), ratio=0.0,
                                 rng=np.random.default_rng(7))
    assert none["call"].size == 0 and int(none["searched"]) == 0


def test_policy_gradient_targets_carry_every_candidate_value(board):
    """mode="pg": P1's row holds 1NT and 1S with their joint values (0 and the game swing),
    P2's row after 1S P holds 2H and 4S with theirs; with joint=False P1's 1S is worth the
    1S-2H line and P2 gives no row. Values from the scalar scorer."""
    deal, dd = board
    one_nt, one_s_2h, four_s = expected(dd)
    state = init(deal[None], 0, 0)
    res = joint_search(state, ScriptedSigma(), reference_ns=[one_nt], dd=dd[None], config=DETERMINISTIC)
    t = training_targets(res, "pg", policy=ScriptedSigma())
    assert t["role"].tolist() == [1, 2] and t["seat"].tolist() == [N, S]
    assert np.flatnonzero(t["cand"][0]).tolist() == sorted([C["1NT"], C["1S"]])
    assert t["q"][0, C["1NT"]] == 0 and t["q"][0, C["1S"]] == imps(four_s - one_nt)
    assert np.flatnonzero(t["cand"][1]).tolist() == sorted([C["2H"], C["4S"]])
    assert t["q"][1, C["2H"]] == imps(one_s_2h - one_nt) and t["q"][1, C["4S"]] == imps(four_s - one_nt)
    assert t["call"].tolist() == [C["1S"], C["4S"]]
    # gain: best minus sigma's mean over the candidates (0.7 on 1NT, 0.3 on 1S; 0.7 on 2H, 0.3 on 4S)
    assert t["gain"][0] == pytest.approx(0.7 * imps(four_s - one_nt), rel=1e-5)
    assert t["gain"][1] == pytest.approx(0.7 * (imps(four_s - one_nt) - imps(one_s_2h - one_nt)), rel=1e-5)
    res1 = joint_search(state, ScriptedSigma(), reference_ns=[one_nt], dd=dd[None], config=DETERMINISTIC, joint=False)
    t1 = training_targets(res1, "pg", policy=ScriptedSigma())
    assert t1["role"].tolist() == [1] and t1["q"][0, C["1S"]] == imps(one_s_2h - one_nt)


def test_informative_positions_are_where_sigma_hesitates(board):
    """searched_positions with the policy: only decisions with two or more candidates (North's
    opening, South's answer to 1S P), never the forced passes."""
    deal, dd = board
    n = 40
    hist = []
    rng = np.random.default_rng(5)
    for _ in range(n):  # sigma's sampled auctions: 1NT P P P, 1S P 2H P P P, 1S P 4S P P P
        first = C["1NT"] if rng.random() < 0.7 else C["1S"]
        line = [first, C["P"], C["P"], C["P"]] if first == C["1NT"] else \
            [first, C["P"], C["2H"] if rng.random() < 0.7 else C["4S"], C["P"], C["P"], C["P"]]
        hist.append(line + [-1] * (6 - len(line)))
    end = from_prefix(np.repeat(deal[None], n, axis=0), 0, 0, np.array(hist))
    assert end.done.all()
    rows, lengths = searched_positions(end, 1.0, np.random.default_rng(1), policy=ScriptedSigma(),
                                       config=DETERMINISTIC)
    h = np.array(hist)
    opened_1s = h[:, 0] == C["1S"]
    # every table is searched once: at the opening, or (after 1S) at South's answer
    assert sorted(rows.tolist()) == list(range(n))
    assert set(lengths.tolist()) <= {0, 2} and (lengths == 2).any() and (lengths == 0).any()
    assert opened_1s[rows[lengths == 2]].all()


def test_agent_plays_the_joint_change(board):
    deal, dd = board

    def true_deal(state, k, rng):  # a "belief" that knows the deal: the search is then exact
        return np.repeat(state.deals, k, axis=0)

    def solve(deals, declarer, strain):
        assert (deals == deal).all()
        return dd[declarer, strain]

    jps = JPSAgent(ScriptedSigma(), samples=2, config=DETERMINISTIC, sampler=true_deal, solve=solve)
    one = JPSAgent(ScriptedSigma(), samples=2, config=DETERMINISTIC, sampler=true_deal, solve=solve, joint=False)
    start = init(deal[None], 0, 0)
    assert jps.decide(start).calls[0] == C["1S"]
    assert one.decide(start).calls[0] == C["1NT"]
    assert "1S" in jps.decide(start, explain=True).reasons[0]
    # JPS agents at North and South bid the whole line: 1S P 4S P P P
    end = rollout(start, [jps, ScriptedSigma()], [0, 1, 0, 1])
    assert end.calls(0) == [C["1S"], C["P"], C["4S"], C["P"], C["P"], C["P"]]


def test_uniform_hidden_hands_keep_own_hand():
    deals, _, _ = shipped_store().load("validation")
    state = from_prefix(deals[:3], [0, 1, 2], 0, [C["1NT"], C["P"]])  # seats to act: S, W, N
    out = uniform_hidden_hands(state, 50, np.random.default_rng(0))
    assert out.shape == (150, 52)
    me = np.repeat(state.to_act, 50)
    for s in range(4):
        assert ((out == s).sum(axis=1) == 13).all()
    np.testing.assert_array_equal(out == me[:, None], np.repeat(state.deals, 50, axis=0) == me[:, None])
    # hidden cards move between the other three seats (not a fixed split)
    assert len({r.tobytes() for r in out[:50]}) == 50


def test_belief_hidden_hands_follow_the_belief_and_keep_the_own_hand():
    """The jps: agent's default sampler: deals from the shipped belief net keep the bidder's
    hand, give every other seat 13 cards, and hold each card where the belief puts it about
    as often as the belief says (its Sinkhorn-balanced marginals, the sampler's target)."""
    deals, _, _ = shipped_store().load("validation")
    state = from_prefix(deals[:2], 0, 0, [[C["1NT"], C["P"]], [C["1S"], C["P"]]])  # South to act
    k = 400
    sampler = BeliefHiddenHands(load_belief("belief"))
    got = sampler(state, k, np.random.default_rng(0))
    assert got.shape == (2 * k, 52)
    for t in range(2):
        block = got[t * k:(t + 1) * k]
        own = state.deals[t] == S
        assert (block[:, own] == S).all() and ((block == S).sum(axis=1) == 13).all()
        assert all(((block == seat).sum(axis=1) == 13).all() for seat in (N, E, W))
        with torch.inference_mode():
            b = belief_probabilities(sampler.net, torch.from_numpy(observe(state.take([t])))).numpy()[0]
        belief = belief_by_seat(b, S)
        belief[S] = own
        target = DealSampler(belief, own, S, np.random.default_rng(1)).target  # [39, 3] balanced
        others = [(S + 1 + r) % 4 for r in range(3)]
        freq = np.stack([(block[:, ~own] == seat).mean(axis=0) for seat in others], axis=1)
        assert np.abs(freq - target).mean() < 0.03
        assert np.abs(target - 1 / 3).max() > 0.2  # the belief is far from uniform on some cards


def test_dd_cache_solves_each_contract_once():
    calls = []

    def fake(deals, dec, strain):
        calls.append(len(deals))
        return (deals[:, 0].astype(np.int64) + dec + strain) % 14

    deals, _, _ = shipped_store().load("validation")
    d = np.repeat(deals[:2], 3, axis=0)
    cache = DDCache(fake)
    a = cache(d, np.zeros(6, np.int64), np.zeros(6, np.int64))
    b = cache(d[:2], np.zeros(2, np.int64), np.zeros(2, np.int64))
    assert calls == [2] and cache.solved == 2
    np.testing.assert_array_equal(a, fake(d, 0, 0))
    np.testing.assert_array_equal(b, fake(d[:2], 0, 0))


def test_candidates_and_joint_dominates_one_on_random_policy():
    """Property of max over partner branches: keeping sigma is a branch, so every candidate's
    joint value is at least its 1-search value (same rollouts)."""
    deals, dd, _ = shipped_store().load("validation")
    rnd = make_agent("random:3")
    state = init(deals[:16], np.arange(16) % 4, np.arange(16) % 4)
    res = joint_search(state, rnd, dd=dd[:16], config=JPSSearchConfig(threshold=0.0, max_candidates=3,
                       opponent_samples=2, rollouts=2), rng=0)
    assert (res.joint_value >= res.one_value).all()
    assert (np.bincount(res.cand_pos, minlength=16) == 3).all()
    assert (res.best_value >= res.one_best_value).all()
    p = np.array([[0.5, 0.3, 0.2] + [0.0] * 35])
    legal = np.array([[True, False, True] + [False] * 35])
    assert candidate_mask(p, legal, 0.25, 6).tolist()[0][:3] == [True, False, False]


def test_bad_input_is_a_clear_error(board):
    deal, dd = board
    state = init(deal[None], 0, 0)
    with pytest.raises(JPSSearchError, match="DD tables"):
        joint_search(state, ScriptedSigma())
    with pytest.raises(JPSSearchError, match="finished"):
        end = from_prefix(deal[None], 0, 0, [0, 0, 0, 0])
        joint_search(end, ScriptedSigma(), dd=dd[None])
    with pytest.raises(JPSSearchError, match="partner"):
        JPSSearchConfig(partner="best")
    with pytest.raises(AgentSpecError, match="unknown jps option"):
        make_agent("jps:sl?samples=3&foo=1")
    with pytest.raises(AgentSpecError, match="samples"):
        make_agent("jps:sl?samples=x")


class OneOrTwoNT(ScriptedSigma):
    """North opens 1NT (0.7) or 2NT (0.3), then everyone passes."""

    def probabilities(self, state) -> np.ndarray:
        p = np.zeros((state.n, 38), np.float32)
        opening = state.length == 0
        p[opening, C["1NT"]], p[opening, Call.parse("2NT").id] = 0.7, 0.3
        p[~opening, C["P"]] = 1.0
        return p


def test_ties_keep_the_policys_more_probable_call(board):
    """1NT+3 and 2NT+2 score alike: no evidence for a change, so the search keeps 1NT."""
    deal, dd = board
    assert contract_score(1, NT, 0, False, 10) == contract_score(2, NT, 0, False, 10)
    res = joint_search(init(deal[None], 0, 0), OneOrTwoNT(), dd=dd[None], config=DETERMINISTIC)
    assert res.best_call[0] == C["1NT"] and res.one_call[0] == C["1NT"] and res.gain[0] == 0


def test_the_most_probable_call_is_always_a_candidate():
    p = np.full((2, 38), 1 / 38, np.float32)
    p[1, 5] += 0.01
    legal = np.ones((2, 38), bool)
    m = candidate_mask(p, legal, 0.5, 6)
    assert m.sum(axis=1).tolist() == [1, 1] and m[1, 5]


def test_spec_sets_the_search():
    a = make_agent("jps:sl?samples=3&thr=0.1&partner=mean&joint=0", seed=5)
    assert isinstance(a, JPSAgent) and a.name == "jps:sl?samples=3&thr=0.1&partner=mean&joint=0"
    assert (a.samples, a.config.threshold, a.config.partner, a.joint) == (3, 0.1, "mean", False)
    assert a.config.opponent_samples == 1 and not a.config.sample_rollouts  # greedy sl: one line per deal
    # hidden hands: the shipped belief by default, uniform on request; a missing belief is an error
    assert isinstance(a.sampler, BeliefHiddenHands)
    assert make_agent("jps:sl?belief=none", seed=5).sampler is uniform_hidden_hands
    with pytest.raises(AgentSpecError, match="no belief model 'nosuch'"):
        make_agent("jps:sl?belief=nosuch", seed=5)
