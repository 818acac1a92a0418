"""Success curves (Sec. 4.3): the simulated data, the fit, and the shipped coefficients."""

from __future__ import annotations

import numpy as np
import pytest

from bidlab.spades.fit_curves import collect, fit, simulate_nil_rounds
from bidlab.spades.success import FEATURES, SuccessCurves, curve_features


def test_simulated_rounds_are_nil_bids_with_outcomes():
    rows = simulate_nil_rounds(60, seed=3)
    assert len(rows) >= 30  # one explored nil in most rounds, plus BIS's own
    n_prev = rows[:, 0]
    assert set(n_prev) <= {0, 1, 2, 3}
    for r in rows:
        k = int(r[0])
        assert all(0 <= b <= 13 for b in r[1 : 1 + k]) and all(b == -1 for b in r[1 + k : 4])
    assert ((rows[:, 4] >= 0) & (rows[:, 4] <= 1)).all()
    assert set(rows[:, 5]) <= {0.0, 1.0}


def test_collect_resumes_from_saved_chunks(tmp_path):
    a = collect(30, seed=1, chunk_dir=tmp_path)
    saved = sorted(p.name for p in tmp_path.iterdir())
    b = collect(30, seed=1, chunk_dir=tmp_path)
    assert np.array_equal(a, b) and sorted(p.name for p in tmp_path.iterdir()) == saved


def test_fit_recovers_a_known_curve():
    """Synthetic nils drawn from a known logistic model in nilValue and partner's bid."""
    rng = np.random.default_rng(0)
    n = 6000
    rows = np.zeros((n, 6))
    rows[:, 0] = 2
    rows[:, 1] = rng.integers(1, 9, n)  # partner (bid first of the two)
    rows[:, 2] = rng.integers(1, 6, n)  # right-hand opponent
    rows[:, 3] = -1
    rows[:, 4] = rng.random(n)
    z = -2.0 + 4.0 * rows[:, 4] + 0.3 * rows[:, 1]
    rows[:, 5] = rng.random(n) < 1 / (1 + np.exp(-z))
    model = fit(rows)
    curves = SuccessCurves.from_dict(model)
    for nv, partner in [(0.2, 2), (0.5, 5), (0.9, 7)]:
        truth = 1 / (1 + np.exp(-(-2.0 + 4.0 * nv + 0.3 * partner)))
        assert curves.probability((partner, 3), nv) == pytest.approx(truth, abs=0.05)
    assert model["meta"]["held_out_log_loss"]["full"] < model["meta"]["held_out_log_loss"]["identity"]


def test_shipped_curves_rise_with_the_nil_value():
    """Sec. 4.3 chose logistic regression because "it produces a probability that is monotone in
    the nil value": true for every previous-bid sequence the model can see."""
    sc = SuccessCurves.load()
    assert sc.full.names == FEATURES
    rng = np.random.default_rng(1)
    for _ in range(200):
        prev = tuple(int(b) for b in rng.integers(0, 14, rng.integers(0, 4)))
        ps = [sc.probability(prev, nv) for nv in np.linspace(0, 1, 11)]
        assert all(b > a for a, b in zip(ps, ps[1:])), prev
    assert sc.meta["samples"] > 10_000


def test_features_see_bids_from_the_agents_seat():
    f = dict(zip(FEATURES, curve_features((4, 0, 2), 0.5)))
    assert (f["lho_bid"], f["partner_bid"], f["partner_nil"], f["rho_bid"]) == (4, 0, 1.0, 2)
    f = dict(zip(FEATURES, curve_features((5,), 0.5)))
    assert f["rho_bid"] == 5 and f["partner_bid_known"] == 0 and f["lho_bid_known"] == 0
