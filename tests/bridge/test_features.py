"""Encoders without any oracle library: hand-worked cases for every dealer, the value and JPS
encodings, buffers and bad input. The OpenSpiel parity tests are in test_features_openspiel.py."""

from __future__ import annotations

import numpy as np
import pytest

from bidlab.bridge import Auction, Call, Vulnerability
from bidlab.bridge.features import (
    BIDLAB_CARD,
    JPS267,
    OPENSPIEL_CARD,
    encode_jps267,
)
from bidlab.bridge.rules import legal_masks
from bidlab.cards import Deal, Seat, random_deals
from bidlab.envs.state import StateError, encode_openspiel480, encode_value636, observe, views_state
from tests.bridge.auction_states import batch, random_auction_states


def test_card_order_conversion_is_a_bijection():
    assert sorted(OPENSPIEL_CARD.tolist()) == list(range(52))
    assert (BIDLAB_CARD[OPENSPIEL_CARD] == np.arange(52)).all()
    # bidlab's Ace of spades (3*13+12 = 51) is OpenSpiel's 12*4+3 = 51; 2 of diamonds 13 -> 1
    assert OPENSPIEL_CARD[13] == 1 and OPENSPIEL_CARD[51] == 51 and OPENSPIEL_CARD[12] == 48


# Hand-worked cases: (dealer, calls, vulnerability, expected ones among the 428 auction values)
# Index = 8 + 12 * (bid id - 3) + {0 made, 4 doubled, 8 redoubled} + relative seat of the caller,
# relative seat = (caller - observer) mod 4 with caller = (dealer + call number) mod 4.
HAND_CASES = [
    # E deals: E 1C, S X, W XX, N P; E to act. Callers relative to E: E 0, S 1 (LHO), W 2 (partner).
    (Seat.E, "1C X XX P", Vulnerability.NS, [8 + 0, 8 + 4 + 1, 8 + 8 + 2]),
    # S deals: S P, W P, N 1H; E to act. E's LHO is S (1), partner W (2), RHO N (3); 1H is bid 2.
    (Seat.S, "P P 1H", Vulnerability.EW, [4 + 1, 4 + 2, 8 + 12 * 2 + 3]),
    # W deals: W 1NT, N X, E P, S P, W XX; N to act. W 3 (RHO), N 0; 1NT is bid 4.
    (Seat.W, "1NT X P P XX", Vulnerability.BOTH, [8 + 12 * 4 + 3, 8 + 12 * 4 + 4 + 0, 8 + 12 * 4 + 8 + 3]),
    # E deals: E P, S 1S, W P, N 2S, E X; S to act. E 3 (RHO), S 0, N 2; 1S is bid 3, 2S bid 8.
    # W's pass comes after a bid, so it is not an opening pass and sets nothing.
    (Seat.E, "P 1S P 2S X", Vulnerability.NONE, [4 + 3, 8 + 12 * 3 + 0, 8 + 12 * 8 + 2, 8 + 12 * 8 + 4 + 3]),
    # S deals: S P, W P, N P, E 7NT; S to act. S 0, W 1, N 2, E 3; 7NT is bid 34.
    (Seat.S, "P P P 7NT", Vulnerability.NONE, [4 + 0, 4 + 1, 4 + 2, 8 + 12 * 34 + 3]),
]


@pytest.mark.parametrize("dealer,text,vul,expected", HAND_CASES)
def test_hand_worked_relative_seats_for_other_dealers(dealer, text, vul, expected):
    auction = Auction.parse(text, dealer)
    holders = random_deals(1, seed=int(dealer))[0]
    observer = auction.to_act
    h = np.array([[c.id for c in auction.calls]])
    out = encode_openspiel480(holders[None], [int(dealer)], [int(vul)], h)[0]
    assert sorted(np.flatnonzero(out[4:428]) + 4) == sorted(expected)
    we = vul.is_vulnerable(observer)
    they = vul.is_vulnerable(observer.lho)
    assert out[:4].tolist() == [not we, we, not they, they]
    assert (out[428:][OPENSPIEL_CARD] == (holders == int(observer))).all()


def test_value636_hidden_hands_are_lho_partner_rho():
    deals, states = random_auction_states(20, seed=2)
    args = batch(deals, states)
    v = encode_value636(*args)
    base = encode_openspiel480(*args)
    assert np.array_equal(v[:, :480], base)
    for j, (i, d, _, calls) in enumerate(states):
        me = (d + len(calls)) % 4
        for k in range(3):
            block = v[j, 480 + 52 * k:480 + 52 * (k + 1)]
            assert (block[OPENSPIEL_CARD] == (deals[i] == (me + k + 1) % 4)).all()
        # every card is held by exactly one of the four hands
        own = v[j, 428:480]
        assert (own + v[j, 480:532] + v[j, 532:584] + v[j, 584:636] == 1).all()


def test_jps267_fig5_example():
    """Tian et al. Fig. 5: South marks 1H own, 1C and 2C partner, 1S left opp, 1C doubled.

    An auction that produces it: N 1C, E X, S 1H, W 1S, N 2C, E P; South to act."""
    auction = Auction.parse("1C X 1H 1S 2C P", Seat.N)
    holders = random_deals(1, seed=9)[0]
    out = encode_jps267(holders[None], [0], [int(Vulnerability.EW)],
                        np.array([[c.id for c in auction.calls]]))[0]
    assert out.shape == (JPS267,)
    idx = lambda s: Call.parse(s).id - 3  # noqa: E731
    assert np.flatnonzero(out[52:87]).tolist() == [idx("1H")]
    assert np.flatnonzero(out[87:122]).tolist() == sorted([idx("1C"), idx("2C")])
    assert np.flatnonzero(out[122:157]).tolist() == [idx("1S")]
    assert np.flatnonzero(out[157:192]).tolist() == []  # East only doubled and passed
    assert np.flatnonzero(out[192:227]).tolist() == [idx("1C")]
    assert out[227:229].tolist() == [0, 1]
    assert (out[:52] == (holders == 2)).all()
    assert out[229:267].astype(bool).tolist() == auction.legal_mask()


def test_jps267_legal_mask_matches_scalar_auction():
    deals, states = random_auction_states(200, seed=4)
    args = batch(deals, states)
    out = encode_jps267(*args)
    lm = legal_masks(args[3])
    for j, (_, d, _, calls) in enumerate(states):
        expect = Auction(Seat(d), calls).legal_mask()
        assert out[j, 229:].astype(bool).tolist() == expect
        assert lm[j].tolist() == expect


def test_encoders_reuse_the_output_buffer():
    deals, states = random_auction_states(5, seed=8)
    args = batch(deals, states)
    buf = np.full((len(states), 480), 7.0, dtype=np.float32)
    res = encode_openspiel480(*args, out=buf)
    assert res is buf and set(np.unique(buf)) <= {0.0, 1.0}


@pytest.mark.parametrize("bad,match", [
    (dict(deals=np.zeros((2, 51), np.uint8)), r"deals must be an integer array of shape \(n, 52\)"),
    (dict(deals=np.full((2, 52), 4, np.uint8)), r"deals\[0\] is not a deal"),
    (dict(dealer=np.array([0, 5])), r"dealer\[1\] = 5"),
    (dict(dealer=np.array([0.0, 1.0])), "integer"),
    (dict(history=np.array([[3, -1, 0], [0, 0, 0]])), r"history\[0\] has a call after a -1"),
    (dict(history=np.array([[38], [0]])), r"board 0: call id 38 is not a call"),
    (dict(out=np.zeros((3, 480), np.float32)), r"out must be float32\[2, 480\]"),
])
def test_bad_input_names_the_problem(bad, match):
    args = dict(deals=random_deals(2, seed=1), dealer=np.array([0, 1]), vulnerability=np.array([0, 3]),
                history=np.array([[3, 0], [0, -1]]))
    out = bad.pop("out", None)
    args.update(bad)
    with pytest.raises(StateError, match=match):
        encode_openspiel480(args["deals"], args["dealer"], args["vulnerability"], args["history"], out=out)


def test_deal_object_round_trip_with_encoder():
    deal = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
    out = encode_openspiel480(deal.to_array()[None], [0], [0], np.full((1, 1), -1))[0]
    # North holds AKQJ of spades: OpenSpiel cards rank*4+3 for ranks 9..12
    assert all(out[428 + r * 4 + 3] == 1 for r in (9, 10, 11, 12))
    assert out[428:].sum() == 13


def test_views_state_encodes_as_the_deal_does():
    from bidlab.agents.base import BiddingView

    deals, states = random_auction_states(30, seed=31)
    states = states[::7]
    views = []
    for i, d, vul, calls in states:
        a = Auction(Seat(d), calls)
        views.append(BiddingView(a.to_act, Deal.from_array(deals[i])[a.to_act], a, Vulnerability(vul)))
    args = batch(deals, states)
    vs = views_state(views)
    assert np.array_equal(observe(vs), encode_openspiel480(*args))
    width = max(int(vs.length.max()), 1)
    own = encode_jps267(vs.deals, vs.dealer, vs.vulnerability, vs.history[:, :width])
    assert np.array_equal(own, encode_jps267(*args))
