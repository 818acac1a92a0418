"""BMCS pieces on positions whose answer is known (issue 16)."""

from dataclasses import replace

import numpy as np
import pytest
import torch

import bidlab.search  # noqa: F401  (registers bmcs:, mcs:)
from bidlab.agents.registry import AgentSpecError, make_agent
from bidlab.bridge.calls import Call
from bidlab.dd import shipped_store
from bidlab.envs.rollout import Decision
from bidlab.envs.scoring import ns_scores
from bidlab.envs.state import Contracts, from_prefix, init, observe
from bidlab.search.bmcs import SearchConfig, Searcher, SearchError, parse_options
from bidlab.search.ddcache import ContractValues

SPADE_ACE = 51
ONE_SPADE, ONE_CLUB, PASS = Call.parse("1S").id, Call.parse("1C").id, Call.parse("P").id


class AceShowingPolicy:
    """Opens 1C or passes, half and half; overcalls 1S exactly when holding the spade ace,
    passes otherwise."""

    name = "ace"

    def probabilities(self, state):
        p = np.zeros((state.n, 38), np.float32)
        holds = state.deals[:, SPADE_ACE] == state.to_act
        opening = state.length == 0
        p[opening, ONE_CLUB] = 0.5
        p[opening, PASS] = 0.5
        later = ~opening
        p[later & holds & state.legal[:, ONE_SPADE], ONE_SPADE] = 1.0
        rest = later & ~(holds & state.legal[:, ONE_SPADE])
        p[rest, PASS] = 1.0
        return p

    def decide(self, state, explain=False):
        p = self.probabilities(state)
        return Decision(p.argmax(axis=1), p)


def _deal_where(seat_of_ace: int, rng) -> np.ndarray:
    d = rng.permutation(np.repeat(np.arange(4), 13)).astype(np.uint8)
    j = int(np.flatnonzero(d == seat_of_ace)[0])
    d[j], d[SPADE_ACE] = d[SPADE_ACE], seat_of_ace
    return d


def test_filter_keeps_only_deals_consistent_with_the_opponents_calls():
    # N opens 1C, E overcalls 1S (so E holds the spade ace under this policy); South searches.
    rng = np.random.default_rng(0)
    deal = _deal_where(1, rng)
    root = from_prefix(deal[None], 0, 0, np.array([ONE_CLUB, ONE_SPADE]))
    s = Searcher(AceShowingPolicy(), SearchConfig(belief=False, dd="exact", rmin=10, rmax=200, pmax=3000, k=2,
                                                   pmin=0.0), seed=1)
    timing = {"sampling": 0.0, "filter": 0.0}
    parts, drawn = s.particles(root, s.belief(root), timing)
    assert parts.n == 200 and drawn > 200
    assert (parts.deals[:, SPADE_ACE] == 1).all()            # E's 1S is only possible with the ace
    own = deal == 2
    assert (parts.deals[:, own] == 2).all()                  # the searcher's hand is real
    assert (parts.history[:, :2] == [ONE_CLUB, ONE_SPADE]).all() and (parts.to_act == 2).all()
    # N's 1C (p 1/2) and E's 1S (p 1 iff E holds the ace: 1/3 under uniform sampling) ->
    # acceptance 1/6, about 6 draws per survivor
    assert 4.5 < drawn / parts.n < 8.0


def test_the_searchers_own_calls_do_not_filter():
    # North searches after 1C 1S P P. Its own 1C has probability 1/2 on every particle (its hand
    # is real) and is skipped; E's 1S keeps the 1/3 of deals with the ace in E; S's and W's
    # passes are certain then. Acceptance 1/3 (it would be 1/6 if N's own call were counted).
    rng = np.random.default_rng(1)
    deal = _deal_where(1, rng)
    root = from_prefix(deal[None], 0, 0, np.array([ONE_CLUB, ONE_SPADE, PASS, PASS]))
    assert int(root.to_act[0]) == 0
    s = Searcher(AceShowingPolicy(), SearchConfig(belief=False, dd="exact", rmin=10, rmax=300, pmax=3000, k=2,
                                                   pmin=0.0), seed=2)
    parts, drawn = s.particles(root, s.belief(root), {"sampling": 0.0, "filter": 0.0})
    assert (parts.deals[:, SPADE_ACE] == 1).all()
    assert 2.0 < drawn / parts.n < 4.5


def test_exact_contract_values_match_the_stored_dd_tables():
    deals, dd, _ = shipped_store().load("validation")
    deals, dd = deals[:6], dd[:6]
    rng = np.random.default_rng(3)
    particle = np.repeat(np.arange(6), 4)
    n = len(particle)
    c = Contracts(rng.integers(0, 8, n).astype(np.int8), rng.integers(0, 5, n).astype(np.int8),
                  rng.integers(0, 3, n).astype(np.int8), rng.integers(0, 4, n).astype(np.int8))
    c = Contracts(c.level, c.strain, c.doubled, np.where(c.level > 0, c.declarer, -1).astype(np.int8))
    v = ContractValues(deals, 2)
    got = v.points(particle, c)
    tricks = dd[particle, np.maximum(c.declarer, 0), c.strain]
    want = ns_scores(c.level, c.strain, c.doubled, c.declarer, tricks, np.full(n, 2))
    assert np.array_equal(got, want)
    played = c.level > 0
    key = particle * 20 + c.declarer.astype(np.int64) * 5 + c.strain
    assert v.solves == len(np.unique(key[played]))           # one solve per (deal, declarer, strain)
    v.points(particle, c)                                    # the same contracts again: all cached
    assert v.solves == len(np.unique(key[played]))


def test_options_parse_and_reject_bad_values():
    cfg = parse_options("k=4&rmax=1500&pmin=0.01&rmin=100&dd=exact", SearchConfig())
    assert (cfg.k, cfg.rmax, cfg.pmin, cfg.rmin, cfg.dd) == (4, 1500, 0.01, 100, "exact")
    paper = parse_options("preset=paper", SearchConfig())
    assert (paper.k, paper.pmin, paper.rmin, paper.rmax, paper.pmax) == (4, 0.01, 100, 1500, 100_000)
    for bad in ("k=0", "rmin=500&rmax=100", "dd=fast", "foo=1", "k=two", "k"):
        with pytest.raises(SearchError):
            parse_options(bad, SearchConfig())


def test_agent_specs_build_and_bad_specs_fail_cleanly():
    a = make_agent("bmcs:sl?k=2&rmax=60&rmin=20", 0)
    assert a.searcher.cfg.k == 2 and a.searcher.cfg.belief
    m = make_agent("mcs:sl", 0)
    assert not m.searcher.cfg.belief
    with pytest.raises(AgentSpecError):
        make_agent("bmcs:sl?k=0", 0)
    with pytest.raises(AgentSpecError):
        make_agent("bmcs:", 0)


def test_search_agents_take_a_device_and_refuse_one_torch_cannot_use():
    deals, _, _ = shipped_store().load("validation")
    root = init(deals[:1], 0, 0)
    opts = "k=3&pmin=0.0&rmin=20&rmax=40&halving=0"
    plain = make_agent(f"bmcs:sl?{opts}", 0).search(root)
    on_cpu = make_agent(f"bmcs:sl?{opts}&device=cpu", 0)
    assert on_cpu.searcher.policy.device == "cpu"
    r = on_cpu.search(root)
    assert (r.call, r.kept, [c.call for c in r.candidates]) == (plain.call, plain.kept, [c.call for c in plain.candidates])
    with pytest.raises(AgentSpecError, match="toaster"):
        make_agent("bmcs:sl?device=toaster", 0)
    with pytest.raises(AgentSpecError, match=r"device=cuda:99"):
        make_agent("mcs:sl?device=cuda:99", 0)
    if torch.cuda.is_available():
        gpu = make_agent(f"bmcs:sl?{opts}&device=cuda", 0)
        assert next(gpu.searcher.belief_net.parameters()).is_cuda
        assert np.allclose(gpu.searcher.policy.probabilities(root), on_cpu.searcher.policy.probabilities(root), atol=1e-4)
        g = gpu.search(root)
        assert g.searched and g.call in [c.call for c in g.candidates]
    else:
        with pytest.raises(AgentSpecError, match="device=cuda"):
            make_agent("bmcs:sl?device=cuda", 0)


def test_search_on_a_real_position_returns_a_candidate_with_shared_particles():
    deals, _, _ = shipped_store().load("validation")
    agent = make_agent("bmcs:sl?k=3&pmin=0.0&rmin=20&rmax=40&halving=0", 0)
    root = init(deals[:1], 0, 0)
    r = agent.search(root)
    assert r.searched and r.kept == 40
    assert r.call in [c.call for c in r.candidates]
    assert all(c.rollouts == 40 for c in r.candidates)
    assert r.candidates[0].mean == 0.0                       # IMPs against itself
    best = max(r.candidates, key=lambda c: c.mean)
    assert r.call == best.call
    assert r.belief.shape == (4, 52) and np.allclose(r.belief[0], deals[0] == 0)


class SoftAcePolicy(AceShowingPolicy):
    """As AceShowingPolicy, but after the opening 1S has p 0.8 with the spade ace and 0.2
    without, so every filter factor is fractional (the uniform draws matter)."""

    def probabilities(self, state):
        p = super().probabilities(state)
        later = (state.length > 0) & state.legal[:, ONE_SPADE]
        holds = state.deals[:, SPADE_ACE] == state.to_act
        p[later, ONE_SPADE] = np.where(holds[later], 0.8, 0.2)
        p[later, PASS] = 1.0 - p[later, ONE_SPADE]
        return p


def test_the_filter_keeps_the_same_particles_whatever_order_it_judges_the_calls_in():
    # Dealer N: 1C (N's own call, skipped) P 1S P; N searches. E's pass has p 0.8 if E lacks the
    # spade ace (2/3 of deals), S's 1S p 0.8 if S holds it (1/3), else 0.2; W's pass as E's. The default
    # order judges S's 1S first (the most selective), not E's pass; auction order must keep
    # exactly the same deals (the product does not depend on the order of its factors).
    rng = np.random.default_rng(4)
    deal = _deal_where(2, rng)               # S really holds the spade ace
    auction = np.array([ONE_CLUB, PASS, ONE_SPADE, PASS])
    root = from_prefix(deal[None], 0, 0, auction)
    cfg = SearchConfig(belief=False, dd="exact", rmin=10, rmax=150, pmax=3000, k=2, pmin=0.0)
    got = {}
    for name in ("selective-first", "auction-order"):
        s = Searcher(SoftAcePolicy(), cfg, seed=5)
        if name == "auction-order":
            s._filter_order = lambda judged, *a: list(judged)
        else:
            def spy(*a, _orig=s._filter_order):
                got["order"] = _orig(*a)
                return got["order"]
            s._filter_order = spy
        parts, drawn = s.particles(root, s.belief(root), {})
        assert parts.n == 150
        got[name] = (parts.deals.copy(), drawn)
        # each particle is the real auction on its sampled deal, as if replayed from the start
        replay = from_prefix(parts.deals, 0, 0, auction)
        assert np.array_equal(observe(parts), observe(replay)) and np.array_equal(parts.legal, replay.legal)
    assert got["order"][0] == 2 and sorted(got["order"]) == [1, 2, 3]
    assert got["selective-first"][1] == got["auction-order"][1]
    assert np.array_equal(got["selective-first"][0], got["auction-order"][0])
    # S (seat 2) holds the ace on most particles: weight 0.8^3 against 0.2^2 * 0.8 per deal
    assert (got["selective-first"][0][:, SPADE_ACE] == 2).mean() > 0.7


@pytest.mark.slow
def test_lazy_particles_give_the_decisions_of_an_up_front_draw_and_draw_fewer(monkeypatch):
    import bidlab.search.bmcs as bmcs
    from bidlab.envs.state import step_

    agent = make_agent("bmcs:rl?rmin=20&rmax=160&pmax=3000", 0)
    deals, _, _ = shipped_store().load("validation")
    roots = []
    for i in range(40):                      # positions of greedy self-play with >= 2 candidates
        st = init(deals[i:i + 1], i % 4, 0)
        while not st.done[0] and len(roots) < 8:
            p = agent.searcher.policy.probabilities(st)[0]
            if (np.sort(p)[-3:] > 0.05).sum() >= 2:
                roots.append(st.copy())
                break
            step_(st, np.array([int(p.argmax())]))
    lazy = [agent.search(r) for r in roots]
    orig = bmcs._ParticlePool.fill

    def up_front(self, n):
        orig(self, self.rmax)
        return min(self.n, n, self.rmax)

    monkeypatch.setattr(bmcs._ParticlePool, "fill", up_front)
    eager = [agent.search(r) for r in roots]
    assert len(roots) == 8 and sum(r.searched for r in lazy) >= 4
    for a, b in zip(lazy, eager):
        assert a.call == b.call and a.searched == b.searched
        assert [(c.call, c.mean, c.rollouts) for c in a.candidates] == [(c.call, c.mean, c.rollouts) for c in b.candidates]
        assert a.sampled <= b.sampled
    assert sum(a.sampled for a in lazy) < sum(b.sampled for b in eager)


class _Anchor:
    """An anchor policy that puts ``prob`` on one fixed call and spreads the rest over the
    other legal calls (piKL's anchor is any policy with ``probabilities``)."""

    name = "anchor"

    def __init__(self, call: int, prob: float):
        self.call, self.prob = call, prob

    def probabilities(self, state):
        legal = state.legal.astype(np.float32)
        legal[:, self.call] = 0
        p = (1 - self.prob) * legal / legal.sum(axis=1, keepdims=True)
        p[:, self.call] = self.prob
        return p


def test_pikl_picks_the_call_maximising_value_plus_lambda_log_anchor():
    deals, _, _ = shipped_store().load("validation")
    root = init(deals[:1], 0, 0)
    opts = "k=3&pmin=0.0&rmin=20&rmax=40&halving=0"
    plain = make_agent(f"bmcs:sl?{opts}", 0).search(root)
    three_nt = Call.parse("3NT").id
    assert plain.searched and three_nt not in [c.call for c in plain.candidates] and plain.call != three_nt

    def with_anchor(weight):
        s = make_agent(f"bmcs:sl?{opts}", 0).searcher
        s.cfg = replace(s.cfg, anchor_weight=weight)
        s.anchor = _Anchor(three_nt, 0.9)
        return s.search(root)

    # A huge lambda: the anchor's call, which the policy alone would not even have tried.
    assert with_anchor(1000.0).call == three_nt
    # Any lambda: value - lambda * KL(call || anchor) = mean + lambda * log anchor(call), over
    # the same particles (the plain candidates keep their means; the anchor's call joins them).
    anchor = _Anchor(three_nt, 0.9).probabilities(root)[0]
    for weight in (0.0, 0.3, 1.0, 3.0):
        r = with_anchor(weight)
        means = {c.call: c.mean for c in r.candidates}
        assert all(means[c.call] == c.mean for c in plain.candidates)
        assert r.call == max(means, key=lambda c: means[c] + weight * np.log(anchor[c]))
    assert with_anchor(0.0).call == plain.call


def test_pikl_options_build_and_a_weight_without_an_anchor_fails_cleanly():
    a = make_agent("bmcs:sl?anchor=sl&anchor_weight=0.5&rmax=60", 0)
    assert a.searcher.cfg.anchor_weight == 0.5 and a.searcher.anchor is not None
    for bad in ("bmcs:sl?anchor_weight=0.5", "bmcs:sl?anchor=sl&anchor_weight=-1", "bmcs:sl?anchor=nope&anchor_weight=1"):
        with pytest.raises(AgentSpecError):
            make_agent(bad, 0)
