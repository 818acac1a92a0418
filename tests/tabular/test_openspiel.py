"""Mini-Hanabi against OpenSpiel's tiny_hanabi (default parameters): payoffs, values, optimum 10."""

import itertools

import numpy as np
import pytest

from bidlab.tabular.evaluate import evaluate, one_hot, random_policy

pyspiel = pytest.importorskip("pyspiel")


@pytest.fixture(scope="module")
def tiny():
    return pyspiel.load_game("tiny_hanabi")


def openspiel_value(game, g, sigma):
    """Expected return of our joint policy ``sigma`` played in OpenSpiel's tree."""

    def walk(state, cards):
        if state.is_terminal():
            r = state.returns()
            assert r[0] == r[1]
            return r[0]
        if state.is_chance_node():
            return sum(p * walk(state.child(a), (*cards, a)) for a, p in state.chance_outcomes())
        player = state.current_player()
        hist = [h for h in state.history()[2:]]
        node = 0 if player == 0 else int(g.children[0, hist[0]])
        k = g.info_offset[node] + cards[player]
        return sum(sigma[k, a] * walk(state.child(a), cards) for a in state.legal_actions())

    return walk(game.new_initial_state(), ())


def test_payoffs_match(tiny, games):
    g = games("mini_hanabi")
    for c1, c2, a1, a2 in itertools.product(range(2), range(2), range(3), range(3)):
        s = tiny.new_initial_state()
        for a in (c1, c2, a1, a2):
            s.apply_action(a)
        node = int(g.children[int(g.children[0, a1]), a2])
        assert g.reward[c1 * 2 + c2, node] == s.returns()[0]


def test_random_policy_values_match(tiny, games):
    g = games("mini_hanabi")
    rng = np.random.default_rng(0)
    for _ in range(20):
        sigma = random_policy(g, rng)
        assert evaluate(g, sigma).value == pytest.approx(openspiel_value(tiny, g, sigma), abs=1e-12)


def test_optimal_value_is_10(tiny, games):
    g = games("mini_hanabi")
    # ours: every pure joint policy (3^2 for P1 x 3^6 for P2)
    best = max(
        evaluate(g, one_hot(g, np.array(acts))).value
        for acts in itertools.product(range(3), repeat=g.n_infosets)
    )
    # OpenSpiel's: for each pure P1 policy, P2's infosets (own card, P1's action) are separable
    os_best = -np.inf
    for p1 in itertools.product(range(3), repeat=2):
        total = 0.0
        for c2, a1 in itertools.product(range(2), range(3)):
            q = np.zeros(3)
            for c1 in range(2):
                if p1[c1] != a1:
                    continue
                for a2 in range(3):
                    s = tiny.new_initial_state()
                    for a in (c1, c2, a1, a2):
                        s.apply_action(a)
                    q[a2] += 0.25 * s.returns()[0]
            total += q.max()
        os_best = max(os_best, total)
    assert best == pytest.approx(10.0)
    assert os_best == pytest.approx(10.0)
