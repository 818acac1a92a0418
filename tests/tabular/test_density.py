"""Theorem 1 (and Lemma 1, Eq. 3 vs Eq. 5) on random policy pairs for every game."""

import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.tabular.density import (
    changed_infosets,
    density,
    density_eq3,
    value_change_by_density,
)
from bidlab.tabular.evaluate import game_value, random_policy, random_pure_policy

from .conftest import ALL_FAST, SMALL


def _pair(g, rng, fraction):
    """A random policy and a second one that differs on a random subset of infosets."""
    sigma = random_policy(g, rng) if rng.random() < 0.5 else random_pure_policy(g, rng)
    other = random_policy(g, rng) if rng.random() < 0.5 else random_pure_policy(g, rng)
    change = rng.random(g.n_infosets) < fraction
    return sigma, np.where(change[:, None], other, sigma)


@pytest.mark.parametrize("spec", ALL_FAST)
@pytest.mark.parametrize("fraction", [0.02, 0.3, 1.0])
def test_theorem1_every_game(spec, fraction, games):
    g = games(spec)
    rng = np.random.default_rng([zlib.crc32(spec.encode()), int(fraction * 100)])
    for _ in range(2):
        sigma, sigma_new = _pair(g, rng, fraction)
        by_density = value_change_by_density(g, sigma, sigma_new)
        by_reevaluation = game_value(g, sigma_new) - game_value(g, sigma)
        assert abs(by_density - by_reevaluation) < 1e-9


@pytest.mark.slow
def test_theorem1_comm7(games):
    g = games("comm:7")
    rng = np.random.default_rng(7)
    sigma, sigma_new = _pair(g, rng, 0.2)
    assert abs(value_change_by_density(g, sigma, sigma_new) - (game_value(g, sigma_new) - game_value(g, sigma))) < 1e-9


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spec=st.sampled_from(SMALL), fraction=st.floats(0.0, 1.0))
def test_eq3_equals_eq5_and_lemma1(seed, spec, fraction, games):
    g = games(spec)
    sigma, sigma_new = _pair(g, np.random.default_rng(seed), fraction)
    rho = density(g, sigma, sigma_new)
    assert np.abs(rho - density_eq3(g, sigma, sigma_new)).max() < 1e-12
    # Lemma 1: no density where the policy did not change
    same = ~changed_infosets(sigma, sigma_new)
    for p in g.decision_nodes:
        k = g.info_offset[p] + g.priv[g.player[p]]
        assert np.all(np.abs(rho[same[k], p]) < 1e-15)
    # Lemma 2: the sum over all non-terminal states is the value change too
    assert rho.sum() == pytest.approx(game_value(g, sigma_new) - game_value(g, sigma), abs=1e-12)
