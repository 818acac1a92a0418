"""Exact evaluation against a plain recursive walk of each (deal, public history) tree."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.tabular.evaluate import (
    check_policy,
    evaluate,
    one_hot,
    purify,
    random_policy,
    uniform_policy,
)
from bidlab.tabular.games import TERMINAL, TabularError

from .conftest import SMALL


def recursive_value(g, sigma):
    """Independent oracle: expected reward by explicit recursion, one deal at a time."""

    def walk(d, p):
        if g.player[p] == TERMINAL:
            return g.reward[d, p]
        k = g.info_offset[p] + g.priv[g.player[p], d]
        return sum(sigma[k, a] * walk(d, g.children[p, a]) for a in range(g.n_actions[p]))

    return sum(g.deal_prob[d] * walk(d, 0) for d in range(g.n_deals))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spec=st.sampled_from(SMALL))
def test_value_matches_recursion(seed, spec, games):
    g = games(spec)
    sigma = random_policy(g, np.random.default_rng(seed))
    ev = evaluate(g, sigma)
    assert ev.value == pytest.approx(recursive_value(g, sigma), abs=1e-12)
    # reach of terminals sums to 1 and weights the rewards into the game value
    term = g.player == TERMINAL
    assert ev.reach[:, :-1][:, term].sum() == pytest.approx(1.0, abs=1e-12)
    assert (ev.reach[:, :-1][:, term] * g.reward[:, term]).sum() == pytest.approx(ev.value, abs=1e-12)


def test_known_values(games):
    g = games("mini_hanabi")
    # P1 always plays 1, P2 always plays 1: 8 whatever the cards
    assert evaluate(g, one_hot(g, np.ones(g.n_infosets, dtype=int))).value == pytest.approx(8.0)
    c = games("comm:3")
    # uniform P2 guesses right with probability 1/8
    assert evaluate(c, uniform_policy(c)).value == pytest.approx(1 / 8)


def test_purify_takes_first_maximum():
    sigma = np.array([[0.25, 0.5, 0.25], [0.4, 0.2, 0.4]])
    assert purify(sigma).tolist() == [[0, 1, 0], [1, 0, 0]]


def test_check_policy_errors(games):
    g = games("simple_bidding:4")
    sigma = uniform_policy(g)
    check_policy(g, sigma)
    with pytest.raises(TabularError, match="shape"):
        check_policy(g, sigma[:-1])
    bad = sigma.copy()
    bad[3, 0] = 0.9
    with pytest.raises(TabularError, match="infoset 3 .* sums to"):
        check_policy(g, bad)
    bad = sigma.copy()
    bad[0] = [0.5, 0.5, 0.0]
    bad[0, 2] = -0.1
    with pytest.raises(TabularError, match="negative"):
        check_policy(g, bad)
    k = int(np.flatnonzero(g.n_actions[g.infoset_node()] == 1)[0])
    bad = sigma.copy()
    bad[k, :2] = [0.5, 0.5]
    with pytest.raises(TabularError, match="illegal action"):
        check_policy(g, bad)
