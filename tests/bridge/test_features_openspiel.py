"""Encoders against OpenSpiel's bridge observation tensor (North dealing), the test oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.bridge import Auction, Vulnerability
from bidlab.bridge.features import OPENSPIEL_CARD, openspiel_deal_actions
from bidlab.cards import Seat, random_deals
from bidlab.envs.state import encode_openspiel480
from tests.bridge.auction_states import batch, random_auction_states

pyspiel = pytest.importorskip("pyspiel")

_GAMES: dict = {}


def openspiel_tensor(holders, vul, calls):
    """OpenSpiel's observation_tensor()[4:484] with North dealing."""
    game_cache = _GAMES
    v = Vulnerability(vul)
    key = (v.is_vulnerable(0, side=True), v.is_vulnerable(1, side=True))
    if key not in game_cache:
        game_cache[key] = pyspiel.load_game(
            "bridge", {"use_double_dummy_result": False, "dealer_vul": key[0], "non_dealer_vul": key[1]})
    s = game_cache[key].new_initial_state()
    for a in openspiel_deal_actions(holders):
        s.apply_action(a)
    for c in calls:
        s.apply_action(52 + c)
    buf = np.zeros(game_cache[key].observation_tensor_size(), np.float32)
    s.write_observation_tensor(buf)
    return s, buf[4:484]


def test_openspiel_deal_actions_deal_the_given_hands():
    holders = random_deals(1, seed=3)[0]
    s = pyspiel.load_game("bridge").new_initial_state()
    for a in openspiel_deal_actions(holders):
        s.apply_action(a)
    # OpenSpiel's own 52-card hand bits for the player to act (North) match North's hand.
    t = np.array(s.observation_tensor())[432:484]
    assert (t[OPENSPIEL_CARD] == (holders == 0)).all()


def test_parity_with_openspiel_north_dealing_10000_states():
    deals, states = random_auction_states(1300, seed=11, dealer=0)
    states = states[:10_500]
    assert len(states) >= 10_000
    mine = encode_openspiel480(*batch(deals, states))
    for j, (i, _, vul, calls) in enumerate(states):
        _, ref = openspiel_tensor(deals[i], vul, calls)
        if not np.array_equal(mine[j], ref):
            diff = np.flatnonzero(mine[j] != ref)
            raise AssertionError(f"state {j} {calls} vul {vul}: differs at {diff.tolist()}")


def test_openspiel_tensor_same_with_and_without_double_dummy_result():
    holders = random_deals(1, seed=5)[0]
    tensors = []
    for dd in (True, False):
        g = pyspiel.load_game("bridge", {"use_double_dummy_result": dd})
        s = g.new_initial_state()
        for a in openspiel_deal_actions(holders):
            s.apply_action(a)
        for c in (3, 1, 0, 9):
            s.apply_action(52 + c)
        tensors.append(np.array(s.observation_tensor())[4:484])
    assert np.array_equal(tensors[0], tensors[1])


def test_other_dealer_equals_openspiel_with_seats_renamed():
    """Rotating the table so the dealer becomes North must not change any relative seat:
    our encoding for dealer d equals OpenSpiel's (North dealing) on the deal rotated by -d."""
    deals, states = random_auction_states(60, seed=21)
    mine = encode_openspiel480(*batch(deals, states))
    for j, (i, d, vul, calls) in enumerate(states):
        rotated = (deals[i].astype(int) - d) % 4
        v = Vulnerability(vul)
        # after renaming, the dealer's side is "NS" in OpenSpiel
        vmap = {(False, False): 0, (True, False): 1, (False, True): 2, (True, True): 3}
        rv = vmap[(v.is_vulnerable(d), v.is_vulnerable((d + 1) % 4))]
        _, ref = openspiel_tensor(rotated, rv, calls)
        assert np.array_equal(mine[j], ref), (j, d, calls)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 10**6), max_size=60), st.integers(0, 3), st.integers(0, 2**32 - 1))
def test_any_legal_auction_matches_openspiel(choices, vul, deal_seed):
    """Hypothesis: any legal auction (North dealing), checked after every call."""
    holders = random_deals(1, seed=deal_seed)[0]
    a = Auction(Seat.N)
    states = [()]
    for ch in choices:
        legal = a.legal_calls()
        a = a.with_call(legal[ch % len(legal)])
        if a.is_over:
            break
        states.append(tuple(c.id for c in a.calls))
    for calls in states:
        h = np.full((1, max(len(calls), 1)), -1)
        h[0, :len(calls)] = calls
        mine = encode_openspiel480(holders[None], [0], [vul], h)[0]
        _, ref = openspiel_tensor(holders, vul, calls)
        assert np.array_equal(mine, ref), calls
