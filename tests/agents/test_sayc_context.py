"""What the SAYC bidder reads from the auction: ranges and lengths each call shows in SAYC."""

from __future__ import annotations

import pytest

from bidlab.agents.base import BiddingView
from bidlab.agents.sayc.context import make_context
from bidlab.agents.sayc.reading import LIMIT_RAISE_MAJOR_MIN_HCP
from bidlab.bridge import Auction, Vulnerability
from bidlab.cards import Hand

HAND = Hand.parse("AKJ74.K52.Q83.J4")


def _ctx(auction: str, dealer: str = "N"):
    a = Auction.parse(auction, dealer)
    return make_context(BiddingView(a.to_act, HAND, a, Vulnerability.NONE))


@pytest.mark.parametrize(
    "auction, rel, lo, hi, lengths",
    [
        # rel: 2 = partner of the seat to act
        ("1NT P", 2, 15, 17, {}),                       # 1NT opening 15-17
        ("1H P", 2, 12, 21, {"H": 5}),                  # five-card major
        ("1D P", 2, 12, 21, {"D": 3}),
        ("2S P", 2, 5, 11, {"S": 6}),                   # weak two
        ("3C P", 2, 4, 10, {"C": 7}),                   # three-level preempt
        ("1S P 2S P", 2, 6, 10, {"S": 3}),              # single raise, from opener's seat
        ("1S P 3S P", 2, LIMIT_RAISE_MAJOR_MIN_HCP, 12, {"S": 3}),  # limit raise: 10-12 support points
        ("1C P 1H P 1NT P", 2, 12, 14, {}),             # 1NT rebid
        ("1C P 1H P 2NT P", 2, 18, 19, {}),             # jump 2NT rebid
        ("1H P 2C P 2NT P", 2, 12, 14, {}),             # 2NT after a two-over-one is not a jump
        ("1D P 1S P 2S P", 2, 12, 15, {"S": 4}),        # opener's single raise
        ("1D P 1S P 3S P", 2, 14, 18, {"S": 4}),        # opener's jump raise: 16-18 support points, 14+ HCP
        ("1H P 1S P 3H P", 2, 16, 18, {"H": 6}),        # jump rebid of the suit
    ],
)
def test_ranges_and_lengths(auction, rel, lo, hi, lengths):
    c = _ctx(auction)
    s = c.shown[rel]
    assert (s.min_hcp, s.max_hcp) == (lo, hi)
    for suit, n in lengths.items():
        assert s.min_len["CDHS".index(suit)] >= n


@pytest.mark.parametrize(
    "auction, lo, hi, suit, n",
    [
        ("1H X P 2S P", 9, 11, "S", 4),    # jump answer to a takeout double
        ("1H X P 1S P", 0, 8, "S", 4),     # cheapest answer
        ("1H X P 2H P", 12, 37, None, 0),  # cue bid
        ("1D 1S P 2S P", 7, 10, "S", 3),   # simple raise of an overcall
        ("1D 1S P 2H P", 10, 16, "H", 5),  # new suit by advancer
        ("1H X 2H 2S P", 6, 8, "S", 4),    # free bid over their raise: not forced, a jump (3S) shows 9-11
        ("1H X 3H 3S P", 6, 11, "S", 4),   # free bid at the three level: no room to jump, so 6-11
    ],
)
def test_advancer_ranges(auction, lo, hi, suit, n):
    c = _ctx(auction, dealer="E")  # the doubler or overcaller (South) is to act
    assert (c.partner.min_hcp, c.partner.max_hcp) == (lo, hi)
    if suit is not None:
        assert c.partner.min_len["CDHS".index(suit)] >= n


def test_transfer_shows_the_next_suit_and_stayman_shows_no_clubs():
    c = _ctx("1NT P 2D P")  # opener to act: partner's 2D shows five hearts
    assert c.partner.min_len[2] >= 5 and c.partner.min_len[1] == 0
    c = _ctx("1NT P 2C P")
    assert c.partner.min_len[0] == 0 and c.partner.min_hcp >= 8


def test_blackwood_answers_show_no_suit():
    c = _ctx("1S P 2NT P 3S P 4NT P 5H P")  # responder (the asker) to act
    assert c.partner.min_len[2] == 0
    assert c.partner.min_len[3] >= 5


def test_cue_bid_shows_strength_not_length():
    c = _ctx("1D 1S P 2D P", dealer="E")  # overcaller to act after partner's cue bid
    assert c.partner.min_len[1] == 0 and c.partner.min_hcp >= 11


def test_our_side_sequence_and_interference():
    c = _ctx("1NT P 2C P")
    assert c.ours == ("1NT", "2C") and not c.contested and not c.interfered
    c = _ctx("1NT X 2C P")
    assert c.interfered and not c.contested  # a double leaves the conventions on
    c = _ctx("1NT 2H P P")
    assert c.contested


def test_passed_hand_and_position():
    c = _ctx("P P 1S P", dealer="S")  # S passed first, partner opened in third seat
    assert c.passed_hand and c.position == 1 and c.opener == 2


# -- the readers added for issue 21 (sayc/reading.py), ranges from the SAYC booklet --------------

@pytest.mark.parametrize(
    "auction, dealer, lo, hi, lengths",
    [
        ("1NT P 3D P", "N", 6, 9, {"D": 6}),          # 1NT-3m: invitational, good six-card minor
        ("1NT P 3S P", "N", 14, 17, {"S": 6}),        # 1NT-3M: six cards, slam interest
        ("1NT P 4H P", "N", 0, 9, {"H": 6}),          # weak jump to game
        ("1NT 2D 3H P", "N", 10, 37, {"H": 5}),       # systems off: a three-level suit is forcing
        ("1NT 2D 2H P", "N", 0, 9, {"H": 5}),         # systems off: a two-level suit is weak
        ("1H P 2NT P 3H P", "S", 18, 21, {}),         # Jacoby 2NT, opener's 3M: 18+
        ("1H P 2NT P 3NT P", "S", 15, 17, {}),        # Jacoby 2NT, opener's 3NT: 15-17
        ("1H P 2NT P 4C P", "S", 12, 21, {"C": 5}),   # Jacoby 2NT, a good five-card side suit
        ("1H P P 1S P", "N", 5, 16, {"S": 5}),        # a balancing overcall: a king lighter
        ("1H 1S P", "N", 8, 16, {"S": 5}),            # the same overcall in the direct seat
    ],
)
def test_issue21_readings(auction, dealer, lo, hi, lengths):
    c = _ctx(auction, dealer)
    assert (c.partner.min_hcp, c.partner.max_hcp) == (lo, hi)
    for suit, n in lengths.items():
        assert c.partner.min_len["CDHS".index(suit)] >= n


def test_two_suited_overcalls_show_both_suits():
    c = _ctx("1C 2C P", dealer="E")   # Michaels over a minor: both majors, advancer to act
    assert c.partner.min_len[2] >= 5 and c.partner.min_len[3] >= 5 and c.partner.min_len[0] == 0
    c = _ctx("1H 2NT P", dealer="E")  # unusual 2NT: both minors
    assert c.partner.min_len[0] >= 5 and c.partner.min_len[1] >= 5 and c.partner.max_hcp <= 12


def test_fourth_suit_forcing_shows_values_not_clubs():
    c = _ctx("1D P 1H P 1S P 2C P")   # opener to act
    assert c.partner.min_len[0] == 0 and c.partner.min_hcp >= 12


def test_responsive_double_shows_values_not_a_takeout_double():
    c = _ctx("1H X 2H X P")           # dealer N: the takeout doubler (E) to act
    assert c.partner.min_hcp == 8


@pytest.mark.parametrize("auction, level", [
    ("1C P 1H P 2NT P", 2), ("1H P 1NT P 2NT P", 2),
    ("1C P 1H P 3NT P", 3), ("1S P 1NT P 3NT P", 3), ("1D P 1NT P 3NT P", 3),
])
def test_opener_notrump_jump_after_one_level_response(auction, level):
    """Responder reads opener's notrump jump with the range rebids.semi_balanced_notrump_jump
    bids it on (a 3NT read 15-21 or 18-19 before let responder misjudge slam; round fifty-two)."""
    from bidlab.agents.sayc.evaluation import SEMI_BALANCED_NT_REBID_HCP

    c = _ctx(auction)  # South, the responder, is to act
    assert (c.partner.min_hcp, c.partner.max_hcp) == SEMI_BALANCED_NT_REBID_HCP[level]
