"""Alerts that are true (issue 45): a person's call is read by the SAYC reader in context.

Each example of the issue is a position from a real board; the alert must describe the hand
that made the call there (a SAYC player's hand for it), not a rebid of an own six-card suit."""

from __future__ import annotations

import re

from bidlab.bridge.auction import Auction
from bidlab.bridge.board import Vulnerability
from bidlab.bridge.calls import Call
from bidlab.cards import Hand, Suit
from bidlab.web.alert import sayc_alert


def _alert(calls: str, dealer: str, vul: str = "none"):
    a = Auction.parse(calls, dealer)
    return sayc_alert(Auction(a.dealer, a.calls[:-1]), a.calls[-1], Vulnerability.parse(vul))


def _fits(alert, hand: Hand) -> bool:
    lo, hi = alert.hcp
    need = dict(alert.lengths)
    lengths = {"♠": hand.length(Suit.SPADES), "♥": hand.length(Suit.HEARTS), "♦": hand.length(Suit.DIAMONDS),
               "♣": hand.length(Suit.CLUBS)}
    return lo <= hand.hcp <= hi and all(lengths[s] >= n for s, n in need.items())


def test_openers_competitive_three_hearts_is_not_a_six_card_invitation():
    """Board 5, seed 2030: North 1♥ (13 HCP, five hearts), East 1♠, South 2♥, West 2♠, North
    3♥. After their 2♠ the 3♥ competes for the part score; SAYC's 16–18 with six hearts is the
    uncontested re-raise, which this is not."""
    north = Hand.parse("85.JT872.AK3.AJ3")
    alert = _alert("1H 1S 2H 2S 3H", "N", "ew")
    assert "6+ ♥" not in alert.text() and ("♥", 5) in alert.lengths, alert.text()
    assert _fits(alert, north), alert.text()


def test_responders_four_hearts_with_three_hearts_is_a_raise_not_a_six_card_suit():
    """1♥ P 2♥ P 3♥ P 4♥: responder accepts the invitation with three-card support (board 331
    of the train deals, SAYC at all four seats); the alert said 6–10 HCP, 6+ ♥."""
    south = Hand.parse("QJ.762.KT63.Q942")
    alert = _alert("1H P 2H P 3H P 4H", "S")
    assert not re.search(r"[4-9]\+ ♥", alert.text()), alert.text()
    assert ("♥", 3) in alert.lengths and _fits(alert, south), alert.text()


def test_a_competitive_raise_by_responder_shows_support_not_length():
    """P P 1♥ 1♠ 2♥ 2♠ P P 3♥ (board 791): responder competes with three hearts."""
    hand = Hand.parse("K4.T94.AJT72.T87")
    alert = _alert("P P 1H 1S 2H 2S P P 3H", "S", "all")
    assert "6+ ♥" not in alert.text() and _fits(alert, hand), alert.text()


def test_after_michaels_a_bid_of_one_of_the_two_suits_shows_five_not_six():
    """1♦ 2♦ (Michaels: both majors, 5–5) P 2♥ P 4♠: the Michaels bidder picks spades for game;
    the spades were shown already, five of them, not six."""
    hand = Hand.parse("AQJ95.KQT84.3.42")
    alert = _alert("1D 2D P 2H P 4S", "N")
    assert "6+ ♠" not in alert.text() and ("♠", 5) in alert.lengths and ("♥", 5) in alert.lengths, alert.text()
    assert _fits(alert, hand), alert.text()


def test_a_real_rebid_of_an_own_suit_still_shows_six():
    """The fix is for suits partner agreed or a two-suited bid showed: 1♥ P 1♠ P 2♥ still shows six."""
    alert = _alert("1H P 1S P 2H", "N")
    assert ("♥", 6) in alert.lengths, alert.text()
    assert alert.call == Call.parse("2H")
