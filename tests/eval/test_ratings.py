"""The league's ratings fit: recovery of known ratings, confidence-interval coverage,
anchoring, and the errors of a panel that cannot be rated."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bidlab.eval.ratings import PairResult, Ratings, RatingsError, fit_ratings, plot_ratings

AGENTS = ("random", "sayc", "nn:sl", "nn:rl@2750", "nn:rl@8750", "nn:rl")
TRUE = {"random": -18.0, "sayc": 0.0, "nn:sl": 0.3, "nn:rl@2750": 0.9, "nn:rl@8750": 1.1, "nn:rl": 1.6}


def _synthetic(rng, true=TRUE, agents=AGENTS, se_range=(0.05, 0.3)) -> list[PairResult]:
    """Every pairing's mean = true difference + Gaussian noise of a known, pairing-specific SE."""
    out = []
    for a, b in itertools.combinations(agents, 2):
        se = rng.uniform(*se_range)
        out.append(PairResult(a, b, true[a] - true[b] + rng.normal(0.0, se), se, 1000))
    return out


def test_the_fit_recovers_known_ratings_within_a_few_standard_errors():
    r = fit_ratings(AGENTS, _synthetic(np.random.default_rng(1)))
    assert r.anchor == "sayc" and r.rating[AGENTS.index("sayc")] == 0.0
    for i, a in enumerate(AGENTS):
        if a != "sayc":
            assert r.se()[i] > 0
            assert abs(r.rating[i] - TRUE[a]) < 4 * r.se()[i], (a, r.rating[i], TRUE[a], r.se()[i])


def test_noise_free_results_give_the_exact_ratings():
    exact = [PairResult(a, b, TRUE[a] - TRUE[b], 0.1, 500) for a, b in itertools.combinations(AGENTS, 2)]
    r = fit_ratings(AGENTS, exact)
    assert np.allclose(r.rating, [TRUE[a] for a in AGENTS], atol=1e-9)
    assert r.chi2 == pytest.approx(0.0, abs=1e-12)


def test_95_percent_intervals_cover_the_true_ratings_at_the_nominal_rate():
    rng = np.random.default_rng(7)
    hits = trials = 0
    for _ in range(300):
        r = fit_ratings(AGENTS, _synthetic(rng))
        err = np.abs(r.rating - np.array([TRUE[a] for a in AGENTS]))
        free = np.array([a != r.anchor for a in AGENTS])
        hits += int((err[free] <= r.ci95()[free]).sum())
        trials += int(free.sum())
    coverage = hits / trials
    assert 0.93 <= coverage <= 0.97, coverage


def test_the_standard_error_shrinks_as_the_matches_get_longer():
    """The covariance follows the match SEs: four times the boards, half the SE."""
    short = [PairResult(a, b, TRUE[a] - TRUE[b], 0.2, 500) for a, b in itertools.combinations(AGENTS, 2)]
    long = [PairResult(a, b, TRUE[a] - TRUE[b], 0.1, 2000) for a, b in itertools.combinations(AGENTS, 2)]
    s, g = fit_ratings(AGENTS, short).se(), fit_ratings(AGENTS, long).se()
    free = [i for i, a in enumerate(AGENTS) if a != "sayc"]
    assert np.allclose(g[free], s[free] / 2)


def test_a_single_match_rates_the_other_agent_at_its_result():
    r = fit_ratings(["random", "sayc"], [PairResult("random", "sayc", -18.5, 0.2, 100)])
    assert r.rating.tolist() == pytest.approx([-18.5, 0.0])
    assert r.se()[0] == pytest.approx(0.2)
    assert r.ci95()[0] == pytest.approx(1.96 * 0.2, rel=1e-3)


def test_anchoring():
    results = _synthetic(np.random.default_rng(3))
    at_sayc = fit_ratings(AGENTS, results)
    at_rl = fit_ratings(AGENTS, results, anchor="nn:rl")
    # Another anchor shifts every rating by the same amount; differences do not move.
    assert at_rl.rating[AGENTS.index("nn:rl")] == 0.0
    shift = at_sayc.rating - at_rl.rating
    assert np.allclose(shift, shift[0])
    assert at_sayc.difference("nn:rl", "nn:sl")[0] == pytest.approx(at_rl.difference("nn:rl", "nn:sl")[0])
    assert at_sayc.difference("nn:rl", "nn:sl")[1] == pytest.approx(at_rl.difference("nn:rl", "nn:sl")[1])
    # Without sayc in the panel the first agent is the anchor.
    no_sayc = [a for a in AGENTS if a != "sayc"]
    r = fit_ratings(no_sayc, [p for p in results if "sayc" not in (p.agent_a, p.agent_b)])
    assert r.anchor == no_sayc[0] and r.rating[0] == 0.0 and r.se()[0] == 0.0
    with pytest.raises(RatingsError, match="anchor 'wbridge5' is not one of the agents"):
        fit_ratings(AGENTS, results, anchor="wbridge5")


def test_a_match_stored_the_other_way_round_counts_the_same_once_flipped():
    results = _synthetic(np.random.default_rng(5))
    turned = [p.flipped() if k % 2 else p for k, p in enumerate(results)]
    assert turned[1].agent_a == results[1].agent_b and turned[1].imps_per_board == -results[1].imps_per_board
    assert np.allclose(fit_ratings(AGENTS, results).rating, fit_ratings(AGENTS, turned).rating)


def test_a_disconnected_panel_is_a_clear_error():
    results = [PairResult("random", "sayc", -18.0, 0.2, 100), PairResult("nn:sl", "nn:rl", -1.5, 0.1, 100)]
    with pytest.raises(RatingsError) as e:
        fit_ratings(["random", "sayc", "nn:sl", "nn:rl"], results)
    text = str(e.value)
    assert "do not connect all agents" in text and "2 separate groups" in text
    assert "{random, sayc}" in text and "{nn:sl, nn:rl}" in text
    # An agent that played no match at all is a group of its own.
    with pytest.raises(RatingsError, match=r"\{nn:sl\}"):
        fit_ratings(["random", "sayc", "nn:sl"], results[:1])


def test_two_agents_that_never_swing_a_board_stay_finite_and_tied():
    """nn:rl and nn:rl@80000 are the same weights: every board is 0 IMPs, SE 0."""
    results = [PairResult("nn:rl@80000", "nn:rl", 0.0, 0.0, 2000),
               PairResult("nn:rl", "sayc", 1.3, 0.08, 2000), PairResult("nn:rl@80000", "sayc", 1.2, 0.08, 2000)]
    r = fit_ratings(["sayc", "nn:rl@80000", "nn:rl"], results)
    assert np.isfinite(r.rating).all() and np.isfinite(r.covariance).all()
    diff, se = r.difference("nn:rl", "nn:rl@80000")
    assert abs(diff) < 0.05 and 0 < se < 0.05


def test_bad_results_are_named():
    with pytest.raises(RatingsError, match="'bob', not one of the agents"):
        fit_ratings(["alice", "carol"], [PairResult("alice", "bob", 1.0, 0.1, 10)])
    with pytest.raises(RatingsError, match="listed twice"):
        fit_ratings(["alice", "alice"], [])


def test_the_plot_is_written_and_not_blank(tmp_path):
    from matplotlib.image import imread

    r: Ratings = fit_ratings(AGENTS, _synthetic(np.random.default_rng(2)))
    plot_ratings(r, tmp_path / "ratings.png")
    img = imread(tmp_path / "ratings.png")
    assert img.shape[0] > 150 and img[..., :3].std() > 0.05
