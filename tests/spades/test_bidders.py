"""The rival bidders IO, MS, RB and their nil classifiers (Sec. 5.1, App. F)."""

from __future__ import annotations

import random

import pytest

from bidlab.cards import Hand
from bidlab.spades.bidders import BidView, IOBidder, MSBidder, RBBidder, naive_nil
from bidlab.spades.errors import TournamentError
from bidlab.spades.game import deal_hands
from bidlab.spades.registry import make_bidder
from bidlab.spades.rules import Rules


def h(pbn: str) -> int:
    return Hand.parse(pbn).mask


def view(hand: int, prev=(), seat=0, dealer=None) -> BidView:
    # Seat 0 bids after len(prev) others: dealer is chosen so that holds.
    if dealer is None:
        dealer = (seat - len(prev) - 1) % 4
    return BidView(
        seat=seat,
        hand=hand,
        dealer=dealer,
        prev_bids=tuple(prev),
        prev_blind=(False,) * len(prev),
        rules=Rules(),
    )


def test_naive_nil_paper_examples():
    # App. F.2: 2-3-J of clubs and nine diamonds: "no-nil" because of the J of clubs ...
    assert not naive_nil(h("-.-.JT98765432.J32"), None)
    # ... while 5-8-T in every suit plus the A of diamonds is classified nil.
    assert naive_nil(h("T85.T85.AT85.T85"), None)


def test_naive_nil_thresholds_spades_and_partner():
    assert naive_nil(h("532.742.9642.T53"), None)  # lowest <= 5, 2nd <= 8, 3rd <= T everywhere
    assert not naive_nil(h("532.742.9642.T76"), None)  # lowest club 6 is above 5
    assert not naive_nil(h("5432.742.964.T53"), None)  # four spades
    assert not naive_nil(h("532.742.9642.T53"), 0)  # partner bid nil


def test_naive_nil_second_lowest_limit():
    # Hearts 2 then 9: the second lowest (9) is above 8.
    assert not naive_nil(h("532.92.96542.T53"), None)
    assert naive_nil(h("532.82.96542.T53"), None)


def test_io_regular_values():
    # Spades A,T (high: 1 each), 9,2 (low: 0.4 each); hearts AK (2); clubs Kx (0.5); diamonds A (1).
    hand = h("AT92.AK3.A54.K32")
    assert IOBidder.regular(hand) == pytest.approx(2 + 0.8 + 2 + 1 + 0.5)
    assert IOBidder().bid(view(hand)) == 6  # 6.3 rounds to 6
    # A lone K is worth nothing; K with the A counts as the {AK} pair only.
    assert IOBidder.regular(h("2.K.5432.AK765432")) == pytest.approx(0.4 + 2)


def test_io_nil_needs_partner_four_or_more():
    weak = h("432.8765.8765.32")
    assert IOBidder.regular(weak) == pytest.approx(1.2)
    assert IOBidder().bid(view(weak)) == 1  # partner has not bid
    # Seat 0 bids third: partner (seat 2) bid first, 4; RHO (seat 3) bid 2.
    v = BidView(seat=0, hand=weak, dealer=1, prev_bids=(4, 2), prev_blind=(False, False), rules=Rules())
    assert v.partner_bid == 4
    assert IOBidder().bid(v) == 0
    v3 = BidView(seat=0, hand=weak, dealer=1, prev_bids=(3, 2), prev_blind=(False, False), rules=Rules())
    assert IOBidder().bid(v3) == 1
    # No nil with a king, a spade ten or four spades.
    for bad in ("432.K765.8765.32", "T32.8765.8765.32", "5432.876.8765.32"):
        vb = BidView(
            seat=0, hand=h(bad), dealer=1, prev_bids=(4, 2), prev_blind=(False, False), rules=Rules()
        )
        assert IOBidder().bid(vb) != 0, bad


def test_ms_regular_rules():
    # Aces and non-singleton kings: SA, HA, HK(x), DK(x) = 4; 4th spade +1 (A,7,6,5 -> 4 spades).
    assert MSBidder.regular(h("A765.AK2.K32.432")) == 5
    # Singleton K does not count; void spade -1.
    assert MSBidder.regular(h("-.AK2.K.T98765432")) == 2 - 1
    # Q of spades: not as singleton, not as doubleton without the ace; yes with the ace or 3+.
    assert MSBidder.regular(h("Q.AK2.8765.65432")) == 2 - 1  # singleton spade: -1, Q not counted
    assert MSBidder.regular(h("Q2.A32.8765.6543")) == 1
    assert MSBidder.regular(h("AQ.A32.8765.6543")) == 3
    assert MSBidder.regular(h("Q32.A32.8765.654")) == 2
    # Exactly three spades with a short side suit: +1 (once).
    assert MSBidder.regular(h("432.A.876.765432")) == 2


def test_rb_first_reconstruction_values_follow_suit_length():
    # A of a 5-card side suit is worth Table 1's 0.948; the A of spades 1.
    assert RBBidder.regular_v1(h("A.A5432.5432.432")) == pytest.approx(1 + 0.948)
    # K needs a second card; Q needs two more (Table 1's 0.907 / 0.489 with 2 / 3 cards).
    assert RBBidder.regular_v1(h("2.K3.Q32.65432")) == pytest.approx(0.907 + 0.489, abs=1e-9)
    # Spades: AKQJ need 1/2/3/4 cards; every spade beyond the fourth is a trick.
    assert RBBidder.regular_v1(h("KQ65432.2.2.5432")) == pytest.approx(2 + 3)


def test_bids_are_in_range_and_registry():
    rng = random.Random(5)
    for name in ("io", "ms", "rb"):
        b = make_bidder(name)
        for _ in range(300):
            hand = deal_hands(rng)[0]
            prev = tuple(rng.randint(0, 6) for _ in range(rng.randint(0, 3)))
            bid = b.bid(view(hand, prev))
            assert isinstance(bid, int) and 0 <= bid <= 13
            assert b.blind_nil(view(0, prev)) is False
    with pytest.raises(TournamentError, match="unknown bidder"):
        make_bidder("bis2")


def test_rb_measured_values_are_a_sum_over_cards():
    """RB (Sec. 5.1): a sum of per-card values that depend on the card's suit length."""
    b = RBBidder()
    side, spades = b.values
    hand = h("A65.K2.Q32.76432")
    expect = spades[12][3] + spades[4][3] + spades[3][3] + side[11][2] + side[0][2] + side[10][3]
    expect += side[1][3] + side[0][3] + sum(side[r][5] for r in (5, 4, 2, 1, 0))
    assert b.regular(hand) == pytest.approx(b.scale * expect)
    # Measured, not assumed: an ace wins more than a king of the same length, a lone side
    # king rarely wins, and long spades win more than short ones.
    assert all(side[12][n] > side[11][n] for n in range(2, 8))
    assert side[11][1] < 0.5 < side[11][2]
    assert spades[8][6] > spades[8][2]


def test_trick_winners():
    from bidlab.cards import Card
    from bidlab.spades.fit_curves import trick_winners

    c = [Card.parse(x).index for x in ("HK", "HA", "H2", "S2", "D5", "D9", "C2", "DT")]
    assert trick_winners(c) == [Card.parse("S2").index, Card.parse("DT").index]
