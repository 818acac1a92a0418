"""JPS: every proposal's predicted gain is its true value change (brute force), Theorem 2, runs."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.tabular.evaluate import evaluate, game_value, random_policy, random_pure_policy
from bidlab.tabular.games import TabularError
from bidlab.tabular.jps import (
    JPSConfig,
    apply_chain,
    brute_force_search,
    enumerate_chains,
    run_jps,
    search,
    search_depths,
)

from .conftest import SMALL


def _policy(g, seed):
    rng = np.random.default_rng(seed)
    return random_policy(g, rng) if seed % 2 else random_pure_policy(g, rng)


CASES = [
    (spec, mode)
    for spec in SMALL
    for mode in [(None, None), (1, 2), (0, 3)]
    if not (spec == "mini_bridge:3" and mode[0] is None)  # 390k proposals: brute force takes minutes
]


@pytest.mark.parametrize("spec,mode", CASES)
def test_every_proposal_matches_reevaluation(spec, mode, games):
    g = games(spec)
    start, depth = mode
    sigma = _policy(g, 11)
    ev = evaluate(g, sigma)
    res = search(g, sigma, ev, start_depth=start, max_length=depth, collect=True)
    chains = [c for c, _ in res.proposals]
    assert sorted(chains) == sorted(enumerate_chains(g, start_depth=start, max_length=depth))
    assert res.n_proposals == len(chains)
    rng = np.random.default_rng(0)
    picks = rng.choice(len(chains), size=min(200, len(chains)), replace=False)
    for idx in picks:
        chain, gain = res.proposals[idx]
        if depth is not None:
            assert len(chain) <= depth
        assert abs(game_value(g, apply_chain(sigma, chain)) - ev.value - gain) < 1e-9
    if len(chains) <= 2000:
        brute = brute_force_search(g, sigma, start_depth=start, max_length=depth)
        assert abs(brute.gain - res.gain) < 1e-9
    assert res.gain == pytest.approx(max(0.0, max(gn for _, gn in res.proposals)))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spec=st.sampled_from(["comm:3", "mini_hanabi", "simple_bidding:4", "simple_bidding:8"]))
def test_theorem2_full_iteration_never_lowers_value(seed, spec, games):
    g = games(spec)
    sigma = _policy(g, seed)
    ev = evaluate(g, sigma)
    res = search(g, sigma, ev)
    new_value = game_value(g, apply_chain(sigma, res.chain))
    assert res.gain >= 0.0
    assert new_value >= ev.value - 1e-12
    assert new_value - ev.value == pytest.approx(res.gain, abs=1e-9)


@pytest.mark.parametrize("spec,depth", [("simple_bidding:4", None), ("mini_bridge:3", 2), ("comm:3", None)])
def test_run_is_monotone_and_deterministic(spec, depth, games):
    g = games(spec)
    sigma = _policy(g, 3)
    cfg = JPSConfig(depth=depth, iterations=15)
    run = run_jps(g, sigma, seed=5, config=cfg)
    values = [run.start_value, *run.values]
    assert all(b >= a - 1e-12 for a, b in zip(values, values[1:], strict=False))
    assert run.best_value == pytest.approx(game_value(g, run.best_policy))
    assert run.best_value > run.start_value
    again = run_jps(g, sigma, seed=5, config=cfg)
    assert again.values == run.values


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_theorem2_mini_bridge_full_depth(seed, games):
    g = games("mini_bridge:3")
    sigma = _policy(g, seed)
    ev = evaluate(g, sigma)
    res = search(g, sigma, ev)
    assert game_value(g, apply_chain(sigma, res.chain)) - ev.value == pytest.approx(res.gain, abs=1e-9)
    assert res.gain >= 0


def test_comm_reaches_perfect_play(games):
    # Sec. 6: JPS always solves Comm from CFR's solutions; from a random pure start it should too
    g = games("comm:3")
    run = run_jps(g, _policy(g, 2), seed=0)
    assert run.best_value == pytest.approx(1.0)


def test_depth_limited_search_starts(games):
    g = games("simple_bidding:4")
    # the longest auction 1-2-4-P ends at public depth 4 (tree depth 5, counting chance):
    # the code's list 1..(5 - D) of tree depths is public depths 0..1 for D = 3
    assert search_depths(g, 3) == [0, 1]
    assert search_depths(g, 1) == [0, 1, 2, 3]
    sigma = _policy(g, 4)
    ev = evaluate(g, sigma)
    res = search(g, sigma, ev, start_depth=1, max_length=3, collect=True)
    for chain, _ in res.proposals:
        assert g.depth[g.infoset_node()[chain[0][0]]] == 1
        assert len(chain) <= 3


def test_sampling_with_many_draws_equals_full_search(games):
    g = games("mini_bridge:3")
    sigma = _policy(g, 8)
    ev = evaluate(g, sigma)
    full = search(g, sigma, ev, start_depth=1, max_length=3)
    # 300 draws among <= 4 states per infoset cover them all (miss probability ~1e-37)
    sampled = search(g, sigma, ev, start_depth=1, max_length=3, samples=300, rng=np.random.default_rng(1))
    assert sampled.gain == pytest.approx(full.gain, abs=1e-12)


def test_single_sample_is_seeded_and_counts_only_sampled_states(games):
    g = games("mini_hanabi")
    sigma = _policy(g, 6)
    ev = evaluate(g, sigma)
    a = search(g, sigma, ev, samples=1, rng=np.random.default_rng(3), collect=True)
    b = search(g, sigma, ev, samples=1, rng=np.random.default_rng(3), collect=True)
    assert a.proposals == b.proposals
    # with one sampled deal per chain, a first-level term is that deal's own reach x advantage
    for (chain, gain) in a.proposals:
        if len(chain) == 1:
            k, act = chain[0]
            s1 = k  # P1 infosets at the root are 0 and 1
            cands = [ev.reach[d, 0] * (ev.v[d, g.children[0, act]] - ev.v[d, 0])
                     for d in range(4) if g.priv[0, d] == s1]
            assert any(abs(gain - c) < 1e-12 for c in cands)


def test_sample_run_keeps_best_value(games):
    g = games("mini_hanabi")
    run = run_jps(g, _policy(g, 1), seed=2, config=JPSConfig(samples=1, iterations=40))
    assert run.iterations == 40
    assert run.best_value == pytest.approx(max([run.start_value, *run.values]))


def test_config_validation():
    with pytest.raises(TabularError, match="depth"):
        JPSConfig(depth=0)
    with pytest.raises(TabularError, match="samples"):
        JPSConfig(samples=-1)
    with pytest.raises(TabularError, match="iterations"):
        JPSConfig(iterations=0)
