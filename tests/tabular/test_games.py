"""Game trees: Table 1's sizes and the rules of Defs. 1-3 checked on hand-worked cases."""

import numpy as np
import pytest

from bidlab.tabular.games import TERMINAL, TabularError, make_game

# (#states, #infosets) printed in Table 1 of Tian et al. 2020.
TABLE1 = {
    "comm:3": (633, 129), "comm:5": (34785, 2049), "comm:6": (270273, 8193),
    "mini_hanabi": (53, 45),
    "simple_bidding:4": (241, 61), "simple_bidding:8": (1985, 249), "simple_bidding:16": (16129, 1009),
    "mini_bridge:3": (4081, 1021), "mini_bridge:4": (25576, 5116), "mini_bridge:5": (147421, 24571),
}


@pytest.mark.parametrize("spec", sorted(TABLE1))
def test_table1_sizes(spec, games):
    g = games(spec)
    assert (g.n_states, g.n_table1_infosets) == TABLE1[spec]


@pytest.mark.slow
def test_comm7_size():
    g = make_game("comm:7")
    assert (g.n_states, g.n_table1_infosets) == (2129793, 32769)


def _node(g, history):
    p = 0
    for a in history:
        labels = g.action_names[p]
        p = int(g.children[p, labels.index(a)])
    return p


def _reward(g, s1, s2, history):
    n2 = g.n_priv[1]
    return g.reward[s1 * n2 + s2, _node(g, history)]


def test_simple_bidding_rules(games):
    g = games("simple_bidding:8")
    assert g.action_names[0] == ("1", "2", "4", "8")  # P1 may not open with Pass
    assert g.action_names[_node(g, ["2"])] == ("P", "4", "8")
    assert g.player[_node(g, ["2"])] == 1 and g.player[_node(g, ["2", "4"])] == 0
    assert g.player[_node(g, ["2", "P"])] == TERMINAL
    assert g.action_names[_node(g, ["1", "2", "4", "8"])] == ("P",)
    assert _reward(g, 3, 1, ["1", "4", "P"]) == 4  # 4 <= 3 + 1
    assert _reward(g, 3, 0, ["1", "4", "P"]) == 0
    assert _reward(g, 7, 7, ["1", "2", "4", "8", "P"]) == 8
    assert games("simple_bidding:16").action_names[0][-1] == "16"
    assert games("simple_bidding:4").action_names[0] == ("1", "2", "4")


def test_mini_bridge_rules(games):
    g = games("mini_bridge:3")
    assert g.action_names[0] == ("P", "1H", "1S", "2H", "2S", "3H", "3S")
    assert g.player[_node(g, ["P"])] == 1  # an opening Pass does not end the game
    assert g.player[_node(g, ["P", "P"])] == TERMINAL
    assert g.player[_node(g, ["1H", "P"])] == TERMINAL
    assert _reward(g, 2, 1, ["P", "P"]) == 0
    # s counts hearts: k hearts makes with s1 + s2 >= N + k, k spades with s1 + s2 <= N - k
    assert _reward(g, 3, 3, ["3H", "P"]) == 4
    assert _reward(g, 3, 2, ["3H", "P"]) == -1
    assert _reward(g, 0, 1, ["P", "2S", "P"]) == 2
    assert _reward(g, 1, 1, ["P", "2S", "P"]) == -1
    assert _reward(g, 2, 2, ["1H", "1S", "P"]) == -1  # the last bid counts
    assert _reward(g, 3, 2, ["1S", "2H", "P"]) == 2
    assert _reward(g, 2, 2, ["1S", "2H", "P"]) == -1


def test_comm_rules(games):
    g = games("comm:3")
    assert g.n_priv == (8, 1)
    p2 = _node(g, ["1", "0", "1"])
    assert g.player[p2] == 1 and g.n_actions[p2] == 8
    assert _reward(g, 5, 0, ["1", "0", "1", "5"]) == 1
    assert _reward(g, 4, 0, ["1", "0", "1", "5"]) == 0


def test_mini_hanabi_payoff_is_the_bad_table(games):
    g = games("mini_hanabi")
    # a1 = 1 (the "hint" action) followed by a2 = 1 always scores 8
    assert all(_reward(g, c1, c2, ["1", "1"]) == 8 for c1 in (0, 1) for c2 in (0, 1))
    assert _reward(g, 1, 0, ["2", "2"]) == 0 and _reward(g, 0, 1, ["2", "2"]) == 10


def test_infoset_description(games):
    g = games("simple_bidding:4")
    assert g.describe_infoset(0) == "P1 s=0 @ start"
    assert g.describe_infoset(g.n_infosets - 1).startswith("P2 s=3 @ ")
    with pytest.raises(TabularError, match="out of range"):
        g.describe_infoset(g.n_infosets)


@pytest.mark.parametrize("spec", ["comm:0", "comm:x", "poker", "simple_bidding:1", "mini_bridge:9", "mini_hanabi:2"])
def test_bad_specs(spec):
    with pytest.raises(TabularError, match="game spec|must be"):
        make_game(spec)


def test_levels_have_one_player(games):
    for spec in ("comm:3", "mini_bridge:3", "simple_bidding:8"):
        g = games(spec)
        for nodes in g.levels:
            assert np.unique(g.player[nodes]).size <= 1
