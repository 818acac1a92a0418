"""Hand evaluation helpers of the SAYC bidder, checked against independent counts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidlab.agents.sayc.hand import features, is_stopper, quick_tricks
from bidlab.cards import Deal, Hand

_HONOUR = {"A": 4, "K": 3, "Q": 2, "J": 1}


def _pbn_counts(hand: Hand):
    """HCP and lengths (C, D, H, S) recounted from the PBN text, not from the mask."""
    spades, hearts, diamonds, clubs = hand.to_pbn().split(".")
    hcp = sum(_HONOUR.get(ch, 0) for ch in spades + hearts + diamonds + clubs)
    return hcp, (len(clubs), len(diamonds), len(hearts), len(spades))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_features_agree_with_independent_counts(seed):
    deal = Deal.random(seed)
    for hand in deal.hands:
        f = features(hand)
        hcp, lengths = _pbn_counts(hand)
        assert f.hcp == hcp == hand.hcp
        assert f.lengths == lengths == hand.lengths
        assert f.balanced == hand.is_balanced
        assert f.shape == hand.shape
        assert f.length_points == sum(max(0, n - 4) for n in lengths)
        assert f.total_points == hcp + f.length_points
        assert f.aces == sum(1 for c in hand if c.rank.char == "A")
        assert f.kings == sum(1 for c in hand if c.rank.char == "K")
        assert f.lengths[f.longest] == max(lengths)


def test_hcp_of_all_deals_sum_to_40():
    rng = np.random.default_rng(3)
    for _ in range(200):
        deal = Deal.random(rng)
        assert sum(features(h).hcp for h in deal.hands) == 40


@pytest.mark.parametrize(
    "holding, stopped",
    [("A", True), ("Kx", True), ("K", False), ("Qxx", True), ("Qx", False), ("Jxxx", True),
     ("Jxx", False), ("xxxx", False), ("", False), ("KQ", True)],
)
def test_notrump_stoppers(holding, stopped):
    ranks = {"A": 12, "K": 11, "Q": 10, "J": 9}
    mask, low = 0, 0
    for ch in holding:
        if ch == "x":
            mask |= 1 << low
            low += 1
        else:
            mask |= 1 << ranks[ch]
    assert is_stopper(mask) is stopped


@pytest.mark.parametrize("holding, qt", [(("A", "K"), 2.0), (("A", "Q"), 1.5), (("A",), 1.0),
                                         (("K", "Q"), 1.0), (("K", "x"), 0.5), (("Q", "J"), 0.0)])
def test_quick_tricks(holding, qt):
    ranks = {"A": 12, "K": 11, "Q": 10, "J": 9, "x": 0}
    mask = 0
    for ch in holding:
        mask |= 1 << ranks[ch]
    assert quick_tricks(mask) == qt


def test_support_points_count_shortness_with_trump_support():
    # 4 trumps: void 5, singleton 3, doubleton 1
    f = features(Hand.parse("K852.Q9764.-.J53"))  # spades 4, hearts 5, void diamonds
    assert f.support_points(3) == f.hcp + 5
    f = features(Hand.parse("K85.Q976.4.J9532"))  # 3 spades, singleton diamond: 3-card table
    assert f.support_points(3) == f.hcp + 2
    assert f.support_points(1) == f.hcp  # one diamond is no support


def test_rule_of_20_and_good_suit():
    f = features(Hand.parse("AQ984.KJ973.J5.4"))
    assert f.hcp == 11 and f.rule_of_20()
    assert f.good_suit(3) and not f.good_suit(1)
    assert not features(Hand.parse("KJ4.Q84.A753.J62")).rule_of_20()


def test_features_accept_a_mask_and_cache():
    h = Hand.parse("AKJ74.K52.Q83.J4")
    assert features(h) is features(h.mask)


@pytest.mark.parametrize(
    "hand, major",
    [
        ("AQ743.5.A.KJ8652", 3),       # five spades, six clubs: spades first
        ("8.KQJ74.AQ9862.4", 2),       # five hearts, six diamonds: hearts first
        ("AK954.KQJ863.4.7", None),    # 6-5 in the majors: the longer suit, as the booklet says
        ("AQ743.5..KJ86532", None),    # seven clubs: not 6-5
        ("5.4.KQJ74.AQ9862", None),    # 6-5 in the minors: no major to show
        ("AQ74.53.A2.KJ865", None),    # 4-2-2-5: no six-card suit
    ],
)
def test_major_before_six_card_minor(hand, major):
    """Issue 27 round thirty-three's 6-5 judgement: only 6-5 with the six cards in a minor and
    the five in a major opens the major (expected suits read off the hands by hand)."""
    from bidlab.agents.sayc.openings import _major_before_six_card_minor

    assert _major_before_six_card_minor(features(Hand.parse(hand))) == major
