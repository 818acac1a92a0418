"""Drive OpenSpiel's bridge game (test-only oracle) from bidlab deals and calls.

OpenSpiel always deals from North, numbers cards rank * 4 + suit, and deals the chance
actions round-robin N, E, S, W.
"""

from __future__ import annotations

import pyspiel

from bidlab.cards import Deal, Seat

_GAMES: dict = {}


def game(dealer: int = 0, dealer_vul: bool = False, non_dealer_vul: bool = False):
    key = (dealer, dealer_vul, non_dealer_vul)
    if key not in _GAMES:
        _GAMES[key] = pyspiel.load_game(
            "bridge",
            {"use_double_dummy_result": False, "dealer": dealer, "dealer_vul": dealer_vul,
             "non_dealer_vul": non_dealer_vul},
        )
    return _GAMES[key]


def os_card(index: int) -> int:
    """bidlab card index (suit * 13 + rank) -> OpenSpiel card (rank * 4 + suit)."""
    return (index % 13) * 4 + index // 13


def bidlab_card(os_index: int) -> int:
    return (os_index % 4) * 13 + os_index // 4


def dealt_state(deal: Deal, dealer: int = 0, dealer_vul: bool = False, non_dealer_vul: bool = False):
    state = game(dealer, dealer_vul, non_dealer_vul).new_initial_state()
    hands = [sorted(c.index for c in deal[s]) for s in Seat]
    for i in range(13):
        for s in range(4):
            state.apply_action(os_card(hands[s][i]))
    return state


def decode_contract_index(index: int):
    """OpenSpiel contract index -> None (passed out) or (level, strain, doubled, declarer).

    Index 0 is passed out; then 1 + ((bid * 4 + declarer) * 3 + doubled) with
    bid = 5 * (level - 1) + strain.
    """
    if index == 0:
        return None
    k = index - 1
    doubled = k % 3
    k //= 3
    declarer = k % 4
    bid = k // 4
    return bid // 5 + 1, bid % 5, doubled, declarer
